// AMD static figures: kernel names, the launch a plugin declares, the occupancy attached, and the
// baseline comparison behind the resource regression test. Reads real hipcc-built files where
// the amd platform is built here.
#include <boost/test/unit_test.hpp>

#include "core/amd/targets.h"
#include "harness/amd/amd_static.h"
#include "harness/amd/isa_mix.h"
#include "harness/platform/platform.h"

#include <algorithm>
#include <set>
#include <unistd.h>

BOOST_AUTO_TEST_SUITE(amd_static_test)

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

BOOST_AUTO_TEST_CASE(kernel_names_are_the_functions_own)
{
    BOOST_CHECK_EQUAL(wb::kernel_base_name("_Z13reduce_atomicPKiPim"), "reduce_atomic");
    BOOST_CHECK_EQUAL(wb::kernel_base_name("_ZN6reduce18reduce_tree_groupsEPKiPim"), "reduce_tree_groups");
    BOOST_CHECK_EQUAL(wb::kernel_base_name("_Z6kernelILi4EEvPi"), "kernel<4>"); // template: void kernel<4>(int*)
    BOOST_CHECK_EQUAL(wb::kernel_base_name("plain_c_kernel"), "plain_c_kernel");
    BOOST_CHECK_EQUAL(wb::kernel_base_name("_ZN12_GLOBAL__N_16hiddenEPi"), "hidden"); // in an anonymous namespace
}

BOOST_AUTO_TEST_CASE(a_plugin_declares_its_kernels_launch)
{
    wb::plugin_registry reg("cpu");
    reg.add_file(wb::platform::build_dir() / "plugins" / "cpu" / "reduce_tree.so");
    BOOST_REQUIRE_EQUAL(reg.plugins().size(), 1u);
    const wb::plugin& d = reg.plugins()[0];
    auto l = wb::launch_of(d, "reduce_tree_groups");
    BOOST_REQUIRE(l);
    BOOST_CHECK_EQUAL(l->block_size, 256);
    BOOST_CHECK_EQUAL(l->dynamic_lds, 1024); // one int per work-item
    BOOST_CHECK_EQUAL(l->from, "block_size=256 (default)");
    l = wb::launch_of(d, "reduce_tree_groups", {{"block_size", int64_t(512)}});
    BOOST_REQUIRE(l);
    BOOST_CHECK_EQUAL(l->dynamic_lds, 2048);
    BOOST_CHECK(!wb::launch_of(d, "not_a_kernel"));
}

BOOST_AUTO_TEST_CASE(dynamic_lds_counts_against_occupancy)
{
    wb::amd_kernel_figures k;
    k.target = "gfx90a";
    k.vgprs = 8;
    k.sgprs = 16;
    const auto without = wb::judge(k, 256, 0, "test");
    const auto with = wb::judge(k, 256, 32 * 1024, "test");
    BOOST_REQUIRE(without.occupancy && with.occupancy);
    BOOST_CHECK_EQUAL(without.occupancy->waves, 8);
    BOOST_CHECK_EQUAL(with.occupancy->waves, 2);
    k.target = "gfx9999";
    BOOST_CHECK(!wb::judge(k, 256, 0, "test").occupancy); // a target the table lacks: no guess
}

