"""Tests for spatial.maximal.rigid_body: Newton–Euler in body coordinates, Euler on SE(3).

Sueda eqs. 1.21–1.22 (dynamics) and §1.8 (eqs. 1.28–1.29, integration); Featherstone §2.12–2.14.
"""

import numpy as np
import pytest
from scipy.integrate import solve_ivp
from scipy.spatial.transform import Rotation

from spatial.checks import check_directional
from spatial.inertia import cuboid_inertia, mcI
from spatial.maximal import (
    center_of_mass,
    coriolis_wrench,
    euler_step,
    gravity_wrench,
    kinetic_energy,
    newton_euler_acceleration,
    potential_energy,
    simulate,
    spatial_momentum,
)
from spatial.se3 import Ad, exp_se3, exp_so3, frame


def _run(*args, **kwargs):
    """``maximal.simulate``'s trajectory as the arrays ``(t, T, phi)``."""
    traj = simulate(*args, **kwargs)
    return traj.t, traj.q, traj.v


G = np.array([0.0, 0.0, -9.81])
ZERO_G = np.zeros(3)


def off_centre_body():
    """A box whose frame is not at its centre of mass and not along its principal axes."""
    c = np.array([0.1, -0.2, 0.3])
    R = exp_so3([0.3, -0.2, 0.5])
    I_c = R @ np.diag([0.5, 1.0, 1.3]) @ R.T
    return mcI(2.0, c, I_c), c, I_c


# ------------------------------------------------------------------------- the equations


def test_coriolis_matches_sueda_eq_1_23_at_center_of_mass(rng):
    # frame at the CoM: ad(φ)ᵀ M φ = [-ω × I ω; -ω × m v]
    M = cuboid_inertia(3.0, 1.0, 2.0, 0.5)
    I, m = M[:3, :3], 3.0
    w, v = rng.normal(size=3), rng.normal(size=3)
    expected = np.concatenate([-np.cross(w, I @ w), -np.cross(w, m * v)])
    np.testing.assert_allclose(coriolis_wrench(M, np.concatenate([w, v])), expected, rtol=1e-13)


def test_momentum_rate_equals_applied_wrench(rng):
    # d/dt (Ad(T)⁻ᵀ M φ) = Ad(T)⁻ᵀ f_body for any body frame (Featherstone eq. 2.68):
    # the world momentum's derivative along Ṫ = T[φ], φ̇ = Newton–Euler, is the world wrench.
    M, *_ = off_centre_body()
    T, phi, f = exp_se3(rng.normal(size=6)), rng.normal(size=6), rng.normal(size=6)
    phidot = newton_euler_acceleration(M, phi, f)
    h = 1e-5
    # central difference along the exact flow to second order: T exp(±hφ), φ ± hφ̇
    h_plus = spatial_momentum(M, T @ exp_se3(h * phi), phi + h * phidot)
    h_minus = spatial_momentum(M, T @ exp_se3(-h * phi), phi - h * phidot)
    f_world = np.linalg.solve(Ad(T).T, f)
    np.testing.assert_allclose((h_plus - h_minus) / (2 * h), f_world, rtol=1e-7, atol=1e-8)


def test_gravity_wrench_is_weight_at_center_of_mass(rng):
    M, c, _ = off_centre_body()
    T = exp_se3(rng.normal(size=6))
    R = T[:3, :3]
    fg = R.T @ (2.0 * G)  # the weight in body coordinates
    expected = np.concatenate([np.cross(c, fg), fg])
    np.testing.assert_allclose(gravity_wrench(M, T, G), expected, rtol=1e-13, atol=1e-14)
    # at the centre of mass it is Sueda eq. 1.22, [0; Rᵀ m g]
    M0 = cuboid_inertia(2.0, 1.0, 1.0, 1.0)
    np.testing.assert_allclose(gravity_wrench(M0, T, G), np.r_[0, 0, 0, fg], atol=1e-14)


def test_potential_energy_gradient_is_minus_gravity_wrench(rng):
    # dV along a body perturbation δ equals -f_gravity · δ (virtual work)
    M, *_ = off_centre_body()
    T, d = exp_se3(rng.normal(size=6)), rng.normal(size=6)
    res = check_directional(
        lambda X: potential_energy(M, X, G), -gravity_wrench(M, T, G) @ d, T, d, space="se3"
    )
    assert res.passed, res


