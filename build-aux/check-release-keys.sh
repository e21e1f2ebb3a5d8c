#!/usr/bin/env bash
# A plain release build (as the Flatpak builds it) never trusts a test key. With a licence signed by
# a key made here and BILLFOLD_TEST_LICENSE_PUBLIC_KEY naming that key, the debug build must report
# Billfold Pro and the release build the free plan.
#
#   build-aux/check-release-keys.sh DEBUG_BILLFOLD RELEASE_BILLFOLD BILLFOLD_LICENSE_TOOL
set -euo pipefail
debug=$1 release=$2 tool=$3
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT

"$tool" keygen --out "$home/keys" >/dev/null
mkdir -p "$home/config/billfold"
"$tool" issue --key "$home/keys/billfold-license.key" --name "Release Check" --email check@example.com \
    --plan lifetime --id RELEASE-CHECK --out "$home/config/billfold/license.billfold-license" >/dev/null
key=$(grep -v '^#' "$home/keys/billfold-license.pub" | tr -d '[:space:]')

plan() {
    env -i PATH=/usr/bin:/bin HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_DATA_HOME="$home/data" \
        XDG_CACHE_HOME="$home/cache" LANG=C.UTF-8 BILLFOLD_TEST_LICENSE_PUBLIC_KEY="$key" \
        "$1" license status | head -n 1
}

passed=0 failed=0
check() {
    if [ "$2" = "$3" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "✘ $1: “$2”, expected “$3”"; fi
}
check "debug build with the test key" "$(plan "$debug")" "Billfold Pro"
check "plain release build with the test key" "$(plan "$release")" "Free"
echo "release-keys: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
