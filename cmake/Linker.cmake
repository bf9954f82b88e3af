# SPDX-License-Identifier: GPL-3.0-or-later
# The linker (README, "Building"). With debug information the studio's executables are about 200 MB
# each and the dev build links about a hundred programs: relinking all of them took 185 s of CPU with
# GNU ld and 77 s with LLVM's lld (2026-12-07; README, "Building"), so lld is used when the compiler
# accepts it (Debian package lld; `make deps` installs it). MIGSIGHT_LLD=OFF keeps the system
# default. Linking changes no code: the objects and their order are the same.
include(CheckLinkerFlag)
option(MIGSIGHT_LLD "Link with LLVM's lld when the compiler accepts -fuse-ld=lld" ON)
if(MIGSIGHT_LLD)
    check_linker_flag(CXX "-fuse-ld=lld" migsight_have_lld)
    if(migsight_have_lld)
        add_link_options(-fuse-ld=lld)
    else()
        message(STATUS "lld not found: linking with the system linker (install lld for faster links)")
    endif()
endif()