def test_kinetic_energy_and_power(rng):
    # kinetic energy ½ φᵀMφ changes at the rate φ · f_body (the Coriolis wrench does no work)
    M, *_ = off_centre_body()
    phi, f = rng.normal(size=6), rng.normal(size=6)
    assert kinetic_energy(M, phi) == pytest.approx(0.5 * phi @ M @ phi, rel=1e-14)
    phidot = newton_euler_acceleration(M, phi, f)
    assert phi @ M @ phidot == pytest.approx(phi @ f, rel=1e-12)
    assert phi @ coriolis_wrench(M, phi) == pytest.approx(0.0, abs=1e-12)


def test_batched_equals_looped(rng):
    M = cuboid_inertia(rng.uniform(1, 2, 3), 1.0, 2.0, 0.5)
    T = exp_se3(rng.normal(size=(3, 6)))
    phi = rng.normal(size=(3, 6))
    T1, phi1 = euler_step(M, T, phi, 0.01, g=G)
    for i in range(3):
        T1_i, phi1_i = euler_step(M[i], T[i], phi[i], 0.01, g=G)
        np.testing.assert_allclose(T1[i], T1_i, rtol=1e-14, atol=1e-15)
        np.testing.assert_allclose(phi1[i], phi1_i, rtol=1e-14, atol=1e-15)
        for fn in (spatial_momentum,):
            np.testing.assert_allclose(fn(M, T, phi)[i], fn(M[i], T[i], phi[i]), rtol=1e-14)
        assert potential_energy(M, T, G)[i] == pytest.approx(potential_energy(M[i], T[i], G))
        assert kinetic_energy(M, phi)[i] == pytest.approx(kinetic_energy(M[i], phi[i]))
    t, Es, phis = _run(M[0], T, phi[0], 0.01, 4, g=G)
    assert Es.shape == (5, 3, 4, 4) and phis.shape == (5, 3, 6) and t.shape == (5,)
    t, Es, phis = _run(M[0], T[0], phi[0], 0.01, 0)
    assert t.shape == (1,) and np.array_equal(Es[0], T[0]) and np.array_equal(phis[0], phi[0])


def test_one_step_is_sueda_eqs_1_28_and_1_29(rng):
    M, *_ = off_centre_body()
    T, phi, h = exp_se3(rng.normal(size=6)), rng.normal(size=6), 0.05
    R = T[:3, :3]
    f = coriolis_wrench(M, phi) + M @ np.r_[0, 0, 0, R.T @ G]
    phi1 = phi + h * np.linalg.solve(M, f)
    T1, phi1_code = euler_step(M, T, phi, h, g=G)
    np.testing.assert_allclose(phi1_code, phi1, rtol=1e-13)
    np.testing.assert_allclose(T1, T @ exp_se3(h * phi1), rtol=1e-13, atol=1e-15)
    T1x, _ = euler_step(M, T, phi, h, g=G, scheme="explicit")
    np.testing.assert_allclose(T1x, T @ exp_se3(h * phi), rtol=1e-13, atol=1e-15)


# ------------------------------------------------------------------------------- simulation


def symmetric_top_omega(A, C, w0, t):
    """Body ω of a torque-free symmetric top (I = diag(A, A, C)), derived by hand.

    Euler's equations A ω̇₁ = (A - C) ω₂ ω₃, A ω̇₂ = (C - A) ω₃ ω₁, C ω̇₃ = 0 give ω₃ constant and
    (ω₁ + i ω₂)˙ = i Ω (ω₁ + i ω₂) with Ω = (C - A) ω₃ / A: the transverse part turns at rate Ω.
    """
    Omega = (C - A) * w0[2] / A
    z = (w0[0] + 1j * w0[1]) * np.exp(1j * Omega * t)
    return np.stack([z.real, z.imag, np.full_like(t, w0[2])], -1)


def test_torque_free_symmetric_top_converges_to_closed_form():
    A, C = 0.5, 0.8
    M = mcI(1.0, np.zeros(3), np.diag([A, A, C]))
    w0 = np.array([0.4, -0.3, 3.0])
    errors = []
    for h in (2e-3, 1e-3, 5e-4):
        n = round(0.5 / h)
        t, _, phi = _run(M, np.eye(4), np.r_[w0, 0, 0, 0], h, n, g=ZERO_G)
        errors.append(np.abs(phi[:, :3] - symmetric_top_omega(A, C, w0, t)).max())
    errors = np.array(errors)
    assert errors[-1] < 5e-3
    np.testing.assert_allclose(errors[:-1] / errors[1:], 2.0, rtol=0.05)  # first order