BOOST_AUTO_TEST_CASE(a_report_names_the_whole_workgroups_and_what_caps_them)
{
    // gfx90a, 1024 work-items of wave64 (16 waves, 4 on each of the 4 SIMDs), 96 VGPRs: the VGPRs
    // allow 5 waves per SIMD, room for one work-group: 4 waves per SIMD, not 5.
    wb::amd_kernel_figures k;
    k.target = "gfx90a";
    k.vgprs = 96;
    k.sgprs = 16;
    auto r = wb::judge(k, 1024, 0, "test");
    BOOST_REQUIRE(r.occupancy);
    BOOST_CHECK_EQUAL(r.occupancy->waves, 4);
    BOOST_CHECK_EQUAL(r.occupancy->workgroups, 1);
    BOOST_CHECK_EQUAL(r.occupancy->limiter, "VGPRs");
    const json occ = wb::to_json(r).at("occupancy");
    BOOST_CHECK_EQUAL(occ.at("waves_per_simd"), 4);
    BOOST_CHECK_EQUAL(occ.at("max"), 8);
    BOOST_CHECK_EQUAL(occ.at("limiter"), "VGPRs");
    BOOST_CHECK_EQUAL(occ.at("workgroups_per_cu"), 1);
    BOOST_CHECK_EQUAL(occ.at("waves_per_workgroup"), 16);
    BOOST_CHECK_EQUAL(occ.at("simds"), 4);
    BOOST_CHECK_EQUAL(occ.at("workgroups_by").at("waves"), 2);
    BOOST_CHECK_EQUAL(occ.at("workgroups_by").at("vgprs"), 1);
    BOOST_CHECK_EQUAL(occ.at("workgroups_by").at("workgroup_slots"), 16);
    BOOST_CHECK(occ.at("workgroups_by").at("lds").is_null()); // no LDS: no limit
    BOOST_CHECK_EQUAL(occ.at("register_waves_per_simd").at("vgprs"), 5);
    BOOST_CHECK_EQUAL(wb::baseline_json({{"x.so", {r}}}).at("kernels").at(0).at("waves_per_simd"), 4);
    // 512 work-items: 2 work-groups of 8 waves.
    r = wb::judge(k, 512, 0, "test");
    BOOST_CHECK_EQUAL(r.occupancy->waves, 4);
    BOOST_CHECK_EQUAL(r.occupancy->workgroups, 2);
    // gfx1030 in wave32, judged in WGP mode (hipcc's default): the WGP's 4 SIMDs, 1024 VGPRs per SIMD,
    // 96 VGPRs: 10 waves per SIMD, 40 per WGP: one 1024-item work-group (32 waves), 8 per SIMD.
    k.target = "gfx1030";
    k.warp_size = 32;
    r = wb::judge(k, 1024, 0, "test");
    BOOST_REQUIRE(r.occupancy);
    BOOST_CHECK_EQUAL(r.occupancy->waves, 8);
    BOOST_CHECK_EQUAL(r.occupancy->workgroups, 1);
    BOOST_CHECK_EQUAL(r.occupancy->simds, 4);
    BOOST_CHECK_EQUAL(r.occupancy->limiter, "VGPRs");
    r = wb::judge(k, 512, 0, "test");
    BOOST_CHECK_EQUAL(r.occupancy->waves, 8);
    BOOST_CHECK_EQUAL(r.occupancy->workgroups, 2);
}

json kernel(const char* symbol, int vgprs, int waves)
{
    return {{"file", "x.so"},     {"target", "gfx90a"}, {"kernel", symbol}, {"symbol", symbol},
            {"vgprs", vgprs},     {"agprs", 0},         {"sgprs", 16},      {"lds_bytes", 0},
            {"scratch_bytes", 0}, {"vgpr_spills", 0},   {"sgpr_spills", 0}, {"waves_per_simd", waves}};
}

