# SPDX-License-Identifier: GPL-3.0-or-later
"""Shared set-up of the Python tests: the source tree and the built module (tests/python/CMakeLists.txt)."""
import os
import pathlib

SOURCE_DIR = pathlib.Path(os.environ.get("MIGSIGHT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
SAMPLES = SOURCE_DIR / "samples"
CLI = os.environ.get("MIGSIGHT_CLI", "")
GUI = os.environ.get("MIGSIGHT_GUI", "")

import migsight  # noqa: E402  (PYTHONPATH points at the build's python/ folder)


def paper_fleet():
    return migsight.Scenario(SAMPLES / "paper-fleet.json")


def paper_single():
    return migsight.Scenario(SAMPLES / "paper-single.json")


def small_fleet(multiplier=2, hours=6, seed=1):
    """Eight paper GPUs, a few hours at a light load: quick to simulate."""
    return migsight.Scenario({
        "format": "migsight-scenario", "version": 1, "name": "small fleet",
        "fleet": [{"gpu": "A100-40GB", "count": 8, "config_list": "fleet-12", "layouts": [1, 1, 2, 3, 3, 5, 5, 10]}],
        "workload": {"kind": "diurnal", "multiplier": multiplier, "seed": seed, "hours": hours},
        "scheduler": {"id": "cedf"}, "repartitioner": {"id": "static"},
    })
