// What every command starts from: the platform it asks for (or the best one with a device), that
// platform's plugins, and the line that names the device (commands.h).
#include "harness/commands.h"

#include <iostream>

namespace wb {

std::shared_ptr<platform> open_platform(const platform_options& o)
{
    if (o.name != auto_platform) {
        auto p = platform::load(o.name);
        p->init(o.device, o.warp_size);
        return p;
    }
    std::string why;
    bool only_devices_missing = true;
    for (const platform_kind kind : platform::built()) {
        const std::string name = to_string(kind);
        try {
            auto p = platform::load(kind);
            p->init(o.device, p->kind() == platform_kind::cpu ? o.warp_size : 0);
            return p;
        } catch (const no_device& e) {
            why += "\n  " + name + ": " + e.what();
        } catch (const platform_unavailable& e) {
            why += "\n  " + name + ": " + e.what();
            only_devices_missing = false;
        }
    }
    if (only_devices_missing && !why.empty()) throw no_device("no platform has the device asked for:" + why);
    throw platform_unavailable("no platform could be started:" + why);
}

std::vector<std::filesystem::path> find_plugin_files(plugin_registry& reg, const std::vector<std::string>& dirs)
{
    std::vector<std::filesystem::path> files;
    for (const auto& d : plugin_directories(to_string(reg.platform()), dirs))
        for (auto& f : plugin_files(d, reg)) files.push_back(std::move(f));
    return files;
}

void warn_rejections(const plugin_registry& reg)
{
    for (const auto& r : reg.rejections()) std::cerr << "warning: plugin " << shown(r.path.string(), 400) << " " << r.reason << "\n";
}

std::string device_line(const platform& p)
{
    const auto& d = p.device();
    const char* units = p.kind() == platform_kind::cpu ? " workers" : " multiprocessors";
    return p.name() + ": " + d.name + " (" + d.arch + ", " + std::to_string(d.multiprocessors) + units + ", warp " +
           std::to_string(d.warp_size) + ")";
}

} // namespace wb
