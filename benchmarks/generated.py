"""Generated straight-line code (``spatial.symbolic.generate``, §10.4) against the dense code.

Three tables (``make bench``):

1. **Operation counts** of the generated ``aba``, ``rnea`` and ``crba`` on GU(n), n = 7, 30,
   100, beside the best row of Featherstone's Table 10.1 for the same algorithm
   (``spatial.cost.table_10_1_cost``) and the count of the package's dense code
   (``spatial.cost.dense_cost``); the goal is within 1.5x of the book's row.  Generation times
   are printed beside them.
2. **One state per call**: generated ``aba`` against the dense ``sp.aba`` on GU(7) and
   GU(100) (targets 150 µs and 2.5 ms, and at least 2.5x faster than the dense code).
3. **1,000 states per call**: generated against dense against Pinocchio's ``abaInParallel``
   on one and two threads (``pinocchio_ref.py``) on GU(7), GU(30), GU(100); the target is the
   faster of the package's two paths within 3x of Pinocchio on one thread.

Times are medians of interleaved repeats: every round times each candidate once (over enough
calls to last ``min_time``), so all candidates meet the same load on a shared machine; the
spread (min–max over the rounds) is printed too.  Nothing here is a test.

Usage: ``.venv/bin/python benchmarks/generated.py [--quick]``; writes ``generated.json``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import statistics
import time
from functools import partial
from pathlib import Path

import numpy as np
import pinocchio_ref

import spatial as sp
from spatial.builders import gu_chain
from spatial.symbolic import generate

HERE = Path(__file__).resolve().parent
SIZES = (7, 30, 100)
BATCH = 1000
TARGETS_ONE = {7: 150.0, 100: 2500.0}  # µs per call, generated aba


def interleaved(calls: dict, rounds: int, min_time: float) -> dict:
    """Median, min and max time (s) of one call of each function, timed in turn."""
    numbers = {}
    for name, fn in calls.items():
        fn()  # warm up (compiles the batched variant, lazy imports)
        number, elapsed = 1, 0.0
        while elapsed < min_time:
            start = time.perf_counter()
            for _ in range(number):
                fn()
            elapsed = time.perf_counter() - start
            if elapsed < min_time:
                number = max(2 * number, int(1.2 * number * min_time / max(elapsed, 1e-9)))
        numbers[name] = number
    samples = {name: [] for name in calls}
    for _ in range(rounds):
        for name, fn in calls.items():
            start = time.perf_counter()
            for _ in range(numbers[name]):
                fn()
            samples[name].append((time.perf_counter() - start) / numbers[name])
    return {n: (statistics.median(s), min(s), max(s)) for n, s in samples.items()}


def counts_table() -> list[dict]:
    print("operation counts on GU(n) (m = multiplications and divisions, a = additions and")
    print("subtractions; sign changes, cos and sin free), generated code beside Table 10.1's")
    print("best row and the package's dense code; ratio = (m + a) / the book's (m + a)\n")
    header = (
        f"{'algorithm':<9} {'n':>4} {'generated':>17} {'Table 10.1 best':>17} {'ratio':>6} "
        f"{'dense code':>17} {'statements':>10} {'generation (s)':>14}"
    )
    print(header + "\n" + "-" * len(header))
    rows = []
    for algorithm in ("aba", "rnea", "crba"):
        for n in SIZES:
            model = gu_chain(n)
            start = time.perf_counter()
            f = generate(model, algorithm)
            seconds = time.perf_counter() - start
            book = sp.cost.table_10_1_cost(algorithm.upper(), n)
            dense = sp.cost.dense_cost(algorithm.upper(), n)
            ratio = f.count.total / book.total
            rows.append(
                {
                    "algorithm": algorithm,
                    "n": n,
                    "m": f.m,
                    "a": f.a,
                    "book_m": int(book.mul),
                    "book_a": int(book.add),
                    "dense_m": int(dense.mul),
                    "dense_a": int(dense.add),
                    "ratio_to_book": ratio,
                    "statements": f.statements,
                    "generation_s": seconds,
                }
            )
            print(
                f"{algorithm:<9} {n:>4} {str(f.count):>17} {str(book):>17} {ratio:>6.2f} "
                f"{str(dense):>17} {f.statements:>10,} {seconds:>14.2f}"
            )
    return rows


def one_state_table(rounds: int, min_time: float) -> list[dict]:
    print("\naba, one state per call: median (min–max) of interleaved repeats, µs per call")
    rng = np.random.default_rng(0)
    rows = []
    for n in (7, 100):
        model = gu_chain(n)
        f = generate(model, "aba")
        q = model.random_configuration(rng)
        qd, tau = rng.standard_normal((2, n))
        assert np.allclose(f(q, qd, tau), sp.aba(model, q, qd, tau), rtol=1e-10, atol=1e-10)
        t = interleaved(
            {"generated": partial(f, q, qd, tau), "dense": partial(sp.aba, model, q, qd, tau)},
            rounds,
            min_time,
        )
        gen, dense = t["generated"][0] * 1e6, t["dense"][0] * 1e6
        target = TARGETS_ONE[n]
        verdict = "met" if gen <= target and dense / gen >= 2.5 else "over"
        rows.append({"n": n, "generated_us": gen, "dense_us": dense, "target_us": target})
        print(
            f"  GU({n:<3}) generated {gen:8.1f} ({t['generated'][1] * 1e6:.0f}–"
            f"{t['generated'][2] * 1e6:.0f})   dense {dense:8.1f} ({t['dense'][1] * 1e6:.0f}–"
            f"{t['dense'][2] * 1e6:.0f})   {dense / gen:4.1f}x faster   target ≤ {target:,.0f} "
            f"and ≥ 2.5x: {verdict}"
        )
    return rows


def batched_table(rounds: int, min_time: float) -> list[dict]:
    print(f"\naba, {BATCH:,} states per call: median of interleaved repeats, ms per call")
    rng = np.random.default_rng(1)
    rows = []
    for n in SIZES:
        model = gu_chain(n)
        f = generate(model, "aba")
        q = model.random_configuration(rng, (BATCH,))
        qd, tau = rng.standard_normal((2, BATCH, n))
        assert np.allclose(f(q, qd, tau), sp.aba(model, q, qd, tau), rtol=1e-10, atol=1e-10)
        calls = {"generated": partial(f, q, qd, tau), "dense": partial(sp.aba, model, q, qd, tau)}
        if pinocchio_ref.pin is not None:
            pm = pinocchio_ref.to_pinocchio(model)
            for threads in (1, 2):
                calls[f"pinocchio {threads}"] = pinocchio_ref.batched_aba(pm, threads, q, qd, tau)
        t = {k: v[0] * 1e3 for k, v in interleaved(calls, rounds, min_time).items()}
        row = {"n": n, **{f"{k.replace(' ', '_')}_ms": v for k, v in t.items()}}
        line = f"  GU({n:<3}) generated {t['generated']:7.2f}   dense {t['dense']:7.2f}"
        if "pinocchio 1" in t:
            best = min(t["generated"], t["dense"])
            ratio = best / t["pinocchio 1"]
            row["ratio_to_pinocchio_1_thread"] = ratio
            line += (
                f"   Pinocchio 1 thread {t['pinocchio 1']:6.2f}, 2 threads "
                f"{t['pinocchio 2']:6.2f}   faster path / Pinocchio (1 thread) {ratio:4.2f} "
                f"(target ≤ 3: {'met' if ratio <= 3 else 'over'})"
            )
        rows.append(row)
        print(line)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter measurements")
    args = parser.parse_args()
    rounds, min_time = (3, 0.05) if args.quick else (9, 0.2)
    print(
        f"spatial {sp.__version__} · numpy {np.__version__} · python "
        f"{platform.python_version()} · pinocchio "
        f"{None if pinocchio_ref.pin is None else pinocchio_ref.pin.__version__}\n"
    )
    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average_before": os.getloadavg(),
        "rounds": rounds,
        "min_time_s": min_time,
        "counts": counts_table(),
        "one_state": one_state_table(rounds, min_time),
        "batched": batched_table(rounds, min_time),
    }
    results["load_average_after"] = os.getloadavg()
    (HERE / "generated.json").write_text(json.dumps(results, indent=1) + "\n")
    print(
        f"\nload average (1, 5, 15 min) before {results['load_average_before']}, after "
        f"{results['load_average_after']} on {os.cpu_count()} CPUs"
    )
    print(f"wrote {HERE / 'generated.json'}")


if __name__ == "__main__":
    main()
