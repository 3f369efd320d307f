"""Tests of spatial.rotations: quaternions, Euler and roll-pitch-yaw angles, rotation vectors."""

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from spatial import rx, ry, rz
from spatial.rotations import (
    euler_S,
    euler_S_dot,
    euler_to_matrix,
    matrix_to_rpy,
    omega_to_rpy_rates,
    omega_to_rpy_rates_matrix,
    omega_to_rpy_rates_matrix_dot,
    quat_conjugate,
    quat_from_axis_angle,
    quat_from_matrix,
    quat_from_rotvec,
    quat_multiply,
    quat_normalize,
    quat_rate,
    quat_rate_to_omega,
    quat_rotate,
    quat_to_matrix,
    quat_to_rotvec,
    require_unit_quaternion,
    rotvec_dR,
    rotvec_rate_matrix,
    rotvec_reparameterize,
    rpy_rate_matrix,
    rpy_rates_to_omega,
    rpy_to_matrix,
)
from spatial.se3 import exp_so3, log_so3

H = 1e-6  # central-difference step; truncation error ~H², round-off ~1e-16/H


def skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


def unskew(S):
    return np.array([S[2, 1], S[0, 2], S[1, 0]])


def random_quat(rng, n=None):
    q = rng.normal(size=(4,) if n is None else (n, 4))
    return q / np.linalg.norm(q, axis=-1, keepdims=True)


def to_scipy(q):
    """scipy's Rotation is scalar last."""
    return Rotation.from_quat(np.asarray(q)[..., [1, 2, 3, 0]])


def unit(rng):
    n = rng.normal(size=3)
    return n / np.linalg.norm(n)


# ----------------------------------------------------------------------------- quaternions


def test_quat_multiply_known_values_and_associativity(rng):
    i, j, k = np.eye(4)[1], np.eye(4)[2], np.eye(4)[3]
    np.testing.assert_array_equal(quat_multiply(i, j), k)
    np.testing.assert_array_equal(quat_multiply(j, i), -k)
    np.testing.assert_array_equal(quat_multiply(i, i), [-1, 0, 0, 0])
    p, q, r = rng.normal(size=(3, 4))
    np.testing.assert_allclose(
        quat_multiply(quat_multiply(p, q), r), quat_multiply(p, quat_multiply(q, r)), atol=1e-14
    )
    # norm is multiplicative; conjugate is the inverse of a unit quaternion
    assert np.isclose(
        np.linalg.norm(quat_multiply(p, q)), np.linalg.norm(p) * np.linalg.norm(q), rtol=1e-14
    )
    u = random_quat(rng)
    np.testing.assert_allclose(quat_multiply(u, quat_conjugate(u)), [1, 0, 0, 0], atol=1e-15)


def test_quat_to_matrix_against_scipy_and_featherstone(rng):
    q = random_quat(rng, 50)
    R = quat_to_matrix(q)
    np.testing.assert_allclose(R, to_scipy(q).as_matrix(), rtol=0, atol=1e-15)
    # Featherstone eq. 4.12 gives the coordinate transform E = Rᵀ
    p0, p1, p2, p3 = q[0]
    E = 2 * np.array(
        [
            [p0**2 + p1**2 - 0.5, p1 * p2 + p0 * p3, p1 * p3 - p0 * p2],
            [p1 * p2 - p0 * p3, p0**2 + p2**2 - 0.5, p2 * p3 + p0 * p1],
            [p1 * p3 + p0 * p2, p2 * p3 - p0 * p1, p0**2 + p3**2 - 0.5],
        ]
    )
    np.testing.assert_allclose(R[0], E.T, rtol=0, atol=1e-15)


def test_quat_homomorphism_and_double_cover(rng):
    p, q = random_quat(rng), random_quat(rng)
    np.testing.assert_allclose(
        quat_to_matrix(quat_multiply(p, q)), quat_to_matrix(p) @ quat_to_matrix(q), atol=1e-15
    )
    np.testing.assert_allclose(quat_to_matrix(-q), quat_to_matrix(q), rtol=0, atol=0)


