"""Checkers for the exercises of notebook 04, "Modelling systems: connectivity, joints, trees, DH".

* 04.1: the support set ``κ(i)`` from a parent array (Featherstone §4.1.4);
* 04.2: ``X_J`` and ``S`` of a prismatic joint along an arbitrary unit axis (Table 4.1);
* 04.3: the point Jacobian of a revolute tree, column by column from the joint axes (eq. 4.6);

and of its second part, notebook 04b, "Constraints: subspaces, joints and constrained bodies":

* 04.4: a force on a constrained body split into the part that accelerates it and the part the
  joint holds (Featherstone eq. 3.28);
* 04.5: the incidence matrix ``P`` of a tree from its parent array (eq. 3.69).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders, constrained, kinematics
from ..joints import Cylindrical, Planar, Prismatic, Revolute, Spherical

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


CHECKS = {
    "04.1": check_support,
    "04.2": check_prismatic,
    "04.3": check_point_jacobian,
    "04.4": check_split_force,
    "04.5": check_incidence,
}
