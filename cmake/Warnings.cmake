# SPDX-License-Identifier: GPL-3.0-or-later
# migsight_target_defaults(TARGET): warnings (as errors unless MIGSIGHT_WERROR is OFF) and the
# floating-point settings that keep results bit-identical across builds (no FMA contraction).
function(migsight_target_defaults target)
    target_compile_options(${target} PRIVATE
        -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast -Wcast-align
        -Woverloaded-virtual
        -ffp-contract=off)
    if(MIGSIGHT_WERROR)
        target_compile_options(${target} PRIVATE -Werror)
    endif()
endfunction()
