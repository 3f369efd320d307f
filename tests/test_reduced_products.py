"""O(n) products with J_mr, J̇_mr and J_mrᵀ (Sueda §2.10, Algs. 5–6).

Oracle: the dense ``redmax_jacobian`` / ``redmax_jacobian_dot`` (themselves checked against
``body_jacobian`` and finite differences in ``test_reduced.py``) times the vector.
"""

import numpy as np
import pytest

from spatial import builders
from spatial.reduced import (
    jacobian_dot_product,
    jacobian_product,
    jacobian_transpose_product,
    redmax_jacobian,
    redmax_jacobian_dot,
)

MIXED = ("R", "P", "H", "C", "S", "SY", "FREE", "PL", "F", "RP", "~RP", "~H", "~SY", "~PL", "~S")
TOL = 1e-12


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


@pytest.mark.parametrize("seed", range(4))
def test_products_equal_dense_products_on_random_trees(seed):
    rng = np.random.default_rng(seed)
    model = builders.random_tree(rng, 9, joints=MIXED)
    q = model.random_configuration(rng)
    qd = rng.standard_normal(model.nv)
    x = rng.standard_normal(model.nv)
    y = rng.standard_normal(6 * model.NB)
    J = redmax_jacobian(model, q)
    Jd = redmax_jacobian_dot(model, q, qd)
    assert rel_err(jacobian_product(model, q, x), J @ x) <= TOL
    assert rel_err(jacobian_dot_product(model, q, qd, x), Jd @ x) <= TOL
    assert rel_err(jacobian_transpose_product(model, q, y), J.T @ y) <= TOL


def test_products_are_batched():
    rng = np.random.default_rng(7)
    model = builders.random_tree(rng, 6, joints=("R", "S", "H", "SY"))
    q = model.random_configuration(rng, (3,))
    qd = rng.standard_normal((3, model.nv))
    x = rng.standard_normal((3, model.nv))
    y = rng.standard_normal((3, 6 * model.NB))
    J = redmax_jacobian(model, q)
    Jd = redmax_jacobian_dot(model, q, qd)
    assert rel_err(jacobian_product(model, q, x), (J @ x[..., None])[..., 0]) <= TOL
    assert rel_err(jacobian_dot_product(model, q, qd, x), (Jd @ x[..., None])[..., 0]) <= TOL
    Jt_y = (np.swapaxes(J, -1, -2) @ y[..., None])[..., 0]
    assert rel_err(jacobian_transpose_product(model, q, y), Jt_y) <= TOL
    # one configuration, several vectors
    Jt_y0 = (J[0].T @ y.T).T
    assert rel_err(jacobian_transpose_product(model, q[0], y), Jt_y0) <= TOL


def test_transpose_is_the_adjoint_of_the_product():
    """yᵀ (J x) = (Jᵀ y)ᵀ x: power is the same in both coordinate sets."""
    rng = np.random.default_rng(3)
    model = builders.random_tree(rng, 12, joints=("R", "P", "S", "C"))
    q = model.random_configuration(rng)
    x = rng.standard_normal(model.nv)
    y = rng.standard_normal(6 * model.NB)
    lhs = y @ jacobian_product(model, q, x)
    rhs = jacobian_transpose_product(model, q, y) @ x
    assert abs(lhs - rhs) <= 1e-12 * (1 + abs(lhs))


def test_product_shapes_are_checked():
    model = builders.planar_chain(3)
    with pytest.raises(ValueError, match="x"):
        jacobian_product(model, np.zeros(3), np.zeros(4))
    with pytest.raises(ValueError, match="y"):
        jacobian_transpose_product(model, np.zeros(3), np.zeros(6))
    with pytest.raises(ValueError, match="x"):
        jacobian_dot_product(model, np.zeros(3), np.zeros(3), np.full(3, np.nan))
