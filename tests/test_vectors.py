"""Tests of spatial.vectors: Featherstone ch. 2 (Tables 2.1–2.3, eqs. 2.21–2.34) and App. A.

Expected values are written by hand from the book's formulas, computed from world poses of the
frames (independently of the Plücker machinery), or obtained by finite differences of motions
built with scipy's matrix exponential.
"""

import numpy as np
import pytest
from scipy.linalg import expm, logm

import spatial as sp

TOL = 1e-12
N = 20  # batch size of random tests


def close(a, b, tol=TOL):
    """Relative closeness with a floor of 1 on the scale."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert a.shape == b.shape, (a.shape, b.shape)
    err = np.abs(a - b).max(initial=0.0)
    scale = max(1.0, np.abs(b).max(initial=0.0))
    assert err <= tol * scale, f"max error {err:.3e} > {tol:g} * {scale:.3g}"


# ------------------------------------------------------------------------ independent helpers


def random_rotation(rng, shape=()):
    """Random proper rotation matrices from QR, independent of the package."""
    Q, R = np.linalg.qr(rng.standard_normal(shape + (3, 3)))
    Q = Q * np.sign(np.diagonal(R, axis1=-2, axis2=-1))[..., None, :]
    Q[..., :, 0] *= np.linalg.det(Q)[..., None]
    return Q


def cross_matrix(a):
    """Eq. 2.23 written out by hand for one vector."""
    x, y, z = a
    return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])


def plucker_by_hand(E, r):
    """Eq. 2.24 for one (E, r): [[E, 0], [-E r×, E]]."""
    return np.block([[E, np.zeros((3, 3))], [-E @ cross_matrix(r), E]])


def random_transforms(rng, shape=()):
    E = random_rotation(rng, shape)
    r = rng.standard_normal(shape + (3,))
    return E, r, sp.plux(E, r)


def twist_matrix(v):
    """4x4 matrix [[ω×, v_O], [0, 0]] of a spatial velocity (velocity field x ↦ ω×x + v_O)."""
    T = np.zeros((4, 4))
    T[:3, :3] = cross_matrix(v[:3])
    T[:3, 3] = v[3:]
    return T


def frame_motion(v, a=None):
    """Pose G(t) (body → fixed A point coordinates) of a body with velocity v, acceleration a.

    ``G(t) = expm(t v̂) expm(t²/2 â)`` starts at the identity, and its spatial velocity
    ``Ġ G⁻¹`` at t = 0 is ``v̂`` with derivative ``â``.
    """
    A = np.zeros((4, 4)) if a is None else twist_matrix(a)
    return lambda t: expm(t * twist_matrix(v)) @ expm(0.5 * t**2 * A)


def plucker_from_poses(RA, pA, RB, pB):
    """X_BA from world poses (R: columns are the frame's axes in world; p: its origin)."""
    return plucker_by_hand(RB.T @ RA, RA.T @ (pB - pA))


# ----------------------------------------------------------------- Table 2.1: 3D cross operator


def test_skew_matches_eq_2_23():
    close(sp.skew([1.0, 2.0, 3.0]), [[0, -3, 2], [3, 0, -1], [-2, 1, 0]])


def test_skew_is_the_cross_product_and_unskew_inverts_it(rng):
    a, b = rng.standard_normal((2, N, 3))
    close(sp.skew(a) @ b[..., None], np.cross(a, b)[..., None])
    close(sp.unskew(sp.skew(a)), a)
    # only the skew-symmetric part counts
    S = rng.standard_normal((3, 3))
    close(sp.unskew(S + S.T + sp.skew(a[0])), a[0])


class TestTable21:
    """Every line of Featherstone Table 2.1, on random vectors (batched)."""

    @pytest.fixture
    def vecs(self, rng):
        a, b = rng.standard_normal((2, N, 3))
        return a, b, rng.standard_normal(), random_rotation(rng, (N,))

    def test_antisymmetric(self, vecs):
        a = vecs[0]
        close(sp.skew(a), -np.swapaxes(sp.skew(a), -1, -2))

    def test_linear(self, vecs):
        a, b, lam, _ = vecs
        close(sp.skew(lam * a), lam * sp.skew(a))
        close(sp.skew(a + b), sp.skew(a) + sp.skew(b))

    def test_rotation(self, vecs):
        a, _, _, E = vecs
        Ea = (E @ a[..., None])[..., 0]
        close(sp.skew(Ea), E @ sp.skew(a) @ np.linalg.inv(E))

    def test_anticommutative(self, vecs):
        a, b, _, _ = vecs
        close(sp.skew(a) @ b[..., None], -sp.skew(b) @ a[..., None])

    def test_transpose(self, vecs):
        a, b, _, _ = vecs
        # (a × b)ᵀ = aᵀ b×
        lhs = (sp.skew(a) @ b[..., None])[..., 0]
        close(lhs, (a[..., None, :] @ sp.skew(b))[..., 0, :])

    def test_cross_of_cross(self, vecs):
        a, b, _, _ = vecs
        A, B = sp.skew(a), sp.skew(b)
        ab = np.cross(a, b)
        close(sp.skew(ab), A @ B - B @ A)
        outer = lambda x, y: x[..., :, None] * y[..., None, :]
        close(sp.skew(ab), outer(b, a) - outer(a, b))

    def test_double_cross(self, vecs):
        a, b, _, _ = vecs
        outer = b[..., :, None] * a[..., None, :]
        dot = np.einsum("...i,...i", a, b)[..., None, None]
        close(sp.skew(a) @ sp.skew(b), outer - dot * np.eye(3))


# ------------------------------------------------------------ Table 2.2: rotations, transforms


def test_coordinate_rotations_match_table_2_2():
    t = 0.7
    c, s = np.cos(t), np.sin(t)
    close(sp.rx(t), [[1, 0, 0], [0, c, s], [0, -s, c]])
    close(sp.ry(t), [[c, 0, -s], [0, 1, 0], [s, 0, c]])
    close(sp.rz(t), [[c, s, 0], [-s, c, 0], [0, 0, 1]])


def test_coordinate_rotation_is_transpose_of_active_rotation(rng):
    t = rng.uniform(-3, 3, N)
    c, s, o, i = np.cos(t), np.sin(t), np.zeros(N), np.ones(N)
    active = {
        sp.rx: [[i, o, o], [o, c, -s], [o, s, c]],
        sp.ry: [[c, o, s], [o, i, o], [-s, o, c]],
        sp.rz: [[c, -s, o], [s, c, o], [o, o, i]],
    }
    for fn, R in active.items():
        R = np.moveaxis(np.array(R), -1, 0)
        close(fn(t), np.swapaxes(R, -1, -2))
        # B's axes, expressed in A (the columns of the active rotation), become B's unit vectors
        close(fn(t) @ R, np.broadcast_to(np.eye(3), R.shape))


def test_rot_xlt_and_axis_transforms_have_the_book_blocks():
    E = sp.rz(0.4)
    Z = np.zeros((3, 3))
    close(sp.rot(E), np.block([[E, Z], [Z, E]]))
    r = np.array([0.5, -1.0, 2.0])
    close(sp.xlt(r), np.block([[np.eye(3), Z], [-cross_matrix(r), np.eye(3)]]))  # eq. 2.21
    for rotf, ef in ((sp.rotx, sp.rx), (sp.roty, sp.ry), (sp.rotz, sp.rz)):
        close(rotf(0.4), np.block([[ef(0.4), Z], [Z, ef(0.4)]]))


def test_plux_is_eq_2_24_and_rot_times_xlt(rng):
    E, r, X = random_transforms(rng, (N,))
    close(X, sp.rot(E) @ sp.xlt(r))
    for k in range(N):
        close(X[k], plucker_by_hand(E[k], r[k]))


def test_plux_maps_motion_and_force_coordinates_between_frames(rng):
    """Coordinates in A and in B computed from world data, independently of plux (eq. 2.24)."""
    RA, RB = random_rotation(rng, (2,))
    pA, pB = rng.standard_normal((2, 3))
    X_BA = sp.plux(RB.T @ RA, RA.T @ (pB - pA))
    w, v0 = rng.standard_normal((2, 3))  # world velocity field V(q) = v0 + w × q
    f, q = rng.standard_normal((2, 3))  # a world force f acting along a line through q

    def motion_in(R, p):
        return np.concatenate([R.T @ w, R.T @ (v0 + np.cross(w, p))])

    def force_in(R, p):
        return np.concatenate([R.T @ np.cross(q - p, f), R.T @ f])

    close(X_BA @ motion_in(RA, pA), motion_in(RB, pB))
    close(sp.apply_force(X_BA, force_in(RA, pA)), force_in(RB, pB))
    close(sp.inv_motion(X_BA, motion_in(RB, pB)), motion_in(RA, pA))
    close(sp.inv_force(X_BA, force_in(RB, pB)), force_in(RA, pA))


def test_composition_matches_world_poses_and_table_a4(rng):
    R = random_rotation(rng, (3,))
    p = rng.standard_normal((3, 3))
    X_BA = plucker_from_poses(R[0], p[0], R[1], p[1])
    X_CB = plucker_from_poses(R[1], p[1], R[2], p[2])
    X_CA = plucker_from_poses(R[0], p[0], R[2], p[2])
    close(X_CB @ X_BA, X_CA)
    # Table A.4: X1 X2 = plx(E1 E2, r2 + E2ᵀ r1)
    (E1, r1), (E2, r2) = sp.unplux(X_CB), sp.unplux(X_BA)
    close(sp.plux(E1 @ E2, r2 + E2.T @ r1), X_CA)


# ------------------------------------------------------- inverses and duals (eqs. 2.25–2.27)


def test_inverse_and_dual_transforms_against_linalg_inv(rng):
    E, r, X = random_transforms(rng, (N,))
    Xi = np.linalg.inv(X)
    v, f = rng.standard_normal((2, N, 6))
    close(sp.xinv(X), Xi)
    close(sp.xinv(X), sp.plux(np.swapaxes(E, -1, -2), -(E @ r[..., None])[..., 0]))  # Table A.4
    close(sp.xstar(X), np.swapaxes(Xi, -1, -2))
    close(sp.inv_motion(X, v), (Xi @ v[..., None])[..., 0])
    close(sp.apply_force(X, f), (np.swapaxes(Xi, -1, -2) @ f[..., None])[..., 0])
    close(sp.inv_force(X, f), (np.swapaxes(X, -1, -2) @ f[..., None])[..., 0])
    # eq. 2.25 written out: X* = [[E, -E r×], [0, E]]
    close(sp.xstar(X[0]), np.block([[E[0], -E[0] @ cross_matrix(r[0])], [np.zeros((3, 3)), E[0]]]))


def test_power_is_invariant(rng):
    _, _, X = random_transforms(rng, (N,))
    v, f = rng.standard_normal((2, N, 6))
    Xv = (X @ v[..., None])[..., 0]
    close(np.einsum("...i,...i", Xv, sp.apply_force(X, f)), np.einsum("...i,...i", v, f))


# --------------------------------------------------------------------- homogeneous transforms


def test_pluho_matches_eq_2_28_and_round_trips(rng):
    E, r, X = random_transforms(rng, (N,))
    T = sp.pluho(X)
    close(T[..., :3, :3], E)
    close(T[..., :3, 3], -(E @ r[..., None])[..., 0])
    close(T[..., 3, :], np.broadcast_to([0.0, 0.0, 0.0, 1.0], (N, 4)))
    close(sp.pluho(T), X)
    close(sp.pluho(sp.pluho(T)), T)
    # T acting on homogeneous points agrees with transform_point, and composition is preserved
    pts = rng.standard_normal((N, 3))
    ph = np.concatenate([pts, np.ones((N, 1))], -1)
    close((T @ ph[..., None])[..., :3, 0], sp.transform_point(X, pts))
    close(sp.pluho(X[0] @ X[1]), T[0] @ T[1])


def test_transform_point_is_e_times_p_minus_r():
    X = sp.plux(sp.rz(np.pi / 2), [1.0, 0.0, 0.0])
    # B at (1, 0, 0), turned 90° about z: A's point (1, 1, 0) is one unit along B's x axis
    close(sp.transform_point(X, [1.0, 1.0, 0.0]), [1.0, 0.0, 0.0])


def test_unplux_round_trip(rng):
    E, r, X = random_transforms(rng, (N,))
    E2, r2 = sp.unplux(X)
    close(E2, E)
    close(r2, r)
    close(sp.plux(*sp.unplux(X[0])), X[0])
    looped = [sp.unplux(X[k]) for k in range(N)]
    close(np.stack([e for e, _ in looped]), E2)
    close(np.stack([t for _, t in looped]), r2)


# ---------------------------------------------------------------------------------- inertia


def random_inertia(rng, shape=()):
    m = rng.uniform(0.5, 2.0, shape)
    c = rng.standard_normal(shape + (3,))
    L = rng.standard_normal(shape + (3, 3))
    second_moment = L @ np.swapaxes(L, -1, -2) + np.eye(3)  # ∫ x xᵀ dm of some body
    trace = np.trace(second_moment, axis1=-2, axis2=-1)[..., None, None]
    Ic = trace * np.eye(3) - second_moment  # ∫ (|x|² 1 - x xᵀ) dm: a physical inertia
    return m, c, Ic


def test_transform_inertia_against_6x6_formulas(rng):
    _, _, X = random_transforms(rng, (N,))
    I = sp.mcI(*random_inertia(rng, (N,)))
    Xi = np.linalg.inv(X)
    IB = sp.transform_inertia(X, I)
    close(IB, np.swapaxes(Xi, -1, -2) @ I @ Xi)  # eq. 2.66
    close(sp.inv_transform_inertia(X, I), np.swapaxes(X, -1, -2) @ I @ X)
    close(sp.inv_transform_inertia(X, IB), I)
    close(sp.transform_inertia(X, sp.inv_transform_inertia(X, I)), I)


def test_transform_inertia_matches_table_a4_compact_formula(rng):
    E, r, X = random_transforms(rng)
    m, c, Ic = random_inertia(rng)
    I = sp.mcI(m, c, Ic)
    Io, h = I[:3, :3], m * c  # rbi(m, h, I): I = [[Io, h×], [-h×, m 1]]
    y = h - m * r
    Z = Io + cross_matrix(r) @ cross_matrix(h) + cross_matrix(y) @ cross_matrix(r)
    hB = E @ y
    expected = np.block([[E @ Z @ E.T, cross_matrix(hB)], [-cross_matrix(hB), m * np.eye(3)]])
    close(sp.transform_inertia(X, I), expected)


def test_transform_mcI_known_values(rng):
    m, c, Ic = random_inertia(rng)
    r = rng.standard_normal(3)
    close(sp.transform_inertia(sp.xlt(r), sp.mcI(m, c, Ic)), sp.mcI(m, c - r, Ic))
    E = random_rotation(rng)
    close(sp.transform_inertia(sp.rot(E), sp.mcI(m, c, Ic)), sp.mcI(m, E @ c, E @ Ic @ E.T))


def test_kinetic_energy_and_momentum_are_frame_independent(rng):
    _, _, X = random_transforms(rng, (N,))
    I = sp.mcI(*random_inertia(rng, (N,)))
    v = rng.standard_normal((N, 6))
    IB = sp.transform_inertia(X, I)
    vB = (X @ v[..., None])[..., 0]
    energy = lambda I, v: 0.5 * np.einsum("...i,...ij,...j", v, I, v)
    close(energy(IB, vB), energy(I, v))
    close((IB @ vB[..., None])[..., 0], sp.apply_force(X, (I @ v[..., None])[..., 0]))


# ---------------------------------------------------------- Table 2.3: spatial cross operators


def test_crm_crf_match_eqs_2_31_to_2_34(rng):
    v, m, f = rng.standard_normal((3, N, 6))
    for k in range(3):
        W, V = cross_matrix(v[k, :3]), cross_matrix(v[k, 3:])
        Z = np.zeros((3, 3))
        close(sp.crm(v[k]), np.block([[W, Z], [V, W]]))
        close(sp.crf(v[k]), np.block([[W, V], [Z, W]]))
    close(sp.cross_motion(v, m), (sp.crm(v) @ m[..., None])[..., 0])
    close(sp.cross_force(v, f), (sp.crf(v) @ f[..., None])[..., 0])
    # and the 3D-vector forms of eqs. 2.33-2.34
    w, vo, mw, mo, n, g = v[..., :3], v[..., 3:], m[..., :3], m[..., 3:], f[..., :3], f[..., 3:]
    motion = np.concatenate([np.cross(w, mw), np.cross(w, mo) + np.cross(vo, mw)], -1)
    force = np.concatenate([np.cross(w, n) + np.cross(vo, g), np.cross(w, g)], -1)
    close(sp.cross_motion(v, m), motion)
    close(sp.cross_force(v, f), force)


class TestTable23:
    """Every line of Featherstone Table 2.3, on random vectors and transforms (batched)."""

    @pytest.fixture
    def data(self, rng):
        u, v, f = rng.standard_normal((3, N, 6))
        return u, v, f, rng.standard_normal(), random_transforms(rng, (N,))[2]

    def test_dual_operator(self, data):
        v = data[1]
        close(sp.crf(v), -np.swapaxes(sp.crm(v), -1, -2))

    def test_linear(self, data):
        u, v, _, lam, _ = data
        for op in (sp.crm, sp.crf):
            close(op(lam * v), lam * op(v))
            close(op(u + v), op(u) + op(v))

    def test_transform(self, data):
        _, v, _, _, X = data
        Xv = (X @ v[..., None])[..., 0]
        Xi = np.linalg.inv(X)
        close(sp.crm(Xv), X @ sp.crm(v) @ Xi)
        Xs = sp.xstar(X)
        close(sp.crf(Xv), Xs @ sp.crf(v) @ np.linalg.inv(Xs))

    def test_anticommutative(self, data):
        u, v, _, _, _ = data
        close(sp.cross_motion(u, v), -sp.cross_motion(v, u))

    def test_duality_of_cross_products(self, data):
        u, v, f, _, _ = data
        dot = lambda a, b: np.einsum("...i,...i", a, b)
        close(dot(sp.cross_motion(u, v), f), -dot(v, sp.cross_force(u, f)))
        close(dot(sp.cross_force(u, f), v), -dot(f, sp.cross_motion(u, v)))

    def test_cross_of_cross(self, data):
        u, v, _, _, _ = data
        uv = sp.cross_motion(u, v)
        close(sp.crm(uv), sp.crm(u) @ sp.crm(v) - sp.crm(v) @ sp.crm(u))
        close(sp.crf(uv), sp.crf(u) @ sp.crf(v) - sp.crf(v) @ sp.crf(u))


def test_cross_products_are_derivatives_of_moving_vectors(rng):
    """Eqs. 2.29–2.30: a vector fixed in a body moving with velocity v changes at v× (v×*)."""
    v, m, f = rng.standard_normal((3, 6))
    G = frame_motion(v)
    h = 1e-5
    X_AB = lambda t: sp.pluho(G(t))  # G maps body to A point coordinates, so this is X_A,body
    dm = (X_AB(h) @ m - X_AB(-h) @ m) / (2 * h)
    df = (sp.xstar(X_AB(h)) @ f - sp.xstar(X_AB(-h)) @ f) / (2 * h)
    close(dm, sp.crm(v) @ m, 1e-8)
    close(df, sp.crf(v) @ f, 1e-8)


# --------------------------------------------------------------------------------- points


def test_point_velocity_and_acceleration_by_finite_differences(rng):
    v, a = rng.standard_normal((2, 6))
    p = rng.standard_normal(3)
    G = frame_motion(v, a)
    h = 1e-4
    point = lambda t: (G(t) @ np.append(p, 1.0))[:3]
    vel = (point(h) - point(-h)) / (2 * h)
    acc = (point(h) - 2 * point(0.0) + point(-h)) / h**2
    close(sp.point_velocity(v, p), vel, 1e-7)
    close(sp.point_acceleration(v, a, p), acc, 1e-6)


def test_point_force_commutes_with_transforms(rng):
    E, r, X = random_transforms(rng, (N,))
    f, p = rng.standard_normal((2, N, 3))
    lhs = sp.apply_force(X, sp.point_force(f, p))
    close(lhs, sp.point_force((E @ f[..., None])[..., 0], sp.transform_point(X, p)))


# ------------------------------------------------------------------------------------- XtoV


def test_xtov_is_invariant_and_exact_for_translations(rng):
    _, _, X = random_transforms(rng, (N,))
    v = sp.XtoV(X)
    close((X @ v[..., None])[..., 0], v)
    close(sp.inv_motion(X, v), v)
    r = rng.standard_normal((N, 3))
    close(sp.XtoV(sp.xlt(r)), np.concatenate([np.zeros((N, 3)), r], -1))
    t = 0.3
    close(sp.XtoV(sp.rotz(t)), [0, 0, np.sin(t), 0, 0, 0])


def test_xtov_approximates_the_displacement_twist_to_third_order(rng):
    """Frame A moving with u for unit time lands on B; XtoV(X_BA) − u = O(|u|³)."""
    u0 = rng.standard_normal(6)
    errors = []
    for s in (0.1, 0.05, 0.025):
        u = s * u0
        G = expm(twist_matrix(u))  # pose of B in A: maps B point coordinates to A coordinates
        X_BA = sp.pluho(np.linalg.inv(G))
        close(np.real(logm(G))[:3, 3], u[3:], 1e-9)  # the twist really is u
        errors.append(np.abs(sp.XtoV(X_BA) - u).max())
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    assert np.all((ratios > 7.5) & (ratios < 8.5)), ratios


# ------------------------------------------------------------------------- ArtiSynth layout


def test_swap_linear_angular_is_an_involution_and_gives_artisynth_layout(rng):
    x = rng.standard_normal((N, 6))
    M = rng.standard_normal((N, 6, 6))
    close(sp.swap_linear_angular(sp.swap_linear_angular(x)), x)
    close(sp.swap_linear_angular(sp.swap_linear_angular(M)), M)
    close(sp.swap_linear_angular([1, 2, 3, 4, 5, 6]), [4, 5, 6, 1, 2, 3])
    m, c, J = random_inertia(rng)
    C = cross_matrix(c)
    artisynth = np.block([[m * np.eye(3), -m * C], [m * C, J - m * C @ C]])  # ArtiSynth §0.1
    close(sp.swap_linear_angular(sp.mcI(m, c, J)), artisynth)
    # a matrix-vector product keeps its meaning in the other layout
    v = x[0]
    close(
        sp.swap_linear_angular(M[0] @ v), sp.swap_linear_angular(M[0]) @ sp.swap_linear_angular(v)
    )


# ------------------------------------------------------------------------ batched == looped


def _batched_cases(rng):
    B = 4
    E, r, X = random_transforms(rng, (B,))
    v, w, f = rng.standard_normal((3, B, 6))
    p, g = rng.standard_normal((2, B, 3))
    t = rng.uniform(-3, 3, B)
    I = sp.mcI(*random_inertia(rng, (B,)))
    T = sp.pluho(X)
    return [
        (sp.skew, (p,)),
        (sp.unskew, (sp.skew(p),)),
        (sp.rx, (t,)),
        (sp.ry, (t,)),
        (sp.rz, (t,)),
        (sp.rot, (E,)),
        (sp.xlt, (r,)),
        (sp.rotx, (t,)),
        (sp.roty, (t,)),
        (sp.rotz, (t,)),
        (sp.plux, (E, r)),
        (sp.pluho, (X,)),
        (sp.pluho, (T,)),
        (sp.xinv, (X,)),
        (sp.xstar, (X,)),
        (sp.inv_motion, (X, v)),
        (sp.apply_force, (X, f)),
        (sp.inv_force, (X, f)),
        (sp.transform_inertia, (X, I)),
        (sp.inv_transform_inertia, (X, I)),
        (sp.crm, (v,)),
        (sp.crf, (v,)),
        (sp.cross_motion, (v, w)),
        (sp.cross_force, (v, f)),
        (sp.XtoV, (X,)),
        (sp.transform_point, (X, p)),
        (sp.point_velocity, (v, p)),
        (sp.point_acceleration, (v, w, p)),
        (sp.point_force, (g, p)),
        (sp.swap_linear_angular, (v,)),
        (sp.swap_linear_angular, (I,)),
    ]


def test_batched_equals_looped(rng):
    for fn, args in _batched_cases(rng):
        batched = fn(*args)
        looped = np.stack([fn(*(a[k] for a in args)) for k in range(len(args[0]))])
        close(batched, looped)


def test_broadcasting_one_transform_over_many_vectors(rng):
    _, _, X = random_transforms(rng)
    v, f = rng.standard_normal((2, N, 6))
    close(sp.inv_motion(X, v), (np.linalg.inv(X) @ v.T).T)
    close(sp.apply_force(X, f), (sp.xstar(X) @ f.T).T)
    close(sp.inv_force(X, f), (X.T @ f.T).T)


# -------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "fn, args, match",
    [
        (sp.skew, (np.zeros(4),), r"v must have shape \(\.\.\., 3\)"),
        (sp.skew, ([1.0, np.nan, 0.0],), "non-finite"),
        (sp.unskew, (np.zeros((3, 4)),), "S must have shape"),
        (sp.rx, (np.inf,), "non-finite"),
        (sp.rot, (np.diag([1.0, 2.0, 1.0]),), "not orthonormal"),
        (sp.rot, (np.diag([1.0, 1.0, -1.0]),), "reflection"),
        (sp.xlt, ([1.0, 2.0],), "shape"),
        (sp.plux, (np.eye(3) * 2, np.zeros(3)), "not orthonormal"),
        (sp.plux, (-np.eye(3), np.zeros(3)), "reflection"),
        (sp.plux, (np.eye(3), [0.0, np.nan, 0.0]), "non-finite"),
        (sp.xinv, (np.eye(5),), "X must have shape"),
        (sp.xstar, (np.eye(5),), "X must have shape"),
        (sp.inv_motion, (np.eye(6), np.zeros(5)), "v must have shape"),
        (sp.apply_force, (np.eye(6), np.zeros(3)), "f must have shape"),
        (sp.inv_force, (np.eye(5), np.zeros(6)), "X must have shape"),
        (sp.transform_inertia, (np.eye(6), np.eye(5)), "I must have shape"),
        (sp.inv_transform_inertia, (np.full((6, 6), np.nan), np.eye(6)), "non-finite"),
        (sp.crm, (np.zeros(3),), "v must have shape"),
        (sp.crf, (np.zeros(7),), "v must have shape"),
        (sp.cross_motion, (np.zeros(6), np.zeros(3)), "m must have shape"),
        (sp.cross_force, (np.zeros(6), np.zeros(3)), "f must have shape"),
        (sp.XtoV, (np.eye(4),), "X must have shape"),
        (sp.transform_point, (np.eye(6), np.zeros(2)), "p must have shape"),
        (sp.point_velocity, (np.zeros(6), np.zeros(6)), "p must have shape"),
        (sp.point_acceleration, (np.zeros(6), np.zeros(5), np.zeros(3)), "a must have shape"),
        (sp.point_force, (np.zeros(3), np.zeros(2)), "p must have shape"),
        (sp.pluho, (np.eye(5),), r"pluho expects shape"),
        (sp.pluho, (np.ones((4, 4)),), "last row"),
        (sp.pluho, (np.diag([1.0, 1.0, -1.0, 1.0]),), "rotation block of T is a reflection"),
        (sp.pluho, (np.diag([2.0, 1.0, 1.0, 1.0]),), "rotation block of T is not orthonormal"),
        (sp.pluho, (np.full((6, 6), np.nan),), "X contains non-finite"),
        (sp.swap_linear_angular, (np.zeros(5),), r"x must have shape \(\.\.\., 6\) or"),
        (sp.swap_linear_angular, (np.zeros((6, 5)),), r"x must have shape \(\.\.\., 6\) or"),
        (sp.swap_linear_angular, ([0.0, 1.0, np.inf, 0.0, 0.0, 0.0],), "x contains non-finite"),
        (sp.swap_linear_angular, (np.full((6, 6), np.nan),), "x contains non-finite"),
    ],
)
def test_bad_input_raises(fn, args, match):
    with pytest.raises(ValueError, match=match):
        fn(*args)