def test_quat_from_axis_angle_and_rotvec(rng):
    n, t = unit(rng), 1.3
    q = quat_from_axis_angle(3.0 * n, t)  # axis need not be unit
    np.testing.assert_allclose(q, np.r_[np.cos(t / 2), np.sin(t / 2) * n], rtol=0, atol=1e-15)
    np.testing.assert_allclose(quat_from_rotvec(t * n), q, rtol=0, atol=1e-15)
    np.testing.assert_array_equal(quat_from_rotvec(np.zeros(3)), [1, 0, 0, 0])
    for theta in (1e-9, 1e-4, 0.3, np.pi, 5.0):
        r = theta * unit(rng)
        np.testing.assert_allclose(quat_to_matrix(quat_from_rotvec(r)), exp_so3(r), atol=1e-15)


def test_quat_from_matrix_round_trip(rng):
    q = random_quat(rng, 200)
    q[0] = [1, 0, 0, 0]
    q[1:4] = np.eye(4)[1:]  # rotations by π: w = 0
    q[4] = [1e-9, 0.6, 0.8, 0]
    q = quat_normalize(q)
    q2 = quat_from_matrix(quat_to_matrix(q))
    assert np.all(q2[:, 0] >= 0)
    sign = np.where(q[:, :1] < 0, -1.0, 1.0)
    np.testing.assert_allclose(q2, sign * q, rtol=0, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(q2, axis=-1), 1.0, rtol=0, atol=1e-15)


def test_quat_rotvec_round_trip(rng):
    for theta in (0.0, 1e-12, 1e-9, 1e-4, 1.0, np.pi - 1e-6):
        r = theta * unit(rng)
        np.testing.assert_allclose(quat_to_rotvec(quat_from_rotvec(r)), r, rtol=0, atol=1e-15)
    q = random_quat(rng, 100)
    r = quat_to_rotvec(q)
    assert np.all(np.linalg.norm(r, axis=-1) <= np.pi + 1e-15)
    np.testing.assert_allclose(r, to_scipy(q).as_rotvec(), rtol=0, atol=1e-14)
    np.testing.assert_allclose(quat_to_rotvec(-q), r, rtol=0, atol=0)


def test_quat_rotate(rng):
    q, v = random_quat(rng), rng.normal(size=3)
    np.testing.assert_allclose(quat_rotate(q, v), quat_to_matrix(q) @ v, rtol=0, atol=1e-15)
    sandwich = quat_multiply(quat_multiply(q, np.r_[0, v]), quat_conjugate(q))
    np.testing.assert_allclose(quat_rotate(q, v), sandwich[1:], rtol=0, atol=1e-15)


@pytest.mark.parametrize("frame", ["body", "base"])
def test_quat_rate_by_finite_differences(rng, frame):
    q, w = random_quat(rng), rng.normal(size=3)

    def step(h):
        dq = quat_from_rotvec(h * w)
        return quat_multiply(q, dq) if frame == "body" else quat_multiply(dq, q)

    fd = (step(H) - step(-H)) / (2 * H)
    qd = quat_rate(q, w, frame)
    np.testing.assert_allclose(qd, fd, rtol=0, atol=1e-9)
    np.testing.assert_allclose(quat_rate_to_omega(q, qd, frame), w, rtol=0, atol=1e-14)
    # the rotation matrix moves as Ṙ = R[ω] (body) or [ω]R (base)
    R = quat_to_matrix(q)
    Rdot = R @ skew(w) if frame == "body" else skew(w) @ R
    fdR = (quat_to_matrix(step(H)) - quat_to_matrix(step(-H))) / (2 * H)
    np.testing.assert_allclose(fdR, Rdot, rtol=0, atol=1e-9)


def test_quat_rate_against_featherstone_and_artisynth(rng):
    p, w = random_quat(rng), rng.normal(size=3)
    p0, p1, p2, p3 = p
    # Featherstone eq. 4.13: ω in body (F_s) coordinates
    Q = 0.5 * np.array([[-p1, -p2, -p3], [p0, -p3, p2], [p3, p0, -p1], [-p2, p1, p0]])
    np.testing.assert_allclose(quat_rate(p, w, "body"), Q @ w, rtol=0, atol=1e-15)
    # ArtiSynth eq. 0.1: ω in base coordinates, with q = (cos(θ/2), sin(θ/2) u)
    c, s, u = p0, np.linalg.norm(p[1:]), p[1:] / np.linalg.norm(p[1:])
    expected = 0.5 * np.r_[-s * w @ u, c * w + s * np.cross(w, u)]
    np.testing.assert_allclose(quat_rate(p, w, "base"), expected, rtol=0, atol=1e-15)


