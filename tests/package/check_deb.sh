#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# check_deb.sh CPACK CPACK_CONFIG SCRATCH VERSION GUI(ON|OFF) [PYTHON(ON|OFF) PYTHON3]
# Builds the .deb with CPack into SCRATCH, unpacks it with dpkg -x and checks what a user would
# notice: the control fields, the installed files, and that the unpacked migsight-cli runs from
# there and reads the catalogs installed beside it.
set -euo pipefail
cpack=$1 config=$2 scratch=$3 version=$4 gui=$5 python=${6:-OFF} python3=${7:-python3}

fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "-- $*"; }

rm -rf "$scratch"
mkdir -p "$scratch"
step "cpack -G DEB"
"$cpack" --config "$config" -G DEB -B "$scratch/out" >"$scratch/cpack.log" 2>&1 ||
    { cat "$scratch/cpack.log" >&2; fail "cpack failed"; }
mapfile -t debs < <(find "$scratch/out" -maxdepth 1 -name '*.deb')
[ "${#debs[@]}" -eq 1 ] || fail "expected one .deb in $scratch/out, found ${#debs[@]}"
deb=${debs[0]}
echo "   $(basename "$deb"): $(du -h "$deb" | cut -f1)"

step "control fields"
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = migsight ] || fail "Package is '$(field Package)'"
[ "$(field Version)" = "$version" ] || fail "Version is '$(field Version)', expected $version"
[ "$(field Section)" = science ] || fail "Section is '$(field Section)'"
depends=$(field Depends)
echo "   Depends: $depends"
# Named in installer/CMakeLists.txt, and found by dpkg-shlibdeps (proof that it ran).
needed=(libqt6sql6-sqlite libqt6svg6 libc6 libstdc++6)
if [ "$gui" = ON ]; then needed+=(libqt6widgets6); fi
for dep in "${needed[@]}"; do
    grep -qE "(^|, )${dep//+/\\+}( |,|$)" <<<"$depends" || fail "Depends lacks $dep"
done

step "dpkg -x"
root=$scratch/root
dpkg -x "$deb" "$root"
expect=(usr/bin/migsight-cli usr/share/migsight/catalogs/a100-40gb.json usr/share/migsight/samples/quickstart.json
        usr/share/icons/hicolor/scalable/apps/migsight.svg usr/share/migsight/icons/migsight.svg
        usr/share/doc/migsight/LICENSE.md
        usr/share/doc/migsight/copyright)
if [ "$gui" = ON ]; then
    expect+=(usr/bin/migsight usr/share/applications/migsight.desktop)
fi
for f in "${expect[@]}"; do
    [ -e "$root/$f" ] || fail "the package lacks /$f"
done
cli=$root/usr/bin/migsight-cli

# Run it from a neutral folder with no resource override: it must use its own share/migsight.
cd "$scratch"
unset MIGSIGHT_RESOURCES

step "migsight-cli --version"
out=$("$cli" --version) || fail "migsight-cli --version exited $?"
echo "   $out"
[ "$out" = "migsight-cli $version" ] || fail "expected 'migsight-cli $version'"

step "migsight-cli layouts --gpu A100-40GB --maximal --json"
"$cli" layouts --gpu A100-40GB --maximal --json >"$scratch/layouts.json" ||
    fail "layouts exited $? ($(head -c 400 "$scratch/layouts.json"))"
[ -s "$scratch/layouts.json" ] || fail "layouts printed nothing"
# The whole-GPU instance is one of the A100-40GB's maximal layouts.
grep -q '"profile":"7g.40gb"' "$scratch/layouts.json" || fail "no 7g.40gb layout in the output"
echo "   $(wc -c <"$scratch/layouts.json") bytes of JSON"

step "migsight-cli simulate (installed quickstart sample)"
"$cli" simulate "$root/usr/share/migsight/samples/quickstart.json" --json >"$scratch/simulate.json" ||
    fail "simulate of the installed quickstart sample exited $?"

if [ "$gui" = ON ]; then
    step "migsight --version and a screenshot of the installed default session (offscreen)"
    out=$("$root/usr/bin/migsight" --version) || fail "migsight --version exited $?"
    [ "$out" = "migsight $version" ] || fail "migsight --version printed '$out', expected 'migsight $version'"
    QT_QPA_PLATFORM=offscreen QT_QPA_FONTDIR=/usr/share/fonts/truetype/dejavu \
        "$root/usr/bin/migsight" --screenshot "$scratch/screenshot.png" >"$scratch/gui.log" 2>&1 ||
        { cat "$scratch/gui.log" >&2; fail "migsight --screenshot exited non-zero"; }
    file -b "$scratch/screenshot.png" | grep -q '^PNG image' || fail "no PNG screenshot was written"
    if grep -q "Cannot open file '$root" "$scratch/gui.log"; then
        cat "$scratch/gui.log" >&2; fail "the installed studio misses a file of its package"
    fi
fi

if [ "$python" = ON ]; then
    step "python3: import migsight from the package and simulate the installed quickstart sample"
    mapfile -t mods < <(find "$root/usr/lib/python3/dist-packages" -name 'migsight*.so' 2>/dev/null)
    [ "${#mods[@]}" -eq 1 ] || fail "the package lacks /usr/lib/python3/dist-packages/migsight*.so"
    PYTHONPATH="$root/usr/lib/python3/dist-packages" "$python3" -c "
import os, migsight
assert migsight.resource_dir() == '$root/usr/share/migsight', migsight.resource_dir()
m = migsight.Scenario('$root/usr/share/migsight/samples/quickstart.json').run()['metrics']
assert m['completed'] > 0, m
print('   migsight', migsight.__version__, 'ET', m['et'])" || fail "the packaged Python module does not work"
fi

# Control: with the installed catalog broken, the same command must fail. This proves the
# binary read share/migsight from the package, not the catalogs of the source tree it was
# built from.
step "control: a broken installed catalog must make layouts fail"
echo '{ broken' >"$root/usr/share/migsight/catalogs/a100-40gb.json"
if "$cli" layouts --gpu A100-40GB --maximal --json >/dev/null 2>&1; then
    fail "migsight-cli ignored usr/share/migsight next to it (it read another catalog)"
fi

echo "package test passed: $(basename "$deb")"
