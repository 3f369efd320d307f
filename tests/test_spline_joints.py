"""Spline joints of Sueda §2.4.12 (curve, Algorithm 3) and §2.4.13 (surface, Algorithm 4).

The generic joint tests (``S`` and ``c_J`` against finite differences of ``X_J``, batching,
Plücker structure, ``T``, repr, reversed polarity) run on one curve and one surface joint through
the parametrized list of ``tests/test_joints.py``.  This file adds oracles particular to
splines: finite differences at many parameters, including both ends of the range and several
windows; a straight spline that must move like a prismatic joint; C² continuity across windows;
whole models; and the error messages.
"""

import numpy as np
import pytest

import spatial as sp
from spatial.builders import random_inertia
from spatial.dynamics import bias_force, coriolis_matrix
from spatial.joints import Prismatic, Reversed, SplineCurve, SplineSurface
from spatial.se3 import exp_se3


def random_curve(rng, K=7, spread=0.6):
    """Control frames that each step by a random twist from the previous one."""
    steps = rng.normal(size=(K, 6)) * spread
    frames = [exp_se3(steps[0])]
    for step in steps[1:]:
        frames.append(frames[-1] @ exp_se3(step))
    return np.array(frames)


def random_grid(rng, K1=5, K2=6):
    """A grid of frames with smoothly varying positions and moderate XYZ Euler angles."""
    i, k = np.meshgrid(np.arange(K1), np.arange(K2), indexing="ij")
    values = 0.3 * i[..., None] * rng.normal(size=6) + 0.3 * k[..., None] * rng.normal(size=6)
    values += 0.1 * rng.normal(size=(K1, K2, 6))
    values[..., 3:] = np.clip(values[..., 3:], -0.6, 0.6)
    grid = np.zeros((K1, K2, 4, 4))
    grid[..., 3, 3] = 1.0
    grid[..., :3, 3] = values[..., :3]
    grid[..., :3, :3] = sp.euler_to_matrix(values[..., 3:], "XYZ")
    return grid


def body_velocity_fd(joint, q, qd, h=1e-6):
    """``v`` with ``crm(v) = -Ẋ X⁻¹`` along ``q̇`` (the body velocity of F_s in F_s)."""
    X_dot = (joint.transform(q + h * qd) - joint.transform(q - h * qd)) / (2 * h)
    M = -X_dot @ sp.xinv(joint.transform(q))
    return np.concatenate([sp.unskew(M[:3, :3]), sp.unskew(M[3:, :3])])


def curve_parameters(upper):
    """Parameters inside every window, close to both ends and off the window boundaries."""
    inner = np.arange(upper) + np.array([[0.13], [0.5], [0.87]])
    return np.concatenate([[1e-5, upper - 1e-5], inner.ravel()])


# ----------------------------------------------------------------------------- derivatives


def check_derivatives(joint, q, qd):
    """``S q̇`` against ``-Ẋ X⁻¹`` and ``c_J`` against ``Ṡ q̇``, both by central differences."""
    np.testing.assert_allclose(
        joint.motion_subspace(q) @ qd, body_velocity_fd(joint, q, qd), atol=1e-8
    )
    h = 1e-6
    S_dot = (joint.motion_subspace(q + h * qd) - joint.motion_subspace(q - h * qd)) / (2 * h)
    np.testing.assert_allclose(joint.bias(q, qd), S_dot @ qd, atol=1e-7)


def test_curve_S_and_c_J_against_finite_differences_everywhere(rng):
    joint = SplineCurve(random_curve(rng))
    for t in curve_parameters(joint.upper[0]):
        check_derivatives(joint, np.array([t]), np.array([rng.uniform(0.5, 2.0)]))


def test_surface_S_and_c_J_against_finite_differences_everywhere(rng):
    joint = SplineSurface(random_grid(rng))
    corners = [[1e-5, 1e-5], joint.upper - 1e-5, [1e-5, joint.upper[1] - 1e-5]]
    for q in list(joint.random_configuration(rng, (20,))) + corners:
        check_derivatives(joint, np.asarray(q), rng.normal(size=2))


def test_surface_with_only_translations_is_the_point_spline_surface(rng):
    """Identity rotations: the position is the tensor-product spline of the grid positions
    (eq. 2.68) with the book's basis matrix (eq. 2.61), and S holds its partial derivatives."""
    grid = random_grid(rng)
    grid[..., :3, :3] = np.eye(3)
    joint = SplineSurface(grid)
    B = np.array([[1, -3, 3, -1], [4, 0, -6, 3], [1, 3, 3, -3], [0, 0, 0, 1]]) / 6.0
    q = np.array([1.3, 2.6])
    u1, u2 = q - np.floor(q)
    window = grid[1:5, 2:6, :3, 3]
    w1 = B @ np.array([1, u1, u1**2, u1**3])
    w2 = B @ np.array([1, u2, u2**2, u2**3])
    d1 = B @ np.array([0, 1, 2 * u1, 3 * u1**2])
    p = np.einsum("a,abk,b->k", w1, window, w2)
    X = joint.transform(q)
    np.testing.assert_allclose(X, sp.xlt(p), atol=1e-14)
    dp = np.einsum("a,abk,b->k", d1, window, w2)
    np.testing.assert_allclose(joint.motion_subspace(q)[3:, 0], dp, atol=1e-14)
    np.testing.assert_allclose(joint.motion_subspace(q)[:3], 0.0, atol=1e-15)