# ----------------------------------------------------------------------------- Euler angles


def active(axis, t):
    c, s = np.cos(t), np.sin(t)
    return {
        "X": np.array([[1, 0, 0], [0, c, -s], [0, s, c]]),
        "Y": np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]]),
        "Z": np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]]),
    }[axis]


SEQS = ["XZX", "XYZ", "ZYX", "ZYZ", "YXY", "YZX"]


@pytest.mark.parametrize("seq", SEQS)
def test_euler_to_matrix(rng, seq):
    q = rng.normal(size=3)
    expected = active(seq[0], q[0]) @ active(seq[1], q[1]) @ active(seq[2], q[2])
    np.testing.assert_allclose(euler_to_matrix(q, seq), expected, rtol=0, atol=1e-15)
    np.testing.assert_allclose(
        euler_to_matrix(q, seq), Rotation.from_euler(seq, q).as_matrix(), rtol=0, atol=1e-15
    )


def test_euler_sueda_matrices(rng):
    q1, q2, q3 = rng.normal(size=3)
    c1, c2, c3, s1, s2, s3 = np.cos([q1, q2, q3]).tolist() + np.sin([q1, q2, q3]).tolist()
    xzx = np.array(  # Sueda eq. 2.31
        [
            [c2, -s2 * c3, s2 * s3],
            [c1 * s2, c1 * c2 * c3 - s1 * s3, -s1 * c3 - c1 * c2 * s3],
            [s1 * s2, c1 * s3 + s1 * c2 * c3, c1 * c3 - s1 * c2 * s3],
        ]
    )
    np.testing.assert_allclose(euler_to_matrix([q1, q2, q3], "XZX"), xzx, rtol=0, atol=1e-15)
    xyz = np.array(  # Sueda eq. 2.36
        [
            [c2 * c3, -c2 * s3, s2],
            [c1 * s3 + s1 * s2 * c3, c1 * c3 - s1 * s2 * s3, -s1 * c2],
            [s1 * s3 - c1 * s2 * c3, s1 * c3 + c1 * s2 * s3, c1 * c2],
        ]
    )
    np.testing.assert_allclose(euler_to_matrix([q1, q2, q3], "XYZ"), xyz, rtol=0, atol=1e-15)


def test_euler_S_known_values(rng):
    q = rng.normal(size=3)
    qd = rng.normal(size=3)
    c2, c3, s2, s3 = np.cos(q[1]), np.cos(q[2]), np.sin(q[1]), np.sin(q[2])
    d2, d3 = qd[1], qd[2]
    # Sueda eqs. 2.34 and 2.35 (XZX)
    S = np.array([[c2, 0, 1], [-c3 * s2, s3, 0], [s2 * s3, c3, 0]])
    Sd = np.array(
        [
            [-s2 * d2, 0, 0],
            [s3 * s2 * d3 - c3 * c2 * d2, c3 * d3, 0],
            [c2 * s3 * d2 + s2 * c3 * d3, -s3 * d3, 0],
        ]
    )
    np.testing.assert_allclose(euler_S(q, "XZX"), S, rtol=0, atol=1e-15)
    np.testing.assert_allclose(euler_S_dot(q, qd, "XZX"), Sd, rtol=0, atol=1e-15)
    # Sueda eqs. 2.39 and 2.40: the universal joint is XYZ with q3 = 0 (first two columns)
    q0 = np.r_[q[:2], 0.0]
    qd0 = np.r_[qd[:2], 0.0]
    np.testing.assert_allclose(euler_S(q0, "XYZ")[:, :2], [[c2, 0], [0, 1], [s2, 0]], atol=1e-15)
    np.testing.assert_allclose(
        euler_S_dot(q0, qd0, "XYZ")[:, :2], [[-s2 * d2, 0], [0, 0], [c2 * d2, 0]], atol=1e-15
    )
    # Featherstone eqs. 4.8 and 4.9 (yaw, pitch, roll = ZYX)
    S = np.array([[-s2, 0, 1], [c2 * s3, c3, 0], [c2 * c3, -s3, 0]])
    Sd = np.array(
        [
            [-c2 * d2, 0, 0],
            [-s2 * s3 * d2 + c2 * c3 * d3, -s3 * d3, 0],
            [-s2 * c3 * d2 - c2 * s3 * d3, -c3 * d3, 0],
        ]
    )
    np.testing.assert_allclose(euler_S(q, "ZYX"), S, rtol=0, atol=1e-15)
    np.testing.assert_allclose(euler_S_dot(q, qd, "ZYX"), Sd, rtol=0, atol=1e-15)