def drift(h, scheme="semi-implicit", duration=1.0, g=ZERO_G):
    M, *_ = off_centre_body()
    T0 = frame(exp_so3([0.2, 0.1, -0.3]), [0.5, -1.0, 2.0])
    phi0 = np.array([1.0, 2.5, -0.5, 0.3, -0.2, 0.4])
    t, T, phi = _run(M, T0, phi0, h, round(duration / h), g=g, scheme=scheme)
    energy = kinetic_energy(M, phi) + potential_energy(M, T, g)
    L = spatial_momentum(M, T, phi)
    return abs(energy[-1] - energy[0]), np.abs(L[-1] - L[0]).max()


@pytest.mark.parametrize("scheme", ["semi-implicit", "explicit"])
def test_energy_and_momentum_drift_is_first_order(scheme):
    hs = (4e-3, 2e-3, 1e-3)
    d = np.array([drift(h, scheme) for h in hs])  # columns: energy, momentum
    np.testing.assert_allclose(d[:-1] / d[1:], 2.0, rtol=0.1)
    assert np.all(d[-1] < 0.05)


def test_pure_translation_keeps_twist_and_momentum_exactly():
    # without rotation the Coriolis wrench vanishes (ad(φ)ᵀMφ = [-v × m v; 0] = 0), so φ and the
    # world momentum stay constant to round-off, even with the frame off the centre of mass
    M, *_ = off_centre_body()
    phi0 = np.r_[0, 0, 0, 1.0, 2.0, 3.0]
    _, T, phi = _run(M, np.eye(4), phi0, 0.01, 50, g=ZERO_G)
    np.testing.assert_allclose(phi, np.broadcast_to(phi0, phi.shape), rtol=1e-14, atol=1e-15)
    L = spatial_momentum(M, T, phi)
    np.testing.assert_allclose(L, np.broadcast_to(L[0], L.shape), rtol=1e-12, atol=1e-12)


def test_free_fall_of_a_translating_body_is_the_discrete_parabola():
    # ω = 0 stays 0; the CoM then follows x_n = x0 + v0 t_n + g h² n(n+1)/2 exactly
    # (semi-implicit Euler on ẍ = g), even with the frame away from the CoM
    M, c, _ = off_centre_body()
    T0 = frame(exp_so3([0.4, 0.0, 1.0]), [1.0, 2.0, 3.0])
    v0_world = np.array([0.5, 0.0, 2.0])
    phi0 = np.r_[0, 0, 0, T0[:3, :3].T @ v0_world]
    h, n = 0.01, 100
    t, T, _ = _run(M, T0, phi0, h, n, g=G)
    k = np.arange(n + 1)[:, None]
    x0 = T0[:3, 3] + T0[:3, :3] @ c
    expected = x0 + v0_world * t[:, None] + G * h**2 * k * (k + 1) / 2
    np.testing.assert_allclose(center_of_mass(M, T), expected, rtol=1e-12, atol=1e-12)


def test_free_fall_of_a_tumbling_body_converges_to_half_g_t_squared():
    # the exact CoM path is x0 + v0 t + ½ g t², whatever the rotation; Euler gets it to O(h)
    M, c, _ = off_centre_body()
    T0 = frame(exp_so3([0.4, 0.0, 1.0]), [1.0, 2.0, 3.0])
    phi0 = np.array([3.0, -2.0, 4.0, 0.5, 0.0, 2.0])
    R0 = T0[:3, :3]
    x0 = T0[:3, 3] + R0 @ c
    v0 = R0 @ (phi0[3:] + np.cross(phi0[:3], c))  # world velocity of the CoM
    errors = []
    for h in (2e-3, 1e-3, 5e-4):
        t, T, _ = _run(M, T0, phi0, h, round(0.5 / h), g=G)
        exact = x0 + v0 * t[:, None] + 0.5 * G * t[:, None] ** 2
        errors.append(np.abs(center_of_mass(M, T) - exact).max())
    errors = np.array(errors)
    assert errors[-1] < 0.02
    np.testing.assert_allclose(errors[:-1] / errors[1:], 2.0, rtol=0.1)


