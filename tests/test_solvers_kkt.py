"""Tests of spatial.solvers.kkt: KKT solve, P_f and P_v (ArtiSynth §0.5–0.6), Gauss–Seidel."""

import numpy as np
import pytest

from spatial.solvers import (
    delassus,
    force_projection,
    kkt_gauss_seidel,
    kkt_matrix,
    lemke,
    pgs,
    solve_kkt,
    velocity_projection,
)

TOL = 1e-10


def random_system(rng, n=7, m=3, batch=()):
    A = rng.normal(size=batch + (n, n))
    M = A @ np.swapaxes(A, -1, -2) + 0.5 * np.eye(n)
    G = rng.normal(size=batch + (m, n))
    return M, G


def close(a, b, tol=TOL):
    np.testing.assert_allclose(a, b, rtol=tol, atol=tol * max(1.0, np.abs(b).max()))


# ---------------------------------------------------------------------------- KKT solve


def test_kkt_matrix_layout():
    M, G = np.diag([1.0, 2.0]), np.array([[3.0, 4.0]])
    K = kkt_matrix(M, G)
    close(K, [[1.0, 0.0, -3.0], [0.0, 2.0, -4.0], [3.0, 4.0, 0.0]])


def test_solve_kkt_matches_dense_solve():
    rng = np.random.default_rng(1)
    M, G = random_system(rng)
    b, g = rng.normal(size=7), rng.normal(size=3)
    v, lam = solve_kkt(M, G, b, g)
    close(np.concatenate([v, lam]), np.linalg.solve(kkt_matrix(M, G), np.concatenate([b, g])))
    # the equations themselves, with the stated signs: M v = b + Gᵀλ, G v = g
    close(M @ v, b + G.T @ lam)
    close(G @ v, g)
    # ArtiSynth §0.6 in terms of P_f: v = M⁻¹ (P_f b + Gᵀ (G M⁻¹ Gᵀ)⁻¹ g)
    Mi = np.linalg.inv(M)
    close(v, Mi @ (force_projection(M, G) @ b + G.T @ np.linalg.solve(G @ Mi @ G.T, g)))
    v0, _ = solve_kkt(M, G, b)  # g defaults to 0
    close(G @ v0, np.zeros(3))


def test_kkt_inverse_block_formula():
    # ArtiSynth §0.5: the inverse of the KKT matrix in terms of P_f and the Schur complement
    rng = np.random.default_rng(2)
    M, G = random_system(rng)
    Mi = np.linalg.inv(M)
    S = np.linalg.inv(G @ Mi @ G.T)
    Pf = force_projection(M, G)
    expected = np.block([[Mi @ Pf, Mi @ G.T @ S], [-S @ G @ Mi, S]])
    close(np.linalg.inv(kkt_matrix(M, G)), expected, 1e-9)


# ---------------------------------------------------------------------------- projections


def test_projection_properties():
    rng = np.random.default_rng(3)
    M, G = random_system(rng)
    Pf, Pv = force_projection(M, G), velocity_projection(M, G)
    Mi = np.linalg.inv(M)
    close(Pv @ Pv, Pv)  # idempotent
    close(Pf @ Pf, Pf)
    close(Pv, Pf.T)  # P_v = P_fᵀ
    close(G @ Pv, np.zeros_like(G))  # lands on the constraint tangent space
    close(Pf @ G.T, np.zeros_like(G.T))  # removes constraint forces
    close(G @ Mi @ Pf, np.zeros_like(G))  # projected forces cause admissible accelerations
    close(M @ Pv, (M @ Pv).T)  # M-orthogonal (self-adjoint in the M inner product)
    assert np.linalg.matrix_rank(Pv) == 7 - 3
    # admissible velocities are left alone
    null = np.linalg.svd(G)[2][3:].T
    close(Pv @ null, null)


def test_velocity_projection_is_closest_in_kinetic_energy_norm():
    rng = np.random.default_rng(4)
    M, G = random_system(rng)
    Pv = velocity_projection(M, G)
    null = np.linalg.svd(G)[2][3:].T
    for _ in range(5):
        v = rng.normal(size=7)
        p = Pv @ v
        d = p - v
        dist = d @ M @ d
        for _ in range(20):  # any other admissible velocity is farther away in the M-norm
            y = p + null @ rng.normal(size=4) * 0.3
            assert (y - v) @ M @ (y - v) >= dist - 1e-12
        # P_v v is the velocity after the impulse Gᵀλ that enforces G v' = 0 (§0.5)
        v1, lam = solve_kkt(M, G, M @ v)
        close(p, v1)


def test_batched_equals_looped():
    rng = np.random.default_rng(5)
    M, G = random_system(rng, batch=(4, 2))
    b, g = rng.normal(size=(4, 2, 7)), rng.normal(size=(4, 2, 3))
    v, lam = solve_kkt(M, G, b, g)
    Pf, Pv = force_projection(M, G), velocity_projection(M, G)
    K, W = kkt_matrix(M, G), delassus(M, G)
    for i in range(4):
        for j in range(2):
            vi, li = solve_kkt(M[i, j], G[i, j], b[i, j], g[i, j])
            close(v[i, j], vi)
            close(lam[i, j], li)
            close(Pf[i, j], force_projection(M[i, j], G[i, j]))
            close(Pv[i, j], velocity_projection(M[i, j], G[i, j]))
            close(K[i, j], kkt_matrix(M[i, j], G[i, j]))
            close(W[i, j], delassus(M[i, j], G[i, j]))


