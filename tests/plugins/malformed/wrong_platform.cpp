// Loader fixture: wrong_platform.
#define FIXTURE_PLATFORM "nvidia"
#include "descriptor.h"
