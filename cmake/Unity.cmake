# SPDX-License-Identifier: GPL-3.0-or-later
# Unity builds (README, "Building"): the simulation, policy, model and command-line libraries are
# many small files that each parse the same standard library, Qt Core and nlohmann/json headers;
# compiling them in batches parses those once per batch. migsight_unity(TARGET) turns it on for a
# target. Batches are small so that editing one file recompiles a few, not the whole library.
option(MIGSIGHT_UNITY "Compile the simulation, policy, model and CLI libraries in batches (unity build)" ON)
set(MIGSIGHT_UNITY_BATCH 8 CACHE STRING "Source files per unity batch")

function(migsight_unity target)
    if(NOT MIGSIGHT_UNITY OR MIGSIGHT_FUZZ)
        return()
    endif()
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${MIGSIGHT_UNITY_BATCH})
endfunction()
