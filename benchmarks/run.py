"""Timings of the tree algorithms on Featherstone's benchmark systems (``make bench``).

Measures the median time per call of ``rnea``, ``crba``, ``aba`` and ``forward_dynamics``
(CRBA + sparse LᵀDL) on GU(n) for n = 7, 30, 100 (one state per call) and on batches of 1,000
states (one call for the whole batch, the same code path) of GU(7), GU(30), GU(100) and a
binary tree of 31 bodies (``branched_tree(31, 2)``, §10.3.2).  GU(n) is
``spatial.builders.gu_chain(n)`` (Featherstone §10.3): an unbranched chain of n revolute joints
with general geometry and inertias.  The single-call figures stand beside the targets of issues
3 and 15 and the per-call figures quoted for peer implementations.

When Pinocchio is installed (``pip install ".[bench]"``), the same systems are rebuilt in it
(``pinocchio_ref.py``, checked to give the same ``q̈``) and its ``aba`` is timed per call and
batched (``abaInParallel`` over the 1,000 states with 1 and 2 threads), measured in the same run
so that the ratios compare like with like; the ratios themselves come from calls of the two
libraries in turn (the best of each), so that both meet the same load.

What bounds ``aba`` is printed beside it (``floor.py``): its stacked 6x6 products alone, timed
in the same run, for GU(7) and GU(100), one state and 1,000 states per call.

It also times ``import spatial`` in fresh processes (best of 5) beside ``import numpy`` alone, with
Python's bytecode cache written first as a user's installation has it (where the environment sets
``PYTHONDONTWRITEBYTECODE``, no cache exists and every module is compiled at each import, which
roughly doubles the figure); the package's budget is 250 ms.  ``--notebooks`` adds the time of
one run of the notebook suite (fast mode, as ``make test-notebooks`` runs it).

The results go to the terminal as a table, to ``benchmarks/results.json`` and to
``benchmarks/results.png`` (time per state of every algorithm and system, batched and not).

Usage: ``.venv/bin/python benchmarks/run.py [--quick] [--cpu] [--notebooks]``.  Timings depend
on the machine and its load (``--cpu`` measures this process's CPU time, steadier on a busy
machine, but it does not count Pinocchio's worker threads); nothing here is a test.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np
import pinocchio_ref
from floor import product_floor
from timing import measure

import spatial as sp
from spatial.builders import branched_tree, gu_chain

HERE = Path(__file__).resolve().parent

# the four algorithms, called as f(model, q, qd, x) with x = q̈ for rnea and τ otherwise
ALGORITHMS = {
    "rnea": lambda model, q, qd, x: sp.rnea(model, q, qd, x),
    "crba": lambda model, q, qd, x: sp.crba(model, q),
    "aba": lambda model, q, qd, x: sp.aba(model, q, qd, x),
    "forward_dynamics": lambda model, q, qd, x: sp.forward_dynamics(model, q, qd, x),
}
SYSTEMS = {
    "GU(7)": lambda: gu_chain(7),
    "GU(30)": lambda: gu_chain(30),
    "GU(100)": lambda: gu_chain(100),
    "tree(31)": lambda: branched_tree(31, 2.0),
}
BATCH = 1000
CASES = [("GU(7)", 1), ("GU(30)", 1), ("GU(100)", 1)] + [(name, BATCH) for name in SYSTEMS]

# the targets of issues 3 and 15 and the peers' reference figures, in µs per call
TARGETS = {
    ("rnea", "GU(7)", 1): 120,
    ("crba", "GU(7)", 1): 150,
    ("aba", "GU(7)", 1): 150,
    ("aba", "GU(100)", 1): 2_500,
    ("rnea", "GU(7)", BATCH): 10_000,
    ("aba", "GU(7)", BATCH): 15_000,
}
PEERS = {
    ("rnea", "GU(7)", 1): 1_000,
    ("forward_dynamics", "GU(7)", 1): 10_000,
    ("forward_dynamics", "GU(100)", 1): 1_400_000,
}


def state(model: sp.Model, batch: int, rng: np.random.Generator):
    """A random state ``q``, ``q̇``, ``x`` (``q̈`` or ``τ``); batched if ``batch > 1``."""
    shape = () if batch == 1 else (batch,)
    return model.random_configuration(rng, shape), *rng.standard_normal((2, *shape, model.nv))


def run(repeats: int, min_time: float, clock) -> list[dict]:
    """Measure every algorithm on every case; one row per measurement."""
    rng = np.random.default_rng(0)
    rows = []
    for system, batch in CASES:
        model = SYSTEMS[system]()
        q, qd, x = state(model, batch, rng)
        for name, fn in ALGORITHMS.items():
            seconds = measure(partial(fn, model, q, qd, x), repeats, min_time, clock)
            rows.append(_row("spatial", name, system, batch, seconds))
        if pinocchio_ref.pin is not None:
            rows += run_pinocchio(model, system, batch, q, qd, x, repeats, min_time, clock)
    return rows


def run_pinocchio(model, system, batch, q, qd, tau, repeats, min_time, clock) -> list[dict]:
    """Pinocchio's ``aba`` on the same states: per call, or batched on 1 and 2 threads."""
    pin = pinocchio_ref.pin
    pm = pinocchio_ref.to_pinocchio(model)
    error = pinocchio_ref.check_agrees(model, pm, np.random.default_rng(1))
    if error > 1e-8 * (1 + model.nv):
        raise RuntimeError(f"Pinocchio's aba differs from spatial's on {system} by {error:.3g}")
    if batch == 1:
        data = pm.createData()
        seconds = measure(lambda: pin.aba(pm, data, q, qd, tau), repeats, min_time, clock)
        return [_row("pinocchio", "aba", system, 1, seconds)]
    rows = []
    for threads in (1, 2):
        fn = pinocchio_ref.batched_aba(pm, threads, q, qd, tau)
        seconds = measure(fn, repeats, min_time, clock)
        rows.append(
            _row(
                "pinocchio", f"aba ({threads} thread{'s' * (threads > 1)})", system, batch, seconds
            )
        )
    return rows