BOOST_AUTO_TEST_CASE(the_baseline_comparison_flags_what_got_worse)
{
    const json base{{"kernels", {kernel("a", 64, 8), kernel("b", 96, 5), kernel("gone", 4, 8)}}};
    const json now{{"kernels", {kernel("a", 72, 7), kernel("b", 80, 6), kernel("new", 4, 8)}}};
    const auto changes = wb::compare_baseline(base, now);
    auto find = [&](const std::string& k, const std::string& figure) -> const wb::baseline_change* {
        for (const auto& c : changes)
            if (c.kernel == k && c.figure == figure) return &c;
        return nullptr;
    };
    BOOST_REQUIRE(find("a", "vgprs") && find("a", "waves_per_simd"));
    BOOST_CHECK(find("a", "vgprs")->worse);
    BOOST_CHECK(find("a", "waves_per_simd")->worse);
    BOOST_REQUIRE(find("b", "vgprs") && find("b", "waves_per_simd"));
    BOOST_CHECK(!find("b", "vgprs")->worse); // fewer registers: an improvement
    BOOST_CHECK(!find("b", "waves_per_simd")->worse);
    BOOST_REQUIRE(find("new", "not in the baseline"));
    BOOST_CHECK(find("new", "not in the baseline")->worse);
    BOOST_REQUIRE(find("gone", "no longer built"));
    BOOST_CHECK(wb::compare_baseline(base, base).empty());
}

fs::path foreign() { return wb::platform::build_dir() / "tests" / "plugins" / "foreign" / "saxpy_kernels.so"; }

boost::test_tools::assertion_result amd_built(boost::unit_test::test_unit_id)
{
    boost::test_tools::assertion_result r(
        fs::exists(foreign()) && fs::exists(wb::platform::build_dir() / "lib" / "libwavebench_amd_inspect.so"));
    r.message() << "the amd platform or its inspection is not built here (no hipcc or comgr)";
    return r;
}

BOOST_AUTO_TEST_CASE(figures_of_a_hip_library_built_outside_the_plugin_system,
                     *boost::unit_test::precondition(amd_built))
{
    const auto kernels = wb::read_amd_kernels(foreign());
    std::set<std::string> targets, names;
    for (const auto& k : kernels) {
        targets.insert(k.target);
        names.insert(k.name);
        BOOST_CHECK_GT(k.vgprs, 0);
        BOOST_CHECK_GT(k.sgprs, 0);
        if (k.name == "transpose_tile") {
            BOOST_CHECK_EQUAL(k.lds_bytes, 32 * 33 * 4);
            BOOST_CHECK_EQUAL(k.max_workgroup, 128); // __launch_bounds__(128)
        }
    }
    BOOST_CHECK_EQUAL(names.size(), 2u);
    BOOST_CHECK(targets.count("gfx90a") && targets.count("gfx1030"));
    BOOST_CHECK_THROW(wb::read_amd_kernels(wb::platform::build_dir() / ".." / "README.md"), std::runtime_error);
    BOOST_CHECK(wb::read_amd_kernels(wb::platform::build_dir() / "bin" / "wavebench").empty()); // no device code
}

