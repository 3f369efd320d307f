"""Operation counts of the REDMAX products (spatial.symbolic.product_counts, Sueda §2.10, §2.13)."""

import numpy as np
import pytest

from spatial import builders, reduced
from spatial.symbolic import product_counts

COUNTS = {n: product_counts(n) for n in (1, 2, 3, 4, 5, 6)}
RECURSIVE = ("J x (Alg. 5)", "Jᵀ y (Alg. 6)", "M⁻¹ x (Alg. 10, solve)")
DENSE = ("dense J, then J x", "dense J, then Jᵀ y")


def _second_difference(name, field):
    y = np.array([getattr(COUNTS[n][name], field) for n in (2, 3, 4, 5, 6)])
    return np.diff(y, 2)


@pytest.mark.parametrize("name", RECURSIVE)
def test_the_recursive_products_are_linear_in_n(name):
    for field in ("mul", "add"):
        assert np.all(_second_difference(name, field) == 0)


@pytest.mark.parametrize("name", DENSE)
def test_the_dense_products_are_quadratic_in_n(name):
    for field in ("mul", "add"):
        second = _second_difference(name, field)
        assert np.all(second == second[0]) and second[0] > 0


def test_one_revolute_joint_costs_its_motion_subspace_times_a_number():
    # y = S x for one revolute joint: a 6-vector times a scalar, 6 products and no sums
    assert (COUNTS[1]["J x (Alg. 5)"].mul, COUNTS[1]["J x (Alg. 5)"].add) == (6, 0)
    # x = Sᵀ y: a dot product of two 6-vectors, 6 products and 5 sums
    assert (COUNTS[1]["Jᵀ y (Alg. 6)"].mul, COUNTS[1]["Jᵀ y (Alg. 6)"].add) == (6, 5)


def test_the_triangular_solves_follow_the_closed_form():
    c = COUNTS[4]["factored M, two triangular solves"]
    assert (c.mul, c.add) == (4 * 4 + 4, 4 * 4 - 4)


def test_symbols_leave_the_numeric_products_unchanged():
    rng = np.random.default_rng(3)
    model = builders.gu_chain(5, rng)
    q = model.random_configuration(rng)
    y = rng.standard_normal(30)
    J = reduced.redmax_jacobian(model, q)
    assert np.allclose(reduced.jacobian_transpose_product(model, q, y), J.T @ y, atol=1e-12)
    factor = reduced.inverse_inertia_factor(model, q)
    x = rng.standard_normal(5)
    assert factor.solve(x).dtype == np.float64


def test_bad_n_is_refused():
    with pytest.raises(ValueError, match="n"):
        product_counts(0)
