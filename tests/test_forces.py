"""Tests for spatial.forces: generalized forces, stiffness K and damping D on rigid bodies.

Sueda §1.9 (eqs. 1.30–1.68); ArtiSynth §0.12–0.14, §0.22–0.23.  Every K is checked against
central differences with the frames moved on SE(3) through exp (body: T exp([δ]); world:
exp([δ]) T), every D against differences in the twists, in body and in world coordinates.
"""

import numpy as np
import pytest

from spatial import forces
from spatial.checks import check_jacobian, fd_jacobian
from spatial.forces import (
    BodyDamping,
    FrameSpring,
    GreenStrainSpring,
    LinearLaw,
    MultiPointSpring,
    MuscleLaw,
    PointForce,
    PointToPointSpring,
    active_force_length,
    assemble,
    axial_spring,
    force_velocity,
    passive_force_length,
    spring_damper,
)
from spatial.inertia import mcI
from spatial.maximal import coriolis_wrench, euler_step
from spatial.se3 import Ad, exp_se3, exp_so3, frame, frame_inverse
from spatial.vectors import skew

N_BODIES = 3


def scene(seed=7, batch=()):
    rng = np.random.default_rng(seed)
    T = exp_se3(rng.normal(scale=0.7, size=batch + (N_BODIES, 6)))
    phi = rng.normal(size=batch + (N_BODIES, 6))
    return T, phi


def world_points(T, phi, bodies, points):
    """World positions and velocities of body points, by hand: x = R r + p, ẋ = R (ω × r + v)."""
    x, xd = [], []
    for b, r in zip(bodies, points, strict=True):
        r = np.asarray(r, float)
        if b == 0:  # the world
            x.append(r)
            xd.append(np.zeros(3))
            continue
        R, p = T[b - 1, :3, :3], T[b - 1, :3, 3]  # body b is row b - 1
        x.append(R @ r + p)
        xd.append(R @ (np.cross(phi[b - 1, :3], r) + phi[b - 1, 3:]))
    return np.array(x), np.array(xd)


def tuned_muscle(T, phi, bodies, points, l_tilde=1.15, v_tilde=0.3, activation=0.7):
    """A muscle law whose optimal length and v_max put this path at (l̃, ±ṽ): both curves live."""
    x, xd = world_points(T, phi, bodies, points)
    dx, dxd = np.diff(x, axis=0), np.diff(xd, axis=0)
    l = np.linalg.norm(dx, axis=1)
    L, Ldot = l.sum(), np.sum(dx * dxd / l[:, None])
    l_opt = L / l_tilde
    return MuscleLaw(80.0, l_opt, abs(Ldot) / (l_opt * v_tilde), activation)


P0, P1, P2 = [0.1, 0.2, 0.3], [-0.3, 0.1, 0.2], [0.4, 0.1, -0.3]
VIA = [[0.1, 0.2, 0.3], [0.3, -0.1, 0.2], [0.5, 0.5, 0.5], [0.0, 0.2, 0.1], [0.4, 0.1, -0.3]]


def make_forces(T, phi):
    T_A1 = exp_se3([0.2, -0.1, 0.3, 0.1, 0.2, -0.1])
    T_B2 = exp_se3([-0.3, 0.2, 0.1, -0.2, 0.1, 0.3])
    mp3 = ([1, 2, 3], [P0, P1, P2])
    return {
        "body damping": BodyDamping(2, 0.7),
        "point force": PointForce(1, P0, [1.0, -2.0, 0.5]),
        "point-to-point": PointToPointSpring(1, P0, 3, P1, k=3.0),
        "point-to-point ground": PointToPointSpring(0, P0, 3, P1, k=3.0),
        "green strain": GreenStrainSpring(1, P0, 2, P1, k=3.0, rest_length=0.8),
        "axial linear": axial_spring(1, P0, 2, P1, LinearLaw(3.0, 0.5, 0.4)),
        "spring-damper ground": spring_damper(2, P0, 0, P1, 3.0, 0.4, 0.7),
        "muscle": axial_spring(1, P0, 2, P1, tuned_muscle(T, phi, [1, 2], [P0, P1])),
        "multi-point": MultiPointSpring(
            [1, 2, 0, 3, 3], VIA, LinearLaw(3.0, 0.5, 0.4), active=[True, False, True, True]
        ),
        "multi-point muscle": MultiPointSpring(*mp3, tuned_muscle(T, phi, *mp3)),
        "frame spring": FrameSpring(1, T_A1, 3, T_B2, k_t=2.0, k_r=3.0, d_t=0.5, d_r=0.7),
        "frame spring ground": FrameSpring(0, T_A1, 2, T_B2, k_t=2.0, k_r=3.0, d_t=0.5, d_r=0.7),
        # frame 1 placed so that frame 2 is turned by 2.9 rad relative to it (near |θ| = π)
        "frame spring near pi": FrameSpring(
            0,
            T[1] @ T_B2 @ frame_inverse(exp_se3([0.0, 2.9, 0.0, 0.2, -0.1, 0.3])),
            2,
            T_B2,
            2.0,
            3.0,
        ),
    }