# ----------------------------------------------------------------------------- special cases


@pytest.mark.parametrize("spacing", [0.4, 1.5])
def test_straight_curve_of_equally_spaced_frames_is_a_prismatic_joint(spacing, rng):
    """Frames at x = spacing·(k − 1), k = 0 … K−1: the cubic B-spline reproduces the line and
    the point at q is x = spacing·q, so X_J(q) = Prismatic("x") at spacing·q and S scales."""
    K = 6
    frames = np.tile(np.eye(4), (K, 1, 1))
    frames[:, 0, 3] = spacing * (np.arange(K) - 1.0)
    joint, prismatic = SplineCurve(frames), Prismatic("x")
    q = rng.uniform(0.0, K - 3.0, size=(20, 1))
    np.testing.assert_allclose(joint.transform(q), prismatic.transform(spacing * q), atol=1e-13)
    S_prismatic = prismatic.motion_subspace(spacing * q)
    np.testing.assert_allclose(joint.motion_subspace(q), spacing * S_prismatic, atol=1e-13)
    np.testing.assert_allclose(joint.bias(q, rng.normal(size=(20, 1))), 0.0, atol=1e-13)


def test_curve_is_twice_continuously_differentiable_across_windows(rng):
    """Left and right limits at the interior integers agree for Q, S and ∂S/∂q, although each
    side is evaluated from a different window of control frames (and the third derivative
    jumps, so the agreement is not automatic)."""
    joint = SplineCurve(random_curve(rng))
    e = 1e-9
    for knot in range(1, int(joint.upper[0])):
        left, right = np.array([knot - e]), np.array([knot + e])
        np.testing.assert_allclose(joint.transform(left), joint.transform(right), atol=1e-7)
        np.testing.assert_allclose(
            joint.motion_subspace(left), joint.motion_subspace(right), atol=1e-7
        )
        qd = np.ones(1)
        np.testing.assert_allclose(joint.bias(left, qd), joint.bias(right, qd), atol=1e-7)
        # the third derivative does jump: one-sided differences of ∂S/∂q disagree
        h = 1e-3
        third_left = (joint.bias(left, qd) - joint.bias(left - h, qd)) / h
        third_right = (joint.bias(right + h, qd) - joint.bias(right, qd)) / h
        assert np.abs(third_left - third_right).max() > 1e-3


def test_surface_is_twice_continuously_differentiable_across_windows(rng):
    joint = SplineSurface(random_grid(rng))
    e, qd = 1e-9, np.array([0.7, -1.1])

    def c_J(x):
        return joint.bias(x, qd)

    for q in ([1.0, 0.4], [2.0, 1.7], [0.6, 2.0], [1.0, 3.0], [2.0, 1.0]):
        for direction in (np.array([1.0, 0.0]), np.array([0.0, 1.0])):
            left, right = np.array(q) - e * direction, np.array(q) + e * direction
            for f in (joint.transform, joint.motion_subspace, c_J):
                np.testing.assert_allclose(f(left), f(right), atol=1e-7)


def test_curve_interpolates_the_b_spline_of_the_control_positions_for_pure_translations(rng):
    """No rotation: eq. 2.67 is the point spline of eq. 2.62 (cumulative form = ordinary one)."""
    frames = np.tile(np.eye(4), (5, 1, 1))
    frames[:, :3, 3] = rng.normal(size=(5, 3))
    joint = SplineCurve(frames)
    q = np.array([1.4])
    u = 0.4
    # the four uniform cubic B-spline weights, written out
    weights = np.array([(1 - u) ** 3, 3 * u**3 - 6 * u**2 + 4, -3 * u**3 + 3 * u**2 + 3 * u + 1])
    weights = np.append(weights, u**3) / 6.0
    p = weights @ frames[1:5, :3, 3]
    np.testing.assert_allclose(joint.transform(q), sp.xlt(p), atol=1e-14)


# ----------------------------------------------------------------------------- in models


def spline_model(rng, gravity=(0.0, 0.0, -9.81)):
    model = sp.Model(gravity=np.array(gravity))
    curve = SplineCurve(random_curve(rng, K=6, spread=0.4))
    surface = SplineSurface(random_grid(rng))
    b1 = model.add_body(0, curve, np.eye(6), random_inertia(rng))
    b2 = model.add_body(b1, surface, sp.xlt([0.5, 0.0, 0.2]), random_inertia(rng))
    b3 = model.add_body(b2, sp.joints.Revolute("y"), sp.xlt([0.0, 0.3, 0.0]), random_inertia(rng))
    model.add_body(b3, Reversed(curve), sp.xlt([0.2, 0.1, 0.0]), random_inertia(rng))
    return model


