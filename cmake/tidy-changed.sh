#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# clang-tidy-14 with the checked-in .clang-tidy over the C++ files a change touches (`make tidy`,
# and `make test` after the build, so CI runs it). Which files: those changed since the merge base
# with origin/main (committed or not), or HEAD's last commit where there is no such base (a clean
# CI clone, a checkout without that remote, or HEAD on origin/main itself); TIDY_BASE=REV
# overrides the base, TIDY_ALL=1 takes every source of the compile database. A changed header
# brings in the .cpp of the same name, where clang-tidy sees it (HeaderFilterRegex).
#
# Usage: cmake/tidy-changed.sh [BUILD_DIR]   (default build/dev; needs its compile_commands.json)
# Exit status: 0 when no kept check fires, 1 otherwise (the findings are printed), 2 on a setup error.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

build=${1:-build/dev}
tidy=${CLANG_TIDY:-clang-tidy-14}
jobs=${TIDY_JOBS:-2}
db="$build/compile_commands.json"

command -v "$tidy" >/dev/null || { echo "tidy: $tidy not found (Debian package clang-tidy-14)" >&2; exit 2; }
[ -f "$db" ] || { echo "tidy: $db missing: configure and build first (make build)" >&2; exit 2; }

# The database clang-tidy reads ($build/tidy). The studio's precompiled header is GCC's (.gch),
# which clang cannot read: the copy is without it (clang parses the header's text instead); GCC-only
# warning flags and -Werror are the compiler's business, not clang-tidy's. A unity build
# (cmake/Unity.cmake) lists only its batch files (Unity/unity_N_cxx.cxx): each source of a batch
# gets the batch's command in the copy, so the sources are checked one by one as without it.
tidydb="$build/tidy"
mkdir -p "$tidydb"
python3 - "$db" "$tidydb/compile_commands.json.tmp" <<'PY'
import json, re, sys
entries = []
for e in json.load(open(sys.argv[1])):
    cmd = e["command"].replace(" -Winvalid-pch", "")
    cmd = re.sub(r" -include [^ \"]*cmake_pch\.hxx", "", cmd)
    e["command"] = cmd
    if re.search(r"/Unity/unity_[0-9]+_cxx\.cxx$", e["file"]):
        for src in re.findall(r'^#include "(.*)"$', open(e["file"]).read(), re.M):
            entries.append({"directory": e["directory"], "command": cmd.replace(e["file"], src), "file": src})
    else:
        entries.append(e)
json.dump(entries, open(sys.argv[2], "w"), indent=1)
PY
mv "$tidydb/compile_commands.json.tmp" "$tidydb/compile_commands.json"

# Sources of the compile database below the project's own folders (not generated moc files).
mapfile -t known < <(sed -n 's/^ *"file": "\(.*\)",\{0,1\}$/\1/p' "$tidydb/compile_commands.json" |
    grep -E "^$PWD/(app|ui|model|simcore|policies|tests|bench|python|tools)/" | sort -u)

if [ -z "${TIDY_ALL:-}" ] && ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    echo "tidy: not a git checkout, so no change to check (TIDY_ALL=1 checks every source)"
    exit 0
fi
if [ -n "${TIDY_ALL:-}" ]; then
    changed=("${known[@]#"$PWD/"}")
    what="every source of $db"
else
    base=${TIDY_BASE:-}
    if [ -z "$base" ] && git rev-parse -q --verify origin/main >/dev/null; then
        base=$(git merge-base HEAD origin/main 2>/dev/null || true)
        [ "$base" = "$(git rev-parse HEAD)" ] && base=""
    fi
    if [ -n "$base" ]; then
        mapfile -t changed < <(git diff --name-only --diff-filter=ACMR "$base" -- '*.cpp' '*.h')
        what="files changed since $(git rev-parse --short "$base")"
    elif git rev-parse -q --verify HEAD~1 >/dev/null; then
        mapfile -t changed < <(git diff --name-only --diff-filter=ACMR HEAD~1 -- '*.cpp' '*.h')
        what="files of HEAD's last commit and the uncommitted change"
    else
        mapfile -t changed < <(git ls-files -- '*.cpp' '*.h')
        what="every tracked file (a single commit)"
    fi
fi

# New files not yet added count as changed too.
if [ -z "${TIDY_ALL:-}" ]; then
    mapfile -t -O "${#changed[@]}" changed < <(git ls-files --others --exclude-standard -- '*.cpp' '*.h')
fi

is_known() {
    local k
    for k in "${known[@]}"; do
        [ "$k" = "$PWD/$1" ] && return 0
    done
    return 1
}

# The translation units to run: changed .cpp files; for a changed .h, its .cpp beside it, or else
# the first two sources of the database that include it.
units=()
for f in "${changed[@]}"; do
    [ -n "$f" ] || continue
    case "$f" in
        *.cpp) is_known "$f" && units+=("$f") ;;
        *.h)
            if is_known "${f%.h}.cpp"; then
                units+=("${f%.h}.cpp")
            else
                mapfile -t -O "${#units[@]}" units < <(grep -lF "#include \"$(basename "$f")\"" "${known[@]}" |
                    head -n 2 | sed "s#^$PWD/##")
            fi
            ;;
    esac
done
mapfile -t units < <(printf '%s\n' "${units[@]}" | sed '/^$/d' | sort -u)
if [ "${#units[@]}" -eq 0 ]; then
    echo "tidy: no C++ translation unit among the $what; nothing to check"
    exit 0
fi

echo "tidy: $tidy on ${#units[@]} translation units ($what), $jobs at a time:"
printf '    %s\n' "${units[@]}"
start=$SECONDS
log="$tidydb/findings.txt"
: >"$log"
status=0
printf '%s\n' "${units[@]}" |
    xargs -P "$jobs" -I{} sh -c '"$0" -p "$1" --quiet --extra-arg=-Wno-unknown-warning-option \
        --extra-arg=-Wno-error "$2" >"$3.$$" 2>&1 || { cat "$3.$$" >>"$3"; rm -f "$3.$$"; exit 1; }; \
        rm -f "$3.$$"' "$tidy" "$tidydb" {} "$log" || status=1
if [ "$status" -ne 0 ]; then
    grep -E '(warning|error):' "$log" | sort -u >&2 || cat "$log" >&2
    echo "tidy: findings above (.clang-tidy lists the checks and why the others are off); full output in $log" >&2
    exit 1
fi
echo "tidy: clean ($((SECONDS - start)) s)"
