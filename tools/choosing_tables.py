"""Compute the tables of ``notebooks/choosing.md`` ("Choosing a method") with the package.

Every number on that page comes from here, and none depends on the machine: operation counts
(``spatial.cost``, Featherstone Table 10.1 and eq. 10.12), orders of accuracy, errors and energy
changes of fixed-step simulations, pivot and sweep counts of solvers on fixed problems, sizes of
linear systems.  Timings are left out on purpose (``make bench`` measures those).

The page holds each table between ``<!-- table: NAME -->`` and ``<!-- end table -->``;
``python tools/choosing_tables.py --write`` rewrites them in place, and
``tests/test_book_pages.py`` checks that the page shows what this script computes now, so the
page cannot go stale when the package changes.  Without ``--write`` the tables are printed.
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "notebooks" / "choosing.md"


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _flops(cost) -> int:
    return int(cost.mul + cost.add)


def _power(x: float, digits: int = 1) -> str:
    """A number for a Markdown table: plain when moderate, else ``m·10^k`` in MathJax."""
    if x == 0:
        return "0"
    if 1e-3 <= abs(x) < 1e4:
        return f"{x:.{digits + 2}g}"
    mantissa, exponent = f"{x:.{digits}e}".split("e")
    return f"${mantissa}\\cdot10^{{{int(exponent)}}}$"


def _clean(x: float, tol: float = 1e-6) -> float:
    """``x``, with a round-off-sized value made exactly zero (no "-0.000" in the tables)."""
    return 0.0 if abs(x) < tol else float(x)


def _error(x: float) -> str:
    """A relative error, with round-off shown as such (its digits vary between machines)."""
    return "< $10^{-12}$ (round-off)" if abs(x) < 1e-12 else _power(x)


def _percent(x: float) -> str:
    """A relative change in per cent, with round-off shown as such."""
    return "0 (round-off)" if abs(x) < 1e-10 else f"{100 * x:+.3g} %"


# --- tree algorithms ------------------------------------------------------------------------


def tree_costs() -> str:
    """Table 10.1's best rows on GU(n), and the inertia-matrix method they add up to."""
    from spatial import cost

    rows = []
    for n in (6, 12, 30, 60, 100):
        c = cost.gu_costs(n)
        method, aba = _flops(c["O(n^3)"]), _flops(c["ABA"])
        rows.append(
            [
                str(n),
                f"{_flops(c['RNEA']):,}",
                f"{_flops(c['CRBA']):,}",
                f"{_flops(c['F&S']):,}",
                f"{method:,}",
                f"{aba:,}",
                f"{method / aba:.2f}",
            ]
        )
    header = ["n", "RNEA", "CRBA", "factorize & solve", "CRBA method", "ABA", "method / ABA"]
    return _table(header, rows)


def crossover() -> str:
    """From which n on the ABA needs fewer operations than the inertia-matrix method."""
    from spatial import cost

    n = np.arange(2, 201)
    c = cost.gu_costs(n)
    cheaper = (c["ABA"].mul + c["ABA"].add) < (c["O(n^3)"].mul + c["O(n^3)"].add)
    first = int(n[np.flatnonzero(~cheaper)[-1] + 1])  # every larger n is cheaper too
    return (
        f"On GU(n) the articulated-body algorithm needs fewer operations than the inertia-matrix "
        f"method from **n = {first}** on."
    )


def branched_costs() -> str:
    """The inertia-matrix method with sparse factorization on branched trees (§10.3.2)."""
    from spatial import builders, cost

    rows = []
    n = 60
    for b in (1.0, 1.2, 1.5, 2.0, 4.0):
        tree = builders.branched_tree(n, branching_factor=b)
        depth = _depth(tree.parent)
        method = _flops(cost.inertia_method_cost(tree))
        aba = _flops(cost.table_10_1_cost("ABA", n))
        rows.append([f"{b:g}", str(depth), f"{method:,}", f"{aba:,}", f"{method / aba:.2f}"])
    header = ["branching factor", "depth", "CRBA method (sparse LᵀDL)", "ABA", "method / ABA"]
    return _table(header, rows)


