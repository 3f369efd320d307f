"""Tests for spatial.checks: finite differences on vector spaces, SO(3), SE(3), quaternions.

Each check is run on functions whose derivatives are known in closed form, and on a deliberately
wrong derivative that it must flag.
"""

import numpy as np
import pytest

from spatial.checks import CheckResult, check_directional, check_jacobian, fd_jacobian
from spatial.rotations import quat_from_rotvec, quat_to_matrix
from spatial.se3 import Ad, ad, bracket, exp_se3, exp_so3
from spatial.vectors import skew

E_BASIS6 = np.eye(6)


def f_vec(x):
    return np.array([np.sin(x[0]) * x[1], x[0] ** 2 + np.exp(x[2]), x[1] * x[2]])


def J_vec(x):
    return np.array(
        [
            [np.cos(x[0]) * x[1], np.sin(x[0]), 0.0],
            [2 * x[0], 0.0, np.exp(x[2])],
            [0.0, x[2], x[1]],
        ]
    )


# ---------------------------------------------------------------------------- vector spaces


def test_fd_jacobian_of_known_function(rng):
    x = rng.normal(size=3)
    np.testing.assert_allclose(fd_jacobian(f_vec, x), J_vec(x), rtol=1e-8, atol=1e-9)


def test_fd_jacobian_of_matrix_valued_function_of_a_matrix(rng):
    # f(A) = A² has derivative dA ↦ A dA + dA A; column (i, j) is A e_i e_jᵀ + e_i e_jᵀ A
    A = rng.normal(size=(2, 2))
    J = fd_jacobian(lambda X: X @ X, A)
    assert J.shape == (2, 2, 4)
    for k in range(4):
        dA = np.zeros(4)
        dA[k] = 1.0
        dA = dA.reshape(2, 2)
        np.testing.assert_allclose(J[..., k], A @ dA + dA @ A, rtol=1e-8, atol=1e-9)


def test_check_jacobian_passes_right_and_flags_wrong(rng):
    x = rng.normal(size=3)
    good = check_jacobian(f_vec, J_vec(x), x)
    assert isinstance(good, CheckResult)
    assert good.passed and bool(good)
    assert good.error < 1e-8
    assert good.step.shape == (3,)
    np.testing.assert_allclose(good.step, np.finfo(float).eps ** (1 / 3) * np.maximum(1, abs(x)))
    wrong = J_vec(x)
    wrong[1, 0] = x[0]  # forgot the factor 2 in d(x0²)/dx0
    bad = check_jacobian(f_vec, wrong, x)
    assert not bad.passed and not bool(bad)
    assert bad.error > 1e-3


def test_check_directional_passes_right_and_flags_wrong(rng):
    x, dx = rng.normal(size=3), rng.normal(size=3)
    assert check_directional(f_vec, J_vec(x) @ dx, x, dx).passed
    res = check_directional(f_vec, J_vec(x).T @ dx, x, dx)
    assert not res.passed
    assert res.step.shape == ()


def test_explicit_step_is_used(rng):
    x = rng.normal(size=3)
    res = check_jacobian(f_vec, J_vec(x), x, h=1e-4)
    np.testing.assert_array_equal(res.step, np.full(3, 1e-4))
    # a step far too large shows the O(h²) truncation error and fails the check
    assert not check_jacobian(f_vec, J_vec(x), x, h=0.5).passed


def test_zero_jacobian_passes_through_atol():
    assert check_jacobian(lambda x: np.zeros(2), np.zeros((2, 3)), np.ones(3)).passed


# -------------------------------------------------------------------------------- manifolds


def test_so3_body_and_world_perturbations(rng):
    # f(R) = R a: body derivative R [e_k] a = -R [a] e_k, world derivative [e_k] R a = -[R a] e_k
    R, a = exp_so3(rng.normal(size=3)), rng.normal(size=3)
    assert check_jacobian(lambda R: R @ a, -R @ skew(a), R, space="so3").passed
    assert check_jacobian(lambda R: R @ a, -skew(R @ a), R, space="so3", side="world").passed
    # the world-frame Jacobian is wrong for body perturbations: the check flags it
    assert not check_jacobian(lambda R: R @ a, -skew(R @ a), R, space="so3").passed


def test_se3_sueda_eq_1_11_and_1_20(rng):
    E = exp_se3(rng.normal(size=6))
    phi = rng.normal(size=6)
    # Ė = E [φ] (eq. 1.8, checked as in eq. 1.11)
    assert check_directional(lambda X: X, E @ bracket(phi), E, phi, space="se3").passed
    # d/dt Ad(E) = Ad(E) ad(φ) (eqs. 1.19–1.20)
    assert check_directional(Ad, Ad(E) @ ad(phi), E, phi, space="se3").passed
    # the world-side derivative of E is [φ] E, not E [φ]
    assert check_directional(lambda X: X, bracket(phi) @ E, E, phi, space="se3", side="world")
    assert not check_directional(lambda X: X, E @ bracket(phi), E, phi, space="se3", side="world")
    # full Jacobian: column k is E [e_k]
    J = np.stack([E @ bracket(e) for e in E_BASIS6], -1)
    res = check_jacobian(lambda X: X, J, E, space="se3")
    assert res.passed and res.step.shape == (6,)


