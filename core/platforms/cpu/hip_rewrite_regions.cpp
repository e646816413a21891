// wavebench-hip-rewrite's region marks (hip_rewrite_regions.h). A function reaches a collective if
// its body names one (__shfl_xor, __ballot_sync, a tile's shfl, ...) or names a function that does,
// by name (overloads and methods of one name count as one: more marks, never fewer). In those
// functions:
//   function body  { ...            -> { ::hip_cpu_region F(id); ...
//   if             if (c) A else B  -> { ::hip_cpu_region R(id); if (c) { R.enter_arm(1); A } else
//                                      { R.enter_arm(2); B } }
//   loop           for (h) B        -> { ::hip_cpu_region R(id); for (h) { ::hip_cpu_region I(id2); B } }
//                  (while, do ... while and range-for alike; I only where B can reach a collective)
//   switch         switch (c) B     -> { ::hip_cpu_region R(id); switch (c) B }, with
//                                      `R.enter_arm(k);` after each of its case and default labels
// and lambdas' bodies as function bodies. Statements that reach no collective are left alone.
// Everything is inserted on the lines it belongs to: line numbers do not move.
#include "hip_rewrite_regions.h"

#include <algorithm>
#include <set>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace hip_rewrite {
namespace {

/// The names that are collectives (HIP's, CUDA's _sync forms, cooperative groups' members and
/// functions): seeds of "reaches a collective".
const std::unordered_set<std::string_view>& seeds()
{
    static const std::unordered_set<std::string_view> s = {"__ballot",
                                                           "__any",
                                                           "__all",
                                                           "__activemask",
                                                           "__syncwarp",
                                                           "__shfl",
                                                           "__shfl_up",
                                                           "__shfl_down",
                                                           "__shfl_xor",
                                                           "__ballot_sync",
                                                           "__any_sync",
                                                           "__all_sync",
                                                           "__shfl_sync",
                                                           "__shfl_up_sync",
                                                           "__shfl_down_sync",
                                                           "__shfl_xor_sync",
                                                           "__match_any",
                                                           "__match_all",
                                                           "__match_any_sync",
                                                           "__match_all_sync",
                                                           "__reduce_add_sync",
                                                           "__reduce_min_sync",
                                                           "__reduce_max_sync",
                                                           "__reduce_and_sync",
                                                           "__reduce_or_sync",
                                                           "__reduce_xor_sync",
                                                           "hip_cpu_collective",
                                                           "hip_cpu_collective_masked",
                                                           "coalesced_threads",
                                                           "tiled_partition",
                                                           "shfl",
                                                           "shfl_up",
                                                           "shfl_down",
                                                           "shfl_xor",
                                                           "ballot",
                                                           "any",
                                                           "all",
                                                           "match_any",
                                                           "match_all",
                                                           "sync",
                                                           "reduce",
                                                           "inclusive_scan",
                                                           "exclusive_scan"};
    return s;
}

struct Unreadable {
    size_t at;
};

class Marker {
public:
    Marker(const Src& S, const Toks& T, bool preprocessed) : S(S), T(T), pre(preprocessed) {}

    std::vector<Insert> run(std::vector<std::pair<size_t, std::string>>& notes)
    {
        match_brackets();
        mark_foreign();
        find_functions();
        find_reaching();
        for (const Function& f : fns) {
            if (!f.reaching || f.constant) continue;
            const size_t before = out.size();
            try {
                labels.clear(), gotos.clear();
                function_body(f.open, 0);
                check_gotos();
            } catch (const Unreadable&) {
                out.resize(before);
                notes.emplace_back(T[f.open].b,
                                   "cannot read the statements of `" + f.name +
                                       "` (unbalanced brackets, or a conditional directive splits a statement): "
                                       "its collectives are grouped by call site alone, without "
                                       "reconvergence");
            }
        }
        std::stable_sort(out.begin(), out.end(), [](const Insert& a, const Insert& b) {
            if (a.at != b.at) return a.at < b.at;
            if (a.opening != b.opening) return !a.opening;
            return a.opening ? a.depth < b.depth : a.depth > b.depth;
        });
        return std::move(out);
    }

private:
    struct Function {
        size_t open, close;
        std::string name;
        bool constant = false, reaching = false;
        std::vector<std::string_view> mentions;
    };

