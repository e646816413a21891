// The AMD code-object reader's disassembly of each kernel: by comgr where it knows the target,
// else by the newest llvm-objdump on PATH that knows it, run as a child process with a time and
// output limit.
#include "core/amd/reader.h"

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace wb::amd_inspect {

namespace {

namespace fs = std::filesystem;

/// The disassembly of `code` (one function's bytes) by comgr, an instruction per string.
struct disassembly {
    span code;
    std::vector<std::string> lines;
    static uint64_t read(uint64_t from, char* to, uint64_t size, void* self)
    {
        const span c = static_cast<disassembly*>(self)->code;
        if (from >= c.size) return 0;
        const uint64_t n = std::min<uint64_t>(size, c.size - from);
        std::memcpy(to, c.data + from, n);
        return n;
    }
    static void print(const char* instruction, void* self)
    {
        std::string s(instruction);
        const size_t b = s.find_first_not_of(" \t");
        static_cast<disassembly*>(self)->lines.push_back(b == std::string::npos ? std::string() : s.substr(b));
    }
    static void annotate(uint64_t, void*) {}
};

/// Each function's instructions by comgr, by symbol name, for the symbols in `names`.
std::map<std::string, std::vector<std::string>> instructions_of(span co, const std::string& isa,
                                                                const std::set<std::string>& names)
{
    std::map<std::string, std::vector<std::string>> out;
    // LLVM 15's disassembler ends the process (report_fatal_error) for gfx6 and gfx7, which lack
    // the GCN3 encoding: only gfx8 and later are asked (a code object's header may name any).
    const std::string cpu = isa.substr(isa.rfind("--") == std::string::npos ? 0 : isa.rfind("--") + 2);
    if (!(cpu.starts_with("gfx8") || cpu.starts_with("gfx9") || cpu.starts_with("gfx1")))
        throw std::runtime_error("no disassembly for " + isa + " (LLVM disassembles gfx8 and later)");
    amd_comgr_disassembly_info_t info{};
    if (amd_comgr_create_disassembly_info(isa.c_str(), disassembly::read, disassembly::print, disassembly::annotate,
                                          &info) != AMD_COMGR_STATUS_SUCCESS)
        throw std::runtime_error("this libamd-comgr cannot disassemble " + isa);
    const elf_ptr owner = open_elf(co);
    Elf* elf = owner.get();
    for (Elf_Scn* scn = nullptr; elf && (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || sh.sh_entsize == 0) continue;
        Elf_Data* syms = elf_getdata(scn, nullptr);
        for (size_t i = 0; syms && i < sh.sh_size / sh.sh_entsize; ++i) {
            GElf_Sym sym;
            if (!gelf_getsym(syms, int(i), &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC) continue;
            const char* name = elf_strptr(elf, sh.sh_link, sym.st_name);
            GElf_Shdr code;
            if (!name || !names.count(name) || !gelf_getshdr(elf_getscn(elf, sym.st_shndx), &code)) continue;
            const uint64_t at = sym.st_value - code.sh_addr + code.sh_offset;
            if (sym.st_value < code.sh_addr || at > co.size || sym.st_size > co.size - at) continue;
            disassembly d{{co.data + at, sym.st_size}, {}};
            for (uint64_t pc = 0, n = 0; pc < sym.st_size; pc += n ? n : 4) {
                n = 0;
                if (amd_comgr_disassemble_instruction(info, pc, &d, &n) != AMD_COMGR_STATUS_SUCCESS)
                    d.lines.push_back("<undecodable>");
            }
            out[name] = std::move(d.lines);
        }
    }
    amd_comgr_destroy_disassembly_info(info);
    return out;
}

/// The standard output of `argv` (its program found on PATH, run without a shell, with this
/// process's environment, standard input on /dev/null, standard error to `error_file`), or nothing when it cannot be
/// started or exits other than 0. One that runs past `seconds`, or writes more than `limit`
/// bytes, is killed and throws: a pathological input must not hang the reader.
std::optional<std::string> run_program(const std::vector<std::string>& argv, int seconds, size_t limit,
                                       const char* error_file = "/dev/null")
{
    int out[2];
    if (pipe2(out, O_CLOEXEC) != 0)
        throw std::runtime_error(std::string("cannot make a pipe: ") + std::strerror(errno));
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, error_file, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(out[1]);
    if (spawned != 0) {
        close(out[0]);
        return std::nullopt;
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    auto left_ms = [&] {
        return int(std::max<int64_t>(
            0, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now())
                   .count()));
    };
    std::string text, trouble;
    for (char buf[1 << 16];;) {
        pollfd p{out[0], POLLIN, 0};
        const int ready = poll(&p, 1, left_ms());
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) {
            trouble = "ran past " + std::to_string(seconds) + " s";
            break;
        }
        const ssize_t n = read(out[0], buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        if (text.size() + size_t(n) > limit) {
            trouble = "wrote more than " + std::to_string(limit >> 20) + " MiB";
            break;
        }
        text.append(buf, size_t(n));
    }
    close(out[0]);
    int status = 0;
    for (;;) { // it closed its output: it ends soon, else it is killed at the deadline
        const pid_t w = trouble.empty() ? waitpid(pid, &status, WNOHANG) : 0;
        if (w == pid || (w < 0 && errno != EINTR)) break;
        if (!trouble.empty() || left_ms() == 0) {
            if (trouble.empty()) trouble = "ran past " + std::to_string(seconds) + " s";
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR) continue;
            break;
        }
        usleep(10000);
    }
    if (!trouble.empty()) throw std::runtime_error(argv[0] + " " + trouble + " and was stopped");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return std::nullopt;
    return text;
}

/// An llvm-objdump: where it is, and the LLVM major version it is of (0: not known).
struct objdump {
    std::string path;
    int version;
};

/// The LLVM major version of an llvm-objdump: its name's ("llvm-objdump-22"), or else what it says
/// (`--version`: "LLVM version 19.1.7"); 0 when neither tells.
int version_of(const fs::path& program)
{
    const std::string name = program.filename().string(), prefix = "llvm-objdump-";
    if (name.starts_with(prefix)) return std::atoi(name.c_str() + prefix.size());
    std::optional<std::string> said;
    try {
        said = run_program({program.string(), "--version"}, 10, 1 << 16);
    } catch (const std::exception&) {
    }
    const size_t at = said ? said->find("LLVM version ") : std::string::npos;
    return at == std::string::npos ? 0 : std::atoi(said->c_str() + at + 13);
}

/// Every llvm-objdump this process can run, newest LLVM first: llvm-objdump-N and llvm-objdump in
/// each folder of PATH, and in $ROCM_PATH/llvm/bin (a ROCm's own); each program once.
const std::vector<objdump>& objdumps()
{
    static const std::vector<objdump> found = [] {
        std::vector<std::string> dirs;
        const char* path = std::getenv("PATH");
        for (std::string_view rest = path ? path : ""; !rest.empty();) {
            const size_t colon = std::min(rest.find(':'), rest.size());
            if (colon > 0) dirs.emplace_back(rest.substr(0, colon));
            rest.remove_prefix(std::min(colon + 1, rest.size()));
        }
        if (const char* rocm = std::getenv("ROCM_PATH"); rocm && *rocm) dirs.push_back(std::string(rocm) + "/llvm/bin");
        std::vector<objdump> out;
        std::set<fs::path> seen; // llvm-objdump-19 and /usr/lib/llvm-19/bin/llvm-objdump are one program
        for (const auto& dir : dirs) {
            std::error_code ec;
            for (const auto& e : fs::directory_iterator(dir, ec)) {
                const std::string name = e.path().filename().string();
                const bool numbered = name.starts_with("llvm-objdump-") && name.size() <= 16 &&
                                      name.find_first_not_of("0123456789", 13) == std::string::npos;
                if ((name != "llvm-objdump" && !numbered) || access(e.path().c_str(), X_OK) != 0) continue;
                if (seen.insert(fs::canonical(e.path(), ec)).second) out.push_back({e.path().string(), 0});
            }
        }
        for (auto& o : out) o.version = version_of(o.path);
        std::stable_sort(out.begin(), out.end(),
                         [](const objdump& a, const objdump& b) { return a.version > b.version; });
        return out;
    }();
    return found;
}

/// Each named function's lines of an llvm-objdump listing, cut after its last s_endpgm (objdump
/// runs on into the padding).
std::map<std::string, std::vector<std::string>> functions_of(const std::string& listing,
                                                             const std::set<std::string>& names)
{
    std::map<std::string, std::vector<std::string>> out;
    std::vector<std::string>* current = nullptr;
    for (size_t at = 0; at < listing.size();) {
        const size_t eol = std::min(listing.find('\n', at), listing.size());
        std::string line = listing.substr(at, eol - at);
        at = eol + 1;
        while (!line.empty() && line.back() == ' ') line.pop_back();
        const size_t open = line.find(" <"), close = line.rfind(">:");
        if (!line.empty() && line[0] != '\t' && open != std::string::npos && close != std::string::npos &&
            close > open) {
            const std::string name = line.substr(open + 2, close - open - 2);
            current = names.count(name) ? &out[name] : nullptr;
        } else if (line.empty()) {
            current = nullptr;
        } else if (current && line[0] == '\t') {
            std::string i =
                line.substr(1, line.find("//") == std::string::npos ? std::string::npos : line.find("//") - 1);
            while (!i.empty() && i.back() == ' ') i.pop_back();
            current->push_back(i);
        }
    }
    for (auto& [name, lines] : out) {
        size_t end = lines.size();
        while (end > 0 && lines[end - 1].rfind("s_endpgm", 0) != 0) --end;
        if (end > 0) lines.resize(end);
    }
    return out;
}

/// A temporary file, removed at scope exit.
struct temp_file {
    char path[40] = "/tmp/wavebench-code-object-XXXXXX";
    int fd = mkstemp(path);
    ~temp_file()
    {
        if (fd >= 0) unlink(path), unlink((std::string(path) + ".err").c_str());
    }
};

/// The same through the newest llvm-objdump that knows `target` (objdumps()), for targets this
/// libamd-comgr does not know (ROCm 5.2's predates gfx940): the code object goes to a temporary
/// file, and each function's lines are read back. `used` names the llvm-objdump.
std::map<std::string, std::vector<std::string>>
objdump_instructions(span co, const std::string& target, const std::set<std::string>& names, std::string& used)
{
    if (!gpu::is_target_id(target)) throw std::runtime_error("not a target ID"); // read_code_object checked it
    const temp_file file;
    const bool written = file.fd >= 0 && write(file.fd, co.data, co.size) == ssize_t(co.size);
    if (file.fd >= 0) close(file.fd);
    if (!written) throw std::runtime_error("cannot write a temporary file for llvm-objdump");
    const std::string cpu = target.substr(0, target.find(':')), errors = std::string(file.path) + ".err";
    std::string tried;
    for (const objdump& o : objdumps()) {
        constexpr int seconds = 60;
        constexpr size_t limit = size_t(256) << 20;
        const auto listing = run_program({o.path, "-d", "--no-show-raw-insn", "--mcpu=" + cpu, file.path}, seconds,
                                         limit, errors.c_str());
        tried += (tried.empty() ? "" : ", ") + fs::path(o.path).filename().string();
        std::ifstream said(errors);
        const std::string complaint((std::istreambuf_iterator<char>(said)), std::istreambuf_iterator<char>());
        if (!listing || complaint.find("not a recognized processor") != std::string::npos) continue;
        auto out = functions_of(*listing, names);
        if (out.empty()) continue;
        used = o.path + (o.version ? " (LLVM " + std::to_string(o.version) + ")" : "");
        return out;
    }
    throw std::runtime_error("neither this libamd-comgr nor " +
                             (tried.empty() ? std::string("an llvm-objdump (none on PATH: Debian's llvm-22 has one)")
                                            : "an llvm-objdump on PATH (" + tried + ")") +
                             " disassembles " + cpu);
}

} // namespace

// A kernel's code is the function its descriptor (symbol.kd) names.
void add_instructions(json& out, span co, const std::vector<kernel>& kernels, const std::string& isa,
                      const std::string& target)
{
    std::set<std::string> names;
    for (const kernel& k : kernels) names.insert(k.name);
    std::map<std::string, std::vector<std::string>> code;
    std::string why, used = "libamd_comgr";
    // comgr only for a processor it knows (it named the ISA), and without the features (xnack,
    // sramecc), which do not change the decoding: ROCm 5.2's comgr misreads them, and its LLVM
    // prints garbage about it.
    try {
        if (isa.empty()) throw std::runtime_error("this libamd-comgr does not know " + target);
        code = instructions_of(co, isa.substr(0, isa.find(':')), names);
    } catch (const std::exception&) {
        try {
            code = objdump_instructions(co, target, names, used);
        } catch (const std::exception& e) { // the other targets are still read
            why = e.what();
        }
    }
    for (auto& k : out) {
        const auto it = code.find(k["name"].get<std::string>());
        k["instructions"] = it == code.end() ? json(nullptr) : json(it->second);
        k["disassembler"] = it == code.end() ? json(nullptr) : json(used);
        if (it == code.end()) k["instructions_missing"] = why.empty() ? "no code for its symbol" : why;
    }
}

} // namespace wb::amd_inspect
