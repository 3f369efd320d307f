"""Tests of spatial.se3: frames, twists, exp/log, adjoints, material Jacobian (Sueda §1.1–1.5)."""

import numpy as np
import pytest
import scipy.linalg
from scipy.spatial.transform import Rotation

from spatial import crm, pluho, plux, xinv
from spatial.se3 import (
    Ad,
    Ad_dot,
    ad,
    bracket,
    exp_se3,
    exp_so3,
    frame,
    frame_inverse,
    log_se3,
    log_so3,
    material_jacobian,
    unbracket,
)

SPECIAL_ANGLES = [0.0, 1e-9, 1e-4, 0.05, 0.1, 0.1 + 1e-12, 1.0, np.pi / 2, 2.5, np.pi - 1e-6, np.pi]


def random_rotation(rng, n=None):
    return Rotation.random(n, random_state=rng).as_matrix()


def random_frame(rng, n=None):
    R = random_rotation(rng, n)
    p = rng.normal(size=R.shape[:-2] + (3,))
    return frame(R, p)


def unit(rng):
    n = rng.normal(size=3)
    return n / np.linalg.norm(n)


# ----------------------------------------------------------------------------- frames


def test_frame_blocks_and_inverse(rng):
    R, p = random_rotation(rng), rng.normal(size=3)
    T = frame(R, p)
    assert np.array_equal(T[:3, :3], R) and np.array_equal(T[:3, 3], p)
    assert np.array_equal(T[3], [0, 0, 0, 1])
    # x_A = R x_B + p (Sueda eq. 1.2)
    x = rng.normal(size=3)
    np.testing.assert_allclose((T @ np.append(x, 1))[:3], R @ x + p, rtol=0, atol=1e-14)
    Ei = frame_inverse(T)
    np.testing.assert_allclose(Ei, np.linalg.inv(T), rtol=0, atol=1e-13)
    np.testing.assert_allclose(Ei @ T, np.eye(4), rtol=0, atol=1e-14)


def test_bracket_unbracket(rng):
    phi = rng.normal(size=6)
    M = bracket(phi)
    w, v = phi[:3], phi[3:]
    x = rng.normal(size=3)
    np.testing.assert_allclose(M[:3, :3] @ x, np.cross(w, x), rtol=0, atol=1e-14)
    np.testing.assert_array_equal(M[:3, 3], v)
    np.testing.assert_array_equal(M[3], np.zeros(4))
    np.testing.assert_array_equal(unbracket(M), phi)


# ----------------------------------------------------------------------------- exp and log


@pytest.mark.parametrize("theta", SPECIAL_ANGLES + [4.0, 2 * np.pi, 7.0])
def test_exp_so3_matches_expm(rng, theta):
    w = theta * unit(rng)
    expected = scipy.linalg.expm(bracket(np.r_[w, 0, 0, 0]))[:3, :3]
    # scipy's expm (Padé with scaling and squaring) is itself only good to about 1e-13 here
    np.testing.assert_allclose(exp_so3(w), expected, rtol=0, atol=1e-13)
    # an independent closed form (via quaternions) agrees to round-off
    expected = Rotation.from_rotvec(w).as_matrix()
    np.testing.assert_allclose(exp_so3(w), expected, rtol=0, atol=2e-15)


@pytest.mark.parametrize("theta", SPECIAL_ANGLES + [4.0])
def test_exp_se3_matches_expm(rng, theta):
    phi = np.r_[theta * unit(rng), rng.normal(size=3)]
    np.testing.assert_allclose(exp_se3(phi), scipy.linalg.expm(bracket(phi)), rtol=0, atol=1e-13)


def test_exp_known_values():
    t = 0.7
    c, s = np.cos(t), np.sin(t)
    Rz = np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    np.testing.assert_allclose(exp_so3([0, 0, t]), Rz, rtol=0, atol=1e-15)
    # pure translation
    np.testing.assert_allclose(exp_se3([0, 0, 0, 1, 2, 3])[:3, 3], [1, 2, 3], rtol=0, atol=0)
    # screw about the z axis through a = (1, 2, 0) with pitch h: v = -ω × a + h ω
    a, h = np.array([1.0, 2.0, 0.0]), 0.3
    w = np.array([0, 0, t])
    T = exp_se3(np.r_[w, -np.cross(w, a) + h * w])
    np.testing.assert_allclose(T[:3, :3], Rz, rtol=0, atol=1e-15)
    np.testing.assert_allclose(T[:3, 3], (np.eye(3) - Rz) @ a + [0, 0, h * t], rtol=0, atol=1e-15)