@pytest.mark.parametrize("seq", SEQS)
def test_euler_S_and_S_dot_by_finite_differences(rng, seq):
    q, qd = rng.normal(size=3), rng.normal(size=3)
    R = euler_to_matrix(q, seq)
    S = euler_S(q, seq)
    for i in range(3):
        e = np.eye(3)[i]
        dR = (euler_to_matrix(q + H * e, seq) - euler_to_matrix(q - H * e, seq)) / (2 * H)
        np.testing.assert_allclose(unskew(R.T @ dR), S[:, i], rtol=0, atol=1e-9)
    fd = (euler_S(q + H * qd, seq) - euler_S(q - H * qd, seq)) / (2 * H)
    np.testing.assert_allclose(euler_S_dot(q, qd, seq), fd, rtol=0, atol=1e-9)


# ----------------------------------------------------------------------------- roll-pitch-yaw


def test_rpy_to_matrix_convention(rng):
    th, ph, ps = rng.normal(size=3)
    expected = active("Z", th) @ active("Y", ph) @ active("X", ps)
    np.testing.assert_allclose(rpy_to_matrix([th, ph, ps]), expected, rtol=0, atol=1e-15)
    # the same matrix from the coordinate rotations of notebook 01: R = (rx ry rz)ᵀ
    np.testing.assert_allclose(
        rpy_to_matrix([th, ph, ps]), (rx(ps) @ ry(ph) @ rz(th)).T, rtol=0, atol=1e-15
    )


def test_matrix_to_rpy_round_trip(rng):
    rpy = rng.uniform([-np.pi, -np.pi / 2, -np.pi], [np.pi, np.pi / 2, np.pi], size=(200, 3))
    rpy[0] = [0.3, np.pi / 2, -0.4]  # gimbal lock
    rpy[1] = [0.3, -np.pi / 2, 1.1]
    rpy[2] = [0.3, np.pi / 2 - 1e-9, -0.4]
    R = rpy_to_matrix(rpy)
    back = matrix_to_rpy(R)
    np.testing.assert_allclose(rpy_to_matrix(back), R, rtol=0, atol=1e-15)
    np.testing.assert_allclose(back[3:], rpy[3:], rtol=0, atol=1e-12)
    assert np.all(np.abs(back[:, 1]) <= np.pi / 2)
    # the same as scipy's intrinsic "ZYX" angles away from the singularity
    np.testing.assert_allclose(
        back[3:], Rotation.from_matrix(R[3:]).as_euler("ZYX"), rtol=0, atol=1e-12
    )


def test_rpy_rates_by_finite_differences(rng):
    rpy, rd = rng.normal(size=3), rng.normal(size=3)
    R = rpy_to_matrix(rpy)
    Rdot = (rpy_to_matrix(rpy + H * rd) - rpy_to_matrix(rpy - H * rd)) / (2 * H)
    w = rpy_rates_to_omega(rpy, rd)
    np.testing.assert_allclose(unskew(Rdot @ R.T), w, rtol=0, atol=1e-9)  # base: Ṙ = [ω] R
    np.testing.assert_allclose(rpy_rate_matrix(rpy), R @ euler_S(rpy, "ZYX"), atol=1e-15)
    np.testing.assert_allclose(omega_to_rpy_rates(rpy, w), rd, rtol=0, atol=1e-14)
    np.testing.assert_allclose(
        omega_to_rpy_rates_matrix(rpy) @ rpy_rate_matrix(rpy), np.eye(3), rtol=0, atol=1e-15
    )


