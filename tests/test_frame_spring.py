"""Tests for spatial.forces.FrameSpring against the formulas of ArtiSynth §0.22.

The finite-difference checks of K and D (body and world coordinates) are in test_forces.py with
every other force; here: the wrench, the printed Jacobians of ArtiSynth §0.22.1–0.22.2
(linear-first, converted with swap_linear_angular), known values and invariants.
"""

import numpy as np
import pytest

from spatial.forces import FrameSpring
from spatial.se3 import exp_se3, exp_so3, frame, log_so3
from spatial.vectors import skew, swap_linear_angular


def swap_blocks(J):
    """ArtiSynth's linear-first 12x12 (two bodies) to angular-first, one 6x6 block at a time."""
    out = np.empty_like(J)
    for i in range(2):
        for j in range(2):
            block = J[6 * i : 6 * i + 6, 6 * j : 6 * j + 6]
            out[6 * i : 6 * i + 6, 6 * j : 6 * j + 6] = swap_linear_angular(block)
    return out


def rate_matrix(theta):
    """ArtiSynth eq. 0.45 by hand: U = ½(φ cot(φ/2) 1 + (2 - φ cot(φ/2)) u uᵀ - φ [u])."""
    phi = np.linalg.norm(theta)
    u = theta / phi
    c = phi / np.tan(phi / 2)
    return 0.5 * (c * np.eye(3) + (2 - c) * np.outer(u, u) - phi * skew(u))


def two_body_spring(rng, k_t=2.0, k_r=3.0, d_t=0.0, d_r=0.0):
    T = exp_se3(rng.normal(scale=0.5, size=(2, 6)))
    phi = rng.normal(size=(2, 6))
    T_A1 = exp_se3(rng.normal(scale=0.5, size=6))
    T_B2 = exp_se3(rng.normal(scale=0.5, size=6))
    return FrameSpring(1, T_A1, 2, T_B2, k_t, k_r, d_t, d_r), T, phi


def artisynth_quantities(F, T):
    """The rotations and vectors named in ArtiSynth §0.22 (X_AW = T_A, X_1A = T_A1, ...)."""
    R_AW, R_BW = T[0, :3, :3], T[1, :3, :3]
    R_1A, p1 = F.frame1[:3, :3], F.frame1[:3, 3]
    R_2B, p2 = F.frame2[:3, :3], F.frame2[:3, 3]
    X1, X2 = T[0] @ F.frame1, T[1] @ F.frame2
    R_1W, R_2W = X1[:3, :3], X2[:3, :3]
    x1, x2 = X1[:3, 3], X2[:3, 3]
    R_21 = R_1W.T @ R_2W  # frame 2 to frame 1
    theta = log_so3(R_21)
    return {
        "R_AW": R_AW,
        "R_BW": R_BW,
        "R_1A": R_1A,
        "R_A1": R_1A.T,
        "R_BA": R_AW.T @ R_BW,
        "R_AB": R_BW.T @ R_AW,
        "R_B1": R_1W.T @ R_BW,
        "R_1B": R_BW.T @ R_1W,
        "p1": p1,
        "p2": p2,
        "x1": x1,
        "x2": x2,
        "theta": theta,
        "R_2B": R_2B,
    }


def test_wrench_is_artisynth_eqs_0_39_and_0_40(rng):
    F, T, phi = two_body_spring(rng, d_t=0.5, d_r=0.7)
    q = artisynth_quantities(F, T)
    p1, p2 = q["p1"], q["p2"]
    # world velocities: ẋ = R (ω × p + v), ω_world = R ω
    xd1 = q["R_AW"] @ (np.cross(phi[0, :3], p1) + phi[0, 3:])
    xd2 = q["R_BW"] @ (np.cross(phi[1, :3], p2) + phi[1, 3:])
    w1, w2 = q["R_AW"] @ phi[0, :3], q["R_BW"] @ phi[1, :3]
    dx = q["x2"] - q["x1"]
    f_A = 2.0 * q["R_AW"].T @ dx + 0.5 * q["R_AW"].T @ (xd2 - xd1)
    tau_A = 3.0 * q["R_1A"] @ q["theta"] + 0.7 * q["R_AW"].T @ (w2 - w1) + np.cross(p1, f_A)
    f_B = -2.0 * q["R_BW"].T @ dx - 0.5 * q["R_BW"].T @ (xd2 - xd1)
    tau_B = -3.0 * q["R_1B"] @ q["theta"] - 0.7 * q["R_BW"].T @ (w2 - w1) + np.cross(p2, f_B)
    f = F.evaluate(T, phi).f
    np.testing.assert_allclose(f, np.concatenate([tau_A, f_A, tau_B, f_B]), rtol=1e-12, atol=1e-13)