@pytest.mark.parametrize("theta", SPECIAL_ANGLES[:-1])
def test_log_so3_inverts_exp(rng, theta):
    w = theta * unit(rng)
    np.testing.assert_allclose(log_so3(exp_so3(w)), w, rtol=0, atol=1e-14)


@pytest.mark.parametrize("theta", SPECIAL_ANGLES + [4.0, 6.0])
def test_log_so3_round_trip_and_range(rng, theta):
    R = exp_so3(theta * unit(rng))
    w = log_so3(R)
    assert np.linalg.norm(w) <= np.pi + 1e-15
    np.testing.assert_allclose(exp_so3(w), R, rtol=0, atol=1e-14)


def test_log_so3_exactly_pi_about_axes():
    for axis in np.eye(3):
        R = 2 * np.outer(axis, axis) - np.eye(3)  # rotation by π about axis
        w = log_so3(R)
        np.testing.assert_allclose(np.abs(w), np.pi * axis, rtol=0, atol=1e-15)


def test_log_so3_near_pi_sign_follows_skew_part(rng):
    # at π - ε the logarithm must be +(π - ε) n, not -(π - ε) n
    n = unit(rng)
    for eps in (1e-6, 1e-9, 1e-12):
        np.testing.assert_allclose(
            log_so3(exp_so3((np.pi - eps) * n)), (np.pi - eps) * n, atol=1e-14
        )


def test_log_so3_random_batch(rng):
    R = random_rotation(rng, 200)
    w = log_so3(R)
    np.testing.assert_allclose(w, Rotation.from_matrix(R).as_rotvec(), rtol=0, atol=1e-13)


@pytest.mark.parametrize("theta", SPECIAL_ANGLES[:-1])
def test_log_se3_inverts_exp(rng, theta):
    phi = np.r_[theta * unit(rng), rng.normal(size=3)]
    np.testing.assert_allclose(log_se3(exp_se3(phi)), phi, rtol=0, atol=1e-13)


@pytest.mark.parametrize("theta", SPECIAL_ANGLES)
def test_log_se3_round_trip(rng, theta):
    T = exp_se3(np.r_[theta * unit(rng), rng.normal(size=3)])
    np.testing.assert_allclose(exp_se3(log_se3(T)), T, rtol=0, atol=1e-13)
    # agrees with the general matrix logarithm (away from π, where the log is unique)
    if theta < 3:
        np.testing.assert_allclose(
            bracket(log_se3(T)), scipy.linalg.logm(T).real, rtol=0, atol=1e-10
        )


def test_frame_derivative_by_finite_differences(rng):
    # Sueda eq. 1.8 checked as in eq. 1.11, with a central difference through exp
    T, phi, h = random_frame(rng), rng.normal(size=6), 1e-6
    fd = (T @ exp_se3(h * phi) - T @ exp_se3(-h * phi)) / (2 * h)
    np.testing.assert_allclose(fd, T @ bracket(phi), rtol=0, atol=1e-9)


# ----------------------------------------------------------------------------- adjoints


