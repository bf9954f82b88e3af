# SPDX-License-Identifier: GPL-3.0-or-later
# MIGsight: build, run and test on a Debian 12 machine (as root, or a user with sudo).
#
#   make run       install what is missing, build, open the studio on samples/quickstart.json
#   make test      install, build, check the formatting, clang-tidy the changed files, run every
#                  test and each fuzzer briefly (what CI runs)
#   make fuzz      build the libFuzzer harnesses (clang) and run each FUZZ_SECONDS (default 60)
#
# Other targets: deps build format format-check package asan bench tidy fuzz-build clean help.
# Build folders: build/dev (make build/run/test), build/release (package, bench), build/dev-asan,
# build/fuzz and build/fuzz-fast (make fuzz; docs/fuzzing.md).

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

# Debian 12 packages (shared toolchain notes, plus what the CMakeLists find since). libqt6sql6-sqlite
# is only a Recommends of Qt Sql, so it is named; libglpk-dev serves the LP lower bounds (policies/),
# libyaml-cpp-dev the mig-parted YAML (model/); dpkg-dev and file are what CPack needs for the .deb's
# shared-library dependencies; xvfb and xauth serve windows and screenshots without a desktop;
# pybind11-dev, python3-dev and python3-numpy build and test the Python module (python/);
# libopenmpi-dev and openmpi-bin build and test migsight-cli under MPI, slurm-wlm and munge the
# single-node Slurm test (docs/cluster.md); clang-tidy-14 is `make tidy` (.clang-tidy); lld links
# faster than GNU ld (cmake/Linker.cmake).
PACKAGES := \
    cmake ninja-build g++ ccache lld \
    qt6-base-dev qt6-base-dev-tools libqt6sql6-sqlite qt6-svg-dev libgl-dev \
    libqcustomplot-dev libqcustomplot2.1-qt6 \
    libeigen3-dev nlohmann-json3-dev libsqlite3-dev libglpk-dev libyaml-cpp-dev \
    xvfb xauth fonts-dejavu-core imagemagick x11-apps poppler-utils \
    clang-format clang-tidy-14 dpkg-dev file \
    pybind11-dev python3-dev python3-numpy \
    libopenmpi-dev openmpi-bin slurm-wlm munge

# The fuzzers (fuzz/, docs/fuzzing.md): clang, and libFuzzer with the sanitizer runtimes.
FUZZ_PACKAGES := clang libclang-rt-14-dev
# Seconds each fuzzer runs: `make fuzz` (FUZZ_SECONDS) and the brief runs of `make test`.
FUZZ_SECONDS ?= 60
CI_FUZZ_SECONDS ?= 5
# The fuzz build: fuzz (ASan + UBSan, -O1; CI and reproducing) or fuzz-fast (UBSan, -O2; long campaigns).
FUZZ_PRESET ?= fuzz

SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

# The studio is built when its sources are in the tree (ui/ and app/gui/); otherwise only the
# command-line tool, the libraries and their tests are. Override with `make build GUI=OFF`.
GUI ?= $(if $(and $(wildcard ui/CMakeLists.txt),$(wildcard app/gui/main.cpp)),ON,OFF)

# Sources that `make format` / `make format-check` cover: tracked C++ files (every file when
# this is not a git checkout).
FORMAT_DIRS := app ui model simcore policies tests bench python fuzz
FORMAT_FILES = $(shell \
    if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
        git ls-files -- $(foreach d,$(FORMAT_DIRS),'$(d)/*.cpp' '$(d)/*.h'); \
    else \
        find $(FORMAT_DIRS) \( -name '*.cpp' -o -name '*.h' \) -type f 2>/dev/null | sort; \
    fi | while read -r f; do [ -f "$$f" ] && echo "$$f"; done)

SCREENSHOT := build/migsight-screenshot.png

.PHONY: help deps build run test format format-check package asan bench tidy fuzz fuzz-build clean

help:
	@echo "make run           build and open the studio on samples/quickstart.json"
	@echo "make test          build, check formatting, clang-tidy, run all tests (CI runs this)"
	@echo "make deps          install the missing Debian packages (apt-get, needs root or sudo)"
	@echo "make build         configure (preset dev) and build into build/dev"
	@echo "make format        clang-format every tracked C++ file in place"
	@echo "make format-check  fail if any tracked C++ file is not clang-formatted"
	@echo "make package       release build and .deb + .tar.gz packages in build/release"
	@echo "make asan          build with address + undefined sanitizers and run the tests"
	@echo "make bench         release build, then run the simulation benchmark"
	@echo "make tidy          clang-tidy over the C++ files changed (since origin/main, or HEAD's commit)"
	@echo "make fuzz          build the libFuzzer harnesses, run each FUZZ_SECONDS (default 60)"
	@echo "                   (FUZZ_PRESET=fuzz-fast: the faster build without ASan, for long runs)"
	@echo "make clean         remove build/"

# install_missing PACKAGES: apt-get install only what dpkg does not report as installed (so a second
# run installs nothing and needs no network); apt-get update only when something is missing.
define install_missing
	@missing=""; \
	for p in $(1); do \
	    dpkg-query -W -f='$${db:Status-Abbrev}' "$$p" 2>/dev/null | grep -q '^ii' || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then \
	    echo "deps: all $(words $(1)) Debian packages needed are installed"; \
	else \
	    echo "deps: installing$$missing"; \
	    if [ -n "$(SUDO)" ] && ! command -v sudo >/dev/null; then \
	        echo "deps: not root and no sudo: install these packages as root:$$missing" >&2; exit 1; \
	    fi; \
	    $(SUDO) apt-get update -q; \
	    $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	fi
