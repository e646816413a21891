// Loader fixture: wrong_abi_version.
#define FIXTURE_ABI 99u
#include "descriptor.h"