def test_Ad_blocks(rng):
    R, p = random_rotation(rng), rng.normal(size=3)
    A = Ad(frame(R, p))
    P = np.array([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    expected = np.block([[R, np.zeros((3, 3))], [P @ R, R]])  # Sueda eq. 1.14
    np.testing.assert_allclose(A, expected, rtol=0, atol=1e-15)


def test_Ad_is_plucker_X_AB(rng):
    # T_AB = [[R, p], [0, 1]] (Sueda's E_AB): Featherstone's X_BA = plux(E, r) has the 3x3
    # coordinate rotation E = Rᵀ (A → B) and r = p
    R, p = random_rotation(rng), rng.normal(size=3)
    T_AB = frame(R, p)
    X_BA = plux(R.T, p)
    np.testing.assert_allclose(Ad(T_AB), xinv(X_BA), rtol=0, atol=1e-14)
    np.testing.assert_allclose(Ad(frame_inverse(T_AB)), X_BA, rtol=0, atol=1e-14)
    # pluho: X_BA ↔ the 4x4 transform of point coordinates A → B, i.e. T_BA
    np.testing.assert_allclose(pluho(X_BA), frame_inverse(T_AB), rtol=0, atol=1e-14)
    np.testing.assert_allclose(Ad(pluho(X_BA)), X_BA, rtol=0, atol=1e-14)
    np.testing.assert_allclose(pluho(T_AB), Ad(T_AB), rtol=0, atol=1e-14)


def test_Ad_transforms_twists_like_conjugation(rng):
    # [Ad(T) φ] = T [φ] T⁻¹: a body twist seen in the parent frame
    T, phi = random_frame(rng), rng.normal(size=6)
    lhs = bracket(Ad(T) @ phi)
    np.testing.assert_allclose(lhs, T @ bracket(phi) @ frame_inverse(T), rtol=0, atol=1e-13)


def test_Ad_group_properties(rng):
    T1, T2 = random_frame(rng), random_frame(rng)
    np.testing.assert_allclose(Ad(T1 @ T2), Ad(T1) @ Ad(T2), rtol=0, atol=1e-13)
    np.testing.assert_allclose(Ad(frame_inverse(T1)), np.linalg.inv(Ad(T1)), rtol=0, atol=1e-13)
    np.testing.assert_allclose(Ad(np.eye(4)), np.eye(6), rtol=0, atol=0)


def test_ad_properties(rng):
    phi, psi = rng.normal(size=6), rng.normal(size=6)
    np.testing.assert_allclose(ad(phi) @ phi, np.zeros(6), rtol=0, atol=1e-15)
    np.testing.assert_array_equal(ad(phi), crm(phi))
    # ad is the Lie bracket: [ad(φ) ψ] = [φ][ψ] - [ψ][φ]
    comm = bracket(phi) @ bracket(psi) - bracket(psi) @ bracket(phi)
    np.testing.assert_allclose(bracket(ad(phi) @ psi), comm, rtol=0, atol=1e-14)
    # and the derivative of Ad at the identity: Ad(exp(hφ)) ≈ 1 + h ad(φ)
    h = 1e-6
    fd = (Ad(exp_se3(h * phi)) - Ad(exp_se3(-h * phi))) / (2 * h)
    np.testing.assert_allclose(fd, ad(phi), rtol=0, atol=1e-9)


def test_Ad_dot_by_finite_differences(rng):
    # Sueda eq. 1.20 with a central difference on SE(3)
    for _ in range(5):
        T, phi, h = random_frame(rng), rng.normal(size=6), 1e-6
        fd = (Ad(T @ exp_se3(h * phi)) - Ad(T @ exp_se3(-h * phi))) / (2 * h)
        expected = Ad_dot(T, phi)
        np.testing.assert_allclose(fd, expected, rtol=0, atol=1e-8 * np.abs(expected).max())


def test_Ad_dot_matches_eq_1_18(rng):
    R, p = random_rotation(rng), rng.normal(size=3)
    w, v = rng.normal(size=3), rng.normal(size=3)
    S = lambda a: np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    top = np.hstack([R @ S(w), np.zeros((3, 3))])
    bottom = np.hstack([R @ S(v) + S(p) @ R @ S(w), R @ S(w)])
    np.testing.assert_allclose(
        Ad_dot(frame(R, p), np.r_[w, v]), np.vstack([top, bottom]), atol=1e-14
    )


# ----------------------------------------------------------------------------- material Jacobian


def test_material_jacobian_sueda_example():
    # Sueda §1.4 example: identity frame, point (1, 0, 0)
    G = material_jacobian([1.0, 0.0, 0.0])
    expected = np.array([[0, 0, 0, 1, 0, 0], [0, 0, 1, 0, 1, 0], [0, -1, 0, 0, 0, 1]], dtype=float)
    np.testing.assert_array_equal(G, expected)
    np.testing.assert_array_equal(G @ [0, 0, 0, 1, 0, 0], [1, 0, 0])
    np.testing.assert_array_equal(G @ [0, 0, 1, 0, 0, 0], [0, 1, 0])


def test_material_jacobian_by_finite_differences(rng):
    # world velocity of a body point under T exp(tφ) is R Γ(x) φ (Sueda eq. 1.12)
    T, phi, x, h = random_frame(rng), rng.normal(size=6), rng.normal(size=3), 1e-6
    xh = np.append(x, 1.0)
    fd = ((T @ exp_se3(h * phi) @ xh) - (T @ exp_se3(-h * phi) @ xh))[:3] / (2 * h)
    np.testing.assert_allclose(fd, T[:3, :3] @ material_jacobian(x) @ phi, rtol=0, atol=1e-9)


# ----------------------------------------------------------------------------- batching


def test_batched_equals_looped(rng):
    n = 7
    T = random_frame(rng, n)
    phi = rng.normal(size=(n, 6))
    phi[0] = 0.0
    phi[1, :3] = (np.pi - 1e-7) * unit(rng)
    x = rng.normal(size=(n, 3))
    R, p = T[:, :3, :3], T[:, :3, 3]
    cases = [
        (frame, (R, p)),
        (frame_inverse, (T,)),
        (bracket, (phi,)),
        (unbracket, (bracket(phi),)),
        (exp_so3, (phi[:, :3],)),
        (log_so3, (R,)),
        (exp_se3, (phi,)),
        (log_se3, (T,)),
        (Ad, (T,)),
        (ad, (phi,)),
        (Ad_dot, (T, phi)),
        (material_jacobian, (x,)),
    ]
    for fn, args in cases:
        batched = fn(*args)
        looped = np.stack([fn(*(a[i] for a in args)) for i in range(n)])
        np.testing.assert_allclose(batched, looped, rtol=0, atol=1e-15, err_msg=fn.__name__)
    # two batch dimensions
    T2 = T[:6].reshape(2, 3, 4, 4)
    np.testing.assert_allclose(Ad(T2).reshape(6, 6, 6), Ad(T[:6]), rtol=0, atol=0)


# ----------------------------------------------------------------------------- errors


def test_errors(rng):
    R = random_rotation(rng)
    T = frame(R, [1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="R is not orthonormal"):
        frame(2 * R, [0, 0, 0])
    with pytest.raises(ValueError, match="R is a reflection"):
        frame(-R, [0, 0, 0])
    with pytest.raises(ValueError, match=r"p must have shape \(\.\.\., 3\)"):
        frame(R, [0, 0])
    bad_row = T.copy()
    bad_row[3, 0] = 0.5
    for fn in (frame_inverse, log_se3, Ad):
        with pytest.raises(ValueError, match="last row must be"):
            fn(bad_row)
    bad_rot = T.copy()
    bad_rot[0, 0] += 1e-3
    with pytest.raises(ValueError, match="rotation block of T is not orthonormal"):
        Ad(bad_rot)
    with pytest.raises(ValueError, match="rotation block of T is not orthonormal"):
        Ad_dot(bad_rot, np.zeros(6))
    with pytest.raises(ValueError, match=r"T must have shape \(\.\.\., 4, 4\)"):
        Ad(np.eye(3))
    with pytest.raises(ValueError, match="non-finite"):
        exp_se3([0, 0, np.nan, 0, 0, 0])
    with pytest.raises(ValueError, match=r"phi must have shape"):
        bracket(np.zeros(3))
    with pytest.raises(ValueError, match=r"M must have shape"):
        unbracket(np.zeros((3, 3)))
    with pytest.raises(ValueError, match=r"w must have shape"):
        exp_so3(np.zeros(4))
    with pytest.raises(ValueError, match="R is not orthonormal"):
        log_so3(np.ones((3, 3)))
    with pytest.raises(ValueError, match=r"phi must have shape"):
        ad(np.zeros(5))
    with pytest.raises(ValueError, match=r"x must have shape"):
        material_jacobian(np.zeros(4))