NAMES = list(make_forces(*scene()))


def force(name, T=None, phi=None):
    if T is None:
        T, phi = scene()
    return make_forces(T, phi)[name]


# ------------------------------------------------------------------ Jacobians vs differences


def check_K_and_D(F, T, phi, coords):
    """K column block of body i by differences on SE(3) (one body moved at a time); D by
    differences in the stacked twists (a local helper: spatial.checks works on one frame)."""
    terms = F.evaluate(T, phi, coords=coords)
    side = "body" if coords == "body" else "world"
    for i in range(T.shape[0]):

        def f_of(Ti, i=i):
            T_moved = T.copy()
            T_moved[i] = Ti
            return F.evaluate(T_moved, phi, coords=coords).f

        result = check_jacobian(f_of, terms.K[:, 6 * i : 6 * i + 6], T[i], space="se3", side=side)
        assert result, f"K, body {i}: relative error {result.error:.2e}"
    result = check_jacobian(lambda p: F.evaluate(T, p, coords=coords).f, terms.D, phi)
    assert result, f"D: relative error {result.error:.2e}"


@pytest.mark.parametrize("coords", ["body", "world"])
@pytest.mark.parametrize("name", NAMES)
def test_K_and_D_match_finite_differences(name, coords):
    T, phi = scene()
    check_K_and_D(force(name, T, phi), T, phi, coords)


def test_the_near_pi_frame_spring_is_near_pi():
    T, phi = scene()
    theta, _ = force("frame spring near pi", T, phi).displacement(T)
    np.testing.assert_allclose(theta, [0.0, 2.9, 0.0], atol=1e-12)


def test_the_scene_exercises_every_term():
    # the muscles sit where f_L, f_P, f_V and their slopes are all non-zero, and K, D are
    # non-trivial for every force that has them
    T, phi = scene()
    for name in ("muscle", "multi-point muscle"):
        F = force(name, T, phi)
        x, xd = world_points(T, phi, F.bodies, F.points)
        dx, dxd = np.diff(x, axis=0), np.diff(xd, axis=0)
        l = np.linalg.norm(dx, axis=1)
        lt, vt = F.law.normalized(l.sum(), np.sum(dx * dxd / l[:, None]))
        assert lt == pytest.approx(1.15) and abs(vt) == pytest.approx(0.3)
    assert passive_force_length(1.15) > 0 and active_force_length.derivative(1.15) != 0
    assert force_velocity.derivative(0.3) != 0 and force_velocity.derivative(-0.3) != 0
    damped = {"body damping", "axial linear", "spring-damper ground", "muscle", "multi-point"}
    damped |= {"multi-point muscle", "frame spring", "frame spring ground"}
    for name in NAMES:
        t = force(name, T, phi).evaluate(T, phi)
        if name != "body damping":
            assert np.abs(t.K).max() > 0.1, name
        assert (np.abs(t.D).max() > 0.1) == (name in damped), name


@pytest.mark.parametrize("name", NAMES)
def test_batched_equals_looped(name):
    T, phi = scene(seed=3, batch=(2, 3))
    F = force(name)
    for coords in ("body", "world"):
        batched = F.evaluate(T, phi, coords=coords)
        for idx in np.ndindex(2, 3):
            single = F.evaluate(T[idx], phi[idx], coords=coords)
            for a, b in zip(batched, single, strict=True):
                np.testing.assert_allclose(a[idx], b, rtol=1e-12, atol=1e-12)


# ------------------------------------------------------------------ potentials and symmetry

CONSERVATIVE = {
    "point force": lambda: PointForce(1, P0, [1.0, -2.0, 0.5]),
    "point-to-point": lambda: PointToPointSpring(1, P0, 3, P1, k=3.0),
    "point-to-point ground": lambda: PointToPointSpring(0, P0, 3, P1, k=3.0),
    "green strain": lambda: GreenStrainSpring(1, P0, 2, P1, k=3.0, rest_length=0.8),
    "axial linear": lambda: axial_spring(1, P0, 2, P1, LinearLaw(3.0, 0.5)),
    "multi-point": lambda: MultiPointSpring([1, 2, 0, 3, 3], VIA, LinearLaw(3.0, 0.5)),
    "frame spring": lambda: FrameSpring(
        1, exp_se3([0.2, -0.1, 0.3, 0.1, 0.2, -0.1]), 3, np.eye(4), k_t=2.0, k_r=3.0
    ),
}


