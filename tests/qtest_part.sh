#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs part of a Qt Test executable, so that one long suite can be two CTest tests that
# `ctest -j2` runs side by side (migsight_add_qtest(... PART_ONE fn...), tests/CMakeLists.txt).
#   qtest_part.sh EXE only FN...     the named test functions
#   qtest_part.sh EXE except FN...   every other test function of EXE (as `EXE -functions` lists
#                                    them), so that a function added later runs in this part
set -euo pipefail
exe=$1
mode=$2
shift 2
case "$mode" in
    only) exec "$exe" "$@" ;;
    except)
        mapfile -t rest < <("$exe" -functions | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)()$/\1/p' |
            grep -vxF -f <(printf '%s\n' "$@"))
        if [ "${#rest[@]}" -eq 0 ]; then
            echo "qtest_part.sh: $exe has no test function besides: $*" >&2
            exit 1
        fi
        exec "$exe" "${rest[@]}"
        ;;
    *)
        echo "usage: qtest_part.sh EXE only|except FN..." >&2
        exit 2
        ;;
esac