def test_unplux_rejects_matrices_that_are_not_plucker_transforms(rng):
    X = sp.plux(sp.rz(0.3), [1.0, 2.0, 3.0])
    bad_top_right = X.copy()
    bad_top_right[0, 4] = 0.1
    bad_diagonal = X.copy()
    bad_diagonal[4, 4] += 0.1
    bad_bottom_left = X.copy()
    bad_bottom_left[3:, :3] += 0.1 * np.eye(3)  # Eᵀ·block no longer skew: not of the form -E r×
    for Y in (bad_top_right, bad_diagonal, bad_bottom_left):
        with pytest.raises(ValueError, match="not a Plücker transform"):
            sp.unplux(Y)
    with pytest.raises(ValueError, match="rotation block of X"):
        sp.unplux(np.diag([1.0, 1.0, -1.0, 1.0, 1.0, -1.0]))
    with pytest.raises(ValueError, match="not a Plücker transform"):
        sp.transform_point(bad_bottom_left, np.zeros(3))


# every function that assumes its argument is a Plücker transform, called with a good one
TRANSFORM_FUNCTIONS = {
    "xinv": lambda X: sp.xinv(X),
    "xstar": lambda X: sp.xstar(X),
    "unplux": lambda X: sp.unplux(X),
    "pluho": lambda X: sp.pluho(X),
    "XtoV": lambda X: sp.XtoV(X),
    "inv_motion": lambda X: sp.inv_motion(X, np.ones(6)),
    "apply_force": lambda X: sp.apply_force(X, np.ones(6)),
    "inv_force": lambda X: sp.inv_force(X, np.ones(6)),
    "transform_inertia": lambda X: sp.transform_inertia(X, np.eye(6)),
    "inv_transform_inertia": lambda X: sp.inv_transform_inertia(X, np.eye(6)),
    "transform_point": lambda X: sp.transform_point(X, np.ones(3)),
}