BOOST_AUTO_TEST_CASE(instructions_are_classed_by_their_mnemonic)
{
    using wb::isa_class;
    const std::pair<const char*, isa_class> known[] = {
        {"v_fma_f32 v1, v2, v3, v4", isa_class::valu},
        {"v_cmp_gt_i32_e32 vcc, 4, v0", isa_class::valu},
        {"s_add_u32 s0, s0, s4", isa_class::salu},
        {"s_and_saveexec_b64 s[0:1], vcc", isa_class::salu},
        {"s_endpgm", isa_class::salu},
        {"s_cbranch_execz .LBB0_2", isa_class::branch},
        {"s_cbranch_scc1 .LBB0_4", isa_class::branch},
        {"s_branch .LBB0_1", isa_class::branch},
        {"s_setpc_b64 s[30:31]", isa_class::branch},
        {"s_waitcnt vmcnt(0) lgkmcnt(0)", isa_class::waitcnt},
        {"s_waitcnt_vscnt null, 0x0", isa_class::waitcnt},
        {"s_load_dwordx4 s[0:3], s[4:5], 0x0", isa_class::smem},
        {"s_buffer_load_dword s0, s[0:3], 0x10", isa_class::smem},
        {"global_load_dword v1, v[2:3], off", isa_class::vmem},
        {"buffer_store_dword v0, off, s[0:3], 0", isa_class::vmem},
        {"flat_atomic_add v[0:1], v2", isa_class::vmem},
        {"scratch_load_dword v0, off, s0", isa_class::vmem},
        {"ds_read_b32 v1, v0", isa_class::lds},
        {"ds_bpermute_b32 v1, v0, v2", isa_class::lds},
        {"exp mrt0 v0, v0, v0, v0 done vm", isa_class::other},
        // RDNA 3 and 4 (gfx11, gfx12), as llvm-objdump-22 writes them
        {"v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5", isa_class::valu},
        {"v_fmac_f32_e32 v3, s2, v2", isa_class::valu},
        {"s_delay_alu instid0(VALU_DEP_1) | instskip(SKIP_1) | instid1(VALU_DEP_1)", isa_class::waitcnt},
        {"s_wait_loadcnt 0x0", isa_class::waitcnt},
        {"s_wait_kmcnt 0x0", isa_class::waitcnt},
        {"s_wait_loadcnt_dscnt 0x0", isa_class::waitcnt},
        {"s_wait_storecnt 0x0", isa_class::waitcnt},
        {"s_wait_alu 0xfffe", isa_class::waitcnt},
        {"s_load_b128 s[4:7], s[0:1], null", isa_class::smem},
        {"s_prefetch_data s[0:1], 0x0, null, 0", isa_class::smem},
        {"global_load_b32 v1, v0, s[0:1] offset:4", isa_class::vmem},
        {"buffer_load_b32 v0, off, s[0:3], null", isa_class::vmem},
        {"ds_load_b32 v3, v0", isa_class::lds},
        {"ds_store_b32 v0, v1", isa_class::lds},
        {"lds_param_load v0, attr0.x wait_vdst:0", isa_class::lds},
        {"s_barrier_signal -1", isa_class::salu},
        {"s_barrier_wait 0xffff", isa_class::salu}, // as gfx9-11's s_barrier
        {"s_call_b64 s[30:31], 8", isa_class::branch},
        {"s_and_saveexec_b32 s3, vcc_lo", isa_class::salu},
        {"export mrt0 v0, v0, v0, v0 done", isa_class::other},
    };
    for (const auto& [text, c] : known) {
        BOOST_TEST_INFO(text);
        BOOST_CHECK_EQUAL(int(wb::classify(text)), int(c));
    }
    for (const char* w : {"s_and_saveexec_b64 s[0:1], vcc", "s_mov_b64 exec, s[0:1]", "s_or_b32 exec_lo, exec_lo, s0",
                          "s_andn2_wrexec_b64 s[2:3], s[4:5]", "v_cmpx_gt_u32_e32 s0, v0",
                          "s_and_saveexec_b32 s3, vcc_lo", "v_cmpx_lt_i32_e32 0, v1"}) {
        BOOST_TEST_INFO(w);
        BOOST_CHECK(wb::writes_exec(w));
    }
    for (const char* r : {"s_mov_b64 s[0:1], exec", "v_add_u32 v0, v1, v2", "s_cbranch_execz .LBB0_2"}) {
        BOOST_TEST_INFO(r);
        BOOST_CHECK(!wb::writes_exec(r));
    }
    const auto mix = wb::count_mix({"v_add_u32 v0, v1, v2", "s_mov_b64 exec, s[0:1]", "s_endpgm"});
    BOOST_CHECK_EQUAL(mix[isa_class::valu], 1);
    BOOST_CHECK_EQUAL(mix[isa_class::salu], 2);
    BOOST_CHECK_EQUAL(mix.exec_writes, 1);
    BOOST_CHECK_EQUAL(mix.total, 3);
}

