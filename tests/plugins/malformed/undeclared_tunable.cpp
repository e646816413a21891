// Loader fixture: a kernel whose block size is a tunable the plugin does not declare.
#include "wavebench/plugin_abi.h"

static const wb_kernel k[1] = {{"reduce_k", nullptr, "block", 0, 0, nullptr, 0}};
#define FIXTURE_KERNELS k, 1
#include "descriptor.h"
