// Loader fixture: a platform name that is not printable (it is quoted in the refusal).
#define FIXTURE_PLATFORM "cp\x1b[2Ju"
#include "descriptor.h"
