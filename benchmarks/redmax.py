"""REDMAX against the articulated-body algorithm on GU(n) (Sueda §2.3 vs Featherstone Table 7.1).

Times ``spatial.reduced.redmax_forward_dynamics`` (forms ``J_mr``, ``J̇_mr``, ``M_r`` and
``f_r``, then a dense solve: ``O(n²)`` to assemble, ``O(n³)`` to solve) beside ``spatial.aba``
(``O(n)``) on Featherstone's benchmark chains GU(n) for n = 7, 30, 100, and on batches of
1,000 states of GU(7) and GU(30), and checks that both give the same ``q̈``.  The targets: on
GU(30), one state per call and 1,000 per call, REDMAX within 3× of ABA's time (``make bench``
runs this after ``run.py``).

Usage: ``.venv/bin/python benchmarks/redmax.py [--quick] [--cpu]``.  Timings depend on the
machine and its load; nothing here is a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from timing import measure

import spatial as sp
from spatial.builders import gu_chain

CASES = [(7, 1), (30, 1), (100, 1), (7, 1000), (30, 1000)]  # (n, states per call)
TARGETS = {(30, 1): 3.0, (30, 1000): 3.0}  # largest ratio REDMAX / ABA


def redmax_vs_aba(n: int, batch: int, repeats: int, min_time: float, clock) -> tuple:
    """Median µs per call of REDMAX and ABA on GU(n), and their largest difference in q̈."""
    rng = np.random.default_rng(n)
    model = gu_chain(n, rng)
    shape = () if batch == 1 else (batch,)
    q = model.random_configuration(rng, shape)
    qd, tau = rng.standard_normal((2,) + shape + (model.nv,))
    fd = sp.reduced.redmax_forward_dynamics
    t_redmax = measure(lambda: fd(model, q, qd, tau), repeats, min_time, clock)
    t_aba = measure(lambda: sp.aba(model, q, qd, tau), repeats, min_time, clock)
    diff = float(np.abs(fd(model, q, qd, tau) - sp.aba(model, q, qd, tau)).max())
    return 1e6 * t_redmax, 1e6 * t_aba, diff


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, shorter runs")
    parser.add_argument("--cpu", action="store_true", help="time this process's CPU time")
    args = parser.parse_args()
    repeats, min_time = (3, 0.02) if args.quick else (7, 0.05)
    clock = time.process_time if args.cpu else time.perf_counter
    print("REDMAX forward dynamics beside ABA (median µs per call)")
    print(
        f"{'case':>16} {'redmax µs':>12} {'aba µs':>12} {'ratio':>7} {'target':>7} {'max |Δq̈|':>10}"
    )
    for n, batch in CASES:
        t_redmax, t_aba, diff = redmax_vs_aba(n, batch, repeats, min_time, clock)
        case, ratio = f"GU({n}) x{batch}", t_redmax / t_aba
        target = TARGETS.get((n, batch))
        verdict = "" if target is None else f"{'≤' if ratio <= target else '>'}{target:g}×"
        print(f"{case:>16} {t_redmax:12.0f} {t_aba:12.0f} {ratio:7.1f} {verdict:>7} {diff:10.1e}")


if __name__ == "__main__":
    main()
