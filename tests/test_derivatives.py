"""Table 2.4 and eqs. 2.36-2.37 against central finite differences."""

import numpy as np
import pytest

import spatial as sp
from spatial import derivatives as d
from spatial.builders import random_tree

RNG = np.random.default_rng(24)
H = 1e-6


def _curve(shape):
    """A smooth function x ↦ c0 + c1 x + c2 x² + sin(x) c3 and its derivative."""
    c = RNG.normal(size=(4,) + shape)

    def value(x):
        return c[0] + c[1] * x + c[2] * x**2 + np.sin(x) * c[3]

    def slope(x):
        return c[1] + 2 * c[2] * x + np.cos(x) * c[3]

    return value, slope


def _fd(fn, x):
    return (fn(x + H) - fn(x - H)) / (2 * H)


@pytest.mark.parametrize("x", [0.0, 0.7, -1.3])
def test_product_rules_of_table_2_4(x):
    u, du = _curve((6,))
    v, dv = _curve((6,))
    lam, dlam = _curve(())
    L, dL = _curve((6, 6))
    tol = dict(rtol=1e-7, atol=1e-7)
    np.testing.assert_allclose(
        d.d_scalar_product(u(x), du(x), v(x), dv(x)), _fd(lambda t: u(t) @ v(t), x), **tol
    )
    np.testing.assert_allclose(
        d.d_cross_motion(u(x), du(x), v(x), dv(x)), _fd(lambda t: sp.crm(u(t)) @ v(t), x), **tol
    )
    np.testing.assert_allclose(
        d.d_cross_force(u(x), du(x), v(x), dv(x)), _fd(lambda t: sp.crf(u(t)) @ v(t), x), **tol
    )
    np.testing.assert_allclose(d.d_cross_operator(du(x)), _fd(lambda t: sp.crm(u(t)), x), **tol)
    np.testing.assert_allclose(
        d.d_cross_operator(du(x), force=True), _fd(lambda t: sp.crf(u(t)), x), **tol
    )
    np.testing.assert_allclose(
        d.d_scaled(lam(x), dlam(x), v(x), dv(x)), _fd(lambda t: lam(t) * v(t), x), **tol
    )
    np.testing.assert_allclose(
        d.d_matrix_vector(L(x), dL(x), v(x), dv(x)), _fd(lambda t: L(t) @ v(t), x), **tol
    )
    np.testing.assert_allclose(
        d.d_dyad(u(x), du(x), v(x), dv(x)), _fd(lambda t: np.outer(u(t), v(t)), x), **tol
    )


@pytest.mark.parametrize("code", ["R", "H", "C"])
def test_derivative_in_moving_coordinates(code):
    """A vector fixed in the base has zero derivative; its coordinates in a moving frame do not.

    Frame A is a joint's successor frame moving with ``q(t) = q0 + t q̇``, so its velocity in A
    coordinates is ``S q̇``; ``ᴬm(t) = X(t) m₀`` changes, but eq. 2.36 must give zero.
    """
    model = random_tree(RNG, 1, joints=(code,))
    joint = model.joints[1]
    q0, qd = joint.random_configuration(RNG), RNG.normal(size=joint.nv)
    m0, f0 = RNG.normal(size=(2, 6))

    def X(t):
        return joint.transform(q0 + t * qd)

    v_A = joint.motion_subspace(q0) @ qd
    m_ring = _fd(lambda t: X(t) @ m0, 0.0)
    zero = d.derivative_in_moving_coordinates(m_ring, v_A, X(0.0) @ m0)
    np.testing.assert_allclose(zero, 0.0, atol=1e-8)
    Xs = lambda t: np.linalg.inv(X(t)).T  # noqa: E731  force transform X* = X⁻ᵀ
    f_ring = _fd(lambda t: Xs(t) @ f0, 0.0)
    zero_f = d.derivative_in_moving_coordinates(f_ring, v_A, Xs(0.0) @ f0, force=True)
    np.testing.assert_allclose(zero_f, 0.0, atol=1e-8)
    # the componentwise derivative alone is not zero: the frame's motion matters
    assert np.linalg.norm(m_ring) > 1e-3


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="dm must have shape"):
        d.d_scalar_product(np.zeros(6), np.zeros(5), np.zeros(6), np.zeros(6))
    with pytest.raises(ValueError, match="dL must have shape"):
        d.d_matrix_vector(np.eye(6), np.eye(5), np.zeros(6), np.zeros(6))
    with pytest.raises(ValueError, match="v_A must have shape"):
        d.derivative_in_moving_coordinates(np.zeros(6), np.zeros(3), np.zeros(6))
