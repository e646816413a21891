// Loader fixture: incomplete.
#define FIXTURE_RUN nullptr
#include "descriptor.h"
