// Loader fixture: unknown_family.
#define FIXTURE_FAMILY "sort"
#include "descriptor.h"