def test_rpy_inverse_rows_derivative_by_finite_differences(rng):
    for _ in range(5):
        rpy, rd = rng.normal(size=3), rng.normal(size=3)
        fd = (omega_to_rpy_rates_matrix(rpy + H * rd) - omega_to_rpy_rates_matrix(rpy - H * rd)) / (
            2 * H
        )
        exact = omega_to_rpy_rates_matrix_dot(rpy, rd)
        np.testing.assert_allclose(exact, fd, rtol=0, atol=1e-8 * max(1, np.abs(exact).max()))


def test_rpy_singularity_raises():
    rpy = [0.2, np.pi / 2, 0.1]
    for fn in (
        lambda: omega_to_rpy_rates(rpy, [1, 0, 0]),
        lambda: omega_to_rpy_rates_matrix(rpy),
        lambda: omega_to_rpy_rates_matrix_dot(rpy, [1, 1, 1]),
    ):
        with pytest.raises(ValueError, match="gimbal lock"):
            fn()
    # the forward map is fine there, only its inverse is not
    assert np.linalg.matrix_rank(rpy_rate_matrix(rpy)) == 2


# ----------------------------------------------------------------------------- rotation vectors


def artisynth_U(r):
    """ArtiSynth eq. 0.45 typed as printed."""
    phi = np.linalg.norm(r)
    u = r / phi
    k = phi / np.tan(phi / 2)
    return 0.5 * (k * np.eye(3) + (2 - k) * np.outer(u, u) - phi * skew(u))


@pytest.mark.parametrize("frame", ["base", "body"])
def test_rotvec_rate_matrix_by_finite_differences(rng, frame):
    for theta in (1e-9, 1e-3, 0.5, 2.0, np.pi - 0.1):
        r, w = theta * unit(rng), rng.normal(size=3)
        R = exp_so3(r)

        def rotvec(h, R=R, w=w):
            dR = exp_so3(h * w)
            return log_so3(R @ dR if frame == "body" else dR @ R)

        fd = (rotvec(H) - rotvec(-H)) / (2 * H)
        np.testing.assert_allclose(rotvec_rate_matrix(r, frame) @ w, fd, rtol=0, atol=1e-8)
    r = 2.0 * unit(rng)
    np.testing.assert_allclose(rotvec_rate_matrix(r), artisynth_U(r), rtol=0, atol=1e-15)
    np.testing.assert_allclose(rotvec_rate_matrix(r, "body"), artisynth_U(r).T, atol=1e-15)
    np.testing.assert_array_equal(rotvec_rate_matrix(np.zeros(3)), np.eye(3))


@pytest.mark.parametrize("frame", ["base", "body"])
@pytest.mark.parametrize("theta", [0.0, 1e-9, 0.5, np.pi, 3.5, 5.0, 2 * np.pi - 0.05, 6.8, 9.0])
def test_rotvec_rate_matrix_moves_R_with_omega_beyond_pi(rng, frame, theta):
    # the test above goes through log_so3, which wraps at π; this one differentiates exp_so3
    # along ṙ = U ω directly, so it also covers π < |r| < 2π and beyond, where U is large
    r, w = theta * unit(rng), rng.normal(size=3)
    r_dot = rotvec_rate_matrix(r, frame) @ w
    h = H / max(1.0, np.linalg.norm(r_dot))
    fd = (exp_so3(r + h * r_dot) - exp_so3(r - h * r_dot)) / (2 * h)
    R = exp_so3(r)
    R_dot = skew(w) @ R if frame == "base" else R @ skew(w)  # Ṙ = [ω] R or R [ω]
    np.testing.assert_allclose(fd, R_dot, rtol=0, atol=1e-8)


def gallego_yezzi(r):
    """Sueda eq. 2.43 typed as printed."""
    R = exp_so3(r)
    return np.stack(
        [skew(r[i] * r + skew(r) @ (np.eye(3) - R) @ np.eye(3)[i]) / (r @ r) @ R for i in range(3)]
    )