@pytest.mark.parametrize("coords", ["body", "world"])
@pytest.mark.parametrize("name", CONSERVATIVE)
def test_force_is_the_negative_gradient_of_its_potential(name, coords):
    # Sueda eqs. 1.32, 1.36: f = -∂V/∂δ with the frame moved through exp on SE(3)
    T, phi = scene()
    F = CONSERVATIVE[name]()
    f = F.evaluate(T, phi, coords=coords).f
    side = "body" if coords == "body" else "world"
    for i in range(N_BODIES):

        def V(Ti, i=i):
            T_moved = T.copy()
            T_moved[i] = Ti
            return F.potential(T_moved)

        grad = fd_jacobian(V, T[i], space="se3", side=side)
        np.testing.assert_allclose(-grad, f[6 * i : 6 * i + 6], rtol=1e-8, atol=1e-9)


def coadjoint(w):
    """C(w) with C(w) ε = ad(ε)ᵀ w, by hand: [[n×, g×], [g×, 0]] for w = [n; g]."""
    C = np.zeros((6, 6))
    C[:3, :3], C[:3, 3:], C[3:, :3] = skew(w[:3]), skew(w[3:]), skew(w[3:])
    return C


@pytest.mark.parametrize("name", CONSERVATIVE)
def test_asymmetry_of_K_is_fixed_by_the_force(name):
    # ArtiSynth §0.23: for a potential force the body-coordinate K is a Hessian plus the
    # non-symmetric part that comes from perturbing through exp: K - Kᵀ = C(f_i) on the diagonal
    # blocks (ε₁, ε₂ of one body do not commute: [ε₁, ε₂] = ad(ε₁) ε₂), zero elsewhere.
    T, phi = scene()
    t = CONSERVATIVE[name]().evaluate(T, phi)
    expected = np.zeros((6 * N_BODIES, 6 * N_BODIES))
    for i in range(N_BODIES):
        expected[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = coadjoint(t.f[6 * i : 6 * i + 6])
    np.testing.assert_allclose(t.K - t.K.T, expected, atol=1e-12)
    assert np.abs(expected).max() > 0.1  # so K is genuinely non-symmetric here


def test_constant_force_at_the_centre_of_mass_has_nonsymmetric_K():
    # ArtiSynth §0.23: body force Rᵀ f varies with orientation as [Rᵀ f] δθ; nothing depends
    # on translation, so K = [[0, 0], [[Rᵀ f], 0]].  Sueda symmetrizes it (§1.9.2).
    T = exp_se3(np.array([[0.3, -0.5, 0.2, 1.0, 2.0, 3.0]]))
    f_world = np.array([0.0, 0.0, -9.81])
    F = PointForce(1, [0.0, 0.0, 0.0], f_world)
    K = F.evaluate(T, np.zeros((1, 6))).K
    expected = np.zeros((6, 6))
    expected[3:, :3] = skew(T[0, :3, :3].T @ f_world)
    np.testing.assert_allclose(K, expected, atol=1e-14)
    assert np.abs(K - K.T).max() > 1.0
    K_sym = F.evaluate(T, np.zeros((1, 6)), symmetric=True).K
    np.testing.assert_allclose(K_sym, 0.5 * (expected + expected.T), atol=1e-14)
    np.testing.assert_array_equal(K_sym, K_sym.T)


@pytest.mark.parametrize("name", NAMES)
def test_symmetric_flag_symmetrizes_K_only(name):
    T, phi = scene()
    F = force(name, T, phi)
    for coords in ("body", "world"):
        exact = F.evaluate(T, phi, coords=coords)
        sym = F.evaluate(T, phi, coords=coords, symmetric=True)
        np.testing.assert_allclose(sym.K, 0.5 * (exact.K + exact.K.T), atol=1e-14)
        np.testing.assert_array_equal(sym.K, sym.K.T)
        np.testing.assert_array_equal(sym.f, exact.f)
        np.testing.assert_array_equal(sym.D, exact.D)


def test_K_is_symmetric_at_equilibrium():
    # with zero force the exp-perturbation term vanishes and K is a true Hessian
    T = frame(exp_so3([0.3, 0.2, -0.1])[None], [[0.0, 0.0, 0.0]])
    x_point = T[0, :3, :3] @ np.array(P0)
    rest = np.linalg.norm(x_point - np.array([1.0, 0.5, 0.0]))
    F = axial_spring(1, P0, 0, [1.0, 0.5, 0.0], LinearLaw(5.0, rest))
    t = F.evaluate(T, np.zeros((1, 6)))
    np.testing.assert_allclose(t.f, 0.0, atol=1e-14)
    np.testing.assert_allclose(t.K, t.K.T, atol=1e-14)


# ------------------------------------------------------------------ known formulas from the texts


def test_point_force_matches_sueda_eqs_1_31_and_1_33():
    T, phi = scene()
    k, a = 2.5, np.array([0.3, -0.4, 0.8])
    t = PointForce(2, P1, k * a).evaluate(T, phi)
    R, r = T[1, :3, :3], np.array(P1)
    Rta = R.T @ a
    f_expected = k * np.concatenate([np.cross(r, Rta), Rta])  # k Γᵀ Rᵀ a
    K_expected = np.zeros((6, 6))
    K_expected[:3, :3] = k * skew(r) @ skew(Rta)
    K_expected[3:, :3] = k * skew(Rta)
    np.testing.assert_allclose(t.f[6:12], f_expected, rtol=1e-14)
    np.testing.assert_allclose(t.K[6:12, 6:12], K_expected, rtol=1e-13, atol=1e-14)
    np.testing.assert_array_equal(np.delete(t.f, np.s_[6:12]), 0.0)


def test_point_to_point_spring_matches_sueda_eqs_1_35_and_1_37():
    # Eq. 1.37 as printed is -∂f/∂x (its (v₁, v₁) block is +k 1, but moving body 1 by δv
    # changes k R₁ᵀ Δx by -k δv); the finite-difference test above fixes the sign.
    T, phi = scene()
    k = 3.0
    t = PointToPointSpring(1, P0, 2, P1, k=k).evaluate(T, phi)
    R1, p1, R2, p2 = T[0, :3, :3], T[0, :3, 3], T[1, :3, :3], T[1, :3, 3]
    r1, r2 = np.array(P0), np.array(P1)
    x1, x2 = R1 @ r1 + p1, R2 @ r2 + p2
    dx = x2 - x1
    G1t = np.vstack([skew(r1), np.eye(3)])  # Γᵀ = [[r]; 1]
    G2t = np.vstack([skew(r2), np.eye(3)])
    np.testing.assert_allclose(t.f[:12], k * np.concatenate([G1t @ R1.T @ dx, -G2t @ R2.T @ dx]))
    X1, X2, I = skew(r1), skew(r2), np.eye(3)
    R12, R21 = R1.T @ R2, R2.T @ R1
    A1, A2 = skew(R1.T @ (p1 - x2)), skew(R2.T @ (p2 - x1))
    K_sueda = k * np.block(
        [
            [X1 @ A1, X1, X1 @ R12 @ X2, -X1 @ R12],
            [A1, I, R12 @ X2, -R12],
            [X2 @ R21 @ X1, -X2 @ R21, X2 @ A2, X2],
            [R21 @ X1, -R21, A2, I],
        ]
    )
    np.testing.assert_allclose(t.K[:12, :12], -K_sueda, rtol=1e-12, atol=1e-12)


def two_bodies_at(x1, x2, v1, v2):
    """Two bodies with identity orientation, origins at x1, x2, translating at v1, v2."""
    T = np.stack([frame(np.eye(3), x1), frame(np.eye(3), x2)])
    phi = np.zeros((2, 6))
    phi[0, 3:], phi[1, 3:] = v1, v2
    return T, phi


def test_axial_spring_point_jacobians_match_artisynth_0_12():
    # With R = 1 and the points at the body origins, the linear blocks of K and D are the
    # point Jacobians ∂f₁/∂x₁ and ∂f₁/∂ẋ₁ of ArtiSynth §0.12.1 (converted from its
    # linear-first layout: here they are the [3:6, 3:6] blocks).
    x1, x2 = np.array([0.1, -0.2, 0.3]), np.array([0.9, 0.4, -0.2])
    v1, v2 = np.array([0.3, 0.1, -0.2]), np.array([-0.1, 0.5, 0.4])
    k, r, d = 4.0, 0.6, 0.3
    T, phi = two_bodies_at(x1, x2, v1, v2)
    t = axial_spring(1, np.zeros(3), 2, np.zeros(3), LinearLaw(k, r, d)).evaluate(T, phi)
    l = np.linalg.norm(x2 - x1)
    u = (x2 - x1) / l
    Un, Up = np.outer(u, u), np.eye(3) - np.outer(u, u)
    ldot = u @ (v2 - v1)
    df1_dx1 = -k * Un - d / l * np.outer(u, v2 - v1) @ Up - (k * (l - r) + d * ldot) / l * Up
    np.testing.assert_allclose(t.f[3:6], (k * (l - r) + d * ldot) * u, rtol=1e-14)
    np.testing.assert_allclose(t.K[3:6, 3:6], df1_dx1, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(t.K[3:6, 9:12], -df1_dx1, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(t.K[9:12, 9:12], df1_dx1, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(t.D[3:6, 3:6], -d * Un, rtol=1e-13, atol=1e-14)
    np.testing.assert_allclose(t.D[3:6, 9:12], d * Un, rtol=1e-13, atol=1e-14)


def test_green_strain_spring_matches_artisynth_0_13():
    x1, x2 = np.array([0.1, -0.2, 0.3]), np.array([0.9, 0.4, -0.2])
    k, r = 4.0, 0.6
    T, phi = two_bodies_at(x1, x2, np.zeros(3), np.zeros(3))
    F = GreenStrainSpring(1, np.zeros(3), 2, np.zeros(3), k=k, rest_length=r)
    dx = x2 - x1
    l = np.linalg.norm(dx)
    sigma = k * 0.5 * (l**2 - r**2) / r**2
    material, geometric = F.point_stiffness(T)
    np.testing.assert_allclose(material, -k / r**2 * np.outer(dx, dx), rtol=1e-14)
    np.testing.assert_allclose(geometric, -sigma * np.eye(3), rtol=1e-14)
    t = F.evaluate(T, phi)
    np.testing.assert_allclose(t.f[3:6], sigma * dx, rtol=1e-14)
    np.testing.assert_allclose(t.K[3:6, 3:6], material + geometric, rtol=1e-13)
    np.testing.assert_allclose(F.potential(T), k * (l**2 - r**2) ** 2 / (8 * r**2), rtol=1e-14)


def test_tension_and_stress_forms_agree_for_a_zero_rest_length_spring():
    # ArtiSynth §0.13 with r = 0: σ = k, the same force as F = k l along u (§0.12.1)
    T, phi = scene()
    stress = PointToPointSpring(1, P0, 3, P1, k=3.0).evaluate(T, phi)
    tension = axial_spring(1, P0, 3, P1, LinearLaw(3.0)).evaluate(T, phi)
    for a, b in zip(stress, tension, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-13)


def test_point_to_point_spring_is_defined_at_coincident_points():
    T = np.stack([frame(np.eye(3), [0.5, 0.0, 0.0]), frame(np.eye(3), [0.0, 0.0, 0.0])])
    t = PointToPointSpring(1, [-0.5, 0.0, 0.0], 2, [0.0, 0.0, 0.0], k=2.0).evaluate(
        T, np.zeros((2, 6))
    )
    np.testing.assert_allclose(t.f, 0.0, atol=1e-15)
    np.testing.assert_allclose(t.K[3:6, 3:6], -2.0 * np.eye(3))


def test_multi_point_spring_point_forces_and_length():
    # ArtiSynth eqs. 0.11–0.14: points at body origins (R = 1) so body wrenches are point forces
    x = np.array([[0.0, 0.0, 0.0], [1.0, 0.2, 0.0], [1.5, 1.0, 0.3], [2.0, 1.0, -0.5]])
    T = np.stack([frame(np.eye(3), xi) for xi in x])
    active = [True, False, True]
    k, r = 2.0, 1.0
    F = MultiPointSpring([1, 2, 3, 4], np.zeros((4, 3)), LinearLaw(k, r), active=active)
    dx = np.diff(x, axis=0)
    l = np.linalg.norm(dx, axis=1)
    u = dx / l[:, None]
    L = l[0] + l[2]
    assert F.length(T) == pytest.approx(L)
    tension = k * (L - r)
    v = [u[0], u[1] - u[0], u[2] - u[1], -u[2]]
    f = F.evaluate(T, np.zeros((4, 6))).f.reshape(4, 6)
    np.testing.assert_allclose(f[:, 3:], tension * np.array(v), rtol=1e-13)
    np.testing.assert_allclose(f[:, :3], 0.0, atol=1e-14)


def test_spring_damper_pulls_when_stretched_and_resists_extension():
    # Sueda eq. 1.65 with the tension F = (k (l - L) + d l̇)/L pulling the points together
    x1, x2 = np.array([0.0, 0.0, 0.0]), np.array([2.0, 0.0, 0.0])
    T, phi = two_bodies_at(x1, x2, [0.0, 0.0, 0.0], [0.5, 0.0, 0.0])
    k, d, L = 3.0, 0.4, 1.5
    f = spring_damper(1, np.zeros(3), 2, np.zeros(3), k, d, L).evaluate(T, phi).f
    tension = (k * (2.0 - L) + d * 0.5) / L
    np.testing.assert_allclose(f[3:6], [tension, 0, 0], rtol=1e-14)
    np.testing.assert_allclose(f[9:12], [-tension, 0, 0], rtol=1e-14)


def test_muscle_force_between_two_bodies():
    # Sueda eqs. 1.38–1.39, 1.47–1.49: F along the line, l̃ and ṽ from the path
    x1, x2 = np.array([0.0, 0.0, 0.0]), np.array([0.12, 0.0, 0.0])
    T, phi = two_bodies_at(x1, x2, [0.1, 0.0, 0.0], [-0.2, 0.3, 0.0])
    law = MuscleLaw(f_opt=500.0, l_opt=0.1, v_max=10.0, activation=0.6, tendon_length=0.01)
    f = axial_spring(1, np.zeros(3), 2, np.zeros(3), law).evaluate(T, phi).f
    lt, vt = (0.12 - 0.01) / 0.1, -0.3 / (0.1 * 10.0)
    F = 500.0 * (0.6 * active_force_length(lt) * force_velocity(vt) + passive_force_length(lt))
    np.testing.assert_allclose(f[3:6], [F, 0, 0], rtol=1e-13)
    np.testing.assert_allclose(f[9:12], [-F, 0, 0], rtol=1e-13)


# ------------------------------------------------------------------ physics and coordinates

INTERNAL = [
    "point-to-point",
    "green strain",
    "axial linear",
    "muscle",
    "multi-point muscle",
]


@pytest.mark.parametrize("name", INTERNAL + ["internal multi-point", "elastic frame spring"])
def test_internal_forces_have_zero_net_world_wrench(name):
    # Newton's third law: the world wrenches (about the world origin) on all bodies sum to zero
    T, phi = scene()
    if name == "internal multi-point":
        F = MultiPointSpring(
            [1, 2, 3, 3, 1], VIA, LinearLaw(3.0, 0.5, 0.4), [True, False, True, True]
        )
    elif name == "elastic frame spring":
        F = FrameSpring(1, exp_se3([0.2, -0.1, 0.3, 0.1, 0.2, -0.1]), 3, np.eye(4), 2.0, 3.0)
    else:
        F = force(name, T, phi)
    f_world = F.evaluate(T, phi, coords="world").f.reshape(N_BODIES, 6)
    assert np.abs(f_world).max() > 0.1
    np.testing.assert_allclose(f_world.sum(axis=0), 0.0, atol=1e-12)


def test_world_terms_are_the_transformed_body_terms():
    T, phi_body = scene()
    phi_world = np.einsum("nij,nj->ni", Ad(T), phi_body)
    for name in NAMES:
        F = force(name, T, phi_body)
        body = F.evaluate(T, phi_body)
        world = F.evaluate(T, phi_world, coords="world")
        A = np.zeros((6 * N_BODIES, 6 * N_BODIES))
        for i in range(N_BODIES):
            A[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = np.linalg.inv(Ad(T[i]))
        np.testing.assert_allclose(world.f, A.T @ body.f, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(world.D, A.T @ body.D @ A, rtol=1e-12, atol=1e-12)


def test_body_damping():
    T, phi = scene()
    t = BodyDamping(3, 0.8).evaluate(T, phi)
    np.testing.assert_allclose(t.f[12:], -0.8 * phi[2])
    np.testing.assert_array_equal(t.D[12:, 12:], -0.8 * np.eye(6))
    np.testing.assert_array_equal(t.K, 0.0)
    assert np.abs(BodyDamping(3, 0.8).evaluate(T, phi, coords="world").K).max() > 0.1


def test_assemble_sums_the_forces():
    T, phi = scene()
    forces = list(make_forces(T, phi).values())
    total = assemble(forces, T, phi, coords="world", symmetric=True)
    for part, name in zip(total, "fKD", strict=True):
        expected = sum(
            getattr(F.evaluate(T, phi, coords="world", symmetric=True), name) for F in forces
        )
        np.testing.assert_allclose(part, expected, rtol=1e-13, atol=1e-13)
    empty = assemble([], T, phi)
    assert empty.f.shape == (18,) and empty.K.shape == (18, 18) and not empty.K.any()


def test_linearly_implicit_step_is_stable_where_explicit_euler_blows_up():
    # A body hanging on a stiff zero-length spring from the world, h ω ≈ 1.4: forward Euler's
    # energy grows by ~(1 + h²ω²) per step (faster once the gyroscopic term joins in); the
    # linearly implicit step (Sueda eq. 1.30 with this package's signs:
    # (M - hD - h²K) φ⁺ = M φ + h (f - D φ + ad(φ)ᵀ M φ)) keeps it bounded.
    M = mcI(1.0, np.zeros(3), np.diag([0.02, 0.03, 0.04]))
    k, h, n_steps = 2e4, 0.01, 100
    spring = PointToPointSpring(0, [0.0, 0.0, 0.0], 1, [0.1, 0.05, 0.0], k=k)
    damper = BodyDamping(1, 0.5)
    T0 = frame(exp_so3([0.2, -0.1, 0.3])[None], [[0.05, -0.02, 0.03]])
    phi0 = np.zeros((1, 6))

    def energy(T, phi):
        return 0.5 * phi[0] @ M @ phi[0] + spring.potential(T)

    e0 = energy(T0, phi0)
    T, phi = T0, phi0
    for _ in range(8):  # forward Euler overflows within a few more steps
        f = assemble([spring, damper], T, phi).f
        T_next, phi_next = euler_step(
            M, T[0], phi[0], h, f_body=f, g=np.zeros(3), scheme="explicit"
        )
        T, phi = T_next[None], phi_next[None]
    assert energy(T, phi) > 1e6 * e0

    T, phi = T0, phi0
    energies = []
    for _ in range(n_steps):
        f, K, D = assemble([spring, damper], T, phi)
        rhs = M @ phi[0] + h * (f - D @ phi[0] + coriolis_wrench(M, phi[0]))
        phi = np.linalg.solve(M - h * D - h**2 * K, rhs)[None]
        T = T @ exp_se3(h * phi)
        energies.append(energy(T, phi))
    assert max(energies) <= e0
    assert energies[-1] < 0.5 * e0


# ------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    "build, match",
    [
        (lambda: PointToPointSpring(1, P0, 2, P1, k=-1.0), "k must be a number >= 0"),
        (
            lambda: GreenStrainSpring(1, P0, 2, P1, k=1.0, rest_length=0.0),
            "rest_length must be > 0",
        ),
        (lambda: LinearLaw(-1.0), "k must be a number >= 0"),
        (lambda: LinearLaw(1.0, -0.5), "rest_length must be a number >= 0"),
        (
            lambda: GreenStrainSpring(1, P0, 2, P1, k=-3.0, rest_length=0.8),
            "k must be a number >= 0",
        ),
        (lambda: spring_damper(1, P0, 2, P1, -1.0, 0.1, 1.0), "k must be a number >= 0"),
        (
            lambda: axial_spring(3, P1, 3, P1, LinearLaw(1.0)),
            r"segment 0 of the spring joins point 0 to itself",
        ),
        (
            lambda: MultiPointSpring([1, 0, 0], [P0, P1, P1], LinearLaw(1.0)),
            r"segment 1 of the spring joins point 1 to itself",
        ),
        (lambda: LinearLaw(1.0, 0.5, -0.1), "d must be a number >= 0"),
        (lambda: LinearLaw([1.0, 2.0]), r"k must be a number >= 0, got \[1.0, 2.0\]"),
        (lambda: spring_damper(1, P0, 2, P1, 1.0, 0.1, 0.0), "rest_length must be > 0"),
        (lambda: spring_damper(1, P0, 2, P1, 1.0, -0.1, 1.0), "d must be a number >= 0"),
        (lambda: BodyDamping(1, -1.0), "d must be a number >= 0"),
        (lambda: BodyDamping(0, 1.0), r"the world \(0\) cannot be damped"),
        (lambda: PointForce(0, P0, P1), r"a force on the world \(0\) does nothing"),
        (lambda: PointForce(1, [1.0, 2.0], P1), r"point must have shape"),
        (
            lambda: PointForce(-1, P0, P1),
            r"body must be a body number \(0 = world, 1 … N\), got -1",
        ),
        (lambda: PointForce(True, P0, P1), "body must be a body number"),
        (lambda: MultiPointSpring([1], [P0], LinearLaw(1.0)), "at least 2 points"),
        (
            lambda: MultiPointSpring([1, 2], [P0], LinearLaw(1.0)),
            r"points must have shape \(2, 3\)",
        ),
        (lambda: MultiPointSpring([1, 2], [P0, P1], 3.0), "law must be callable"),
        (
            lambda: MultiPointSpring([1, 2, 3], VIA[:3], LinearLaw(1.0), [True]),
            "one entry per segment",
        ),
        (
            lambda: MultiPointSpring([1, 2], [P0, P1], LinearLaw(1.0), [False]),
            "at least one segment",
        ),
    ],
)
def test_invalid_parameters_raise(build, match):
    with pytest.raises(ValueError, match=match):
        build()


def test_invalid_states_raise():
    T, phi = scene()
    F = PointToPointSpring(1, P0, 2, P1, k=1.0)
    with pytest.raises(ValueError, match=r"T must have shape \(..., N, 4, 4\)"):
        F.evaluate(T[0], phi[0])
    with pytest.raises(ValueError, match=r"phi must have shape \(..., 3, 6\)"):
        F.evaluate(T, phi[:2])
    with pytest.raises(ValueError, match="coords must be one of"):
        F.evaluate(T, phi, coords="spatial")
    with pytest.raises(
        ValueError, match=r"acts on body 6, but T has only 3 bodies \(1 … 3; 0 is the world\)"
    ):
        PointToPointSpring(1, P0, 6, P1, k=1.0).evaluate(T, phi)
    T_bad = T.copy()
    T_bad[1, :3, :3] *= 1.1
    with pytest.raises(ValueError, match="rotation block of T is not orthonormal"):
        F.evaluate(T_bad, phi)
    with pytest.raises(ValueError, match="acts on body 6"):
        PointToPointSpring(1, P0, 6, P1, k=1.0).potential(T)


def test_zero_length_segment_raises():
    T, phi = scene()
    x_point = T[1, :3, :3] @ np.array(P1) + T[1, :3, 3]
    F = MultiPointSpring([1, 2, 0], [P0, P1, x_point], LinearLaw(1.0, 0.5))
    with pytest.raises(
        ValueError, match=r"segment 1 of the spring \(points 1 and 2\) has zero length"
    ):
        F.evaluate(T, phi)
    with pytest.raises(ValueError, match="has zero length"):
        axial_spring(2, P1, 0, x_point, LinearLaw(1.0)).length(T)


def test_passive_segments_make_the_spring_non_conservative():
    # A passive segment carries the tension but not the length, so f is not -∂V(L)/∂x: the
    # K - Kᵀ = C(f) identity of potential forces fails, and potential() refuses.
    T, phi = scene()
    F = MultiPointSpring([1, 2, 0, 3, 3], VIA, LinearLaw(3.0, 0.5), [True, False, True, True])
    t = F.evaluate(T, phi)
    C = np.zeros_like(t.K)
    for i in range(N_BODIES):
        C[6 * i : 6 * i + 6, 6 * i : 6 * i + 6] = coadjoint(t.f[6 * i : 6 * i + 6])
    assert np.abs(t.K - t.K.T - C).max() > 0.1
    with pytest.raises(ValueError, match="passive segments"):
        F.potential(T)


def test_potential_of_a_muscle_is_not_defined():
    T, phi = scene()
    F = force("muscle", T, phi)
    with pytest.raises(TypeError, match="MuscleLaw has no potential energy"):
        F.potential(T)


# ------------------------------------------------------------------ exercise checkers (notebook 13)


def test_chapter_13_checkers_accept_solutions_and_reject_mistakes():
    from spatial.exercises import ch13

    def solve_passive():
        A, b = np.zeros((8, 8)), np.zeros(8)
        rows = [(0, 0, 1.0, 0.0), (0, 0, 1.3, 0.126110265892917), (1, 0, 1.7, 1.0)]
        rows += [(0, 1, 1.0, 0.0), (0, 1, 1.3, 1.07051016402631), (1, 1, 1.7, 2.85714285714286)]
        value = lambda x: np.array([x**3, x**2, x, 1.0])  # noqa: T731
        slope = lambda x: np.array([3 * x**2, 2 * x, 1.0, 0.0])  # noqa: T731
        for i, (seg, order, x, y) in enumerate(rows):
            A[i, 4 * seg : 4 * seg + 4] = slope(x) if order else value(x)
            b[i] = y
        A[6, :4], A[6, 4:] = value(1.3), -value(1.3)
        A[7, :4], A[7, 4:] = slope(1.3), -slope(1.3)
        return np.linalg.solve(A, b).reshape(2, 4)

    def wrenches(T1, r1, T2, r2, k):
        dx = (T2[:3, :3] @ r2 + T2[:3, 3]) - (T1[:3, :3] @ r1 + T1[:3, 3])
        b1, b2 = T1[:3, :3].T @ dx, T2[:3, :3].T @ dx
        return k * np.concatenate([np.cross(r1, b1), b1, -np.cross(r2, b2), -b2])

    def stiffness(T, r, force):
        K = np.zeros((6, 6))
        K[:3, :3] = skew(r) @ skew(T[:3, :3].T @ force)
        K[3:, :3] = skew(T[:3, :3].T @ force)
        return K

    ch13.CHECKS["13.1"](solve_passive)
    ch13.CHECKS["13.2"](wrenches)
    ch13.CHECKS["13.3"](stiffness)
    with pytest.raises(AssertionError, match="1.7"):
        ch13.CHECKS["13.1"](lambda: solve_passive() * 1.01)
    with pytest.raises(AssertionError, match="eq. 1.35"):
        ch13.CHECKS["13.2"](lambda *a: -wrenches(*a))
    with pytest.raises(AssertionError, match="symmetrized"):
        ch13.CHECKS["13.3"](lambda *a: 0.5 * (stiffness(*a) + stiffness(*a).T))


def test_derivative_error_is_small_for_exact_derivatives_and_large_for_a_wrong_term():
    T, phi = scene(seed=3)
    spring = forces.PointToPointSpring(1, [0.1, -0.2, 0.05], 2, [-0.1, 0.15, 0.2], k=40.0)
    assert forces.derivative_error(spring, T, phi) < 1e-8

    class HalfStiffness(forces.PointToPointSpring):  # a K off by a factor of two
        def _terms(self, T, phi):
            f, K, D = super()._terms(T, phi)
            return f, 0.5 * K, D

    wrong = HalfStiffness(1, [0.1, -0.2, 0.05], 2, [-0.1, 0.15, 0.2], k=40.0)
    assert forces.derivative_error(wrong, T, phi) > 0.1
    damper = forces.BodyDamping(2, 0.3)
    assert forces.derivative_error(damper, T, phi) < 1e-8
    with pytest.raises(ValueError, match="one state"):
        forces.derivative_error(spring, np.stack([T, T]), np.stack([phi, phi]))
