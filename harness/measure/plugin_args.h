// The arguments a plugin's functions get (wb_args) for one configuration, and the storage they
// point into: its parameters, the group's input and output buffers (measure/measure.cpp).
#pragma once

#include "harness/measure/inputs.h"
#include "harness/plan/plan.h"

#include <string>
#include <variant>
#include <vector>

namespace wb {

/// The arguments the plugin's functions get (wb_args), and the storage they point into.
struct plugin_args {
    plugin_args(const config& c, group_inputs& g, void* stream) : g(g), in(g.data.front().inputs.size())
    {
        // The parameters as the plugin sees them: family parameters, then tunables.
        for (const auto* m : {&c.family_params, &c.tunables})
            for (const auto& [k, v] : *m) {
                wb_param p{k.c_str(), WB_INT, 0, 0, nullptr};
                if (auto i = std::get_if<int64_t>(&v))
                    p.i = *i;
                else if (auto f = std::get_if<double>(&v))
                    p = {k.c_str(), WB_REAL, 0, *f, nullptr};
                else
                    p = {k.c_str(), WB_STRING, 0, 0, std::get<std::string>(v).c_str()};
                params.push_back(p);
            }
        for (auto& b : g.outputs) out.push_back(b.get());
        for (auto& b : g.actual) host_out.push_back(b.bytes.data());
        args.size = sizeof(wb_args);
        args.stream = stream;
        args.params = params.data();
        args.n_params = uint32_t(params.size());
        args.in = in.data();
        args.n_in = uint32_t(in.size());
        args.out = out.data();
        args.host_out = host_out.data();
        args.n_out = uint32_t(out.size());
        args.message = message;
        args.message_size = sizeof message;
        args.note = note;
        args.note_size = sizeof note;
        use_inputs(0);
    }
    plugin_args(const plugin_args&) = delete;
    plugin_args& operator=(const plugin_args&) = delete;

    /// Points the plugin at input copy `set`.
    void use_inputs(size_t set)
    {
        for (size_t i = 0; i < in.size(); ++i) in[i] = g.input_sets[set][i].get();
    }

    group_inputs& g;
    std::vector<wb_param> params;
    std::vector<const void*> in;
    std::vector<void*> out, host_out;
    char message[2048] = "", note[512] = "";
    wb_args args{};
};

} // namespace wb