def _row(library: str, algorithm: str, system: str, batch: int, seconds: float) -> dict:
    return {
        "library": library,
        "algorithm": algorithm,
        "system": system,
        "states": batch,
        "us_per_call": seconds * 1e6,
        "us_per_state": seconds * 1e6 / batch,
    }


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


def notebook_suite_time() -> float:
    """Wall-clock seconds of one fast-mode run of the notebooks (as ``make test-notebooks``)."""
    env = dict(os.environ, SPATIAL_NB_FAST="1", SPATIAL_NB_STRICT="1")
    env["MPLBACKEND"] = "module://matplotlib_inline.backend_inline"
    command = [sys.executable, "-m", "pytest", "-q", "--nbval", "--nbval-current-env", "-n", "2"]
    command += ["--dist", "loadscope", "-p", "no:randomly", str(HERE.parent / "notebooks")]
    start = time.perf_counter()
    subprocess.run(command, env=env, check=True, cwd=HERE.parent)
    return time.perf_counter() - start


def fmt(us: float | None) -> str:
    return "" if us is None else f"{us:,.0f}"


def ratios(repeats: int, clock) -> dict[str, float]:
    """``spatial``'s batched ``aba`` time over Pinocchio's, per system and thread count.

    The three calls are timed in turn, ``2 * repeats`` rounds, and the shortest time of each is
    kept: on a shared machine every library then meets the same load, and the minimum is the
    run least disturbed by it.
    """
    rng = np.random.default_rng(2)
    out = {}
    for system in SYSTEMS:
        model = SYSTEMS[system]()
        q, qd, tau = state(model, BATCH, rng)
        pm = pinocchio_ref.to_pinocchio(model)
        calls = {"spatial": partial(sp.aba, model, q, qd, tau)}
        for threads in (1, 2):
            calls[threads] = pinocchio_ref.batched_aba(pm, threads, q, qd, tau)
        best = dict.fromkeys(calls, np.inf)
        for _ in range(2 * repeats):
            for key, fn in calls.items():
                start = clock()
                fn()
                best[key] = min(best[key], clock() - start)
        for threads in (1, 2):
            label = f"{system} vs {threads} thread{'s' * (threads > 1)}"
            out[label] = best["spatial"] / best[threads]
    return out


def floor_table() -> list[dict]:
    """Print and return ``aba``'s product floor (``floor.py``) beside ``aba`` itself.

    For one state the bound to meet is issue 15's per-call target; for 1,000 states it is three
    times Pinocchio's batched ``aba`` on two threads, timed in turn with the floor and ``aba``.
    """
    print("\naba against its stacked 6x6 products alone (2 matrix and 7 vector products a body),")
    print("timed in turn, best of 7 (µs per call)")
    rng = np.random.default_rng(3)
    out = []
    for system, n in (("GU(7)", 7), ("GU(100)", 100)):
        model = SYSTEMS[system]()
        for states in (1, BATCH):
            q, qd, tau = state(model, states, rng)
            others = {"aba": partial(sp.aba, model, q, qd, tau)}
            if states > 1 and pinocchio_ref.pin is not None:
                pm = pinocchio_ref.to_pinocchio(model)
                others["pinocchio_2_threads"] = pinocchio_ref.batched_aba(pm, 2, q, qd, tau)
            result = {"system": system, "states": states, **product_floor(n, states, others)}
            pin_us = result.get("pinocchio_2_threads_us")
            target = TARGETS.get(("aba", system, 1)) if states == 1 else pin_us and 3 * pin_us
            result["target_us"] = target
            out.append(result)
            print(
                f"  {system:<8} {states:>6,} states  products {fmt(result['floor_us']):>9}  "
                f"aba {fmt(result['aba_us']):>9}  target {fmt(target):>9}  "
                f"(6x6 @ 6x6 {result['t_mm_us']:.3g} µs, 6x6 @ 6 {result['t_mv_us']:.3g} µs)"
            )
    return out