@pytest.mark.parametrize("fn", sorted(TRANSFORM_FUNCTIONS))
def test_a_matrix_that_is_not_a_plucker_transform_is_rejected(fn):
    # 2·1 has the block pattern [[E, 0], [0, E]] but E = 2·1 is not a rotation: before the
    # check, xinv returned 2·1 (not the inverse) and apply_force a force twice too large
    with pytest.raises(ValueError, match=r"X is not a Plücker transform: the rotation block of X"):
        TRANSFORM_FUNCTIONS[fn](2.0 * np.eye(6))
    X = sp.plux(sp.rz(0.3), [1.0, 2.0, 3.0])
    TRANSFORM_FUNCTIONS[fn](X)  # a real one passes
    TRANSFORM_FUNCTIONS[fn](np.stack([X, np.eye(6)]))  # batches too


@pytest.mark.parametrize(
    "block, value, property_",
    [
        (
            (slice(0, 3), slice(3, 6)),
            0.1,
            r"upper-right 3x3 block must be zero \(max \|entry\| 0.1\)",
        ),
        ((slice(3, 6), slice(3, 6)), 0.1, r"two diagonal 3x3 blocks must be equal"),
        ((slice(3, 6), slice(0, 3)), 0.1, r"lower-left block must be -E r× for some r"),
    ],
)
def test_the_message_names_the_property_that_fails(block, value, property_):
    X = sp.plux(sp.rz(0.3), [1.0, 2.0, 3.0])
    X[block] += value * np.eye(3)
    for fn in (sp.xinv, lambda X: sp.apply_force(X, np.ones(6))):
        with pytest.raises(ValueError, match=f"X is not a Plücker transform: its {property_}"):
            fn(X)
    reflection = np.diag([1.0, 1.0, -1.0, 1.0, 1.0, -1.0])
    with pytest.raises(ValueError, match="the rotation block of X is a reflection"):
        sp.inv_motion(reflection, np.ones(6))
    sheared = sp.rot(sp.rz(0.3))
    sheared[:3, :3] = sheared[3:, 3:] = sp.rz(0.3) + 1e-6  # no longer orthonormal
    with pytest.raises(ValueError, match="the rotation block of X is not orthonormal"):
        sp.transform_inertia(sheared, np.eye(6))


