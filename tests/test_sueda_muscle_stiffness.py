"""Sueda's closed-form muscle stiffness and damping (eqs. 1.50–1.56, 1.60–1.64), evaluated as
printed, against the package's K and D (which pass finite-difference checks in test_forces).

Findings (also notebook 13, note 8): the outer-product terms K₁ (eqs. 1.52–1.53, 1.63 with
K_k1) and D (eqs. 1.55, 1.64) carry the plain sign ∂f/∂x, but the geometric term K₂ (eq. 1.51,
eq. 1.62) is eq. 1.37, which is -∂f/∂x (note 2 of the notebook): so the package's K at rest is
K₁ - K₂, not K₁ + K₂; and eq. 1.56's D needs f_L in place of f_L'.  With moving bodies the notes
also leave out the dependence of l̇ on the positions, so K differs by F_l̇ (∂l̇/∂x) terms.
"""

import numpy as np
import pytest

from spatial.forces import MultiPointSpring, MuscleLaw, axial_spring
from spatial.se3 import exp_se3, material_jacobian
from spatial.vectors import skew


def block_137(T_a, r_a, T_b, r_b):
    """The 12x12 matrix of eqs. 1.37/1.51/1.62 (without its scalar factor) for points
    ``r_a`` on the body with frame ``T_a`` and ``r_b`` on ``T_b``."""
    Ra, pa, Rb, pb = T_a[:3, :3], T_a[:3, 3], T_b[:3, :3], T_b[:3, 3]
    xa, xb = Ra @ r_a + pa, Rb @ r_b + pb
    Xa, Xb, I3 = skew(r_a), skew(r_b), np.eye(3)
    Rab, Rba = Ra.T @ Rb, Rb.T @ Ra
    Aa, Ab = skew(Ra.T @ (pa - xb)), skew(Rb.T @ (pb - xa))
    return np.block(
        [
            [Xa @ Aa, Xa, Xa @ Rab @ Xb, -Xa @ Rab],
            [Aa, I3, Rab @ Xb, -Rab],
            [Xb @ Rba @ Xa, -Xb @ Rba, Xb @ Ab, Xb],
            [Rba @ Xa, -Rba, Ab, I3],
        ]
    )


def sueda_multipoint(law, T, phi, bodies, points, k2_sign=1.0):
    """K (eqs. 1.61–1.63) and D (eq. 1.64) of a muscle through points on bodies, as printed
    (``k2_sign=-1`` flips the geometric term K_k2)."""
    n_b = T.shape[0]
    R = [T[b - 1, :3, :3] for b in bodies]
    x = [T[b - 1, :3, :3] @ r + T[b - 1, :3, 3] for b, r in zip(bodies, points, strict=True)]
    xd = [
        T[b - 1, :3, :3] @ material_jacobian(r) @ phi[b - 1]
        for b, r in zip(bodies, points, strict=True)
    ]
    G = [material_jacobian(r) for r in points]
    dx = [x[k + 1] - x[k] for k in range(len(x) - 1)]
    lk = [np.linalg.norm(d) for d in dx]
    L = sum(lk)
    Ldot = sum(d @ (xd[k + 1] - xd[k]) / lk[k] for k, d in enumerate(dx))
    F, F_l, F_v = (float(v) for v in law(L, Ldot))

    def place(k, top, bottom):  # a 6n vector from the blocks of points k and k + 1
        v = np.zeros(6 * n_b)
        v[6 * (bodies[k] - 1) : 6 * bodies[k]] += top
        v[6 * (bodies[k + 1] - 1) : 6 * bodies[k + 1]] += bottom
        return v

    def row(k, d):
        return place(k, d @ R[k] @ G[k], -d @ R[k + 1] @ G[k + 1])

    f_sum = sum(
        place(k, G[k].T @ R[k].T @ d / lk[k], -G[k + 1].T @ R[k + 1].T @ d / lk[k])
        for k, d in enumerate(dx)
    )
    df_dE = sum(row(k, -F_l * d / lk[k]) for k, d in enumerate(dx))  # eq. 1.63
    df_dPhi = sum(row(k, -F_v * d / lk[k]) for k, d in enumerate(dx))  # eq. 1.64
    K = np.outer(f_sum, df_dE)
    for k, d in enumerate(dx):
        g = place(k, G[k].T @ R[k].T @ d, -G[k + 1].T @ R[k + 1].T @ d)
        K_k1 = np.outer(g, row(k, d / lk[k] ** 3))
        K_k2 = np.zeros((6 * n_b, 6 * n_b))
        idx = np.r_[
            6 * (bodies[k] - 1) : 6 * bodies[k], 6 * (bodies[k + 1] - 1) : 6 * bodies[k + 1]
        ]
        K_k2[np.ix_(idx, idx)] = (
            block_137(T[bodies[k] - 1], points[k], T[bodies[k + 1] - 1], points[k + 1]) / lk[k]
        )
        K = K + F * (K_k1 + k2_sign * K_k2)
    return K, np.outer(f_sum, df_dPhi)


