# SPDX-License-Identifier: GPL-3.0-or-later
# Precompiled headers (README, "Building"): the studio and the test suites include Qt's big headers in
# almost every file, and parsing them again per file was about half of a clean build's CPU time.
# migsight_precompile(TARGET studio|widgets|core) gives a target one precompiled header of the standard
# library and Qt headers it uses everywhere. The simulation libraries (simcore, policies, model)
# do not use one: they are small per file and must build exactly as before.
option(MIGSIGHT_PCH "Precompile the Qt and standard headers of the studio and the tests" ON)

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

# migsight_test_pch(TEST_TARGET widgets|core): one precompiled header per test folder and kind,
# built once in an object library and reused by every test of the folder (CMake's REUSE_FROM needs
# the same compile options, so the object library takes the test's definitions and libraries).
function(migsight_test_pch target kind)
    if(NOT MIGSIGHT_PCH OR MIGSIGHT_FUZZ)
        return()
    endif()
    get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
    set(pch pch_tests_${folder}_${kind})
    if(NOT TARGET ${pch})
        set(stub "${CMAKE_CURRENT_BINARY_DIR}/${pch}.cpp")
        file(WRITE "${stub}" "// The precompiled header of ${folder}'s ${kind} tests is built with this file.\n")
        add_library(${pch} OBJECT "${stub}")
        set_target_properties(${pch} PROPERTIES AUTOMOC OFF)
        get_target_property(libs ${target} LINK_LIBRARIES)
        target_link_libraries(${pch} PRIVATE ${libs})
        get_target_property(defs ${target} COMPILE_DEFINITIONS)
        target_compile_definitions(${pch} PRIVATE ${defs})
        get_target_property(dirs ${target} INCLUDE_DIRECTORIES)
        target_include_directories(${pch} PRIVATE ${dirs})
        migsight_target_defaults(${pch})
        migsight_pch_warnings(${pch})
        target_precompile_headers(${pch} PRIVATE <QtTest/QtTest> ${migsight_pch_${kind}})
    endif()
    target_precompile_headers(${target} REUSE_FROM ${pch})
    migsight_pch_warnings(${target})
endfunction()