def test_the_plucker_check_tolerance_is_relative(rng):
    # far-away frames have large lower-left blocks; round-off in them is not an error, and a
    # relative error above 1e-8 is
    for distance in (1e-3, 1.0, 1e3, 1e6):
        X = sp.plux(random_rotation(rng), distance * rng.standard_normal(3))
        noisy = X * (1.0 + 1e-13 * rng.standard_normal((6, 6)))
        noisy[:3, 3:] = 0.0
        noisy[3:, 3:] = noisy[:3, :3]
        sp.xinv(noisy)
        bad = X.copy()
        bad[3:, :3] += 1e-6 * np.abs(X).max() * np.eye(3)
        with pytest.raises(ValueError, match="lower-left block"):
            sp.xinv(bad)


def test_batched_check_reports_a_bad_member():
    X = np.stack([sp.plux(sp.rz(0.1 * k), [k, 0.0, 0.0]) for k in range(4)])
    X[2, :3, :3] *= 1.5
    with pytest.raises(ValueError, match="not a Plücker transform"):
        sp.xinv(X)


def test_kernels_agree_with_the_public_functions(rng):
    from spatial import _batched as kernel

    X = sp.plux(random_rotation(rng, (N,)), rng.standard_normal((N, 3)))
    v, I = rng.standard_normal((N, 6)), sp.mcI(*random_inertia(rng, (N,)))
    np.testing.assert_array_equal(kernel.xinv(X), sp.xinv(X))
    np.testing.assert_array_equal(kernel.inv_motion(X, v), sp.inv_motion(X, v))
    np.testing.assert_array_equal(kernel.apply_force(X, v), sp.apply_force(X, v))
    np.testing.assert_array_equal(kernel.transform_inertia(X, I), sp.transform_inertia(X, I))
    E, r = sp.unplux(X)
    np.testing.assert_array_equal(kernel.plux(E, r), sp.plux(E, r))
    np.testing.assert_array_equal(kernel.rot(E), sp.rot(E))