    const Src& S;
    const Toks& T;
    bool pre;
    std::vector<long> mate;    // a bracket's partner, -1 if none
    std::vector<bool> foreign; // in a system header or the cpu platform's own
    std::vector<Function> fns;
    std::unordered_set<std::string_view> reach; // names that reach a collective
    std::vector<int> reaches;                   // prefix counts of tokens naming one
    std::vector<Insert> out;
    std::unordered_map<std::string_view, size_t> labels;
    std::vector<std::pair<std::string_view, size_t>> gotos;
    unsigned serial = 0;

    bool is(size_t k, std::string_view s) const { return k < T.size() && T.s(k) == s; }
    bool ident(size_t k) const { return k < T.size() && T[k].kind == Tok::Ident; }
    size_t nx(size_t k) const // the next token outside directives
    {
        do ++k;
        while (k < T.size() && T[k].pp);
        if (k >= T.size()) throw Unreadable{T.size() ? T[T.size() - 1].b : 0};
        return k;
    }
    long pv(size_t k) const
    {
        long j = long(k) - 1;
        while (j >= 0 && T[size_t(j)].pp) --j;
        return j;
    }
    size_t closer(size_t k) const
    {
        if (mate[k] < 0) throw Unreadable{T[k].b};
        return size_t(mate[k]);
    }

    void match_brackets()
    {
        mate.assign(T.size(), -1);
        std::vector<size_t> open;
        for (size_t k = 0; k < T.size(); ++k) {
            if (T[k].pp || T[k].kind != Tok::Punct) continue;
            const std::string_view p = T.s(k);
            if (p == "(" || p == "[" || p == "{") {
                open.push_back(k);
            } else if (p == ")" || p == "]" || p == "}") {
                const char want = p == ")" ? '(' : p == "]" ? '[' : '{';
                while (!open.empty() && T.s(open.back())[0] != want) open.pop_back(); // unbalanced: dropped
                if (open.empty()) continue;
                mate[k] = long(open.back()), mate[open.back()] = long(k);
                open.pop_back();
            }
        }
    }

    // Line markers (`# 12 "file" 1 3`): flag 3 is a system header; the cpu platform's headers are
    // in a folder named hip.
    void mark_foreign()
    {
        foreign.assign(T.size(), false);
        if (!pre) return;
        bool now = false;
        for (size_t k = 0; k < T.size(); ++k) {
            if (T[k].pp && is(k, "#") && k + 2 < T.size() && T[k + 1].kind == Tok::Number &&
                T[k + 2].kind == Tok::Literal && T[k + 1].region == T[k].region) {
                const std::string_view file = std::string_view(S.s).substr(T[k + 2].b, T[k + 2].e - T[k + 2].b);
                bool system = false;
                for (size_t j = k + 3; j < T.size() && T[j].region == T[k].region; ++j)
                    system |= T[j].kind == Tok::Number && T[j].e - T[j].b == 1 && S.s[T[j].b] == '3';
                now = system || file.find("/hip/") != std::string_view::npos;
            }
            foreign[k] = now;
        }
    }

    // A `{` outside functions that follows `)` (with qualifiers, noexcept(...), attributes between)
    // opens a function's body.
    void find_functions()
    {
        std::vector<bool> in_fn; // per open brace
        for (size_t k = 0; k < T.size(); ++k) {
            if (T[k].pp || T[k].kind != Tok::Punct) continue;
            if (is(k, "}")) {
                if (!in_fn.empty()) in_fn.pop_back();
                continue;
            }
            if (!is(k, "{")) continue;
            const bool inside = !in_fn.empty() && in_fn.back();
            long name = -1;
            const bool body = !inside && !foreign[k] && mate[k] >= 0 && function_head(k, name);
            in_fn.push_back(inside || body);
            if (!body) continue;
            Function f;
            f.open = k, f.close = size_t(mate[k]);
            f.name = name >= 0 ? std::string(T.s(size_t(name))) : std::string("lambda");
            for (long j = name;
                 j >= 0 && !is(size_t(j), ";") && !is(size_t(j), "}") && !is(size_t(j), "{") && !T[size_t(j)].pp; --j)
                f.constant |= is(size_t(j), "constexpr") || is(size_t(j), "consteval");
            for (size_t j = k; j < f.close; ++j)
                if (ident(j) && !T[j].pp && !launched(j)) f.mentions.push_back(T.s(j));
            fns.push_back(std::move(f));
        }
    }

