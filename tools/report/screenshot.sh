#!/bin/sh
# PNG screenshots of `wavebench report` pages in headless Chromium (Debian's chromium), as the
# ones in docs/regression.md are taken: tools/report/screenshot.sh REPORT.html OUT.png [HEIGHT [WIDTH [SCALE]]]
# takes WIDTH x HEIGHT CSS pixels from the top of the page (default 1400 x 1800), SCALE image
# pixels to each (default 1; 0.8 keeps a long page's PNG small). No request can leave: every host
# name resolves to nothing, and the page's own policy allows no fetch anyway.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 REPORT.html OUT.png [HEIGHT [WIDTH [SCALE]]]" >&2; exit 2; }
page=$(realpath "$1")
out=$(realpath -m "$2")
height=${3:-1800}
width=${4:-1400}
scale=${5:-1}
command -v chromium >/dev/null || { echo "error: chromium is not installed (apt-get install chromium)" >&2; exit 1; }
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --disable-gpu --no-sandbox --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --disable-extensions --hide-scrollbars \
    --host-resolver-rules="MAP * ~NOTFOUND" --user-data-dir="$profile" --force-device-scale-factor="$scale" \
    --virtual-time-budget=30000 --window-size="$width,$height" --screenshot="$out" "file://$page" 2>/dev/null
[ -s "$out" ] || { echo "error: chromium wrote no screenshot to $out" >&2; exit 1; }
echo "wrote $out ($(stat -c %s "$out") bytes)"
