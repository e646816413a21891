// Loader fixture: a seed that is not UTF-8 (a sequence cut short).
#define FIXTURE_SEED "caf\xc3"
#include "descriptor.h"
