// The journal beside a results file, and the writer that keeps both (report/results_journal.h).
#include "harness/report/results_journal.h"

#include "harness/common/files.h"
#include "harness/common/json.h"
#include "harness/report/results_json.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace wb {

namespace {

using json = nlohmann::json;

/// How a journal's first line starts; the version follows.
constexpr std::string_view journal_mark = R"({"wavebench_journal":)";
constexpr int journal_version = 1;

/// The document is rewritten once the results have doubled since it was last written, or once the
/// time since then is at least `rewrite_ratio` times what that write took and at least
/// `rewrite_gap`. Doubling keeps the bytes written below twice the final document's; the ratio
/// keeps the time spent writing below 1/ratio of the run's; the gap keeps a slow run's document
/// at most that far behind its journal.
constexpr int rewrite_ratio = 20;
constexpr std::chrono::seconds rewrite_gap{10};

std::string compact(const json& j)
{
    // Plugins' messages are not promised to be UTF-8: replace what is not, as write_json does.
    return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

std::filesystem::path journal_of(const std::filesystem::path& out) { return out.string() + ".journal"; }

bool is_journal(std::string_view text) { return text.substr(0, journal_mark.size()) == journal_mark; }

json journal_document(std::string_view text, const std::string& label)
{
    auto fail = [&](size_t line, const std::string& what) {
        throw std::invalid_argument(label + ": line " + std::to_string(line) + " of the journal " + what +
                                    " (docs/results-schema.md describes the journal)");
    };
    json doc;
    std::vector<json> rows;
    std::map<uint64_t, size_t> row_of; // plan_index: its row
    size_t line = 0;
    for (size_t at = 0, nl; (nl = text.find('\n', at)) != std::string_view::npos; at = nl + 1) {
        ++line;
        json j;
        try {
            j = parse_json(text.substr(at, nl - at));
        } catch (const json::parse_error& e) {
            fail(line, "is not JSON (at its byte " + std::to_string(e.byte) + ")");
        } catch (const json_too_deep& e) {
            fail(line, std::string("is nested too deep: ") + e.what());
        }
        if (line == 1) {
            if (!j.is_object() || j.value("wavebench_journal", json()) != journal_version ||
                !j.value("document", json()).is_object())
                fail(line, "is no journal's first line of version " + std::to_string(journal_version));
            doc = std::move(j["document"]);
            continue;
        }
        if (!j.is_object()) fail(line, "is not a result (a JSON object)");
        const json pi = j.value("plan_index", json());
        if (pi.is_number_unsigned()) {
            const auto [it, fresh] = row_of.emplace(pi.get<uint64_t>(), rows.size());
            if (!fresh) { // the same result again, with its speedups set
                rows[it->second] = std::move(j);
                continue;
            }
        }
        rows.push_back(std::move(j));
    }
    if (line == 0) fail(1, "is not whole: the run was stopped as it started");
    if (row_of.size() == rows.size()) // results measured on several devices came out of order
        std::stable_sort(rows.begin(), rows.end(), [](const json& a, const json& b) {
            return a["plan_index"].get<uint64_t>() < b["plan_index"].get<uint64_t>();
        });
    doc["results"] = std::move(rows);
    doc["complete"] = false;
    return doc;
}

results_writer::results_writer(std::filesystem::path out, const json& first, warning_fn warn)
    : out_(std::move(out)), journal_(journal_of(out_)), warn_(std::move(warn))
{
    std::error_code ec;
    if (std::filesystem::symlink_status(journal_, ec).type() != std::filesystem::file_type::not_found)
        throw file_error("'" + shorten(journal_.string(), 200) +
                         "' is there: the journal of a run that was killed before it finished (wavebench report, "
                         "compare and merge read it as that run); move or remove it, or write the results elsewhere");
    write_json(out_, first); // fails now, not after an hour of measuring
    documents_ = 1;
    last_end_ = clock::now();
    fd_ = ::open(journal_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0666);
    if (fd_ < 0)
        throw file_error("cannot write the journal '" + shorten(journal_.string(), 200) + "': " + os_reason(errno));
    write_line(std::string(journal_mark) + std::to_string(journal_version) + ",\"document\":" + compact(first) + "}\n");
}

results_writer::~results_writer()
{
    if (fd_ >= 0) ::close(fd_);
}

void results_writer::append(const json& row) { write_line(compact(row) + "\n"); }

void results_writer::write_line(const std::string& line)
{
    if (fd_ < 0) return;
    for (size_t at = 0; at < line.size();) { // one write, unless the disk is full
        const ssize_t n = ::write(fd_, line.data() + at, line.size() - at);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd_);
            fd_ = -1;
            journal_failed_ = true;
            throw file_error("cannot write the journal '" + shorten(journal_.string(), 200) + "': " + os_reason(err) +
                             "; the results file is rewritten after every result instead");
        }
        at += size_t(n);
    }
}

void results_writer::rewrite(const json& doc, size_t results)
{
    const auto start = clock::now();
    write_json(out_, doc);
    last_end_ = clock::now();
    last_took_ = last_end_ - start;
    doc_results_ = results;
    ++documents_;
}

void results_writer::warn(const std::exception& e) const
{
    if (warn_) warn_(std::string("warning: ") + e.what());
}

void results_writer::add(const std::vector<result>& all, size_t group_begin, const document_fn& doc)
{
    try {
        journaled_.resize(all.size());
        for (size_t j = std::min(group_begin, all.size() - 1); j < all.size(); ++j) {
            const std::pair speedups{all[j].speedup_vs_baseline, all[j].speedup_vs_library};
            if (j + 1 < all.size() && journaled_[j] == speedups) continue;
            append(result_row(all[j]));
            journaled_[j] = speedups;
        }
    } catch (const file_error& e) {
        warn(e);
    }
    const auto since = clock::now() - last_end_;
    if (journal_failed_ || all.size() >= 2 * doc_results_ ||
        (since >= rewrite_gap && since >= rewrite_ratio * last_took_))
        try {
            rewrite(doc(), all.size());
        } catch (const file_error& e) {
            warn(e);
        }
}

void results_writer::add_waiting(const result& r)
{
    try {
        append(result_row(r));
    } catch (const file_error& e) {
        warn(e);
    }
}

void results_writer::finish(const json& doc)
{
    try {
        rewrite(doc, doc_results_);
    } catch (const file_error& e) {
        if (journal_failed_) throw;
        throw file_error(std::string(e.what()) + "; every result is in its journal '" +
                         shorten(journal_.string(), 200) + "' (wavebench report, compare and merge read it)");
    }
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    ::unlink(journal_.c_str()); // the document holds every result
}

} // namespace wb
