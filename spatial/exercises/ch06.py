"""Checkers for the exercises of notebook 06, "The joint-space inertia matrix" (Featherstone ch. 6).

06.1  ``H`` one column at a time from inverse dynamics (eqs. 6.2–6.4);
06.2  the expanded parent array of Table 6.4;
06.3  the sparse ``LᵀL`` factorization of Table 6.3.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .. import builders, dynamics
from . import assert_close

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


CHECKS = {
    "06.1": check_H_from_inverse_dynamics,
    "06.2": check_expanded_parent,
    "06.3": check_ltl_factor,
}