BOOST_AUTO_TEST_CASE(a_kernel_disassembles_into_what_its_source_does, *boost::unit_test::precondition(amd_built))
{
    // saxpy: one guarded load-multiply-add-store; transpose_tile: LDS and a barrier.
    bool seen = false;
    for (const auto& k : wb::read_amd_kernels(foreign(), true)) {
        BOOST_TEST_INFO(k.target + " " + k.name + " " + k.instructions_missing);
        BOOST_REQUIRE(k.instructions_missing.empty()); // comgr, or the newest llvm-objdump that knows the target
        seen = true;
        BOOST_REQUIRE(!k.instructions.empty());
        BOOST_CHECK_EQUAL(k.instructions.back().substr(0, 8), "s_endpgm");
        const auto m = wb::count_mix(k.instructions);
        BOOST_CHECK_EQUAL(m[wb::isa_class::other], 0);
        BOOST_CHECK_GT(m[wb::isa_class::vmem], 0);
        BOOST_CHECK_GT(m[wb::isa_class::smem], 0); // the kernel arguments
        BOOST_CHECK_GT(m[wb::isa_class::waitcnt], 0);
        if (k.name == "saxpy") {
            BOOST_CHECK_EQUAL(m[wb::isa_class::lds], 0);
            BOOST_CHECK_GE(m.exec_writes, 1); // the bounds check masks lanes off
            BOOST_CHECK(std::any_of(k.instructions.begin(), k.instructions.end(), [](const std::string& i) {
                return i.starts_with("v_fma") || i.starts_with("v_fmac") || i.starts_with("v_mac");
            }));
        } else {
            BOOST_CHECK_GT(m[wb::isa_class::lds], 0);
        }
    }
    BOOST_CHECK(seen);
}

/// A file of raw bytes, removed at scope exit.
struct temp_file {
    explicit temp_file(const std::string& bytes)
    {
        char name[] = "/tmp/wavebench-bundle-XXXXXX";
        const int fd = mkstemp(name);
        path = name;
        if (fd >= 0) {
            BOOST_REQUIRE_EQUAL(::write(fd, bytes.data(), bytes.size()), ssize_t(bytes.size()));
            ::close(fd);
        }
    }
    ~temp_file() { fs::remove(path); }
    fs::path path;
};

std::string u64(uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }

/// A bundle index with one entry; its offset, size and name length come from the caller.
std::string bundle(uint64_t offset, uint64_t size, uint64_t id_size, const std::string& id)
{
    return "__CLANG_OFFLOAD_BUNDLE__" + u64(1) + u64(offset) + u64(size) + u64(id_size) + id + std::string(64, '\0');
}

BOOST_AUTO_TEST_CASE(malformed_bundles_are_errors_not_crashes, *boost::unit_test::precondition(amd_built))
{
    const std::string id = "hipv4-amdgcn-amd-amdhsa--gfx90a";
    // An offset and size that wrap around 2^64 when added: must not pass the bounds check.
    for (const auto& bytes : {bundle(~uint64_t(0) - (uint64_t(1) << 32) + 1, uint64_t(1) << 32, id.size(), id),
                              bundle(48, 1 << 20, id.size(), id),             // runs past the file
                              bundle(48, 16, ~uint64_t(0) - 8, id),           // a name longer than the file
                              std::string("CCOB") + std::string(60, '\1')}) { // compressed (ROCm 6)
        temp_file f(bytes);
        BOOST_CHECK_THROW(wb::read_amd_kernels(f.path), std::runtime_error);
    }
}

/// The one error read_amd_file gives for `bytes`, in a file.
wb::amd_read_error only_error(const std::string& bytes)
{
    temp_file f(bytes);
    const wb::amd_file_figures read = wb::read_amd_file(f.path);
    BOOST_CHECK(read.kernels.empty());
    BOOST_REQUIRE_EQUAL(read.errors.size(), 1u);
    return read.errors[0];
}

/// A bundle index with one entry of `size` bytes right after it (filled with 1s, then zero padding).
std::string bundle_of(const std::string& id, uint64_t size)
{
    const uint64_t offset = 24 + 8 + 24 + id.size();
    return bundle(offset, size, id.size(), id).substr(0, offset) + std::string(size, '\1') + std::string(64, '\0');
}

