// Who measures a configuration: this process (with --in-process, and inside a worker), or a
// worker process the harness supervises (worker/worker.h) so that a plugin that crashes or hangs costs
// only its own result.
#pragma once

#include "harness/measure/inputs.h"
#include "harness/measure/result.h"
#include "harness/plan/plan.h"
#include "harness/plan/settings.h"

#include <nlohmann/json.hpp>

#include <memory>
#include <vector>

namespace wb {

class executor {
public:
    virtual ~executor() = default;
    /// Measures `c`; what goes wrong is the result's status, message and stage.
    virtual result measure(const config& c, const run_settings& s) = 0;
    /// How the configurations ran, for the results JSON's "isolation".
    virtual nlohmann::json describe() const = 0;
};

/// Measures in this process, with plugins loaded here. Keeps the inputs of one group (the
/// configurations with the same family parameters) at a time.
class local_executor : public executor {
public:
    explicit local_executor(std::shared_ptr<platform> p) : platform_(std::move(p)) {}
    result measure(const config& c, const run_settings& s) override;
    nlohmann::json describe() const override { return {{"mode", "in-process"}}; }

private:
    std::shared_ptr<platform> platform_;
    std::unique_ptr<group_inputs> inputs_;
    size_t group_ = size_t(-1);
};

/// How the configurations run, for the results JSON: one executor's description, or the first's
/// with every device's.
inline nlohmann::json describe(const std::vector<std::unique_ptr<executor>>& execs)
{
    if (execs.size() == 1) return execs[0]->describe();
    nlohmann::json d = execs[0]->describe();
    d["per_device"] = nlohmann::json::array();
    for (auto& e : execs) d["per_device"].push_back(e->describe());
    return d;
}

} // namespace wb