@pytest.mark.parametrize("theta", [0.0, 1e-9, 1e-4, 0.7, 3.0, 2 * np.pi - 1e-3, 2 * np.pi, 7.5])
def test_rotvec_dR_by_finite_differences(rng, theta):
    r = theta * unit(rng)
    dR = rotvec_dR(r)
    for i in range(3):
        e = np.eye(3)[i]
        fd = (exp_so3(r + H * e) - exp_so3(r - H * e)) / (2 * H)
        np.testing.assert_allclose(dR[i], fd, rtol=0, atol=1e-9)
    if theta == 0.0:
        np.testing.assert_array_equal(dR, np.stack([skew(e) for e in np.eye(3)]))
    if theta > 0.1:
        np.testing.assert_allclose(dR, gallego_yezzi(r), rtol=0, atol=1e-14)


def test_rotvec_reparameterize(rng):
    for theta in (0.5, np.pi, np.pi + 1e-3, 2 * np.pi - 1e-4, 2 * np.pi + 0.3, 9.0):
        r, rd = theta * unit(rng), rng.normal(size=3)
        r2, rd2 = rotvec_reparameterize(r, rd)
        assert np.linalg.norm(r2) <= np.pi + 1e-15
        np.testing.assert_allclose(exp_so3(r2), exp_so3(r), rtol=0, atol=1e-14)
        # same body angular velocity before and after
        w1 = unskew(exp_so3(r).T @ (exp_so3(r + H * rd) - exp_so3(r - H * rd)) / (2 * H))
        w2 = unskew(exp_so3(r2).T @ (exp_so3(r2 + H * rd2) - exp_so3(r2 - H * rd2)) / (2 * H))
        np.testing.assert_allclose(w2, w1, rtol=0, atol=1e-7)
        if theta < np.pi:
            np.testing.assert_array_equal(r2, r)
    # Sueda's formula (1 - 2π/|r|) r near 2π
    r = (2 * np.pi - 1e-2) * unit(rng)
    np.testing.assert_allclose(
        rotvec_reparameterize(r), (1 - 2 * np.pi / np.linalg.norm(r)) * r, atol=1e-15
    )


# ----------------------------------------------------------------------------- batching


def test_batched_equals_looped(rng):
    n = 6
    q = random_quat(rng, n)
    q2 = random_quat(rng, n)
    v = rng.normal(size=(n, 3))
    a = rng.normal(size=(n, 3))
    a[0] = 0.0
    R = quat_to_matrix(q)
    cases = [
        (quat_multiply, (q, q2)),
        (quat_conjugate, (q,)),
        (quat_normalize, (3 * q,)),
        (quat_to_matrix, (q,)),
        (quat_from_matrix, (R,)),
        (quat_from_axis_angle, (v, a[:, 0])),
        (quat_from_rotvec, (a,)),
        (quat_to_rotvec, (q,)),
        (quat_rotate, (q, v)),
        (quat_rate, (q, v)),
        (lambda q, v: quat_rate(q, v, "base"), (q, v)),
        (quat_rate_to_omega, (q, q2)),
        (lambda q, v: quat_rate_to_omega(q, v, "base"), (q, q2)),
        (lambda x: euler_to_matrix(x, "XZX"), (a,)),
        (lambda x: euler_S(x, "XYZ"), (a,)),
        (lambda x, y: euler_S_dot(x, y, "XZX"), (a, v)),
        (rpy_to_matrix, (a,)),
        (matrix_to_rpy, (R,)),
        (rpy_rate_matrix, (a,)),
        (rpy_rates_to_omega, (a, v)),
        (omega_to_rpy_rates_matrix, (a,)),
        (omega_to_rpy_rates, (a, v)),
        (omega_to_rpy_rates_matrix_dot, (a, v)),
        (rotvec_rate_matrix, (a,)),
        (lambda x: rotvec_rate_matrix(x, "body"), (a,)),
        (rotvec_dR, (a,)),
        (rotvec_reparameterize, (4 * a,)),
    ]
    for fn, args in cases:
        batched = fn(*args)
        looped = np.stack([fn(*(x[i] for x in args)) for i in range(n)])
        np.testing.assert_allclose(batched, looped, rtol=0, atol=1e-15, err_msg=str(fn))
    r2, rd2 = rotvec_reparameterize(4 * a, v)
    for i in range(n):
        ri, rdi = rotvec_reparameterize(4 * a[i], v[i])
        np.testing.assert_allclose(r2[i], ri, atol=1e-15)
        np.testing.assert_allclose(rd2[i], rdi, atol=1e-15)
    # broadcasting a single quaternion against many vectors, and two batch dimensions
    np.testing.assert_allclose(quat_rotate(q[0], v), (R[0] @ v.T).T, atol=1e-15)
    np.testing.assert_allclose(
        quat_to_matrix(q.reshape(2, 3, 4)).reshape(n, 3, 3), R, rtol=0, atol=0
    )


