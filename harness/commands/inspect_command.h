// `wavebench inspect`: the AMD static figures of hipcc-built .so files, with occupancy, as a table
// or JSON; and the resource baseline the regression test compares against.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace wb {

struct inspect_options {
    std::vector<std::string> files;       // empty: every plugin of the amd platform
    std::vector<std::string> plugin_dirs; // --plugins
    std::vector<std::string> targets;     // empty: all
    bool json = false;
    int block_size = 0;            // for kernels no plugin declares (0: max flat workgroup size)
    std::string compare;           // a baseline to compare with
    std::string write_baseline;    // where to write the baseline
    bool isa = false;              // also each kernel's instruction mix (disassembly)
    std::vector<std::string> pair; // two plugins ("family/variant"): their mixes side by side
};

/// Returns the exit status: 0, 1 (regressions against the baseline), 2 (a file, or a bundle entry
/// of one, could not be read or failed the reader's checks: each is an error naming the file, the
/// entry and the field; the rest is still reported). Throws std::invalid_argument for bad
/// arguments or a baseline that is not one, and file_error for a --write-baseline over an input.
int inspect_command(const inspect_options& o, std::ostream& out, std::ostream& err);

} // namespace wb
