# wavebench: the two commands.
#   make run    install what is missing, build (Release), run suites/quick.toml on the best platform
#   make test   install what is missing, build, run the tests (ctest)
#   make amd-baseline   refresh tests/baselines/amd-resources.json on purpose
# Both install missing Debian 12 packages with apt-get (as root, or through sudo).

PACKAGES := cmake ninja-build g++ python3 libboost-dev libboost-test-dev libboost-context-dev \
            libxsimd-dev libtomlplusplus-dev nlohmann-json3-dev libcli11-dev \
            hipcc libamdhip64-dev librocprim-dev libamd-comgr-dev libelf-dev
PRESET   := release
RESULTS  := build/results/quick.json

.PHONY: run test build configure deps clean amd-baseline

run: build
	./build/bin/wavebench run suites/quick.toml --out $(RESULTS)

test: build
	ctest --preset $(PRESET)

build: configure
	cmake --build --preset $(PRESET)

configure: deps
	cmake --preset $(PRESET)

deps:
	@missing="$$(for p in $(PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done)"; \
	if [ -n "$$missing" ]; then \
	  echo "installing missing Debian packages:" $$missing; \
	  if [ "$$(id -u)" = 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; \
	  else echo "error: installing $$missing needs root (run as root, or install them)"; exit 1; fi; \
	  $$sudo apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing; \
	fi

# Refreshes the AMD resource baseline on purpose (after a change meant to move the figures;
# `git diff tests/baselines/` then shows what moved).
amd-baseline: build
	env -u WAVEBENCH_PLUGIN_PATH ./build/bin/wavebench inspect --platform amd \
	    --write-baseline tests/baselines/amd-resources.json >/dev/null

clean:
	rm -rf build