    /// Whether the name at k is the kernel of a launch (`k<<<`, `k<T><<<`, hipLaunchKernelGGL(k, ...)):
    /// launching a kernel does not make the host code reach its collectives.
    bool launched(size_t k) const
    {
        size_t j = k + 1;
        if (is(j, "<") && !is(j + 1, "<"))
            for (int depth = 0; j < T.size() && j < k + 64; ++j) {
                depth += is(j, "<") - is(j, ">");
                if (depth == 0) break;
            }
        if (is(j, ">")) ++j;
        if ((is(j, "<<") && is(j + 1, "<")) || (is(j, "<") && is(j + 1, "<") && is(j + 2, "<"))) return true;
        const long p = pv(k), q = p >= 0 ? pv(size_t(p)) : -1;
        return q >= 0 && is(size_t(p), "(") &&
               (is(size_t(q), "hipLaunchKernelGGL") || is(size_t(q), "__hip_cpu_launch__") ||
                is(size_t(q), "HIP_KERNEL_NAME") || is(size_t(q), "hipLaunchCooperativeKernel"));
    }

    /// Whether the `{` at k opens a function body; `name`: the function's name token, if found.
    bool function_head(size_t k, long& name) const
    {
        static const std::set<std::string_view> quals = {"const",   "noexcept", "override", "final",
                                                         "mutable", "volatile", "&",        "&&"};
        long j = pv(k);
        while (j >= 0 && quals.count(T.s(size_t(j)))) j = pv(size_t(j));
        if (j < 0 || !is(size_t(j), ")")) return false;
        for (;;) { // the parameter list: the `(...)` not after noexcept, throw or an attribute
            const long o = mate[size_t(j)];
            if (o < 0) return false;
            const long b = pv(size_t(o));
            if (b < 0) return false;
            const std::string_view w = T.s(size_t(b));
            if (w == "noexcept" || w == "throw" || w == "__attribute__" || w == "__launch_bounds__") {
                j = pv(size_t(b));
                while (j >= 0 && quals.count(T.s(size_t(j)))) j = pv(size_t(j));
                if (j < 0 || !is(size_t(j), ")")) return false;
                continue;
            }
            if (w == "(" || w == ")") { // `__attribute__((x))`'s inner parentheses, `operator()`
                name = -1;
                return true;
            }
            name = ident(size_t(b)) ? b : -1;
            return ident(size_t(b)) || w == ">" || w == "]";
        }
    }

    void find_reaching()
    {
        std::unordered_map<std::string_view, std::vector<size_t>> mentioned_by;
        std::vector<std::string_view> work;
        for (size_t f = 0; f < fns.size(); ++f)
            for (std::string_view m : fns[f].mentions) mentioned_by[m].push_back(f);
        for (std::string_view s : seeds()) reach.insert(s), work.push_back(s);
        while (!work.empty()) {
            const std::string_view n = work.back();
            work.pop_back();
            auto it = mentioned_by.find(n);
            if (it == mentioned_by.end()) continue;
            for (size_t f : it->second) {
                if (fns[f].reaching) continue;
                fns[f].reaching = true;
                const std::string_view name = fns[f].name;
                if (name != "lambda" && reach.insert(name).second) work.push_back(name);
            }
        }
        reaches.assign(T.size() + 1, 0);
        for (size_t k = 0; k < T.size(); ++k)
            reaches[k + 1] = reaches[k] + (ident(k) && !T[k].pp && reach.count(T.s(k)) ? 1 : 0);
    }
    bool can_reach(size_t first, size_t last) const { return reaches[last + 1] - reaches[first] > 0; }

    /// Whether a conditional directive (#if ... #endif) lies between tokens a and b: a statement's
    /// head split by one cannot be marked (each branch of it would need marks of its own).
    void unsplit(size_t a, size_t b) const
    {
        for (size_t k = a + 1; k < b; ++k)
            if (T[k].pp && is(k, "#") && k + 1 < T.size() && T[k + 1].region == T[k].region) {
                const std::string_view d = T.s(k + 1);
                if (d == "if" || d == "ifdef" || d == "ifndef" || d == "elif" || d == "else" || d == "endif")
                    throw Unreadable{T[k].b};
            }
    }