def test_elastic_position_jacobian_is_artisynth_0_22_1(rng):
    # Without damping the body-coordinate K is ArtiSynth's J_p (§0.22.1), linear-first there.
    F, T, phi = two_body_spring(rng)
    q = artisynth_quantities(F, T)
    k_t, k_r = F.k_t, F.k_r
    I = np.eye(3)
    P1, P2 = skew(q["p1"]), skew(q["p2"])
    U = rate_matrix(q["theta"])
    dx = q["x2"] - q["x1"]
    f1 = k_t * q["R_AW"].T @ dx  # ᴬf₁
    f2 = -k_t * q["R_BW"].T @ dx  # ᴮf₂
    tau1 = k_r * q["R_1A"] @ q["theta"]  # ᴬτ₁
    tau2 = -k_r * q["R_1B"] @ q["theta"]  # ᴮτ₂
    J01 = k_t * P1 + skew(f1)
    J03 = -k_t * q["R_BA"] @ P2
    J21 = -k_t * q["R_AB"] @ P1
    J23 = k_t * P2 + skew(f2)
    R_1A, R_A1, R_1B, R_B1 = q["R_1A"], q["R_A1"], q["R_1B"], q["R_B1"]
    J_p = np.block(
        [
            [-k_t * I, J01, k_t * q["R_BA"], J03],
            [
                -k_t * P1,
                P1 @ J01 - k_r * R_1A @ U.T @ R_A1 + skew(tau1),
                k_t * P1 @ q["R_BA"],
                P1 @ J03 + k_r * R_1A @ U @ R_B1,
            ],
            [k_t * q["R_AB"], J21, -k_t * I, J23],
            [
                k_t * P2 @ q["R_AB"],
                P2 @ J21 + k_r * R_1B @ U.T @ R_A1,
                -k_t * P2,
                P2 @ J23 - k_r * R_1B @ U @ R_B1 + skew(tau2),
            ],
        ]
    )
    K = F.evaluate(T, phi).K
    np.testing.assert_allclose(K, swap_blocks(J_p), rtol=1e-11, atol=1e-12)