def scene(moving):
    rng = np.random.default_rng(16)
    T = exp_se3(rng.normal(scale=0.6, size=(3, 6)))
    phi = rng.normal(size=(3, 6)) if moving else np.zeros((3, 6))
    return T, phi


LAW = MuscleLaw(f_opt=80.0, l_opt=1.0, v_max=2.0, activation=0.7)
P2 = [np.array([0.1, 0.2, 0.3]), np.array([-0.3, 0.1, 0.2])]
P3 = P2 + [np.array([0.4, 0.1, -0.3])]


def tuned(T, bodies, points):
    """LAW with l_opt putting the path at l̃ = 1.15 (all curve terms alive)."""
    x = [T[b - 1, :3, :3] @ r + T[b - 1, :3, 3] for b, r in zip(bodies, points, strict=True)]
    L = sum(np.linalg.norm(x[k + 1] - x[k]) for k in range(len(x) - 1))
    return MuscleLaw(80.0, L / 1.15, 2.0, 0.7)


@pytest.mark.parametrize("bodies, points", [([1, 2], P2), ([1, 2, 3], P3)], ids=["two", "three"])
def test_printed_K_has_the_geometric_term_with_the_wrong_sign(bodies, points):
    T, phi = scene(moving=False)
    law = tuned(T, bodies, points)
    force = MultiPointSpring(bodies, points, law)
    K_pkg = force.evaluate(T, phi).K
    K_printed, _ = sueda_multipoint(law, T, phi, bodies, points)
    K_fixed, _ = sueda_multipoint(law, T, phi, bodies, points, k2_sign=-1.0)
    np.testing.assert_allclose(K_fixed, K_pkg, rtol=1e-10, atol=1e-10 * np.abs(K_pkg).max())
    assert np.abs(K_printed - K_pkg).max() > 0.1 * np.abs(K_pkg).max()


def test_two_point_closed_form_equals_the_multi_point_one_and_axial_spring():
    # eqs. 1.50–1.53 are the n = 2 case of eqs. 1.61–1.63; the package's axial spring agrees
    T, phi = scene(moving=False)
    law = tuned(T, [1, 2], P2)
    Ra, Rb = T[0, :3, :3], T[1, :3, :3]
    dx = (Rb @ P2[1] + T[1, :3, 3]) - (Ra @ P2[0] + T[0, :3, 3])
    l = np.linalg.norm(dx)
    F, F_l, _ = (float(v) for v in law(l, 0.0))
    G1, G2 = material_jacobian(P2[0]), material_jacobian(P2[1])
    g = np.concatenate([G1.T @ Ra.T @ dx, -G2.T @ Rb.T @ dx])
    d = (F / l - F_l) * dx / l**2  # eq. 1.53
    K1 = np.outer(g, np.concatenate([d @ Ra @ G1, -d @ Rb @ G2]))  # eq. 1.52
    K2 = F / l * block_137(T[0], P2[0], T[1], P2[1])  # eq. 1.51
    K_pkg = axial_spring(1, P2[0], 2, P2[1], law).evaluate(T[:2], phi[:2]).K
    np.testing.assert_allclose(K1 - K2, K_pkg, rtol=1e-10, atol=1e-10 * np.abs(K_pkg).max())
    K_multi, _ = sueda_multipoint(law, T[:2], phi[:2], [1, 2], P2, k2_sign=-1.0)
    np.testing.assert_allclose(K_multi, K_pkg, rtol=1e-10, atol=1e-10 * np.abs(K_pkg).max())


def test_printed_D_matches_and_moving_bodies_add_the_velocity_term_to_K():
    T, phi = scene(moving=True)
    law = tuned(T, [1, 2, 3], P3)
    force = MultiPointSpring([1, 2, 3], P3, law)
    terms = force.evaluate(T, phi)
    K_fixed, D_printed = sueda_multipoint(law, T, phi, [1, 2, 3], P3, k2_sign=-1.0)
    np.testing.assert_allclose(D_printed, terms.D, rtol=1e-10, atol=1e-10 * np.abs(terms.D).max())
    # the notes drop ∂l̇/∂x: K then differs, by a visible amount
    gap = np.abs(K_fixed - terms.K).max() / np.abs(terms.K).max()
    assert gap > 1e-3