    // ---- the marks ----
    size_t before(size_t k) const // where text goes before token k: before any directive lines above it
    {
        const long p = pv(k);
        return p >= 0 && size_t(p) + 1 != k ? T[size_t(p)].e : T[k].b;
    }
    void open_at(size_t at, int depth, std::string text) { out.push_back({at, true, depth, std::move(text)}); }
    void close_after(size_t k, int depth) { out.push_back({T[k].e, false, depth, " }"}); }
    std::string fresh() { return "__wb_r" + std::to_string(serial++); }
    std::string id(size_t k) const { return std::to_string((uint32_t(T[k].b) * 2654435761u) ^ 0x5bd1e995u) + "u"; }
    std::string region(const std::string& var, size_t k) const
    {
        return "{ ::hip_cpu_region " + var + "(" + id(k) + "); ";
    }

    /// A function's or a lambda's body: a frame of its own, the root its lanes' places are counted
    /// from, and what keeps a lane that returns early apart from the ones still in it.
    void function_body(size_t open, int depth)
    {
        open_at(T[open].e, -1000, " ::hip_cpu_region " + fresh() + "(" + id(open) + ");");
        block(open, depth, nullptr);
    }
    /// Whether lanes may part within one iteration of a loop body [b, e]: any statement that
    /// branches or leaves. A body without one runs in step: its iterations need no frames.
    bool branches(size_t b, size_t e) const
    {
        static const std::set<std::string_view> words = {"if",     "switch", "for", "while", "do", "continue", "break",
                                                         "return", "goto",   "?",   "&&",    "||", "try"};
        for (size_t j = b; j <= e; ++j)
            if (!T[j].pp && words.count(T.s(j))) return true;
        return false;
    }
    void block(size_t open, int depth, const std::string* sw)
    {
        const size_t end = closer(open);
        for (size_t j = nx(open); j != end; j = nx(statement(j, depth, sw)))
            if (j > end) throw Unreadable{T[j].b};
    }

    /// The statement at k (its regions at `depth`; `sw`: the innermost switch's region, if marked):
    /// returns its last token.
    size_t statement(size_t k, int depth, const std::string* sw)
    {
        if (depth > 4000) throw Unreadable{T[k].b};
        const std::string_view w = T.s(k);
        if (w == "{") return block(k, depth + 1, sw), closer(k);
        if (w == "[" && is(nx(k), "[")) return statement(nx(closer(k)), depth, sw);
        if (w == "if") return if_statement(k, depth, sw);
        if (w == "for" || w == "while") return loop(k, nx(closer(nx(k))), depth, sw);
        if (w == "do") return loop(k, nx(k), depth, sw);
        if (w == "switch") return switch_statement(k, depth);
        if (w == "case" || (w == "default" && is(nx(k), ":"))) {
            size_t c = nx(k);
            for (; !is(c, ":"); c = nx(c))
                if (is(c, "(") || is(c, "[") || is(c, "{"))
                    c = closer(c);
                else if (is(c, ";") || is(c, "}"))
                    throw Unreadable{T[c].b};
            if (sw) out.push_back({T[c].e, true, -2000, " " + *sw + ".enter_arm(" + std::to_string(serial++) + "u);"});
            return statement(nx(c), depth, sw);
        }
        if (ident(k) && is(nx(k), ":") && !is(nx(nx(k)), ":")) {
            labels.emplace(w, k);
            return statement(nx(nx(k)), depth, sw);
        }
        if (w == "try") {
            size_t end = closer(nx(k));
            block(nx(k), depth + 1, sw);
            while (is(nx(end), "catch")) {
                const size_t b = nx(closer(nx(nx(end))));
                block(b, depth + 1, sw);
                end = closer(b);
            }
            return end;
        }
        if (w == "goto") gotos.emplace_back(T.s(nx(k)), k);
        return simple(k, depth);
    }