# ----------------------------------------------------------------------------- errors


def test_errors():
    with pytest.raises(ValueError, match="zero quaternion"):
        quat_normalize([[1, 0, 0, 0], [0, 0, 0, 0]])
    with pytest.raises(ValueError, match="not a unit quaternion: norm 2"):
        require_unit_quaternion([2.0, 0, 0, 0])
    with pytest.raises(ValueError, match="qq is not a unit quaternion"):
        require_unit_quaternion([1.0, 1e-3, 0, 0], name="qq", tol=1e-9)
    for fn in (quat_to_matrix, quat_to_rotvec, lambda q: quat_rotate(q, [1, 0, 0])):
        with pytest.raises(ValueError, match="not a unit quaternion"):
            fn([1.0, 1.0, 0, 0])
    with pytest.raises(ValueError, match="not a unit quaternion"):
        quat_rate_to_omega([1.0, 1.0, 0, 0], np.zeros(4))
    with pytest.raises(ValueError, match=r"q must have shape \(\.\.\., 4\)"):
        quat_conjugate([1, 0, 0])
    with pytest.raises(ValueError, match=r"p must have shape"):
        quat_multiply([1, 0, 0], [1, 0, 0, 0])
    with pytest.raises(ValueError, match="frame must be 'body' or 'base'"):
        quat_rate([1, 0, 0, 0], [0, 0, 1], frame="world")
    with pytest.raises(ValueError, match="frame must be 'body' or 'base'"):
        quat_rate_to_omega([1, 0, 0, 0], np.zeros(4), frame="spatial")
    with pytest.raises(ValueError, match="frame must be 'body' or 'base'"):
        rotvec_rate_matrix([0, 0, 1], frame="local")
    with pytest.raises(ValueError, match="axis must be nonzero"):
        quat_from_axis_angle([0, 0, 0], 1.0)
    with pytest.raises(ValueError, match="non-finite"):
        quat_from_axis_angle([0, 0, 1], np.inf)
    with pytest.raises(ValueError, match="R is not orthonormal"):
        quat_from_matrix(np.ones((3, 3)))
    with pytest.raises(ValueError, match="R is a reflection"):
        matrix_to_rpy(-np.eye(3))
    for seq in ("XXY", "XYY", "XY", "XYZX", "xyz", "ABC", 3):
        with pytest.raises(ValueError, match="seq must be three axis letters"):
            euler_to_matrix([0, 0, 0], seq)
    with pytest.raises(ValueError, match="seq must be three axis letters"):
        euler_S([0, 0, 0], "ZZX")
    with pytest.raises(ValueError, match=r"angles must have shape"):
        euler_S([0, 0], "XYZ")
    with pytest.raises(ValueError, match=r"rates must have shape"):
        euler_S_dot([0, 0, 0], [0, 0], "XYZ")
    with pytest.raises(ValueError, match=r"rpy must have shape"):
        rpy_rate_matrix([0, 0])
    with pytest.raises(ValueError, match=r"rpy_dot must have shape"):
        rpy_rates_to_omega([0, 0, 0], [0, 0])
    with pytest.raises(ValueError, match=r"omega must have shape"):
        omega_to_rpy_rates([0, 0, 0], [0, 0])
    with pytest.raises(ValueError, match="singular sphere"):
        rotvec_rate_matrix([2 * np.pi, 0, 0])
    with pytest.raises(ValueError, match="singular sphere"):
        rotvec_rate_matrix([0, 0, -4 * np.pi])
    with pytest.raises(ValueError, match=r"r must have shape"):
        rotvec_dR([0, 0])
    with pytest.raises(ValueError, match=r"r_dot must have shape"):
        rotvec_reparameterize([0, 0, 4], [0, 0])
