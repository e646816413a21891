// The console of `wavebench run`: the table of results in its four formats, and the progress line
// (report/console.h).
#include "harness/report/console.h"

#include "harness/common/json.h"
#include "reference/reference.h"

#include <nlohmann/json.hpp>

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <ostream>

namespace wb {

namespace {

/// Characters on the screen: UTF-8 continuation bytes take none ("±" is one).
size_t width_of(std::string_view s)
{
    return size_t(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string pad(const std::string& s, size_t width, bool left)
{
    const std::string fill(width > width_of(s) ? width - width_of(s) : 0, ' ');
    return left ? s + fill : fill + s;
}

std::string printed(const char* format, double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

/// Four significant digits, fewer for 10000 and over: "1.234", "12.34", "123.4", "1234", "12345".
std::string digits4(double v)
{
    return printed(v < 9.9995 ? "%.3f" : v < 99.995 ? "%.2f" : v < 999.95 ? "%.1f" : "%.0f", v);
}

/// "9.999 us", "123.4 ms", "1.234 s": 8 characters below 100000 s.
std::string time_text(double ms)
{
    return ms < 0.99995 ? digits4(ms * 1e3) + " us" : ms < 999.95 ? digits4(ms) + " ms" : digits4(ms / 1e3) + " s";
}

/// "1.23x", "45.6x", "789x": 5 characters below 10000.
std::string speedup_text(double x) { return printed(x < 9.995 ? "%.2fx" : x < 99.95 ? "%.1fx" : "%.0fx", x); }

/// A number as JSON would write it: the shortest text that reads back the same.
std::string number_text(double v)
{
    char buf[64];
    return std::string(buf, std::to_chars(buf, buf + sizeof buf, v).ptr);
}

/// The first kernel's registers ("32", "32+" where there are more kernels) and occupancy
/// ("48/64 regs": resident over the most, and with `limiter` what limits it), or "-".
std::pair<std::string, std::string> resources_text(const result& r, bool limiter)
{
    if (r.kernels.empty()) return {"-", "-"};
    const kernel_report& k = r.kernels.front();
    std::string regs = k.resources.registers >= 0 ? std::to_string(k.resources.registers) : "-";
    if (r.kernels.size() > 1) regs += "+";
    std::string occ = "-";
    if (k.occ) {
        const std::string& l = k.occ->limiter;
        const char* why = l == "registers"         ? " regs"
                          : l == "shared memory"   ? " smem"
                          : l == "block slots"     ? " slots"
                          : l == "warps"           ? " warps"
                          : l == "waves"           ? " waves"
                          : l == "VGPRs"           ? " vgprs"
                          : l == "SGPRs"           ? " sgprs"
                          : l == "LDS"             ? " lds"
                          : l == "workgroup slots" ? " slots"
                                                   : "";
        char buf[64];
        std::snprintf(buf, sizeof buf, "%g/%g%s", k.occ->value, k.occ->max, limiter ? why : "");
        occ = buf;
    }
    return {regs, occ};
}

/// "ok", "ok (noisy)", or the status.
std::string check_text(const result& r)
{
    return r.st == status::verified ? (r.noisy ? "ok (noisy)" : "ok") : to_string(r.st);
}

/// `first` and then the words, joined by spaces into lines of at most `width` characters where
/// the words allow; the lines after the first indented by two.
std::string wrapped(std::string line, const std::vector<std::string>& words, size_t width)
{
    std::string text;
    for (const auto& w : words) {
        if (line.size() > 2 && width_of(line) + 1 + width_of(w) > width) {
            text += line + "\n";
            line = " ";
        }
        line += " " + w;
    }
    return text + line;
}

std::string csv_field(const std::string& s)
{
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? "\"\"" : std::string(1, c);
    return q + "\"";
}

std::string markdown_cell(const std::string& s)
{
    std::string out;
    for (char c : s) out += c == '|' ? "\\|" : c == '\n' || c == '\r' ? " " : std::string(1, c);
    return out;
}

/// A result's row for csv and json, the parameters aside: numbers as they are (ms, fractions).
nlohmann::ordered_json row_json(const result& r)
{
    const bool measured = r.time_ms.samples > 0, verified = r.st == status::verified;
    const family* f = find_family(r.family);
    const kernel_report* k = r.kernels.empty() ? nullptr : &r.kernels.front();
    const bool occ = k && k->occ;
    return {
        {"status", to_string(r.st)},
        {"device", r.device_index},
        {"time_ms", measured ? nlohmann::ordered_json(r.time_ms.median) : nullptr},
        {"rel_stddev", measured ? nlohmann::ordered_json(r.time_ms.rel_stddev) : nullptr},
        {"wall_ms", measured ? nlohmann::ordered_json(r.wall_ms.median) : nullptr},
        {"metric", verified ? nlohmann::ordered_json(r.metric_value) : nullptr},
        {"metric_unit", f ? f->metric.unit : ""},
        {"fraction_of_ceiling", or_null<nlohmann::ordered_json>(r.fraction_of_ceiling)},
        {"speedup_vs_baseline", or_null<nlohmann::ordered_json>(r.speedup_vs_baseline)},
        {"model_speedup", or_null<nlohmann::ordered_json>(r.model_speedup)},
        {"model_issue_speedup", or_null<nlohmann::ordered_json>(r.model_issue_speedup)},
        {"speedup_vs_library", or_null<nlohmann::ordered_json>(r.speedup_vs_library)},
        {"registers", k && k->resources.registers >= 0 ? nlohmann::ordered_json(k->resources.registers) : nullptr},
        {"occupancy", occ ? nlohmann::ordered_json(k->occ->value) : nullptr},
        {"occupancy_max", occ ? nlohmann::ordered_json(k->occ->max) : nullptr},
        {"simt_efficiency", r.counters ? or_null<nlohmann::ordered_json>(overall_simt(*r.counters)) : nullptr},
        {"model_simt_efficiency", or_null<nlohmann::ordered_json>(r.model_simt)},
        {"achieved_occupancy", r.counters ? or_null<nlohmann::ordered_json>(overall_occupancy(*r.counters)) : nullptr},
        {"message", verified ? nlohmann::ordered_json() : nlohmann::ordered_json(r.message)}};
}

/// A json value as a csv field: numbers as they are, null empty.
std::string csv_cell(const nlohmann::ordered_json& v)
{
    if (v.is_null()) return "";
    if (v.is_number_float()) return number_text(v.get<double>());
    return v.is_string() ? csv_field(v.get<std::string>()) : v.dump();
}

std::string markdown_line(const std::vector<std::string>& cells)
{
    std::string s = "|";
    for (const auto& c : cells) s.append(" ").append(markdown_cell(c)).append(" |");
    return s;
}

const value* param_of(const result& r, const std::string& name)
{
    for (const auto* m : {&r.family_params, &r.tunables})
        if (auto it = m->find(name); it != m->end()) return &it->second;
    return nullptr;
}

} // namespace

struct console_table::layout {
    struct column {
        std::string head;
        size_t width;
        bool left;  // aligned left (text), else right (numbers)
        size_t gap; // spaces before it
    };
    const family* fam = nullptr;
    std::vector<std::string> params;    // the parameters shown as columns
    std::vector<std::string> constants; // those with one value in the table, "name=value"
    bool ceil = false, base = false, model = false, model_issue = false, lib = false;
    bool limiter = true;         // the occupancy says what limits it
    bool device = false;         // a run on several devices: the device of each row
    bool counters = false;       // --counters: measured SIMT efficiency and occupancy
    std::vector<column> columns; // variant, the parameters, then the figures

    /// Of configurations [first, last) of one family.
    layout(const std::vector<config>& planned, size_t first, size_t last, const ceilings& known, bool device,
           bool counters);
    /// The widest a row can be.
    size_t width() const
    {
        size_t w = 0;
        for (const auto& c : columns) w += c.gap + c.width;
        return w;
    }
    /// A row's cells, one per column (no padding).
    std::vector<std::string> cells(const result& r) const;
    /// Cells padded to their columns, without trailing spaces.
    std::string line(const std::vector<std::string>& cells) const;

private:
    void fit(const std::vector<size_t>& values_w);
};

console_table::layout::layout(const std::vector<config>& planned, size_t first, size_t last, const ceilings& known,
                              bool several_devices, bool counted)
    : fam(planned[first].plug->fam), device(several_devices), counters(counted)
{
    // The parameters in the family's order, then the tunables in the plugins' order; each with
    // its first value, whether it has others, and the widest (of the configurations that have it:
    // a tunable of some variants only).
    struct param {
        std::string name, first;
        bool varies = false, number = true;
        size_t width = 0;
    };
    std::vector<param> found;
    auto note = [&](const std::string& name, const value& v) {
        const std::string text = to_string(v);
        auto it = std::find_if(found.begin(), found.end(), [&](const param& p) { return p.name == name; });
        if (it == found.end()) it = found.insert(found.end(), {name, text});
        it->varies = it->varies || text != it->first;
        it->number = it->number && !std::holds_alternative<std::string>(v);
        it->width = std::max(it->width, width_of(text));
    };
    size_t variant_w = width_of("variant");
    for (size_t i = first; i < last; ++i) {
        const config& c = planned[i];
        for (const auto& p : fam->params)
            if (auto it = c.family_params.find(p.name); it != c.family_params.end()) note(p.name, it->second);
        for (const auto& t : c.plug->tunables)
            if (auto it = c.tunables.find(t.name); it != c.tunables.end()) note(t.name, it->second);
        variant_w = std::max(variant_w, width_of(c.plug->variant));
        base = base || (!fam->baseline.empty() && c.plug->variant == fam->baseline);
        lib = lib || (!fam->library.empty() && c.plug->variant == fam->library && c.skip.empty());
    }
    const auto it = known.find(fam->metric.ceiling);
    ceil = !fam->metric.ceiling.empty() && it != known.end() && it->second.value > 0;
    model = reference_of(*fam).model != nullptr;
    model_issue = reference_of(*fam).model_issue != nullptr;

    columns.push_back({"variant", variant_w, true, 0});
    std::vector<size_t> values_w; // of each parameter column
    for (const auto& p : found) {
        if (!p.varies) {
            constants.push_back(p.name + "=" + p.first);
            continue;
        }
        params.push_back(p.name);
        values_w.push_back(p.width);
        columns.push_back({p.name, std::max(p.width, width_of(p.name)), !p.number, params.size() == 1 ? 2u : 1u});
    }
    // The figures, each as wide as its widest value (time_text, a relative stddev below 10000%,
    // digits4 below 10^6, speedup_text, registers below 1000 and more kernels, "64/64 warps") or its head.
    if (device) columns.push_back({"dev", 3, false, 2});
    columns.push_back({"time", 8, false, device ? 1u : 2u});
    columns.push_back({"±", 5, false, 1});
    columns.push_back({fam->metric.unit, std::max<size_t>(6, width_of(fam->metric.unit)), false, 1});
    if (ceil) columns.push_back({"%ceil", 5, false, 1});
    if (base) columns.push_back({"x base", 6, false, 1});
    if (model) columns.push_back({"model", 5, false, 1});
    if (model_issue) columns.push_back({"issue", 5, false, 1});
    if (lib) columns.push_back({"x lib", 5, false, 1});
    columns.push_back({"regs", 4, false, 1});
    columns.push_back({"occupancy", 11, true, 1});
    if (counters) columns.push_back({"simt", 4, false, 1}), columns.push_back({"occ", 4, false, 1});
    columns.push_back({"check", 10, true, 1});
    fit(values_w);
}

void console_table::layout::fit(const std::vector<size_t>& values_w)
{
    // Where the table would be too wide: heads of parameters wider than their values cut at their
    // first '_' ("block_size": "block"), then the second model's column, then the occupancy
    // without its limiter ("48/64").
    for (size_t i = 0; i < params.size() && width() > console_width; ++i) {
        column& c = columns[1 + i];
        const std::string cut = c.head.substr(0, c.head.find('_', 1));
        const bool unique =
            std::none_of(columns.begin(), columns.end(), [&](const column& o) { return o.head == cut; });
        if (cut.size() < c.head.size() && unique) {
            c.head = cut;
            c.width = std::max(values_w[i], width_of(cut));
        }
    }
    if (width() > console_width && model_issue) { // then the second model's column (it is in the JSON)
        columns.erase(std::find_if(columns.begin(), columns.end(), [](const column& c) { return c.head == "issue"; }));
        model_issue = false;
    }
    if (width() > console_width) {
        limiter = false;
        columns[columns.size() - (counters ? 4 : 2)].width = width_of("occupancy");
    }
}

std::vector<std::string> console_table::layout::cells(const result& r) const
{
    std::vector<std::string> c{r.variant};
    for (const auto& name : params) {
        const value* v = param_of(r, name);
        c.push_back(v ? to_string(*v) : "-");
    }
    if (device) c.push_back(std::to_string(r.device_index));
    const bool measured = r.time_ms.samples > 0;
    c.push_back(measured ? time_text(r.time_ms.median) : "-");
    const double rsd = 100 * r.time_ms.rel_stddev;
    c.push_back(!measured ? "" : printed(rsd < 99.95 ? "%.1f%%" : "%.0f%%", rsd));
    c.push_back(r.st == status::verified ? digits4(r.metric_value) : "-");
    auto opt = [&](const std::optional<double>& v, auto text) { c.push_back(v ? text(*v) : "-"); };
    if (ceil) opt(r.fraction_of_ceiling, [](double f) { return printed("%.0f%%", 100 * f); });
    if (base) opt(r.speedup_vs_baseline, speedup_text);
    if (model) opt(r.model_speedup, speedup_text);
    if (model_issue) opt(r.model_issue_speedup, speedup_text);
    if (lib) opt(r.speedup_vs_library, speedup_text);
    const auto [regs, occ] = resources_text(r, limiter);
    c.push_back(regs);
    c.push_back(occ);
    if (counters) {
        const auto percent = [](double f) { return printed("%.0f%%", 100 * f); };
        opt(r.counters ? overall_simt(*r.counters) : std::nullopt, percent);
        opt(r.counters ? overall_occupancy(*r.counters) : std::nullopt, percent);
    }
    c.push_back(check_text(r));
    return c;
}

std::string console_table::layout::line(const std::vector<std::string>& cells) const
{
    std::string s;
    for (size_t i = 0; i < cells.size(); ++i)
        s += std::string(columns[i].gap, ' ') + pad(cells[i], columns[i].width, columns[i].left);
    return s.erase(s.find_last_not_of(' ') + 1);
}

console_table::console_table(std::ostream& os, const std::vector<config>& planned, table_format f,
                             const ceilings& known, size_t devices, bool counters)
    : os_(os), format_(f), table_of_(planned.size())
{
    // Each benchmark's configurations, joined with the next benchmark's where that is the same
    // family and the joined table still fits.
    for (size_t first = 0; first < planned.size();) {
        auto end_of = [&](size_t i) {
            const size_t b = planned[i].benchmark;
            while (i < planned.size() && planned[i].benchmark == b) ++i;
            return i;
        };
        size_t last = end_of(first);
        while (last < planned.size() && planned[last].plug->fam == planned[first].plug->fam &&
               layout(planned, first, end_of(last), known, devices > 1, counters).width() <= console_width)
            last = end_of(last);
        std::fill(table_of_.begin() + long(first), table_of_.begin() + long(last), tables_.size());
        tables_.emplace_back(planned, first, last, known, devices > 1, counters);
        first = last;
    }
    if (format_ != table_format::csv) return;
    // csv: one header, the union of every table's columns, every parameter included.
    auto add = [&](const std::string& name) {
        if (std::find(csv_params_.begin(), csv_params_.end(), name) == csv_params_.end()) csv_params_.push_back(name);
    };
    for (const auto& c : planned) {
        for (const auto& p : c.plug->fam->params) add(p.name);
        for (const auto& t : c.plug->tunables) add(t.name);
    }
    const nlohmann::ordered_json figures = row_json(result{});
    std::string header = "family,variant";
    for (const auto& p : csv_params_) header += "," + csv_field(p);
    for (const auto& [k, _] : figures.items()) header += "," + k;
    os_ << header << "\n";
}

console_table::~console_table() = default;

void console_table::row(size_t index, const result& r)
{
    const size_t t = table_of_.at(index);
    const bool first_row = t != current_;
    current_ = t;
    if (first_row && (format_ == table_format::table || format_ == table_format::markdown))
        os_ << (index > 0 ? "\n" : "") << heading(tables_[t]);
    switch (format_) {
    case table_format::table:
        os_ << tables_[t].line(tables_[t].cells(r)) << "\n";
        if (r.st != status::verified) os_ << "    " << to_string(r.st) << ": " << r.message << "\n";
        if (const std::string t = telemetry_line(r.telemetry); !t.empty()) os_ << "    " << t << "\n";
        if (const std::string t = r.counters ? counters_line(*r.counters, r.model_simt) : ""; !t.empty())
            os_ << "    " << t << "\n";
        break;
    case table_format::markdown: {
        std::vector<std::string> cells = tables_[t].cells(r);
        if (r.st != status::verified) cells.back() += ": " + r.message;
        os_ << markdown_line(cells) << "\n";
        break;
    }
    case table_format::csv: {
        std::string line = csv_field(r.family) + "," + csv_field(r.variant);
        for (const auto& p : csv_params_) {
            const value* v = param_of(r, p);
            line += "," + (v ? csv_cell(value_json<nlohmann::ordered_json>(*v)) : "");
        }
        const nlohmann::ordered_json figures = row_json(r);
        for (const auto& [_, v] : figures.items()) line += "," + csv_cell(v);
        os_ << line << "\n";
        break;
    }
    case table_format::json: {
        nlohmann::ordered_json j{{"family", r.family},
                                 {"variant", r.variant},
                                 {"params", params_json<nlohmann::ordered_json>(r.family_params, r.tunables)}};
        j.update(row_json(r));
        os_ << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        break;
    }
    }
    os_.flush();
}

std::string console_table::heading(const layout& l) const
{
    std::vector<std::string> heads;
    for (const auto& c : l.columns) heads.push_back(c.head);
    if (format_ == table_format::markdown) {
        std::string text = "**" + l.fam->name + "**";
        for (size_t i = 0; i < l.constants.size(); ++i) text += (i ? " " : ": ") + l.constants[i];
        std::vector<std::string> rule;
        for (const auto& c : l.columns) rule.push_back(c.left ? ":--" : "--:");
        return markdown_cell(text) + "\n\n" + markdown_line(heads) + "\n" + markdown_line(rule) + "\n";
    }
    return wrapped(l.fam->name + ":", l.constants, console_width) + "\n" + l.line(heads) + "\n" +
           std::string(l.width(), '-') + "\n";
}

} // namespace wb