    /// An expression or declaration statement, up to its `;`; lambdas' bodies in it are marked as
    /// functions' bodies.
    size_t simple(size_t k, int depth)
    {
        for (size_t j = k;; j = nx(j)) {
            if (is(j, ";")) return j;
            if (is(j, "}") || is(j, ")") || is(j, "]")) throw Unreadable{T[j].b};
            if (!(is(j, "(") || is(j, "[") || is(j, "{"))) continue;
            const size_t c = closer(j);
            if (is(j, "{") && lambda_body(j) && can_reach(j, c)) {
                function_body(j, depth + 1);
            } else if (!is(j, "{")) {
                // brackets hold no statements, except the lambdas in them
                for (size_t i = nx(j); i < c; i = nx(i))
                    if (is(i, "{") && lambda_body(i) && can_reach(i, closer(i)))
                        function_body(i, depth + 1), i = closer(i);
            }
            j = c;
        }
    }
    bool lambda_body(size_t open) const
    {
        const long p = pv(open);
        return p >= 0 &&
               (is(size_t(p), ")") || is(size_t(p), "]") || is(size_t(p), "mutable") || is(size_t(p), "noexcept"));
    }

    size_t if_statement(size_t k, int depth, const std::string* sw)
    {
        size_t then = nx(k);
        if (is(then, "constexpr")) then = nx(then);
        if (is(then, "!")) then = nx(then);
        if (is(then, "consteval")) return statement(nx(then), depth, sw) /* if consteval: no lanes */;
        then = nx(closer(then));
        unsplit(k, then);
        const std::string var = fresh();
        const size_t then_end = statement(then, depth + 2, sw);
        const bool has_else = then_end + 1 < T.size() && is(nx(then_end), "else");
        const size_t other = has_else ? nx(nx(then_end)) : 0;
        if (has_else) unsplit(then_end, other);
        const size_t end = has_else ? statement(other, depth + 2, sw) : then_end;
        if (!can_reach(k, end)) return end;
        open_at(before(k), depth, region(var, k));
        open_at(before(then), depth + 1, "{ " + var + ".enter_arm(1u); ");
        close_after(then_end, depth + 1);
        if (has_else) {
            open_at(before(other), depth + 1, "{ " + var + ".enter_arm(2u); ");
            close_after(end, depth + 1);
        }
        close_after(end, depth);
        return end;
    }

    size_t loop(size_t k, size_t body, int depth, const std::string* sw)
    {
        unsplit(k, body);
        const size_t body_end = statement(body, depth + 2, sw);
        size_t end = body_end;
        if (is(k, "do")) {
            const size_t w = nx(body_end);
            if (!is(w, "while")) throw Unreadable{T[w].b};
            end = nx(closer(nx(w)));
            unsplit(body_end, end);
            if (!is(end, ";")) throw Unreadable{T[end].b};
        }
        if (!can_reach(k, end)) return end;
        open_at(before(k), depth, region(fresh(), k));
        if (can_reach(body, body_end) && branches(body, body_end)) {
            open_at(before(body), depth + 1, region(fresh(), body));
            close_after(body_end, depth + 1);
        }
        close_after(end, depth);
        return end;
    }

    size_t switch_statement(size_t k, int depth)
    {
        const size_t body = nx(closer(nx(k)));
        unsplit(k, body);
        const bool braced = is(body, "{");
        const bool marked = braced ? can_reach(k, closer(body)) : false;
        const std::string var = marked ? fresh() : std::string();
        const size_t end = statement(body, depth + 2, marked ? &var : nullptr);
        if (!marked) return end;
        open_at(before(k), depth, region(var, k));
        close_after(end, depth);
        return end;
    }

    void check_gotos() const
    {
        for (const auto& [label, at] : gotos) {
            auto it = labels.find(label);
            if (label == "*" || (it != labels.end() && it->second < at))
                throw RegionError{T[at].b, "a goto back to an earlier label (or a computed goto) in a function that "
                                           "reaches a warp collective: the cpu platform cannot tell where its lanes "
                                           "reconverge; write the loop as for, while or do"};
        }
    }
};

} // namespace

std::vector<Insert> region_marks(const Src& S, const Toks& T, bool preprocessed,
                                 std::vector<std::pair<size_t, std::string>>& notes)
{
    return Marker(S, T, preprocessed).run(notes);
}

} // namespace hip_rewrite
