# SPDX-License-Identifier: GPL-3.0-or-later
"""A migsight-cli plugin (docs/python.md, "Plugins"): FCFS first fit in Python as "py-fcfs", the same
rule as the built-in "fcfs", and a repartitioner "py-whole" keeping every GPU one 7g instance."""
import migsight


class Fcfs:
    def queue_key(self, r, j):
        return r.release(j)

    def schedule(self, r):
        while r.free_instances > 0 and (j := r.next()) >= 0:
            for g in range(r.gpu_count):
                free = [i for i in range(r.instance_count(g)) if r.is_free(g, i) and r.memory_fits(j, g, i)]
                if free:
                    i = min(free, key=lambda i: (r.compute(g, i), i))
                    r.place(j, g, i, f"first fit: GPU {g}, instance {i}" if r.explaining else None)
                    break


class Whole:
    def initial_layouts(self, setup):
        return [[("7g.40gb", 0)] for _ in range(setup["gpu_count"])]

    def decide(self, r):
        pass


migsight.register_scheduler("py-fcfs", Fcfs, "FCFS first fit in Python")
migsight.register_repartitioner("py-whole", Whole, "every GPU one whole instance, in Python")


class Failing:
    """Raises in its first round: the error must end the run (any thread) with Python's message."""

    def schedule(self, r):
        raise ValueError("py-failing: no decision today")


migsight.register_scheduler("py-failing", Failing, "raises in its first round (tests)")