def test_velocity_jacobian_is_artisynth_0_22_2(rng):
    F, T, phi = two_body_spring(rng, d_t=0.5, d_r=0.7)
    q = artisynth_quantities(F, T)
    d_t, d_r = F.d_t, F.d_r
    I = np.eye(3)
    P1, P2 = skew(q["p1"]), skew(q["p2"])
    R_BA, R_AB = q["R_BA"], q["R_AB"]
    J_v = np.block(
        [
            [-d_t * I, d_t * P1, d_t * R_BA, -d_t * R_BA @ P2],
            [
                -d_t * P1,
                -d_r * I + d_t * P1 @ P1,
                d_t * P1 @ R_BA,
                d_r * R_BA - d_t * P1 @ R_BA @ P2,
            ],
            [d_t * R_AB, -d_t * R_AB @ P1, -d_t * I, d_t * P2],
            [
                d_t * P2 @ R_AB,
                d_r * R_AB - d_t * P2 @ R_AB @ P1,
                -d_t * P2,
                -d_r * I + d_t * P2 @ P2,
            ],
        ]
    )
    D = F.evaluate(T, phi).D
    np.testing.assert_allclose(D, swap_blocks(J_v), rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(D, D.T, atol=1e-14)


def test_coincident_frames_give_diagonal_stiffness():
    # frames at the body origins and aligned: no force, K_AA = -diag(k_r 1, k_t 1) = K_BB
    T = np.stack([frame(exp_so3([0.3, 0.1, -0.2]), [1.0, 2.0, 3.0])] * 2)
    F = FrameSpring(1, np.eye(4), 2, np.eye(4), k_t=2.0, k_r=5.0)
    t = F.evaluate(T, np.zeros((2, 6)))
    np.testing.assert_allclose(t.f, 0.0, atol=1e-14)
    diag = -np.diag([5.0] * 3 + [2.0] * 3)
    np.testing.assert_allclose(t.K[:6, :6], diag, atol=1e-14)
    np.testing.assert_allclose(t.K[6:, 6:], diag, atol=1e-14)
    np.testing.assert_allclose(t.K[:6, 6:], -diag, atol=1e-14)
    np.testing.assert_allclose(t.K, t.K.T, atol=1e-14)


def test_pure_twist_gives_rotation_vector_torque():
    # body B turned by a about z relative to A: τ_A = k_r a e_z, τ_B = -k_r a e_z, no force
    a = 0.8
    T = np.stack([np.eye(4), frame(exp_so3([0.0, 0.0, a]), [0.0, 0.0, 0.0])])
    F = FrameSpring(1, np.eye(4), 2, np.eye(4), k_t=2.0, k_r=5.0)
    f = F.evaluate(T, np.zeros((2, 6))).f
    np.testing.assert_allclose(f, [0, 0, 5 * a, 0, 0, 0, 0, 0, -5 * a, 0, 0, 0], atol=1e-14)
    theta, delta = F.displacement(T)
    np.testing.assert_allclose(theta, [0, 0, a], atol=1e-15)
    np.testing.assert_allclose(delta, 0.0, atol=1e-15)
    assert F.potential(T) == pytest.approx(0.5 * 5 * a**2)


def test_displacement_is_measured_in_frame_1():
    T = np.stack([frame(exp_so3([0.0, 0.0, np.pi / 2]), [1.0, 0.0, 0.0]), np.eye(4)])
    F = FrameSpring(1, np.eye(4), 2, frame(np.eye(3), [1.0, 1.0, 0.0]), k_t=1.0, k_r=1.0)
    theta, delta = F.displacement(T)
    # x₂ - x₁ = (0, 1, 0) in world = (1, 0, 0) in frame 1 (turned by 90° about z)
    np.testing.assert_allclose(delta, [1.0, 0.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(theta, [0, 0, -np.pi / 2], atol=1e-15)


def test_damping_exerts_a_net_moment(rng):
    # elastic part: zero net world wrench; translational damping acts along ẋ₂ - ẋ₁ at the two
    # origins, so the net moment about the world origin is (x₁ - x₂) × f_d ≠ 0 (ArtiSynth 0.38)
    F, T, phi = two_body_spring(rng, d_t=0.5, d_r=0.7)
    q = artisynth_quantities(F, T)
    phi_world = np.einsum("nij,nj->ni", np.stack([_ad(T[0]), _ad(T[1])]), phi)
    f_world = F.evaluate(T, phi_world, coords="world").f.reshape(2, 6)
    xd1 = q["R_AW"] @ (np.cross(phi[0, :3], q["p1"]) + phi[0, 3:])
    xd2 = q["R_BW"] @ (np.cross(phi[1, :3], q["p2"]) + phi[1, 3:])
    f_damp = 0.5 * (xd2 - xd1)
    net = f_world.sum(axis=0)
    np.testing.assert_allclose(net[3:], 0.0, atol=1e-12)
    np.testing.assert_allclose(net[:3], np.cross(q["x1"] - q["x2"], f_damp), rtol=1e-10, atol=1e-12)
    assert np.linalg.norm(net[:3]) > 1e-2


def _ad(T):
    """Ad(T) by hand: [[R, 0], [p× R, R]]."""
    R, p = T[:3, :3], T[:3, 3]
    return np.block([[R, np.zeros((3, 3))], [skew(p) @ R, R]])


def test_ground_frame_is_given_in_world_coordinates():
    T_W1 = frame(exp_so3([0.1, 0.2, 0.3]), [0.5, 0.0, 0.0])
    T = frame(exp_so3([0.1, 0.2, 0.3]), [0.5, 0.0, 0.0])[None]
    F = FrameSpring(0, T_W1, 1, np.eye(4), k_t=3.0, k_r=4.0)
    t = F.evaluate(T, np.zeros((1, 6)))
    np.testing.assert_allclose(t.f, 0.0, atol=1e-14)
    assert t.K.shape == (6, 6)
    T_moved = T @ exp_se3([0.0, 0.0, 0.0, 0.1, 0.0, 0.0])
    # moved by 0.1 along its own x axis: pulled back with k_t · 0.1 along -x (body coordinates)
    np.testing.assert_allclose(
        F.evaluate(T_moved, np.zeros((1, 6))).f, [0, 0, 0, -0.3, 0, 0], atol=1e-14
    )
    # frame 2 (the body) sits 0.1 along frame 1's x axis
    np.testing.assert_allclose(F.displacement(T_moved)[1], [0.1, 0, 0], atol=1e-15)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"k_t": -1.0}, "k_t must be a number >= 0"),
        ({"k_r": -1.0}, "k_r must be a number >= 0"),
        ({"d_t": -0.1}, "d_t must be a number >= 0"),
        ({"d_r": np.nan}, "d_r must be a number >= 0, got nan"),
        ({"frame1": 2 * np.eye(4)}, "frame1"),
        ({"frame2": np.stack([np.eye(4)] * 2)}, r"frame2 must have shape \(4, 4\)"),
        ({"body1": 1.5}, r"body1 must be a body number \(0 = world, 1 … N\), got 1.5"),
    ],
)
def test_invalid_parameters_raise(kwargs, match):
    params = {
        "body1": 0,
        "frame1": np.eye(4),
        "body2": 1,
        "frame2": np.eye(4),
        "k_t": 1.0,
        "k_r": 1.0,
    }
    with pytest.raises(ValueError, match=match):
        FrameSpring(**(params | kwargs))
