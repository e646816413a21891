// `wavebench worker`: what the harness starts to load and run plugins (worker/worker.h); not for
// users, so it has no help text and --help does not list it.
#include "harness/commands/commands.h"
#include "harness/worker/worker.h"

namespace wb {

void add_worker_command(CLI::App& app, command_list& commands)
{
    auto po = std::make_shared<platform_options>();
    auto* cmd = app.add_subcommand("worker", "");
    cmd->group("");
    cmd->add_option("--platform", po->name)->required();
    cmd->add_option("--device", po->device);
    cmd->add_option("--warp-size", po->warp_size);
    commands.push_back({cmd, [po] { return worker_main(*po); }});
}

} // namespace wb