def test_se3_wrong_derivative_is_flagged(rng):
    # Ad's derivative with the factors swapped, ad(φ) Ad(E), is wrong
    E, phi = exp_se3(rng.normal(size=6)), rng.normal(size=6)
    res = check_directional(Ad, ad(phi) @ Ad(E), E, phi, space="se3")
    assert not res.passed and res.error > 1e-2


def test_quat_perturbation_matches_rotation_matrix(rng):
    # R(q ⊗ exp(δ)) = R(q) exp([δ]), so the body Jacobian of quat_to_matrix is R [e_k]
    q = quat_from_rotvec(rng.normal(size=3))
    R = quat_to_matrix(q)
    J = np.stack([R @ skew(e) for e in np.eye(3)], -1)
    assert check_jacobian(quat_to_matrix, J, q, space="quat").passed
    J_world = np.stack([skew(e) @ R for e in np.eye(3)], -1)
    assert check_jacobian(quat_to_matrix, J_world, q, space="quat", side="world").passed
    assert not check_jacobian(quat_to_matrix, J_world, q, space="quat").passed


def test_fd_jacobian_on_manifolds_agrees_with_vector_space_chain_rule(rng):
    # g(δ) = f(R exp([δ])) on a vector space has the same Jacobian at δ = 0
    R, a = exp_so3(rng.normal(size=3)), rng.normal(size=3)
    f = lambda R: np.sin(R @ a)
    J_manifold = fd_jacobian(f, R, space="so3")
    J_vector = fd_jacobian(lambda d: f(R @ exp_so3(d)), np.zeros(3))
    np.testing.assert_allclose(J_manifold, J_vector, rtol=1e-12, atol=1e-14)


# ------------------------------------------------------------------------------- bad input


def test_argument_errors(rng):
    x = np.ones(3)
    with pytest.raises(ValueError, match="space must be one of"):
        fd_jacobian(f_vec, x, space="so4")
    with pytest.raises(ValueError, match="side must be one of"):
        fd_jacobian(f_vec, np.eye(3), space="so3", side="left")
    with pytest.raises(ValueError, match="h must be positive"):
        fd_jacobian(f_vec, x, h=0.0)
    with pytest.raises(ValueError, match=r"h must be a scalar or have shape \(3,\)"):
        fd_jacobian(f_vec, x, h=[1e-6, 1e-6])
    with pytest.raises(ValueError, match="non-finite"):
        fd_jacobian(f_vec, [1.0, np.nan, 0.0])
    with pytest.raises(ValueError, match="J must have shape"):
        check_jacobian(f_vec, np.zeros((3, 2)), x)
    with pytest.raises(ValueError, match="dx must have shape"):
        check_directional(f_vec, np.zeros(3), x, np.ones(2))
    with pytest.raises(ValueError, match="dx must be non-zero"):
        check_directional(f_vec, np.zeros(3), x, np.zeros(3))
    with pytest.raises(ValueError, match="df must have the shape"):
        check_directional(f_vec, np.zeros(2), x, np.ones(3))
    with pytest.raises(ValueError, match="not orthonormal"):
        fd_jacobian(lambda R: R, 2 * np.eye(3), space="so3")
    with pytest.raises(ValueError, match="single point"):
        fd_jacobian(lambda R: R, np.stack([np.eye(3)] * 2), space="so3")
    with pytest.raises(ValueError, match="last row"):
        fd_jacobian(lambda E: E, np.ones((4, 4)), space="se3")
    with pytest.raises(ValueError, match="rotation block"):
        fd_jacobian(lambda E: E, np.diag([1.0, 1.0, -1.0, 1.0]), space="se3")
    with pytest.raises(ValueError, match="not a unit quaternion"):
        fd_jacobian(lambda q: q, np.array([1.0, 1.0, 0, 0]), space="quat")
    with pytest.raises(ValueError, match="dx must have shape"):
        check_directional(lambda E: E, np.eye(4), np.eye(4), np.ones(3), space="se3")


def test_result_prints_a_verdict(rng):
    x = rng.normal(size=3)
    assert str(check_jacobian(f_vec, J_vec(x), x)).startswith("derivative check passed")
    assert "FAILED" in str(check_jacobian(f_vec, np.zeros((3, 3)), x))