BOOST_AUTO_TEST_CASE(each_error_names_the_bundle_entry_and_the_field, *boost::unit_test::precondition(amd_built))
{
    // A hostile target name is refused for its form, before anything is done with it.
    for (const std::string id :
         {"hipv4-amdgcn-amd-amdhsa--gfx940;touch /tmp/wavebench-hostile", "hipv4-amdgcn-amd-amdhsa--gfx940$(reboot)",
          "hipv4-amdgcn-amd-amdhsa--gfx90a\x1b[2J"}) {
        const auto e = only_error(bundle_of(id, 16));
        BOOST_CHECK_EQUAL(e.field, "entry ID");
        BOOST_CHECK_EQUAL(e.entry.substr(0, 30), id.substr(0, 30));
        BOOST_CHECK(std::all_of(e.entry.begin(), e.entry.end(), [](char c) { return c >= 0x20 && c < 0x7f; }));
    }
    auto e = only_error(bundle_of("hipv4-amdgcn-amd-amdhsa--gfx9999", 16)); // a target ID, but no processor
    BOOST_CHECK_EQUAL(e.field, "target");
    e = only_error(bundle_of("hipv4-amdgcn-amd-amdhsa--gfx90a", 16)); // not an ELF file
    BOOST_CHECK_EQUAL(e.entry, "hipv4-amdgcn-amd-amdhsa--gfx90a");
    BOOST_CHECK_EQUAL(e.field, "ELF header");
    e = only_error(bundle(48, 16, 0, "") + "x"); // an entry count of 1 whose entry has no ID
    BOOST_CHECK_EQUAL(e.field, "entry ID size");
    std::string none = bundle(0, 0, 0, "");
    none.replace(24, 8, u64(0)); // no entries at all, and nothing after the index
    e = only_error(none.substr(0, 32));
    BOOST_CHECK_EQUAL(e.field, "entry count");
    BOOST_CHECK(e.entry.empty());
    // The message names both.
    temp_file f(bundle_of("hipv4-amdgcn-amd-amdhsa--gfx940;ls", 16));
    try {
        wb::read_amd_kernels(f.path);
        BOOST_ERROR("no error");
    } catch (const std::runtime_error& x) {
        BOOST_CHECK_EQUAL(std::string(x.what()).find("bundle entry 'hipv4-amdgcn-amd-amdhsa--gfx940;ls', entry ID: "),
                          0u);
    }
}

BOOST_AUTO_TEST_CASE(target_ids_are_read_by_their_grammar)
{
    using wb::amdgpu::is_target_id;
    for (const char* good : {"gfx90a", "gfx1030", "gfx90a:xnack-", "gfx90a:sramecc+:xnack-", "gfx940:some_thing2+"}) {
        BOOST_TEST_INFO(good);
        BOOST_CHECK(is_target_id(good));
    }
    for (const char* bad :
         {"", "gfx", "gfx90a;", "gfx940;touch x", "gfx940$(x)", "GFX90a", "gfx90A", "gfx90a:", "gfx90a:xnack",
          "gfx90a:XNACK+", "gfx90a::xnack+", "gfx123456789", "gfx90a:xnack+ ", "gfx90a:xnack-:", "gfx90g", " gfx90a"}) {
        BOOST_TEST_INFO(bad);
        BOOST_CHECK(!is_target_id(bad));
    }
}

