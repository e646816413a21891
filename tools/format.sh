#!/usr/bin/env bash
# clang-format over the project's C++, HIP and CUDA sources with the repo's .clang-format: `make format`
# rewrites them in place (tools/format.sh), `make format-check` and CI change nothing and fail listing
# the files that drift (tools/format.sh --check).
#
# The files: those git tracks with a C/C++/HIP/CUDA extension, so nothing of a build folder (the
# generated report_assets.cpp, the Vega scripts vendored from npm) is ever touched; EXCLUDE below
# names tracked paths to leave alone. The binary: clang-format-14 (Debian 12's package clang-format;
# another version lays code out differently), or the one CLANG_FORMAT names.
set -euo pipefail
self="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")"
cd "$(dirname "$self")/.."

CLANG_FORMAT=${CLANG_FORMAT:-clang-format-14}
SOURCES='\.(c|cc|cpp|cxx|h|hh|hpp|hxx|inl|hip|cu|cuh)$'
# tests/hip_samples/ and tests/sdk_compat/ are inputs kept as written: HIP programs laid out the
# way their authors would (the rewriter must take any layout), and the examples exactly as SDK 2.0 had them.
EXCLUDE='(^|/)(build[^/]*|node_modules|third_party|vendor)/|^tests/(hip_samples|sdk_compat)/'

check=0
case "${1:-}" in
  --check) check=1 ;;
  --drifts)  # (for --check) prints each of the files given that clang-format would change
    shift
    for f in "$@"; do "${CLANG_FORMAT:-clang-format-14}" --style=file "$f" | cmp -s - "$f" || echo "$f"; done
    exit 0 ;;
  "") ;;
  *) echo "usage: tools/format.sh [--check]" >&2; exit 2 ;;
esac

if ! command -v "$CLANG_FORMAT" >/dev/null; then
  echo "error: $CLANG_FORMAT not found: install Debian's clang-format (make format-deps does), or set CLANG_FORMAT" >&2
  exit 2
fi
echo "format: $(command -v "$CLANG_FORMAT") ($("$CLANG_FORMAT" --version))"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  mapfile -t files < <(git ls-files | grep -E "$SOURCES" | grep -Ev "$EXCLUDE" || true)
else  # a tarball: every such file outside build folders
  mapfile -t files < <(find . -type f | sed 's|^\./||' | grep -E "$SOURCES" | grep -Ev "$EXCLUDE" | sort || true)
fi

if [ "$check" = 0 ]; then
  printf '%s\0' "${files[@]}" | xargs -0 -n 16 -P "$(nproc)" "$CLANG_FORMAT" -i --style=file
  echo "format: ${#files[@]} files formatted"
  exit 0
fi

# Compared in parallel: each file's name comes back whole on its own line (one short write).
export CLANG_FORMAT
mapfile -t drift < <(printf '%s\0' "${files[@]}" | xargs -0 -n 16 -P "$(nproc)" "$self" --drifts | sort)
if [ "${#drift[@]}" -gt 0 ]; then
  echo "format: ${#drift[@]} of ${#files[@]} files differ from what $CLANG_FORMAT makes of them (make format rewrites them):"
  printf '  %s\n' "${drift[@]}"
  exit 1
fi
echo "format: ${#files[@]} files as $CLANG_FORMAT makes them"
