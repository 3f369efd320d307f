"""Timings of the tree algorithms on Featherstone's benchmark chains GU(n) (``make bench``).

Measures the median wall-clock time per call of ``rnea``, ``crba``, ``aba`` and
``forward_dynamics`` (CRBA + sparse LᵀDL) on GU(n) for n = 7, 30, 100 (one state per call), and
on a batch of 1,000 states of GU(7) (one call for the whole batch, the same code path), and
prints them beside the targets of issue 3 and the per-call figures quoted for peer
implementations.  GU(n) is ``spatial.builders.gu_chain(n)`` (Featherstone §10.3): an unbranched
chain of n revolute joints with general geometry and inertias.

It also times ``import spatial`` in fresh processes (best of 5) beside ``import numpy`` alone, with
Python's bytecode cache written first as a user's installation has it (where the environment sets
``PYTHONDONTWRITEBYTECODE``, no cache exists and every module is compiled at each import, which
roughly doubles the figure); the package's budget is 250 ms.

Usage: ``.venv/bin/python benchmarks/run.py [--quick] [--cpu]``.  Timings depend on the machine
and its load (``--cpu`` measures this process's CPU time, steadier on a busy machine); nothing
here is a test.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from functools import partial

import numpy as np
from timing import measure

import spatial as sp
from spatial.builders import gu_chain

# the four algorithms, called as f(model, q, qd, x) with x = q̈ for rnea and τ otherwise
ALGORITHMS = {
    "rnea": lambda model, q, qd, x: sp.rnea(model, q, qd, x),
    "crba": lambda model, q, qd, x: sp.crba(model, q),
    "aba": lambda model, q, qd, x: sp.aba(model, q, qd, x),
    "forward_dynamics": lambda model, q, qd, x: sp.forward_dynamics(model, q, qd, x),
}
CASES = [(7, 1), (30, 1), (100, 1), (7, 1000)]  # (n, states per call)

# issue 3's targets and the peers' reference figures, in µs per call
TARGETS = {
    ("rnea", 7, 1): 120,
    ("crba", 7, 1): 150,
    ("aba", 7, 1): 250,
    ("aba", 100, 1): 3_000,
    ("rnea", 7, 1000): 10_000,
    ("aba", 7, 1000): 15_000,
}
PEERS = {
    ("rnea", 7, 1): 1_000,
    ("forward_dynamics", 7, 1): 10_000,
    ("forward_dynamics", 100, 1): 1_400_000,
}


def state(n: int, batch: int, rng: np.random.Generator):
    """GU(n) and a random state ``q``, ``q̇``, ``x`` (``q̈`` or ``τ``); batched if ``batch > 1``."""
    shape = () if batch == 1 else (batch,)
    model = gu_chain(n)
    return model, model.random_configuration(rng, shape), *rng.standard_normal((2, *shape, n))


def run(repeats: int, min_time: float, clock) -> list[tuple]:
    """Measure every algorithm on every case; rows ``(algorithm, n, batch, µs)``."""
    rng = np.random.default_rng(0)
    rows = []
    for n, batch in CASES:
        model, q, qd, x = state(n, batch, rng)
        for name, fn in ALGORITHMS.items():
            seconds = measure(partial(fn, model, q, qd, x), repeats, min_time, clock)
            rows.append((name, n, batch, seconds * 1e6))
    return rows


def import_time(module: str, runs: int = 5) -> float:
    """Best wall-clock time (ms) of ``import module`` in ``runs`` fresh interpreters."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    code = f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
    command = [sys.executable, "-c", code]
    subprocess.run(command, env=env, check=True, capture_output=True)  # writes the cache
    times = [
        float(subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout)
        for _ in range(runs)
    ]
    return 1e3 * min(times)


def fmt(us: float | None) -> str:
    return "" if us is None else f"{us:,.0f}"


def table(rows: list[tuple]) -> str:
    """The results as a fixed-width table with the targets and the peers' figures."""
    header = (
        f"{'algorithm':<17} {'system':<8} {'states':>6} {'ours (µs)':>11} "
        f"{'target (µs)':>12} {'':<5} {'peers (µs)':>11} {'µs/state':>9}"
    )
    lines = [header, "-" * len(header)]
    for name, n, batch, us in rows:
        target = TARGETS.get((name, n, batch))
        verdict = "" if target is None else ("met" if us <= target else "over")
        lines.append(
            f"{name:<17} {f'GU({n})':<8} {batch:>6,} {fmt(us):>11} {fmt(target):>12} "
            f"{verdict:<5} {fmt(PEERS.get((name, n, batch))):>11} {us / batch:>9,.1f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter measurements")
    parser.add_argument(
        "--cpu", action="store_true", help="CPU time of this process instead of wall-clock time"
    )
    args = parser.parse_args()
    repeats, min_time = (3, 0.02) if args.quick else (7, 0.1)
    clock, kind = (time.process_time, "CPU") if args.cpu else (time.perf_counter, "wall-clock")
    print(
        f"spatial {sp.__version__} · Python {platform.python_version()} · NumPy {np.__version__}"
        f" · {platform.machine()}"
    )
    print(f"median {kind} time per call over {repeats} measurements of ≥ {min_time} s each\n")
    print(table(run(repeats, min_time, clock)))
    print("\nimport time, best of 5 fresh processes (ms; budget for spatial: 250)")
    for module in ("numpy", "spatial"):
        print(f"  import {module:<8} {import_time(module):6.0f}")
    print(
        "\ntargets: issue 3; peers: reported per-call figures of other Python implementations "
        "(7-link chain, n = 100)."
    )


if __name__ == "__main__":
    main()