def test_batch_broadcasts_shared_mass_matrix():
    rng = np.random.default_rng(6)
    M, _ = random_system(rng)
    G = rng.normal(size=(5, 3, 7))
    Pv = velocity_projection(M, G)
    assert Pv.shape == (5, 7, 7)
    close(Pv[2], velocity_projection(M, G[2]))


def test_delassus():
    rng = np.random.default_rng(7)
    M, J = random_system(rng)
    close(delassus(M, J), J @ np.linalg.inv(M) @ J.T)


# ---------------------------------------------------------------------------- Gauss-Seidel


def test_gauss_seidel_bilateral_matches_kkt_solve():
    rng = np.random.default_rng(8)
    M, N = random_system(rng, n=8, m=4)
    v0, c = rng.normal(size=8), rng.normal(size=4)
    res = kkt_gauss_seidel(M, N, v0, c, tol=1e-12, max_iter=100000).check()
    v, lam = solve_kkt(M, N, M @ v0, c)  # M v = M v0 + Nᵀλ, N v = c
    close(res.v, v, 1e-9)
    close(res.lam, lam, 1e-8)
    close(res.v, v0 + np.linalg.solve(M, N.T @ res.lam), 1e-12)


def test_gauss_seidel_unilateral_is_pgs_on_delassus_matrix():
    # sweep for sweep the same iterates as PGS on (N M⁻¹ Nᵀ, N v0 - c)
    rng = np.random.default_rng(9)
    M, N = random_system(rng, n=8, m=5)
    v0, c = rng.normal(size=8), rng.normal(size=5)
    W, q = delassus(M, N), N @ v0 - c
    for sweeps in [1, 2, 5]:
        for omega in [0.7, 1.0, 1.4]:
            a = kkt_gauss_seidel(M, N, v0, c, lo=0.0, omega=omega, tol=1e-300, max_iter=sweeps)
            b = pgs(W, q, omega=omega, tol=1e-300, max_iter=sweeps)
            close(a.lam, b.z, 1e-12)
            close(a.residuals, b.residuals, 1e-9)
    res = kkt_gauss_seidel(M, N, v0, c, lo=0.0, tol=1e-12, max_iter=100000).check()
    close(res.lam, lemke(W, q).z, 1e-9)
    assert (N @ res.v - c).min() >= -1e-10


def test_gauss_seidel_warm_start_and_failure():
    rng = np.random.default_rng(10)
    M, N = random_system(rng, n=6, m=3)
    v0 = rng.normal(size=6)
    exact = kkt_gauss_seidel(M, N, v0, tol=1e-13, max_iter=100000).check()
    assert kkt_gauss_seidel(M, N, v0, lam0=exact.lam, tol=1e-8).iterations == 0
    res = kkt_gauss_seidel(M, N, v0, max_iter=1, tol=1e-14)
    assert not res.converged and "not converged" in res.message


# ---------------------------------------------------------------------------- input errors


def test_input_errors():
    rng = np.random.default_rng(11)
    M, G = random_system(rng)
    with pytest.raises(ValueError, match="M must be a square matrix"):
        kkt_matrix(np.ones((3, 4)), G)
    with pytest.raises(ValueError, match="G must be a matrix"):
        velocity_projection(M, np.ones(7))
    with pytest.raises(ValueError, match="G must have shape"):
        velocity_projection(M, G[:, :4])
    with pytest.raises(ValueError, match="G contains non-finite"):
        force_projection(M, np.full((3, 7), np.nan))
    with pytest.raises(ValueError, match="full row rank"):
        velocity_projection(M, np.vstack([G, G[:1]]))
    with pytest.raises(ValueError, match="M must be nonsingular"):
        solve_kkt(np.zeros((7, 7)), G, np.zeros(7))
    with pytest.raises(ValueError, match="b must have shape"):
        solve_kkt(M, G, np.zeros(6))
    with pytest.raises(ValueError, match="g must have shape"):
        solve_kkt(M, G, np.zeros(7), np.zeros(2))
    with pytest.raises(ValueError, match="M must be symmetric positive definite"):
        kkt_gauss_seidel(-M, G, np.zeros(7))
    with pytest.raises(ValueError, match="row 1 of N is zero"):
        kkt_gauss_seidel(M, np.vstack([G[:1], np.zeros((1, 7))]), np.zeros(7))
    with pytest.raises(ValueError, match="omega"):
        kkt_gauss_seidel(M, G, np.zeros(7), omega=-1.0)
    with pytest.raises(ValueError, match="v0 must have length 7"):
        kkt_gauss_seidel(M, G, np.zeros(6))
    with pytest.raises(ValueError, match="c must have length 3"):
        kkt_gauss_seidel(M, G, np.zeros(7), np.zeros(2))
    with pytest.raises(ValueError, match="N must be a 2-D matrix"):
        kkt_gauss_seidel(M, G[None], np.zeros(7))
