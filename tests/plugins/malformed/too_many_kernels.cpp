// Loader fixture: a kernel count (n_kernels) far beyond its table, and any plugin's.
#include "wavebench/plugin_abi.h"

static const wb_kernel one[1] = {{"k", nullptr, nullptr, 64, 0, nullptr, 0}};
#define FIXTURE_KERNELS one, 100000
#include "descriptor.h"
