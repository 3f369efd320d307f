"""Checkers for the exercises of notebook 04, "Modelling systems: connectivity, joints, trees, DH".

* 04.1: the support set ``κ(i)`` from a parent array (Featherstone §4.1.4);
* 04.2: ``X_J`` and ``S`` of a prismatic joint along an arbitrary unit axis (Table 4.1);
* 04.3: the point Jacobian of a revolute tree, column by column from the joint axes (eq. 4.6);
* 04.6 (predict): ``n_q`` and ``n_v`` of a tree with a free, a spherical and two revolute joints;
* 04.7 (model): a SCARA robot built from its DH table, and the position of its tool point;

and of its second part, notebook 04b, "Constraints: subspaces, joints and constrained bodies":

* 04.4: a force on a constrained body split into the part that accelerates it and the part the
  joint holds (Featherstone eq. 3.28);
* 04.5: the incidence matrix ``P`` of a tree from its parent array (eq. 3.69);
* 04.8 (predict): the constraint rows of a hinge, a ball joint and a ball rolling on the floor;
* 04.9 (model): a ball pushed at its top rolls off faster than a free one (eqs. 3.51–3.55).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders, constrained, inertia, kinematics, vectors
from ..joints import Cylindrical, Free, Planar, Prismatic, Revolute, Spherical
from ..model import Model
from . import check_number

__all__ = ["CHECKS"]


def _compare(got, expected, what: str, tol: float = 1e-9) -> None:
    got = np.asarray(got, dtype=float)
    if got.shape != expected.shape:
        raise AssertionError(f"{what}: expected shape {expected.shape}, got {got.shape}")
    err = np.abs(got - expected).max(initial=0.0)
    if not err <= tol * max(1.0, np.abs(expected).max(initial=0.0)):
        raise AssertionError(
            f"{what}: largest difference {err:.3g}.\nexpected\n{expected}\ngot\n{got}"
        )


def check_support(kappa: Callable) -> None:
    """04.1: ``kappa(parent, i)`` lists the joints from the base to body ``i``, in order."""
    rng = np.random.default_rng(401)
    models = [builders.humanoid(), builders.planar_chain(4)]
    models += [builders.random_tree(rng, 9, joints=("R",)) for _ in range(3)]
    for model in models:
        parent = list(model.parent)
        for i in range(1, model.NB + 1):
            got = kappa(list(parent), i)
            expected = model.support(i)
            if [int(j) for j in got] != expected:
                raise AssertionError(
                    f"kappa(parent={parent}, i={i}) returned {list(got)}; expected {expected} "
                    "(the joints on the path from the base to body i, starting at the base)"
                )


def check_prismatic(prismatic: Callable) -> None:
    """04.2: ``prismatic(axis, q)`` returns ``(X_J, S)`` of a prismatic joint along ``axis``."""
    rng = np.random.default_rng(402)
    axes = [np.array([0.0, 0.0, 1.0])]
    axes += [a / np.linalg.norm(a) for a in rng.standard_normal((3, 3))]
    for axis in axes:
        for q in (0.0, 0.7, -1.3):
            joint = Prismatic(axis)
            out = prismatic(axis.copy(), q)
            if not (isinstance(out, tuple) and len(out) == 2):
                raise AssertionError("prismatic must return a pair (X_J, S)")
            where = f"axis={np.round(axis, 3)}, q={q}"
            _compare(out[0], joint.transform(np.array([q])), f"X_J ({where})")
            _compare(
                np.reshape(out[1], -1),
                joint.motion_subspace(np.array([q]))[:, 0],
                f"S ({where}; in F_s coordinates, angular part first)",
            )


def check_point_jacobian(point_jacobian_by_hand: Callable) -> None:
    """04.3: ``point_jacobian_by_hand(model, q, body, point)`` for revolute trees."""
    rng = np.random.default_rng(403)
    cases = [(builders.arm7(), 7), (builders.humanoid(), 8)]
    cases += [(builders.random_tree(rng, 6, joints=("R",)), 6)]
    for model, body in cases:
        q = model.random_configuration(rng)
        point = rng.uniform(-0.3, 0.3, size=3)
        expected = kinematics.point_jacobian(model, q, body, point)
        _compare(
            point_jacobian_by_hand(model, q, body, point),
            expected,
            f"point Jacobian of body {body} ({model.names[body]}) at point {np.round(point, 3)}",
        )


def check_split_force(split_force: Callable) -> None:
    """04.4: ``split_force(I, S, f)`` returns ``(f_a, f_c)`` with ``f_a ∈ I S``, ``f_c ∈ S⊥``."""
    rng = np.random.default_rng(404)
    for joint in (Revolute("z"), Cylindrical("x"), Planar(), Spherical()):
        I = builders.random_inertia(rng)
        S = joint.motion_subspace(joint.random_configuration(rng))
        f = rng.standard_normal(6)
        out = split_force(I.copy(), S.copy(), f.copy())
        if not (isinstance(out, tuple) and len(out) == 2):
            raise AssertionError("split_force must return a pair (f_a, f_c)")
        what = f"{joint!r} (eq. 3.28; the part f_c must do no work on S: Sᵀ f_c = 0)"
        f_a = I @ constrained.apparent_inverse_inertia(I, S) @ f  # I a, with a = Φ f
        _compare(np.reshape(out[0], -1), f_a, f"f_a for {what}")
        _compare(np.reshape(out[1], -1), f - f_a, f"f_c for {what}")


def check_incidence(incidence: Callable) -> None:
    """04.5: ``incidence(parent)`` returns the ``6 N_B x 6 N_J`` matrix ``P`` of eq. 3.69."""
    rng = np.random.default_rng(405)
    models = [builders.planar_chain(3), builders.branched_tree(5, branching_factor=2)]
    models += [builders.humanoid()]
    for model in models:
        q = model.random_configuration(rng)
        P = constrained.big_matrix_system(model, q, np.zeros(model.nv), np.zeros(model.nv)).P
        parent = list(model.parent)
        _compare(
            incidence(list(parent)),
            P,
            f"P for the parent array {parent} (joint j joins body λ(j) to body j: +1 in the "
            "successor's block row, -1 in the predecessor's, none for the base)",
        )


def floating_tree() -> Model:
    """04.6's tree: a free torso, a head on a ball joint, a two-joint revolute arm."""
    link = inertia.cuboid_inertia(1.0, 0.1, 0.1, 0.3)
    tree = Model()
    tree.add_body(0, Free(), np.eye(6), link, name="torso")
    tree.add_body(1, Spherical(), vectors.xlt([0.0, 0.0, 0.3]), link, name="head")
    tree.add_body(1, Revolute("y"), vectors.xlt([0.0, 0.2, 0.2]), link, name="upper_arm")
    tree.add_body(3, Revolute("y"), vectors.xlt([0.0, 0.0, -0.3]), link, name="forearm")
    return tree


