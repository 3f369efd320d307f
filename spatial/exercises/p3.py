"""Project P3, "One mechanism, three formulations": its mechanisms and its milestones' checkers.

The project simulates one closed-chain mechanism as a tree with loop joints (Featherstone
ch. 8), in maximal coordinates (Sueda part 1) and in REDMAX (Sueda part 2, §2.8).  The student
picks one of :data:`MECHANISMS`; :func:`mechanism` gives it in a closed, moving state, and the
checkers test every answer on both, so an answer that only fits one of them does not pass.

The milestones:

* P3.1, ``tree_accelerations(model, q, qd, stabilization)``: ``q̈`` of eq. 8.36 with Baumgarte's
  term (Featherstone §8.3–8.5), solved although ``K`` has redundant rows (§8.10);
* P3.2, ``maximal_system(model)``: the maximal-coordinate system with its loops closed by joints
  that write only independent rows (Sueda §1.10, eq. 2.94);
* P3.3, ``point_constraints(model)``: the loop joints as REDMAX point constraints (Sueda §2.8);
* P3.4, ``kkt_sizes(model)``: the unknowns and constraint rows of the linear system each
  formulation solves per evaluation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .. import builders, maximal, reduced
from ..dynamics import aba, loops
from ..joints import Composite, Prismatic, Spherical
from ..kinematics import body_poses
from ..model import Model
from . import assert_close

__all__ = ["MECHANISMS", "Mechanism", "mechanism", "planar_pin", "CHECKS"]

#: The mechanisms a student may choose for the project.
MECHANISMS = ("jansen", "crank-slider")


@dataclass(frozen=True)
class Mechanism:
    """A closed-chain mechanism in a closed, moving state, with a marker point to follow.

    Attributes
    ----------
    name : str
    model : Model
        Spanning tree plus revolute loop joints; planar in x-y, gravity along -y.
    q0, qd0 : ndarray, shape (nv,)
        A configuration that closes every loop and a velocity that respects them.
    marker_body : int
        The body that carries the marker point.
    marker_point : ndarray, shape (3,)
        The marker in that body's coordinates (the foot of Jansen's leg, the middle of the
        crank-slider's rod).
    marker_name : str
    closure : LoopClosure
        ``q = γ(y)`` with the crank's joint angle ``y = q[0]``.
    """

    name: str
    model: Model
    q0: np.ndarray
    qd0: np.ndarray
    marker_body: int
    marker_point: np.ndarray
    marker_name: str
    closure: loops.LoopClosure

    def crank_turn(self, n: int = 73) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Closed configurations over one turn of the crank from ``q0``, by continuation.

        Returns the crank angles ``y`` (n,) from ``q0[0]`` to ``q0[0] + 2π``, the tree's
        configurations ``q`` (n, nq) and the matrices ``G = ∂q/∂y`` (n, nv, 1) (Featherstone
        §8.11): each configuration is found by Newton's method from the one before, so the
        whole turn stays on the assembly of ``q0``.
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 2:
            raise ValueError(f"n must be an int ≥ 2, got {n!r}")
        angles = self.q0[0] + np.linspace(0.0, 2.0 * np.pi, n)
        qs, Gs, q = [], [], self.q0
        for y in angles:
            closure = loops.newton_closure(self.model, [0], q)
            q, G, _ = closure.jacobians(np.array([y]), np.zeros(1))
            qs.append(q)
            Gs.append(G)
        return angles, np.array(qs), np.array(Gs)

    def marker(self, poses) -> np.ndarray:
        """World position of the marker, ``(..., 3)``, from body poses ``(..., NB, 4, 4)``
        (row ``b - 1`` is body ``b``, as ``system.poses`` returns them)."""
        T = np.asarray(poses)[..., self.marker_body - 1, :, :]
        return T[..., :3, :3] @ self.marker_point + T[..., :3, 3]


def mechanism(name: str = "jansen", crank_speed: float = 5.0) -> Mechanism:
    """One of the project's mechanisms, closed, with its crank turning at ``crank_speed``.

    ``"jansen"``: Jansen's walking leg (:func:`spatial.builders.jansen_leg`, seven links, three
    loops), at crank angle 0; the marker is the foot.  ``"crank-slider"``: Featherstone's
    Figure 4.1 (:func:`spatial.builders.crank_slider`, three links, one loop) at crank angle
    1 rad; the marker is the middle of the rod.

    Raises
    ------
    ValueError
        If ``name`` is not one of :data:`MECHANISMS` or ``crank_speed`` is not finite.
    """
    if name not in MECHANISMS:
        raise ValueError(f"name must be one of {MECHANISMS}, got {name!r}")
    speed = float(crank_speed)
    if not np.isfinite(speed):
        raise ValueError(f"crank_speed must be a finite number (rad/s), got {crank_speed!r}")
    if name == "jansen":
        model = builders.jansen_leg()
        closure = loops.newton_closure(model, [0], np.zeros(model.nq))
        foot = builders.jansen_points(0.0)["foot"]
        T = body_poses(model, np.zeros(model.nq))[7]
        point = T[:3, :3].T @ (np.array([*foot, 0.0]) - T[:3, 3])
        body, what, y0 = 7, "foot", 0.0
    else:
        model = builders.crank_slider()
        closure = loops.crank_slider_closure()
        body, point, what, y0 = 2, np.array([0.5, 0.0, 0.0]), "middle of the rod", 1.0
    q0, G, _ = closure.jacobians(np.array([y0]), np.array([speed]))
    return Mechanism(name, model, q0, G @ np.array([speed]), body, point, what, closure)


def planar_pin() -> Composite:
    """A joint that forbids only the two translations perpendicular to z (2 constraint rows).

    A ball joint that may also slide along z: closing a loop of the x-y plane with it holds the
    two pin points together in the plane and writes no row the plane already satisfies (the
    maximal-coordinate counterpart of Sueda's two-direction hinge constraint, eq. 2.94).
    """
    return Composite(Prismatic("z"), Spherical())


# ----------------------------------------------------------------------------- the cases


def _states(name: str) -> list[tuple[Mechanism, np.ndarray, np.ndarray]]:
    """Two closed, moving states of a mechanism: the start and a later crank angle."""
    mech = mechanism(name, crank_speed=3.0)
    q1, G, _ = mech.closure.jacobians(np.array([0.4]), np.array([-2.0]))
    return [(mech, mech.q0, mech.qd0), (mech, q1, G @ np.array([-2.0]))]


def _open_state(mech: Mechanism, q, qd):
    """The state nudged off its loops (as in a simulation that drifted)."""
    rng = np.random.default_rng(31)
    return q + 1e-3 * rng.standard_normal(q.shape), qd + 1e-2 * rng.standard_normal(qd.shape)


# ----------------------------------------------------------------------------- P3.1


def check_tree_accelerations(tree_accelerations: Callable) -> None:
    """P3.1: ``tree_accelerations(model, q, qd, stabilization)`` is q̈ of eq. 8.36."""
    for name in MECHANISMS:
        for mech, q, qd in _states(name):
            model = mech.model
            cases = [(q, qd, None, "a closed state"), (q, qd, (5.0, 20.0), "a closed state")]
            q_open, qd_open = _open_state(mech, q, qd)
            cases.append((q_open, qd_open, (5.0, 20.0), "a state 1 mm off its loops"))
            for q_c, qd_c, gains, where in cases:
                expected, _ = loops.loop_forward_dynamics(
                    model, q_c, qd_c, stabilization=gains, check=False
                )
                try:
                    got = tree_accelerations(model, q_c.copy(), qd_c.copy(), gains)
                except np.linalg.LinAlgError as err:
                    raise AssertionError(
                        f"the solve failed ({err}): K of a planar loop closed by hinges has "
                        "redundant rows, so the matrix of eq. 8.36 is singular; solve it in "
                        "the least-squares sense, with the minimum-norm λ (Featherstone §8.5 "
                        "and eq. 8.41, §8.10; notebook 08)"
                    ) from None
                got = np.asarray(got, dtype=float)
                if got.shape != expected.shape:
                    raise AssertionError(
                        f"tree_accelerations must return q̈ of shape ({model.nv},), one per "
                        f"velocity variable of the tree; got {got.shape}"
                    )
                free = _tree_only(model, q_c, qd_c)
                if np.allclose(got, free, rtol=1e-6, atol=1e-9):
                    raise AssertionError(
                        "q̈ is the tree's, without the loop forces: add the rows K q̈ = k and "
                        "the forces Kᵀλ (eq. 8.36; Featherstone §8.3–8.5, notebook 08)"
                    )
                if gains is not None:
                    plain, _ = loops.loop_forward_dynamics(model, q_c, qd_c, check=False)
                    if np.allclose(got, plain, rtol=1e-8, atol=1e-10) and not np.allclose(
                        plain, expected, rtol=1e-8, atol=1e-10
                    ):
                        raise AssertionError(
                            f"at {where} the Baumgarte term is missing: k + k_stab with "
                            "k_stab = -2αKq̇ - β²δ (Featherstone §8.3, eqs. 8.21–8.22; "
                            "loop_constraints(..., stabilization))"
                        )
                assert_close(
                    got,
                    expected,
                    f"q̈ of the {name} at {where}, stabilization={gains} "
                    "(eq. 8.36, Featherstone §8.5)",
                    tol=1e-8,
                )


def _tree_only(model: Model, q, qd) -> np.ndarray:
    """q̈ of the spanning tree alone (no loop forces)."""
    return aba(model.spanning_tree(), q, qd, np.zeros(model.nv))


# ----------------------------------------------------------------------------- P3.2


def check_maximal_system(maximal_system: Callable) -> None:
    """P3.2: ``maximal_system(model)`` is the maximal system with independent closing rows."""
    for name in MECHANISMS:
        for mech, q, qd in _states(name):
            model = mech.model
            system = maximal_system(model)
            if not isinstance(system, maximal.System):
                raise AssertionError(f"maximal_system must return a maximal.System, got {system!r}")
            if system.N != model.NB:
                raise AssertionError(f"the system has {system.N} bodies, the tree {model.NB}")
            if len(system.joints) == model.NB:
                raise AssertionError(
                    "the system has only the tree's joints, so the loops are open: from_model "
                    "keeps the loop joints when asked (loops=True; notebook 12, Sueda §1.10)"
                )
            if len(system.joints) != model.NB + model.NL:
                raise AssertionError(
                    f"expected {model.NB} tree joints and {model.NL} closing joints, got "
                    f"{len(system.joints)} joints"
                )
            T, phi = maximal.maximal_state(model, q, qd)
            G = maximal.constraint_jacobian(system, T)
            rank = np.linalg.matrix_rank(G)
            if rank < G.shape[0]:
                raise AssertionError(
                    f"{G.shape[0]} constraint rows of rank {rank} for the {name}: the closing "
                    "joints write rows the plane already satisfies, so the KKT matrix is "
                    "singular; close each loop with a joint that forbids only the two in-plane "
                    "translations (Sueda eq. 2.94, notebook 15 §1; Featherstone §8.10)"
                )
            error = np.abs(maximal.constraint_error(system, T)).max()
            if error > 1e-9:
                raise AssertionError(
                    f"the {name} is closed, but the constraint error is {error:.3g}: the closing "
                    "joints must join the frames of the model's loop joints (X_p on the "
                    "predecessor, X_s on the successor; from_model's loops)"
                )
            if 6 * model.NB - rank != 1 or np.abs(G @ phi.reshape(-1)).max() > 1e-9:
                raise AssertionError(
                    f"the {name} has one degree of freedom and moves with the twists of the "
                    f"tree, but 6N - rank G = {6 * model.NB - rank} and |GΦ| = "
                    f"{np.abs(G @ phi.reshape(-1)).max():.3g} (Sueda §1.10)"
                )


# ----------------------------------------------------------------------------- P3.3


def check_point_constraints(point_constraints: Callable) -> None:
    """P3.3: ``point_constraints(model)`` closes the loops with independent REDMAX rows."""
    for name in MECHANISMS:
        for mech, q, qd in _states(name):
            model = mech.model
            items = list(point_constraints(model))
            rows = reduced.constraint_rows(model, q, qd, items)
            if rows.G.shape[0] != 2 * model.NL:
                raise AssertionError(
                    f"{rows.G.shape[0]} rows for the {model.NL} loop(s) of the {name}: a hinge "
                    "closing a planar loop gives two independent rows, in the two directions "
                    "perpendicular to its axis (Sueda eq. 2.94; give the PointConstraint its "
                    "axis)"
                )
            error = np.abs(rows.error).max()
            if error > 1e-9:
                raise AssertionError(
                    f"the {name} is closed, but the constraints' position error is "
                    f"{error:.3g}: each constraint must hold the origin of F_p (X_p = rot(E) "
                    "xlt(r): r, in the predecessor's coordinates) on that of F_s (Featherstone "
                    "§4.2; unplux)"
                )
            rank = np.linalg.matrix_rank(rows.G)
            if rank != 2 * model.NL:
                raise AssertionError(
                    f"the {2 * model.NL} rows have rank {rank}: two of them constrain the same "
                    "motion; each loop's pair must hold its own pin, perpendicular to its own "
                    "axis (Sueda eqs. 2.93–2.95)"
                )
            tree = model.spanning_tree()  # REDMAX closes the loops with the rows given
            got = reduced.constrained_forward_dynamics(tree, q, qd, None, items).qdd
            expected, _ = loops.loop_forward_dynamics(model, q, qd, check=False)
            assert_close(
                got,
                expected,
                f"REDMAX q̈ of the {name} with your constraints against Featherstone's "
                "(Sueda eq. 2.98)",
                tol=1e-8,
            )


# ----------------------------------------------------------------------------- P3.4


def _reference_sizes(model: Model) -> dict[str, tuple[int, int]]:
    """The three formulations' unknowns and rows, counted on the objects themselves."""
    K, _ = loops.loop_constraints(model, model.neutral_configuration(), np.zeros(model.nv))
    system = maximal.from_model(model, loops=True, loop_joint=planar_pin())
    return {
        "tree": (model.nv, K.shape[0]),
        "maximal": (6 * system.N, system.m),
        "redmax": (model.nv, 2 * model.NL),
    }


def check_kkt_sizes(kkt_sizes: Callable) -> None:
    """P3.4: ``kkt_sizes(model)`` gives (unknowns, constraint rows) per formulation."""
    models = [mechanism(name).model for name in MECHANISMS]
    models += [builders.four_bar(), builders.planar_loop_fig_8_3()]
    hints = {
        "tree": "unknowns q̈ (nv), rows: 6 - n_k per loop joint, redundant ones included "
        "(Featherstone eq. 8.1, §8.3)",
        "maximal": "unknowns: a twist per body (6 NB), rows: 6 - n_i per tree joint plus two "
        "per planar pin (Sueda §1.10)",
        "redmax": "unknowns q̈ (nv), rows: two per hinge loop (Sueda eq. 2.94, §2.8)",
    }
    for model in models:
        expected = _reference_sizes(model)
        got = kkt_sizes(model)
        if not isinstance(got, dict) or set(got) != set(expected):
            raise AssertionError(f"kkt_sizes must return a dict with the keys {sorted(expected)}")
        for key, want in expected.items():
            pair = tuple(int(x) for x in got[key])
            if pair != want:
                raise AssertionError(
                    f"{key} for a model with NB = {model.NB}, nv = {model.nv}, NL = {model.NL}: "
                    f"got {pair}; count {hints[key]}"
                )


CHECKS = {
    "P3.1": check_tree_accelerations,
    "P3.2": check_maximal_system,
    "P3.3": check_point_constraints,
    "P3.4": check_kkt_sizes,
}
