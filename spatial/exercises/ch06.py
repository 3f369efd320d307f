"""Checkers for the exercises of notebook 06, "The joint-space inertia matrix" (Featherstone ch. 6).

06.1  ``H`` one column at a time from inverse dynamics (eqs. 6.2–6.4);
06.2  the expanded parent array of Table 6.4;
06.3  the sparse ``LᵀL`` factorization of Table 6.3;
06.4  (predict) ``D₁`` of a floating quadruped: the entries below H's diagonal the tree allows;
06.5  (model) how much ``H₁₁`` of the Panda grows with a 2 kg payload at its flange.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders, dynamics, inertia, joints, vectors
from ..model import Model
from ..urdf import example_robot
from . import assert_close, check_number

__all__ = ["CHECKS"]


def _test_models() -> list:
    rng = np.random.default_rng(601)
    return [
        builders.planar_chain(3),
        builders.branched_tree(7, branching_factor=2.0),
        builders.random_tree(rng, 6, joints=("R", "S", "C", "FREE"), branching=0.7),
        builders.humanoid(floating=True),
    ]


def check_H_from_inverse_dynamics(H_from_inverse_dynamics: Callable) -> None:
    """06.1: ``H_from_inverse_dynamics(model, q)`` -> H (nv, nv)."""
    rng = np.random.default_rng(602)
    for model in _test_models():
        q = model.random_configuration(rng)
        assert_close(
            H_from_inverse_dynamics(model, q),
            dynamics.crba(model, q),
            f"H of a {model.NB}-body model (nv = {model.nv})",
        )


def check_expanded_parent(expanded_parent: Callable) -> None:
    """06.2: ``expanded_parent(parent, dofs)`` -> λ' (0-based, -1 at roots)."""
    book_parent, book_dofs = [-1, 0, 1, 1, 2, 2, 3], [0, 1, 3, 1, 1, 1, 1]
    got = np.asarray(expanded_parent(book_parent, book_dofs))
    expected = np.array([0, 1, 2, 3, 1, 4, 4, 5]) - 1  # the book's (0,1,2,3,1,4,4,5), 0-based
    assert_close(got, expected, "the example of Table 6.4 (joint 2 has 3 DoF)")
    for model in _test_models():
        dofs = [0] + [model.joints[i].nv for i in range(1, model.NB + 1)]
        if 0 in dofs[1:]:
            continue  # Table 6.4 assumes every joint has at least one DoF
        assert_close(
            np.asarray(expanded_parent(list(model.parent), dofs)),
            model.expanded_parent(),
            f"expanded parent array for parent = {model.parent}, dofs = {dofs}",
        )


def check_ltl_factor(ltl_factor: Callable) -> None:
    """06.3: ``ltl_factor(H, lam)`` -> L with H = LᵀL in its lower triangle (Table 6.3)."""
    rng = np.random.default_rng(603)
    for model in _test_models()[1:]:
        q = model.random_configuration(rng)
        H, lam = dynamics.crba(model, q), model.expanded_parent()
        L = np.tril(np.asarray(ltl_factor(H.copy(), lam), dtype=float))  # upper part ignored
        assert_close(L, dynamics.ltl(H, lam), f"L (lower triangle) for a {model.NB}-body model")


def quadruped() -> Model:
    """A floating trunk with four legs of three revolute joints each (the shape of 06.4)."""
    quad = Model()
    trunk = quad.add_body(0, joints.Free(), np.eye(6), inertia.cuboid_inertia(8.0, 0.4, 0.2, 0.1))
    link = inertia.sphere_inertia(0.5, 0.03)
    for x, y in ((0.2, 0.1), (0.2, -0.1), (-0.2, 0.1), (-0.2, -0.1)):
        hip = quad.add_body(trunk, joints.Revolute("x"), vectors.xlt([x, y, 0.0]), link)
        thigh = quad.add_body(hip, joints.Revolute("y"), np.eye(6), link)
        quad.add_body(thigh, joints.Revolute("y"), vectors.xlt([0.0, 0.0, -0.2]), link)
    return quad


def check_quadruped_D1(value) -> None:
    """06.4: ``D₁`` (eq. 6.26) of :func:`quadruped`, an integer."""
    expected = dynamics.sparsity_sums(quadruped().expanded_parent())[0]
    check_number(
        value,
        expected,
        what="D₁, the number of entries below the diagonal of H that can be non-zero",
        reread="§3 of this notebook (the expanded parent array: a 6-DoF joint is a chain of six "
        "arcs) and §5 (eq. 6.26); Featherstone §6.4–6.5",
        rtol=0.0,
        atol=0.5,
    )


#: Exercise 06.5: the Panda's ready pose (rad), the payload (kg) and its place in link 7 (m).
PANDA_READY = (0.0, -np.pi / 4, 0.0, -3 * np.pi / 4, 0.0, np.pi / 2, np.pi / 4)
PANDA_PAYLOAD, PANDA_FLANGE = 2.0, (0.0, 0.0, 0.107)


def check_panda_H11(value) -> None:
    """06.5: the growth of the Panda's ``H₁₁`` (kg m²) with the payload welded to the flange."""
    bare = example_robot("panda.urdf", builders.arm7, quiet=True)
    loaded = example_robot("panda.urdf", builders.arm7, quiet=True)
    loaded.add_body(
        7,
        joints.Fixed(),
        vectors.xlt(PANDA_FLANGE),
        inertia.point_mass_inertia(PANDA_PAYLOAD, [0.0, 0.0, 0.0]),
        name="payload",
    )
    q = bare.neutral_configuration()
    q[:7] = PANDA_READY
    expected = dynamics.crba(loaded, q)[0, 0] - dynamics.crba(bare, q)[0, 0]
    check_number(
        value,
        expected,
        what="the growth of H₁₁ in kg m²",
        reread="§2 of this notebook (H_ij from the composite inertia of the subtree); "
        "Featherstone §6.2–6.3",
        rtol=1e-2,
    )


CHECKS = {
    "06.1": check_H_from_inverse_dynamics,
    "06.2": check_expanded_parent,
    "06.3": check_ltl_factor,
    "06.4": check_quadruped_D1,
    "06.5": check_panda_H11,
}
