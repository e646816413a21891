# wavebench: the two commands.
#   make run    install what is missing, build (Release) what running here needs, run suites/quick.toml
#               on the best platform: the harness and the cpu platform, and a GPU platform only where
#               its GPU is present (PLATFORMS="cpu amd" builds those instead)
#   make all    build everything: every platform this machine can compile for, and the tests
#   make test   install what is missing, build everything, run the tests (ctest)
#   make amd-baseline   refresh tests/baselines/amd-resources.json on purpose
#   make regression-baseline   on a GPU machine: refresh results/<gpu>/regression-baseline.json
#   make asan   build with AddressSanitizer + UBSan (cpu only, build-asan/) and run every test
#   make fuzz   build the libFuzzer targets with clang (build-fuzz/), fuzz each a while (tests/fuzz/README.md)
#   make format        clang-format the C++/HIP/CUDA sources in place with .clang-format (tools/format.sh;
#                      installs Debian's clang-format, version 14, where it is missing)
#   make format-check  change nothing; fail listing the files that drift from it (CI runs it)
# Both install missing Debian 12 packages with apt-get (as root, or through sudo): chromium for the
# report's test; libpq-dev for the PostgreSQL history's module and postgresql for its test;
# slurm-wlm and munge for tools/slurm's test (a one-node Slurm); Debian's nodejs and npm only
# where there is no npm (the build vendors the report's Vega from the npm registry; a Node.js from
# elsewhere brings its own npm).
# The amd platform's default compiler is Debian's clang-22, the one that knows every default AMD
# target (cmake/amd_toolchain.cmake); apt-get runs with --no-install-recommends, so what its HIP
# compile runs is named: lld-22 (the device code's linker) and clang-tools-22 (clang-offload-bundler,
# which writes the fat binary); llvm-22 is not needed to compile, but brings the llvm-objdump and
# llvm-readobj that know the new targets (inspect's disassembly). hipcc brings the ROCm 5.2 device
# libraries (rocm-device-libs), and stays a compiler to choose (-DWAVEBENCH_HIP_COMPILER=hipcc).

PACKAGES := cmake ninja-build g++ python3 libboost-dev libboost-test-dev libboost-context-dev \
            libxsimd-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev libsqlite3-dev \
            libpq-dev postgresql slurm-wlm munge \
            hipcc libamdhip64-dev librocprim-dev libamd-comgr-dev libelf-dev clang-15 chromium \
            clang-22 lld-22 clang-tools-22 llvm-22 \
            librocm-smi-dev libeigen3-dev
PRESET   := release
# Empty: what plugins/CMakeLists.txt's wavebench-run holds (cpu, and the GPU platforms whose GPU is here).
PLATFORMS :=
RUN_TARGETS := $(if $(strip $(PLATFORMS)),$(addprefix wavebench-,$(PLATFORMS)),wavebench-run)
RESULTS  := build/results/quick.json
FUZZ_SECONDS := 60

.PHONY: run test all build configure deps clean amd-baseline regression-baseline asan fuzz format format-check format-deps

# The Debian packages of $(1) that are not installed, installed with apt-get (as root, or through
# sudo); $(2) is shell run before that, which may add more to $$missing.
define apt_install
@missing="$$(for p in $(1); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done)"; \
$(2) \
if [ -n "$$missing" ]; then \
  echo "installing missing Debian packages:" $$missing; \
  if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
  else echo "error: installing $$missing needs root (run as root, or install them)"; exit 1; fi; \
  $$sudo apt-get update -qq && \
  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
fi
endef

run: configure
	cmake --build --preset $(PRESET) --target $(RUN_TARGETS)
	./build/bin/wavebench run suites/quick.toml --out $(RESULTS)

test: build
	ctest --preset $(PRESET)

all: build

build: configure
	cmake --build --preset $(PRESET)

configure: deps
	cmake --preset $(PRESET)

deps:
	$(call apt_install,$(PACKAGES),command -v npm >/dev/null || missing="$$missing nodejs npm";)

# Refreshes the AMD resource baseline on purpose (after a change meant to move the figures;
# `git diff tests/baselines/` then shows what moved).
amd-baseline: configure
	cmake --build --preset $(PRESET) --target wavebench-amd
	env -u WAVEBENCH_PLUGIN_PATH ./build/bin/wavebench inspect --platform amd \
	    --write-baseline tests/baselines/amd-resources.json >/dev/null

# Refreshes the GPU regression baseline of the GPU present on purpose (after a change meant to
# move the times): suites/regression.toml into results/<gpu>/regression-baseline.json, which
# `ctest -L gpu` compares with.
regression-baseline: build
	python3 -B tests/gpu_regression.py build . --refresh

# The same tests under AddressSanitizer and UBSan (g++ brings libasan8 and libubsan1). The flags
# and the run-time options are in CMakePresets.json, preset asan: any report fails its test; leaks
# too. allocator_may_return_null=1: hipMalloc of an impossible size must come back as
# hipErrorOutOfMemory, not abort; handle_segv=0: a crashing plugin must die of SIGSEGV, which
# the crash-isolation tests check. -O1 -g1 (line tables: reports still name file and line) and
# -fno-sanitize-address-use-after-scope: a harness file compiled in 30 s instead of 49 s with -g
# and the scope checks, a test in 24 s instead of 39 s at -O2, and this stage's build is most of CI's time.
asan: deps
	cmake --preset asan
	cmake --build --preset asan
	ctest --preset asan

# Fuzzes each target FUZZ_SECONDS (the two at once) and replays every regression input; clang-15
# (hipcc's) brings libFuzzer. tests/fuzz/README.md says how to fuzz longer.
fuzz: deps
	cmake --preset fuzz
	cmake --build --preset fuzz
	WAVEBENCH_FUZZ_SECONDS=$(FUZZ_SECONDS) ctest --preset fuzz --parallel 2

# clang-format 14 (Debian 12's clang-format) over the tracked C++, HIP and CUDA sources; the file
# list and the check are tools/format.sh's.
format: format-deps
	tools/format.sh

format-check: format-deps
	tools/format.sh --check

format-deps:
	$(call apt_install,clang-format,)

clean:
	rm -rf build
