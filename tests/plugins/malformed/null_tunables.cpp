// Loader fixture: tunables counted (n_tunables) but no table of them.
#define FIXTURE_TUNABLES nullptr, 3
#include "descriptor.h"