BOOST_AUTO_TEST_CASE(the_one_table_of_processors_is_consistent)
{
    // core/amd/targets.h is the one table of processors: EF_AMDGPU_MACH codes, features, AGPRs and
    // the resources occupancy counts; the occupancy model finds its targets there.
    namespace gpu = wb::amdgpu;
    for (const auto& p : gpu::processors) {
        BOOST_TEST_INFO(p.name);
        BOOST_CHECK_EQUAL(gpu::find_processor(p.mach), &p); // no code twice
        BOOST_CHECK_EQUAL(gpu::find_processor(std::string_view(p.name)), &p);
        BOOST_CHECK(gpu::is_target_id(p.name));
        BOOST_CHECK_EQUAL(std::string_view(p.name).ends_with("-generic"), p.generic);
        BOOST_CHECK_EQUAL(wb::find_amd_target(p.name), gpu::modelled(p) ? &p : nullptr);
        if (!gpu::modelled(p)) continue;
        const gpu::resources& r = p.r;
        BOOST_CHECK(r.default_wave == 64 ? p.major < 10 : p.major >= 10); // wave64 on gfx9, wave32 on gfx10+
        BOOST_CHECK(gpu::runs_wave(p, 64));
        BOOST_CHECK_EQUAL(gpu::runs_wave(p, 32), p.major >= 10); // RDNA runs both
        BOOST_CHECK_EQUAL(r.sgpr_limit, p.major < 10);
        BOOST_CHECK_EQUAL(r.wgp, p.major >= 10);
        BOOST_CHECK_EQUAL(r.simds_per_cu, p.major >= 10 ? 2 : 4);
        BOOST_CHECK_EQUAL(r.vgprs64 % r.vgpr_granule64, 0);
        if (r.vgprs32) BOOST_CHECK_EQUAL(r.vgprs32, 2 * r.vgprs64); // a wave64 register is two wave32 ones
        // The unified VGPR/AGPR file is twice the VGPRs a wave can address.
        BOOST_CHECK_EQUAL(r.vgprs64 == 512 && p.major == 9, p.agpr == gpu::agprs::unified);
    }
    BOOST_CHECK_EQUAL(gpu::find_processor(std::string_view("gfx950"))->r.lds_per_cu, 160u * 1024);
    BOOST_CHECK_EQUAL(gpu::find_processor(std::string_view("gfx1201"))->r.vgprs32, 1536); // 1.5x the file
    BOOST_CHECK_EQUAL(gpu::find_processor(std::string_view("gfx1102"))->r.vgprs32, 1024);
    BOOST_CHECK_EQUAL(gpu::find_processor(uint8_t(0x51))->name, std::string("gfx9-generic"));
    BOOST_CHECK_EQUAL(gpu::find_processor(uint8_t(0x4e))->name, std::string("gfx1201"));
    for (const char* id : {"gfx9-generic", "gfx9-4-generic:sramecc+", "gfx12-generic", "gfx10-3-generic"})
        BOOST_CHECK_MESSAGE(gpu::is_target_id(id), id);
    for (const char* id : {"gfx9-", "gfx9-generic-", "gfx9-4-genericx", "gfx-generic", "gfx9-4-:generic"})
        BOOST_CHECK_MESSAGE(!gpu::is_target_id(id), id);
}

BOOST_AUTO_TEST_CASE(a_baseline_not_as_written_is_refused_saying_why)
{
    const json good{{"kernels", {kernel("a", 64, 8)}}};
    BOOST_CHECK_NO_THROW(wb::check_baseline(good));
    json missing = good;
    missing["kernels"][0].erase("symbol");
    json mistyped = good;
    mistyped["kernels"][0]["vgprs"] = "64";
    for (const auto& [b, says] :
         std::vector<std::pair<json, std::string>>{{json::array(), "no \"kernels\""},
                                                   {json{{"kernels", 1}}, "no \"kernels\""},
                                                   {missing, "kernel 0 has no string \"symbol\""},
                                                   {mistyped, "kernel 0 has no whole number \"vgprs\""}}) {
        BOOST_TEST_INFO(b.dump());
        try {
            wb::compare_baseline(b, good);
            BOOST_ERROR("accepted");
        } catch (const std::invalid_argument& e) {
            BOOST_CHECK_NE(std::string(e.what()).find(says), std::string::npos);
        }
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE_END()