def _depth(parent) -> int:
    depth = [0] * (len(parent) + 1)
    for i, p in enumerate(parent, start=1):
        depth[i] = depth[p + 1] + 1 if p >= 0 else 1
    return max(depth)


# --- closed loops ---------------------------------------------------------------------------


def _four_bar():
    """The four-bar of ``builders.four_bar`` in a closed configuration, moving."""
    from spatial import builders, dynamics

    model = builders.four_bar()
    closure = dynamics.loops.four_bar_closure(0.3, 1.0, 0.8, 0.9)
    q0, Gy, _ = closure.jacobians(np.array([0.8]), np.array([1.3]))
    return model, q0, Gy @ np.array([1.3])


def four_bar_formulations() -> str:
    """The four-bar linkage in the three formulations: the size of what each step solves."""
    from spatial import dynamics, joints, maximal, reduced

    model, q0, qd0 = _four_bar()
    K, _ = dynamics.loop_constraints(model, q0, qd0)
    system = maximal.from_model(model.spanning_tree())  # the tree's three hinges ...
    loop = model.loop_joints[0]  # ... and the loop's, between coupler end and rocker end
    frame = lambda x: np.array([[1, 0, 0, x], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1.0]])  # noqa: E731
    system.add_joint(joints.Revolute("z"), loop.predecessor, loop.successor, frame(1.0), frame(0.8))
    T0, _ = maximal.maximal_state(model, q0, qd0)
    G_max = maximal.constraint_jacobian(system, T0)
    pin = reduced.PointConstraint(2, (1.0, 0, 0), 3, (0.8, 0, 0), axis=(0, 0, 1))
    G_red = reduced.constraint_rows(model, q0, qd0, [pin]).G
    rank = np.linalg.matrix_rank
    rows = [
        ["tree + loop joint", str(model.nv), f"{K.shape[0]} (rank {rank(K)})"],
        ["maximal coordinates", str(G_max.shape[1]), f"{G_max.shape[0]} (rank {rank(G_max)})"],
        ["REDMAX + point constraint", str(model.nv), f"{G_red.shape[0]} (rank {rank(G_red)})"],
    ]
    for row, unknowns in zip(rows, (model.nv, G_max.shape[1], model.nv), strict=True):
        constraints = int(row[2].split()[0])
        row.append(str(unknowns + constraints))
    header = ["formulation", "velocity unknowns", "constraint rows", "KKT size"]
    return _table(header, rows)


def loop_drift() -> str:
    """Loop-closure error of the four-bar simulated with and without Baumgarte terms."""
    from spatial import dynamics, simulate

    model, q0, qd0 = _four_bar()
    gains = np.array([0.0, 5.0, 20.0])
    h, duration = 0.01, 2.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dynamics.LoopConstraintWarning)
        run = simulate(
            model,
            np.broadcast_to(q0, (3, 3)),
            np.broadcast_to(qd0, (3, 3)),
            h,
            duration=duration,
            stabilization=(gains, gains),
        )
    error = np.abs(dynamics.loop_position_errors(model, run.q)).max(-1)  # (time, gains)
    rows = [
        [f"{g:g}", f"{h * g:.2f}", _power(error[:, k].max()), _power(error[-1, k])]
        for k, g in enumerate(gains)
    ]
    header = ["α = β (1/s)", "h·β", "largest closure error (m)", f"at t = {duration:g} s (m)"]
    return _table(header, rows)


# --- integrators ----------------------------------------------------------------------------

#: The integrators of ``spatial.integrators.STEPPERS`` compared (aliases left out).
INTEGRATORS = (
    "symplectic-euler",
    "rk4",
    "implicit-euler",
    "trapezoidal",
    "bridson-marino",
)


def _oscillator_run(integrator: str, h: float, steps: int):
    from spatial.integrators import LinearOscillator
    from spatial.simulation import simulate

    osc = LinearOscillator(1.0, 1.0)  # ω = 1 rad/s, period 2π s
    return simulate(osc, np.array([1.0]), np.array([0.0]), h, steps=steps, integrator=integrator)