# every function of spatial.vectors that combines two (or three) batched arguments, with a batch
# of 2 in its first argument and a batch of 3 in the others
_X2 = np.stack([np.eye(6)] * 2)
_E2 = np.stack([np.eye(3)] * 2)
MISMATCHED = [
    (sp.plux, (_E2, np.zeros((3, 3))), r"E \(2,\), r \(3,\)"),
    (sp.inv_motion, (_X2, np.zeros((3, 6))), r"X \(2,\), v \(3,\)"),
    (sp.apply_force, (_X2, np.zeros((3, 6))), r"X \(2,\), f \(3,\)"),
    (sp.inv_force, (_X2, np.zeros((3, 6))), r"X \(2,\), f \(3,\)"),
    (sp.transform_inertia, (_X2, np.stack([np.eye(6)] * 3)), r"X \(2,\), I \(3,\)"),
    (sp.inv_transform_inertia, (_X2, np.stack([np.eye(6)] * 3)), r"X \(2,\), I \(3,\)"),
    (sp.cross_motion, (np.zeros((2, 6)), np.zeros((3, 6))), r"v \(2,\), m \(3,\)"),
    (sp.cross_force, (np.zeros((2, 6)), np.zeros((3, 6))), r"v \(2,\), f \(3,\)"),
    (sp.transform_point, (_X2, np.zeros((3, 3))), r"X \(2,\), p \(3,\)"),
    (sp.point_velocity, (np.zeros((2, 6)), np.zeros((3, 3))), r"v \(2,\), p \(3,\)"),
    (sp.point_force, (np.zeros((2, 3)), np.zeros((3, 3))), r"f \(2,\), p \(3,\)"),
    (
        sp.point_acceleration,
        (np.zeros((2, 6)), np.zeros((2, 6)), np.zeros((3, 3))),
        r"v \(2,\), a \(2,\), p \(3,\)",
    ),
]