def check_counts(answer) -> None:
    """04.6: the pair ``(n_q, n_v)``, exactly."""
    tree = floating_tree()
    check_number(
        answer,
        [tree.nq, tree.nv],
        what="(n_q, n_v) of the tree",
        reread="§3 and §4 of this notebook (q_index, v_index), Featherstone §4.4–4.5",
        rtol=0.0,
        atol=1e-9,
    )


#: 04.7's SCARA: DH parameters in Featherstone's convention (§4.3), joint types, pose, tool.
SCARA = dict(
    a=[0.0, 0.35, 0.25, 0.0],
    alpha=[0.0, 0.0, np.pi, 0.0],
    d=[0.4, 0.0, 0.0, 0.0],
    theta=[0.0, 0.0, 0.0, 0.0],
    joint_types="RRPR",
)
SCARA_Q = np.array([0.6, -1.1, 0.15, 0.8])  # rad, rad, m, rad
SCARA_TOOL = np.array([0.05, 0.0, 0.1])  # tool point in link 4's frame (m)


def scara_tool_point() -> np.ndarray:
    """04.7's reference: the tool point in base coordinates (m)."""
    scara = builders.from_dh(**SCARA)
    T = kinematics.body_poses(scara, SCARA_Q)[4]
    return T[:3, :3] @ SCARA_TOOL + T[:3, 3]


def check_scara(answer) -> None:
    """04.7: the tool point's base coordinates, within 1 mm in each."""
    check_number(
        answer,
        scara_tool_point(),
        what="the tool point in base coordinates (m)",
        reread="§5 of this notebook (which pair of parameters sits before the joint?), "
        "Featherstone §4.3",
        rtol=0.0,
        atol=1e-3,
    )


# 04.8's ball: the no-slip constraint of a ball of radius R on the floor, at its centre with
# world-parallel axes: [ω; v] = S ω with v = ω × (R e_z) (notebook 04b, §3).
def rolling_subspace(radius: float) -> np.ndarray:
    """The 6x3 motion subspace of a ball of ``radius`` rolling without slipping on z = 0."""
    return np.vstack([np.eye(3), -radius * vectors.skew([0.0, 0.0, 1.0])])


def check_constraint_rows(answer) -> None:
    """04.8: the triple (hinge, ball joint, rolling ball) of constraint counts, exactly."""
    # a constraint removes 6 - (the dimension of the motion subspace) freedoms (Featherstone §3.2)
    expected = [
        6 - Revolute("z").nv,
        6 - Spherical().nv,
        6 - np.linalg.matrix_rank(rolling_subspace(0.1)),
    ]
    check_number(
        answer,
        expected,
        what="the number of constraint rows (hinge, ball joint, rolling ball)",
        reread="§1 and §3 of notebook 04b, Featherstone §3.2–3.4",
        rtol=0.0,
        atol=1e-9,
    )


BALL_PUSH = dict(m=2.0, R=0.1, F=1.0)  # 04.9: kg, m, N (pushed along x at the top point)


def pushed_ball_acceleration() -> float:
    """04.9's reference: the centre's acceleration along x (m/s²), by eqs. 3.51–3.55."""
    m, R, F = BALL_PUSH.values()
    I_ball = inertia.sphere_inertia(m, R)
    f = vectors.point_force([F, 0.0, 0.0], [0.0, 0.0, R])  # at the top, about the centre
    a, _ = constrained.constrained_acceleration(I_ball, rolling_subspace(R), f)
    return float(a[3])


def check_pushed_ball(answer) -> None:
    """04.9: the centre's acceleration in m/s², within 0.5 %."""
    check_number(
        answer,
        pushed_ball_acceleration(),
        what="the acceleration of the ball's centre in m/s²",
        reread="§3 of notebook 04b (the rolling ball; where does the push act?), "
        "Featherstone §3.4 and eqs. 3.51–3.55",
        rtol=0.005,
    )


CHECKS = {
    "04.1": check_support,
    "04.2": check_prismatic,
    "04.3": check_point_jacobian,
    "04.4": check_split_force,
    "04.5": check_incidence,
    "04.6": check_counts,
    "04.7": check_scara,
    "04.8": check_constraint_rows,
    "04.9": check_pushed_ball,
}