def test_model_with_spline_joints_rnea_aba_crba(rng):
    """Batched over five states: ``aba(rnea(q̈)) = q̈``, ``crba`` symmetric positive definite
    and ``τ = H q̈ + C`` with ``C = rnea(q, q̇, 0)``."""
    model = spline_model(rng)
    q = model.random_configuration(rng, (5,))
    qd, qdd = rng.normal(size=(2, 5, model.nv))
    tau = sp.rnea(model, q, qd, qdd)
    np.testing.assert_allclose(sp.aba(model, q, qd, tau), qdd, atol=1e-9)
    for k in range(5):
        H = sp.crba(model, q[k])
        np.testing.assert_allclose(H, H.T, atol=1e-12)
        assert np.linalg.eigvalsh(H).min() > 0
        C = sp.rnea(model, q[k], qd[k], np.zeros(model.nv))
        np.testing.assert_allclose(tau[k], H @ qdd[k] + C, atol=1e-9)


def test_model_with_spline_joints_coriolis_matrix_against_crba_rate(rng):
    """``C + Cᵀ = Ḣ`` by finite differences: the spline joints' ``c_J`` is right in a tree."""
    model = spline_model(rng, gravity=(0.0, 0.0, 0.0))
    q, qd = model.random_configuration(rng), rng.normal(size=model.nv)
    C = coriolis_matrix(model, q, qd)
    np.testing.assert_allclose(C @ qd, bias_force(model, q, qd), atol=1e-10)
    h = 1e-6
    H_dot = (sp.crba(model, q + h * qd) - sp.crba(model, q - h * qd)) / (2 * h)
    np.testing.assert_allclose(C + C.T, H_dot, atol=1e-7)


# ----------------------------------------------------------------------------- errors


def test_parameter_outside_the_range_is_refused(rng):
    curve = SplineCurve(random_curve(rng, K=5))
    curve.check_q(np.array([0.0]))
    curve.check_q(np.array([2.0]))
    for bad in (-1e-3, 2.001):
        with pytest.raises(ValueError, match=r"outside the spline's parameter range.*\[2\.0\]"):
            curve.check_q(np.array([bad]))
    with pytest.raises(ValueError, match="must be finite"):
        curve.check_q(np.array([np.nan]))
    surface = SplineSurface(random_grid(rng, 4, 6))
    surface.check_q(np.array([1.0, 3.0]))
    with pytest.raises(ValueError, match=r"outside the spline's parameter range.*\[1\.0, 3\.0\]"):
        surface.check_q(np.array([0.5, 3.5]))
    model = sp.Model()
    model.add_body(0, curve, np.eye(6), random_inertia(rng))
    with pytest.raises(ValueError, match="outside the spline's parameter range"):
        sp.rnea(model, np.array([2.5]), np.zeros(1), np.zeros(1))


def test_too_few_control_frames_are_refused(rng):
    with pytest.raises(ValueError, match=r"at least 4 control frames.*\(3,\)"):
        SplineCurve(random_curve(rng, K=3))
    with pytest.raises(ValueError, match=r"at least 4 control frames.*\(4, 3\)"):
        SplineSurface(random_grid(rng, 4, 3))
    with pytest.raises(ValueError, match=r"array of K 4x4 frames, got shape \(5, 3, 3\)"):
        SplineCurve(np.tile(np.eye(3), (5, 1, 1)))
    with pytest.raises(ValueError, match=r"array of K₁ x K₂ 4x4 frames, got shape \(5, 4, 4\)"):
        SplineSurface(random_curve(rng, K=5))


def test_non_rigid_control_frames_are_refused(rng):
    frames = random_curve(rng, K=5)
    frames[2, :3, :3] *= 1.1  # scaled
    with pytest.raises(ValueError, match="control_frames"):
        SplineCurve(frames)
    frames = random_curve(rng, K=5)
    frames[1, 3, 0] = 0.2  # last row not [0, 0, 0, 1]
    with pytest.raises(ValueError, match="control_frames is not a rigid frame"):
        SplineCurve(frames)
    grid = random_grid(rng)
    grid[1, 2, :3, :3] = grid[1, 2, :3, :3] @ np.diag([1.0, 1.0, -1.0])  # a reflection
    with pytest.raises(ValueError, match="control_grid"):
        SplineSurface(grid)


def test_half_turn_between_consecutive_frames_is_refused(rng):
    frames = np.tile(np.eye(4), (5, 1, 1))
    frames[3, :3, :3] = np.diag([1.0, -1.0, -1.0])  # half turn about x from frame 2
    with pytest.raises(ValueError, match="control frames 2 and 3 differ by a half turn"):
        SplineCurve(frames)