@pytest.mark.parametrize("fn, args, shapes", MISMATCHED, ids=[m[0].__name__ for m in MISMATCHED])
def test_batch_shapes_that_do_not_broadcast_are_named(fn, args, shapes):
    with pytest.raises(ValueError, match="the batch shapes do not broadcast: " + shapes):
        fn(*args)
    # the same arguments with broadcastable batches (2 against 1) work
    fn(*(a[:1] if k else a for k, a in enumerate(args)))


def test_broadcast_batch():
    from spatial._validate import broadcast_batch

    q, X = np.zeros((4, 1, 7)), np.zeros((3, 6, 6))
    assert broadcast_batch(q=(q, 1), X=(X, 2), f=(None, 1)) == (4, 3)
    assert broadcast_batch(X=(np.eye(6), 2)) == ()
    with pytest.raises(
        ValueError, match=r"^the batch shapes do not broadcast: q \(4, 2\), X \(3,\)$"
    ):
        broadcast_batch(q=(np.zeros((4, 2, 7)), 1), X=(X, 2))


# ------------------------------------------------------------- spatial dyadics (Table 2.5)


@pytest.mark.parametrize("kind", ["MF", "FM", "MM", "FF"])
def test_transform_dyadic_is_table_2_5(rng, kind):
    """ᴮL = T_to ᴬL T_from⁻¹, with T = X for motion and X⁻ᵀ for force (np.linalg.inv here)."""
    _, _, X = random_transforms(rng, (N,))
    L = rng.standard_normal((N, 6, 6))
    T = {"M": X, "F": np.swapaxes(np.linalg.inv(X), -1, -2)}
    close(sp.transform_dyadic(X, L, kind), T[kind[1]] @ L @ np.linalg.inv(T[kind[0]]))
    # a dyad a b· maps x to a (b·x): a lives in the space mapped to, b in the dual of the space
    # mapped from; both transform as the vectors they are (the "dyad form" column)
    a, b = rng.standard_normal((2, 6))
    dual = {"M": "F", "F": "M"}
    B = sp.transform_dyadic(X, np.outer(a, b), kind)
    close(B, np.einsum("ni,nj->nij", T[kind[1]] @ a, T[dual[kind[0]]] @ b))