def table(rows: list[dict]) -> str:
    """The results as a fixed-width table with the targets and the peers' figures."""
    header = (
        f"{'library':<9} {'algorithm':<19} {'system':<8} {'states':>6} {'time (µs)':>11} "
        f"{'target (µs)':>12} {'':<5} {'peers (µs)':>11} {'µs/state':>9}"
    )
    lines = [header, "-" * len(header)]
    for r in rows:
        key = (r["algorithm"], r["system"], r["states"])
        target = TARGETS.get(key) if r["library"] == "spatial" else None
        verdict = "" if target is None else ("met" if r["us_per_call"] <= target else "over")
        peer = PEERS.get(key) if r["library"] == "spatial" else None
        lines.append(
            f"{r['library']:<9} {r['algorithm']:<19} {r['system']:<8} {r['states']:>6,} "
            f"{fmt(r['us_per_call']):>11} {fmt(target):>12} {verdict:<5} {fmt(peer):>11} "
            f"{r['us_per_state']:>9,.1f}"
        )
    return "\n".join(lines)


def plot(rows: list[dict], path: Path) -> None:
    """Time per state of every algorithm on every system, one panel per kind of call."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    systems = list(SYSTEMS)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, batch, title in (
        (axes[0], 1, "one state per call"),
        (axes[1], BATCH, f"{BATCH:,} states per call"),
    ):
        series = sorted({(r["library"], r["algorithm"]) for r in rows if r["states"] == batch})
        for library, algorithm in series:
            points = {
                r["system"]: r["us_per_state"]
                for r in rows
                if r["states"] == batch and (r["library"], r["algorithm"]) == (library, algorithm)
            }
            xs = [k for k, s in enumerate(systems) if s in points]
            style = "--" if library == "pinocchio" else "-"
            ax.plot(
                xs,
                [points[systems[k]] for k in xs],
                style,
                marker="o",
                label=f"{library} {algorithm}",
            )
        ax.set_xticks(range(len(systems)), systems)
        ax.set_yscale("log")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("time per state (µs)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer, shorter measurements")
    parser.add_argument(
        "--cpu", action="store_true", help="CPU time of this process instead of wall-clock time"
    )
    parser.add_argument(
        "--notebooks", action="store_true", help="also time one run of the notebook suite"
    )
    args = parser.parse_args()
    repeats, min_time = (3, 0.02) if args.quick else (7, 0.1)
    clock, kind = (time.process_time, "CPU") if args.cpu else (time.perf_counter, "wall-clock")
    versions = {
        "spatial": sp.__version__,
        "python": platform.python_version(),
        "numpy": np.__version__,
        "pinocchio": None if pinocchio_ref.pin is None else pinocchio_ref.pin.__version__,
        "machine": platform.machine(),
        "cpus": os.cpu_count(),
    }
    print(" · ".join(f"{k} {v}" for k, v in versions.items()))
    print(f"median {kind} time per call over {repeats} measurements of ≥ {min_time} s each\n")
    rows = run(repeats, min_time, clock)
    print(table(rows))
    speed_ratios = {} if pinocchio_ref.pin is None else ratios(repeats, time.perf_counter)
    if speed_ratios:
        print("\nbatched aba, spatial time / Pinocchio's, best of interleaved calls (target ≤ 3):")
        for key, value in speed_ratios.items():
            print(f"  {key:<28} {value:5.1f}")
    floors = floor_table()
    print("\nimport time, best of 5 fresh processes (ms; budget for spatial: 250)")
    imports = {module: import_time(module) for module in ("numpy", "spatial")}
    for module, ms in imports.items():
        print(f"  import {module:<8} {ms:6.0f}")
    notebooks = notebook_suite_time() if args.notebooks else None
    if notebooks is not None:
        print(f"\nnotebook suite (fast mode, 2 workers): {notebooks:,.0f} s")
    print(
        "\ntargets: issues 3 and 15; peers: reported per-call figures of other Python "
        "implementations (7-link chain, n = 100)."
    )
    results = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "clock": kind,
        "repeats": repeats,
        "min_time_s": min_time,
        "versions": versions,
        "rows": rows,
        "aba_batched_ratio_to_pinocchio": speed_ratios,
        "aba_product_floor": floors,
        "import_ms": imports,
        "notebook_suite_s": notebooks,
    }
    (HERE / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    plot(rows, HERE / "results.png")
    print(f"\nwrote {HERE / 'results.json'} and {HERE / 'results.png'}")


if __name__ == "__main__":
    main()
