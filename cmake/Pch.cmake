# SPDX-License-Identifier: GPL-3.0-or-later
# Precompiled headers (README, "Building"): the studio library includes Qt Widgets (and its chart
# files QCustomPlot) in almost every file; parsing them again per file was about half of its clean
# build's CPU time (737 s user CPU without, 360 s with). migsight_precompile(TARGET studio|widgets|core)
# gives a target one precompiled header of the standard library and Qt headers it uses everywhere.
# Only the studio library uses one. A precompiled header with debug information is 270-410 MB, so
# one per test folder (tried) took 2.8 GB and filled a fresh machine's tmpfs build; the simulation
# libraries (simcore, policies, model) are small per file and build exactly as before.
option(MIGSIGHT_PCH "Precompile the Qt, QCustomPlot and standard headers of the studio library" ON)

set(migsight_pch_std <algorithm> <functional> <map> <memory> <optional> <set> <string> <utility> <vector>)
set(migsight_pch_core <QtCore/QtCore> ${migsight_pch_std})
set(migsight_pch_widgets <QtWidgets/QtWidgets> ${migsight_pch_core})
# The studio library also precompiles QCustomPlot's header (about 8 s of parsing per chart file).
set(migsight_pch_studio <qcustomplot.h> ${migsight_pch_widgets})

# GCC 12 reports libstdc++'s own inline code (std::string's operator+, for one) under -Warray-bounds
# and its kin when the code comes through a precompiled header: the same files compile without a
# warning without one (the header's system-header status is not honoured there). Those checks are
# off in the targets with a precompiled header only; simcore, policies and model keep them.
function(migsight_pch_warnings target)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        target_compile_options(${target} PRIVATE -Wno-array-bounds -Wno-restrict -Wno-stringop-overflow
                                                 -Wno-stringop-overread)
    endif()
endfunction()

function(migsight_precompile target kind)
    if(NOT MIGSIGHT_PCH OR MIGSIGHT_FUZZ)
        return()
    endif()
    target_precompile_headers(${target} PRIVATE ${migsight_pch_${kind}})
    migsight_pch_warnings(${target})
endfunction()