def _step_matrix(integrator: str, h: float) -> np.ndarray:
    from spatial.integrators import LinearOscillator, step

    osc = LinearOscillator(1.0, 1.0)
    columns = []
    for q, v in ((1.0, 0.0), (0.0, 1.0)):
        s = step(osc, 0.0, np.array([q]), np.array([v]), h, integrator=integrator)
        columns.append([s.q[0], s.v[0]])
    return np.array(columns).T


def _largest_stable_step(integrator: str) -> str:
    """Largest hω with spectral radius of the step matrix <= 1 (undamped oscillator)."""
    stable = lambda h: max(abs(np.linalg.eigvals(_step_matrix(integrator, h)))) <= 1 + 1e-12  # noqa: E731
    if stable(1e3):
        return "any"
    lo, hi = 0.01, 1e3
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if stable(mid) else (lo, mid)
    return f"{lo:.2f}"


def integrator_table() -> str:
    """Order, measured order, energy behaviour and stability of each integrator."""
    from spatial import integrators

    rows = []
    for name in INTEGRATORS:
        errors = []
        for steps in (64, 128):  # to t = 1 s: the error at the end against cos t, -sin t
            run = _oscillator_run(name, 1.0 / steps, steps)
            errors.append(abs(run.q[-1, 0] - np.cos(1.0)) + abs(run.v[-1, 0] + np.sin(1.0)))
        order = np.log2(errors[0] / errors[1])
        run = _oscillator_run(name, 2 * np.pi / 20, 20 * 100)  # 100 periods at hω = 0.31
        energy = (run.q[:, 0] ** 2 + run.v[:, 0] ** 2) - 1  # relative to E₀ = ½
        rows.append(
            [
                f"`{name}`",
                str(integrators.ORDERS[name]),
                f"{order:.2f}",
                _percent(energy[200]),
                _percent(energy[-1]),
                _percent(energy[np.argmax(abs(energy))]),
                _largest_stable_step(name),
                "no" if name in ("symplectic-euler", "rk4") else "yes",
            ]
        )
    header = [
        "integrator",
        "order",
        "measured order",
        "energy after 10 periods",
        "after 100 periods",
        "largest energy error",
        "stable up to hω",
        "needs K, D",
    ]
    return _table(header, rows)


# --- contact solvers ------------------------------------------------------------------------


def _stack(masses, h: float = 0.01, g: float = 9.81):
    """The contact LCP of one step of a column of bodies resting on each other on the ground.

    Contact ``i`` is between body ``i - 1`` (0 = ground) and body ``i``; each body falls by
    ``g h`` in the step without contact.  The exact impulses carry the weight above each
    contact, ``λ_i = g h Σ_{j >= i} m_j``.
    """
    masses = np.asarray(masses, dtype=float)
    n = len(masses)
    J = np.eye(n) - np.eye(n, k=-1)  # relative normal velocity of each contact
    W = J @ np.diag(1 / masses) @ J.T  # the Delassus matrix
    u = J @ np.full(n, -g * h)
    exact = g * h * np.cumsum(masses[::-1])[::-1]
    return W, u, exact


def _relative(z: np.ndarray, exact: np.ndarray) -> float:
    return float(np.abs(z - exact).max() / exact.max())


def lcp_table() -> str:
    """Lemke against projected Gauss–Seidel on the contact LCPs of stacks of bodies."""
    from spatial import solvers

    cases = (
        ("10 equal bodies", [1.0] * 10),
        ("10 bodies, the top one 100× heavier", [1.0] * 9 + [100.0]),
        ("30 equal bodies", [1.0] * 30),
    )
    rows = []
    for label, masses in cases:
        W, u, exact = _stack(masses)
        lemke = solvers.lemke(W, u)
        pgs = solvers.pgs(W, u, tol=1e-8, max_iter=100_000)
        rows.append(
            [
                label,
                f"{np.linalg.cond(W):,.0f}",
                str(lemke.iterations),
                _error(_relative(lemke.z, exact)),
                f"{pgs.iterations:,}",
                _power(_relative(pgs.z, exact)),
            ]
        )
    header = [
        "stack",
        "condition number of W",
        "Lemke pivots",
        "Lemke error",
        "PGS sweeps (tol 10⁻⁸)",
        "PGS error",
    ]
    return _table(header, rows)