endef

deps:
	$(call install_missing,$(PACKAGES) $(FUZZ_PACKAGES))

# configure PRESET: run CMake once (later changes to CMakeLists are picked up by Ninja itself);
# again only when the GUI setting changes.
define configure
	@if [ ! -f build/$(1)/build.ninja ] || \
	    ! grep -qx 'MIGSIGHT_BUILD_GUI:BOOL=$(GUI)' build/$(1)/CMakeCache.txt; then \
	    if [ "$(GUI)" = OFF ]; then \
	        echo "note: building without the studio GUI (MIGSIGHT_BUILD_GUI=OFF): ui/CMakeLists.txt or app/gui/main.cpp is missing"; \
	    fi; \
	    cmake --preset $(1) -DMIGSIGHT_BUILD_GUI=$(GUI); \
	fi
endef

build: deps
	$(call configure,dev)
	cmake --build --preset dev

# Builds only the programs (a test that does not compile yet must not keep the studio from opening).
run: deps
	$(call configure,dev)
	cmake --build --preset dev --target migsight-cli $(if $(filter ON,$(GUI)),migsight)
	@if [ ! -x build/dev/app/migsight ] || [ "$(GUI)" = OFF ]; then \
	    echo "run: the studio GUI is not part of this checkout yet; simulating samples/quickstart.json with migsight-cli instead:"; \
	    build/dev/app/migsight-cli simulate samples/quickstart.json; \
	elif [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ]; then \
	    echo "run: build/dev/app/migsight --session samples/quickstart.json"; \
	    build/dev/app/migsight --session samples/quickstart.json; \
	else \
	    echo "run: no display (DISPLAY is not set), so no window can open here."; \
	    echo "run: rendering the studio offscreen into $(SCREENSHOT) instead ..."; \
	    QT_QPA_PLATFORM=offscreen QT_QPA_FONTDIR=/usr/share/fonts/truetype/dejavu \
	        build/dev/app/migsight --session samples/quickstart.json --screenshot $(SCREENSHOT); \
	    echo "run: screenshot written to $(CURDIR)/$(SCREENSHOT)"; \
	    echo "run: from a desktop session, 'make run' opens the window itself."; \
	fi

test: deps build format-check
	cmake/tidy-changed.sh build/dev
	ctest --preset dev
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=$(CI_FUZZ_SECONDS)

format:
	@files="$(FORMAT_FILES)"; \
	if [ -n "$$files" ]; then clang-format -i $$files; fi; \
	echo "format: $(words $(FORMAT_FILES)) files formatted"

format-check:
	@files="$(FORMAT_FILES)"; rc=0; \
	if [ -z "$$files" ]; then echo "format-check: no C++ files found"; exit 0; fi; \
	out=$$(clang-format --dry-run --Werror $$files 2>&1) || rc=$$?; \
	if [ $$rc -ne 0 ]; then \
	    bad=$$(grep -oE '^[^:[:space:]]+:[0-9]+:[0-9]+: (warning|error)' <<<"$$out" | cut -d: -f1 | sort -u); \
	    if [ -z "$$bad" ]; then echo "$$out" >&2; echo "format-check: clang-format failed" >&2; exit 1; fi; \
	    echo "format-check: these files are not clang-formatted (run 'make format'):" >&2; \
	    sed 's/^/    /' <<<"$$bad" >&2; \
	    exit 1; \
	fi; \
	echo "format-check: $(words $(FORMAT_FILES)) files are clang-formatted"

package: deps
	$(call configure,release)
	cmake --build --preset release
	@out=$$(cpack --preset release 2>&1) || { echo "$$out" >&2; exit 1; }; \
	echo "$$out"; \
	echo "package: built"; \
	sed -n 's/^CPack: - package: \(.*\) generated\.$$/    \1/p' <<<"$$out"

asan: deps
	$(call configure,dev-asan)
	cmake --build --preset dev-asan
	ctest --preset dev-asan

bench: deps
	$(call configure,release)
	cmake --build --preset release --target bench_simulate
	build/release/bench/bench_simulate

# clang-tidy-14 with .clang-tidy (its checks are errors) over the C++ files changed since the merge
# base with origin/main, or HEAD's last commit without one (a clean CI clone): cmake/tidy-changed.sh,
# seconds to a couple of minutes. TIDY_ALL=1 takes every source (tens of minutes); TIDY_BASE=REV
# another base. `make test` runs it straight after its build.
tidy: build
	cmake/tidy-changed.sh build/dev

# The harnesses are their own clang build (preset FUZZ_PRESET), apart from the gcc build of build/dev.
fuzz-build: deps
	@[ -f build/$(FUZZ_PRESET)/build.ninja ] || cmake --preset $(FUZZ_PRESET)
	cmake --build --preset $(FUZZ_PRESET)

fuzz: fuzz-build
	FUZZ_PRESET=$(FUZZ_PRESET) fuzz/run_fuzzers.sh $(FUZZ_SECONDS)

clean:
	rm -rf build
