// Loader fixture: a variant name with a control character in it (BEL).
#define FIXTURE_VARIANT "ab\ac"
#include "descriptor.h"