def friction_table() -> str:
    """Each friction model on one sliding contact against Coulomb's disc."""
    from spatial import solvers

    mu, angle = 0.5, np.deg2rad(30.0)
    W = np.eye(3)  # a unit point mass: the contact Delassus matrix is the identity
    u = np.array([-1.0, 2.0 * np.cos(angle), 2.0 * np.sin(angle)])  # approaching, sliding at 30°
    rows = []
    for name in ("gauss-seidel", "polyhedral", "pyramid", "box"):
        r = solvers.solve_impulses(W, u, mu, friction=name)
        t = r.tangent[0]
        direction = np.degrees(np.arctan2(-t[1], -t[0]) - angle)
        ratio = np.linalg.norm(t) / (mu * r.normal[0])
        label = {"gauss-seidel": "Gauss–Seidel with the disc", "polyhedral": "polyhedral, k = 8"}
        rows.append(
            [
                label.get(name, {"pyramid": "pyramid QP, k = 4", "box": "box"}.get(name)),
                f"`{name}`",
                f"{ratio:.3f}",
                f"{_clean(direction):+.1f}°",
                f"{_clean(r.normal_velocity[0]):.3f}",
            ]
        )
    header = [
        "friction model",
        "`friction=`",
        "friction / μλₙ",
        "direction error",
        "vₙ after (m/s)",
    ]
    return _table(header, rows)


# --- compliant contact ------------------------------------------------------------------------


def soft_contact_table() -> str:
    """Closed forms of the linear soft contact of Featherstone §11.8 for a 1 kg body at rest."""
    mass, g = 1.0, 9.81
    rows = []
    for stiffness in (1e3, 1e4, 1e5, 1e6):
        omega = np.sqrt(stiffness / mass)
        h = 0.2 / omega  # a tenth of symplectic Euler's limit hω = 2
        rows.append(
            [
                f"$10^{{{int(np.log10(stiffness))}}}$",
                f"{omega:,.0f}",
                f"{1000 * mass * g / stiffness:.3g}",
                _power(h),
                f"{1 / h:,.0f}",
            ]
        )
    header = [
        "K (N/m)",
        "ω = √(K/m) (rad/s)",
        "penetration at rest mg/K (mm)",
        "step for hω = 0.2 (s)",
        "steps per simulated second",
    ]
    return _table(header, rows)


# --- the page -------------------------------------------------------------------------------

TABLES = {
    "tree-costs": tree_costs,
    "crossover": crossover,
    "branched-costs": branched_costs,
    "four-bar": four_bar_formulations,
    "loop-drift": loop_drift,
    "integrators": integrator_table,
    "lcp": lcp_table,
    "friction": friction_table,
    "soft-contact": soft_contact_table,
}

BLOCK = re.compile(r"(<!-- table: ([\w-]+) -->\n)(.*?)\n?<!-- end table -->", re.S)


def tables() -> dict[str, str]:
    return {name: make() for name, make in TABLES.items()}


def page_tables(text: str) -> dict[str, str]:
    """The tables a page shows, by name."""
    return {m.group(2): m.group(3) for m in BLOCK.finditer(text)}


def fill(text: str, computed: dict[str, str]) -> str:
    """``text`` with every table block replaced by its computed content."""
    missing = set(computed) - set(page_tables(text))
    if missing:
        raise ValueError(f"the page has no block for {sorted(missing)}")
    return BLOCK.sub(lambda m: m.group(1) + computed[m.group(2)] + "\n<!-- end table -->", text)


def main(argv: list[str]) -> int:
    computed = tables()
    if "--write" in argv:
        PAGE.write_text(fill(PAGE.read_text(), computed))
        print(f"wrote {len(computed)} tables into {PAGE}")
    else:
        for name, table in computed.items():
            print(f"<!-- table: {name} -->\n{table}\n<!-- end table -->\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
