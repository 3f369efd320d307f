"""Inverse reduced inertia by recursive forward dynamics (Sueda §2.13, Alg. 10).

Oracles: Featherstone's ``crba`` solved densely, ``numpy.linalg.inv``, and the dense
``J_mr`` for the body-fixed preconditioner terms.
"""

import numpy as np
import pytest

from spatial import builders
from spatial.dynamics import crba
from spatial.reduced import (
    inverse_inertia,
    inverse_inertia_factor,
    inverse_inertia_product,
    redmax_jacobian,
)

MIXED = ("R", "P", "H", "C", "S", "SY", "FREE", "PL", "F", "RP", "~RP", "~H", "~SY")
TOL = 1e-10


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


@pytest.mark.parametrize("seed", range(3))
def test_product_and_inverse_equal_dense_solves(seed):
    rng = np.random.default_rng(seed)
    model = builders.random_tree(rng, 8, joints=MIXED)
    q = model.random_configuration(rng)
    x = rng.standard_normal(model.nv)
    H = crba(model, q)
    assert rel_err(inverse_inertia_product(model, q, x), np.linalg.solve(H, x)) <= TOL
    assert rel_err(inverse_inertia(model, q), np.linalg.inv(H)) <= TOL


def test_factor_is_reused_and_batched():
    rng = np.random.default_rng(11)
    model = builders.random_tree(rng, 5, joints=("R", "S", "P"))
    q = model.random_configuration(rng, (4,))
    factor = inverse_inertia_factor(model, q)
    H = crba(model, q)
    for _ in range(3):
        x = rng.standard_normal((4, model.nv))
        assert rel_err(factor.solve(x), np.linalg.solve(H, x[..., None])[..., 0]) <= TOL
    assert rel_err(factor.inverse(), np.linalg.inv(H)) <= TOL


def test_preconditioner_equals_dense_implicit_matrix():
    rng = np.random.default_rng(5)
    model = builders.random_tree(rng, 7, joints=("R", "P", "H", "S"))
    q = model.random_configuration(rng)
    h = 0.01
    D = rng.uniform(0, 5, model.nv)
    K = rng.uniform(0, 500, model.nv)
    A = rng.standard_normal((model.NB, 6, 6))
    Dm = A @ np.swapaxes(A, -1, -2)
    Km = 10.0 * np.eye(6) * rng.uniform(0, 1, (model.NB, 1, 1))
    J = redmax_jacobian(model, q)
    blk = np.zeros((6 * model.NB, 6 * model.NB))
    for i in range(model.NB):
        blk[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = h * Dm[i] + h * h * Km[i]
    A_dense = crba(model, q) + J.T @ blk @ J + np.diag(h * D + h * h * K)
    x = rng.standard_normal(model.nv)
    y = inverse_inertia_product(
        model, q, x, h=h, damping=D, stiffness=K, body_damping=Dm, body_stiffness=Km
    )
    assert rel_err(y, np.linalg.solve(A_dense, x)) <= TOL
    # joint terms alone: M + hD + h²K of the linearly implicit step (eq. 2.78)
    y = inverse_inertia(model, q, h=h, damping=D, stiffness=K)
    assert rel_err(y, np.linalg.inv(crba(model, q) + np.diag(h * D + h * h * K))) <= TOL


def test_bad_inputs_raise():
    model = builders.planar_chain(3)
    q = np.zeros(3)
    with pytest.raises(ValueError, match="without the time step h"):
        inverse_inertia_factor(model, q, damping=np.ones(3))
    with pytest.raises(ValueError, match="nonnegative"):
        inverse_inertia_factor(model, q, h=0.1, stiffness=[1.0, -1.0, 1.0])
    with pytest.raises(ValueError, match="body_damping"):
        inverse_inertia_factor(model, q, h=0.1, body_damping=np.ones((2, 6, 6)))
    with pytest.raises(ValueError, match="positive semidefinite"):
        inverse_inertia_factor(model, q, h=0.1, body_stiffness=-np.eye(6)[None].repeat(3, 0))
    with pytest.raises(ValueError, match="x"):
        inverse_inertia_factor(model, q).solve(np.zeros(2))
    with pytest.raises(ValueError, match="batch shape"):
        inverse_inertia_factor(model, np.zeros((2, 3))).solve(np.zeros((3, 3)))


def test_massless_subtree_is_reported():
    import spatial as sp
    from spatial.joints import Revolute

    model = sp.Model()
    model.add_body(0, Revolute("z"), np.eye(6), np.zeros((6, 6)))
    with pytest.raises(ValueError, match="no inertia"):
        inverse_inertia_product(model, [0.0], [1.0])


def test_matrix_gains_are_refused():
    model = builders.planar_chain(3)
    with pytest.raises(ValueError, match="one gain per velocity variable"):
        inverse_inertia_factor(model, np.zeros(3), h=0.1, damping=np.eye(3))


def test_a_step_h_that_is_not_positive_is_refused_even_without_gains():
    model = builders.double_pendulum()
    with pytest.raises(ValueError, match="h must be > 0, got -0.1"):
        inverse_inertia_factor(model, np.zeros(2), h=-0.1)  # silently unused before
    with pytest.raises(ValueError, match="^x must be real"):
        inverse_inertia_product(model, np.zeros(2), np.ones(2) + 1j)