def test_transform_dyadic_of_the_books_examples(rng):
    _, _, X = random_transforms(rng, (N,))
    I = sp.mcI(*random_inertia(rng, (N,)))
    v = rng.standard_normal((N, 6))
    Xv = np.einsum("nij,nj->ni", X, v)
    close(sp.transform_dyadic(X, I, "MF"), sp.transform_inertia(X, I))  # eq. 2.66
    # the inverse inertia is an F -> M dyadic: X Φ Xᵀ is the inverse of the transformed inertia
    Phi_B = sp.transform_dyadic(X, np.linalg.inv(I), "FM")
    close(Phi_B, np.linalg.inv(sp.transform_inertia(X, I)), tol=1e-9)
    close(sp.transform_dyadic(X, sp.crm(v), "MM"), sp.crm(Xv))  # (Xv)× = X v× X⁻¹
    close(sp.transform_dyadic(X, sp.crf(v), "FF"), sp.crf(Xv))  # (Xv)×* = X* v×* X*⁻¹


def test_transform_dyadic_keeps_what_its_type_keeps(rng):
    """Congruence keeps symmetry and definiteness; similarity keeps eigenvalues (Table 2.5)."""
    _, _, X = random_transforms(rng)
    I = sp.mcI(*random_inertia(rng))
    for kind in ("MF", "FM"):
        B = sp.transform_dyadic(X, I, kind)
        close(B, B.T)
        assert np.linalg.eigvalsh(B).min() > 0
        assert not np.allclose(np.linalg.eigvalsh(B), np.linalg.eigvalsh(I))
    for kind in ("MM", "FF"):
        B = sp.transform_dyadic(X, I, kind)
        close(np.sort(np.linalg.eigvals(B).real), np.linalg.eigvalsh(I), tol=1e-9)
        assert not np.allclose(B, B.T)


def test_transform_dyadic_rejects_bad_input():
    with pytest.raises(ValueError, match="kind must be one of"):
        sp.transform_dyadic(np.eye(6), np.eye(6), "M->F")
    with pytest.raises(ValueError, match=r"L must have shape \(\.\.\., 6, 6\)"):
        sp.transform_dyadic(np.eye(6), np.eye(5), "MF")
    with pytest.raises(ValueError, match="X"):
        sp.transform_dyadic(2 * np.eye(6), np.eye(6), "MM")