def reference_solution(M, c, I_c, T0, phi0, duration, g):
    """Independent integration: unit quaternion + world CoM velocity + world angular velocity.

    State y = [x_c, q, v_c, ω_w] with SciPy's scalar-last quaternion q = (x, y, z, w):
    ẋ_c = v_c; q̇ = ½ (0, ω_w) ⊗ q, i.e. q̇_vec = ½ (w ω_w + ω_w × q_vec), q̇_w = -½ ω_w · q_vec;
    v̇_c = g; and Euler's equation in world coordinates at the CoM, I_w ω̇_w = -ω_w × I_w ω_w with
    I_w = R I_c Rᵀ.  Rotation matrices come from scipy.spatial.transform, not from the package.
    """
    R0 = T0[:3, :3]
    y0 = np.concatenate(
        [
            T0[:3, 3] + R0 @ c,
            Rotation.from_matrix(R0).as_quat(),
            R0 @ (phi0[3:] + np.cross(phi0[:3], c)),
            R0 @ phi0[:3],
        ]
    )

    def rhs(_, y):
        qv, qw, w = y[3:6], y[6], y[10:13]
        R = Rotation.from_quat(y[3:7]).as_matrix()  # normalizes the quaternion
        I_w = R @ I_c @ R.T
        qdot = np.r_[0.5 * (qw * w + np.cross(w, qv)), -0.5 * w @ qv]
        return np.concatenate([y[7:10], qdot, g, np.linalg.solve(I_w, -np.cross(w, I_w @ w))])

    y = solve_ivp(rhs, (0.0, duration), y0, "DOP853", rtol=1e-11, atol=1e-12).y[:, -1]
    R = Rotation.from_quat(y[3:7]).as_matrix()
    x_c, v_c, w_body = y[:3], y[7:10], R.T @ y[10:13]
    return frame(R, x_c - R @ c), np.concatenate([w_body, R.T @ v_c - np.cross(w_body, c)])


def test_agrees_with_quaternion_world_frame_integration():
    M, c, I_c = off_centre_body()
    T0 = frame(exp_so3([0.4, 0.0, 1.0]), [1.0, 2.0, 3.0])
    phi0 = np.array([2.0, -1.0, 3.0, 0.5, 0.0, 2.0])
    duration = 0.5
    T_ref, phi_ref = reference_solution(M, c, I_c, T0, phi0, duration, G)
    errors = []
    for h in (1e-3, 5e-4):
        _, T, phi = _run(M, T0, phi0, h, round(duration / h), g=G)
        errors.append(max(np.abs(T[-1] - T_ref).max(), np.abs(phi[-1] - phi_ref).max()))
    assert errors[-1] < 1e-2
    assert errors[0] / errors[1] == pytest.approx(2.0, rel=0.1)


# ------------------------------------------------------------------------------- bad input


def test_argument_errors():
    M = cuboid_inertia(1.0, 1.0, 1.0, 1.0)
    T, phi = np.eye(4), np.zeros(6)
    with pytest.raises(ValueError, match="scheme must be one of"):
        euler_step(M, T, phi, 0.01, scheme="rk4")
    with pytest.raises(ValueError, match=r"h \(time step\) must be > 0, got 0.0"):
        euler_step(M, T, phi, 0.0)
    with pytest.raises(ValueError, match=r"h \(time step\) must be a single number"):
        simulate(M, T, phi, [0.1, 0.2], 3)
    with pytest.raises(ValueError, match="steps must be a non-negative integer"):
        simulate(M, T, phi, 0.01, 2.5)
    with pytest.raises(ValueError, match="steps must be a non-negative integer"):
        simulate(M, T, phi, 0.01, -1)
    with pytest.raises(ValueError, match="phi must have shape"):
        euler_step(M, T, np.zeros(5), 0.01)
    with pytest.raises(ValueError, match="f_body must have shape"):
        euler_step(M, T, phi, 0.01, f_body=np.zeros(3))
    with pytest.raises(ValueError, match="g must have shape"):
        gravity_wrench(M, T, g=[0, -9.81])
    with pytest.raises(ValueError, match="last row"):
        euler_step(M, np.ones((4, 4)), phi, 0.01)
    with pytest.raises(ValueError, match="M has non-positive mass"):
        kinetic_energy(-M, phi)
    with pytest.raises(ValueError, match="M must be symmetric"):
        newton_euler_acceleration(M + np.triu(np.ones((6, 6)), 1), phi)
    with pytest.raises(ValueError, match="positive definite"):
        coriolis_wrench(M - np.diag([1.0, 0, 0, 0, 0, 0]), phi)
