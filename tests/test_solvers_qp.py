"""Tests of spatial.solvers.qp: QP <-> LCP (ArtiSynth §0.3) and mixed LCP -> LCP (§0.7, §0.8)."""

import itertools
import warnings

import numpy as np
import pytest
from scipy.optimize import minimize

from spatial.solvers import (
    LCPError,
    force_projection,
    lemke,
    mixed_lcp_to_lcp,
    qp_kkt_lcp,
    qp_primal,
    qp_to_lcp,
    solve_mixed_lcp,
    solve_qp,
)


def random_spd(rng, n):
    A = rng.normal(size=(n, n))
    return A @ A.T + 0.5 * np.eye(n)


def slsqp(H, c, A, b, G=None, g=None, bounds=None):
    """Reference minimizer from scipy (an independent QP solver)."""
    cons = [{"type": "ineq", "fun": lambda x: A @ x - b, "jac": lambda x: A}]
    if G is not None:
        cons.append({"type": "eq", "fun": lambda x: G @ x - g, "jac": lambda x: G})
    x0 = np.zeros(H.shape[0])
    res = minimize(
        lambda x: 0.5 * x @ H @ x + c @ x,
        x0,
        jac=lambda x: H @ x + c,
        constraints=cons,
        bounds=bounds,
        method="SLSQP",
        options={"ftol": 1e-14, "maxiter": 500},
    )
    assert res.success, res.message
    return res.x


def brute_force_mixed(M, G, N, f, g, n):
    """Solve the mixed LCP by enumerating active sets (independent of the reduction)."""
    nx, m, p = M.shape[0], G.shape[0], N.shape[0]
    for k in range(p + 1):
        for S in itertools.combinations(range(p), k):
            S = list(S)
            C = np.vstack([G, N[S]])
            K = np.block([[M, -C.T], [C, np.zeros((m + k, m + k))]])
            sol = np.linalg.solve(K, np.concatenate([f, g, n[S]]))
            x, mult = sol[:nx], sol[nx:]
            z = np.zeros(p)
            z[S] = mult[m:]
            if z.min() >= -1e-10 and (N @ x - n).min() >= -1e-10:
                return x, mult[:m], z
    raise AssertionError("no active set solves the mixed LCP")


# ---------------------------------------------------------------------------- QP <-> LCP


def test_qp_to_lcp_by_hand():
    # min ½|x|² s.t. x1 + x2 >= 1: M = A Aᵀ = 2, q = -1, z = 1/2, x = (1/2, 1/2)
    M, q = qp_to_lcp(np.eye(2), np.zeros(2), [[1.0, 1.0]], [1.0])
    np.testing.assert_allclose(M, [[2.0]])
    np.testing.assert_allclose(q, [-1.0])
    z = lemke(M, q).z
    np.testing.assert_allclose(z, [0.5])
    np.testing.assert_allclose(qp_primal(np.eye(2), np.zeros(2), [[1.0, 1.0]], z), [0.5, 0.5])


@pytest.mark.parametrize("seed", range(6))
def test_qp_through_lcp_matches_slsqp(seed):
    rng = np.random.default_rng(seed)
    nx, m = 4 + seed % 3, 3 + seed % 4
    H, c = random_spd(rng, nx), rng.normal(size=nx)
    A, b = rng.normal(size=(m, nx)), rng.normal(size=m)
    Mq = qp_to_lcp(H, c, A, b)
    z = lemke(*Mq).check().z
    x = qp_primal(H, c, A, z)
    np.testing.assert_allclose(x, slsqp(H, c, A, b), atol=1e-6)
    # KKT conditions, checked directly: stationarity, feasibility, complementarity
    np.testing.assert_allclose(H @ x + c, A.T @ z, atol=1e-10)
    slack = A @ x - b
    assert slack.min() >= -1e-10 and z.min() >= -1e-12
    assert np.abs(z * slack).max() <= 1e-10
    # the slack is the LCP's w
    np.testing.assert_allclose(slack, Mq[0] @ z + Mq[1], atol=1e-10)
    # solve_qp (through the mixed-LCP reduction) gives the same
    res = solve_qp(H, c, A, b)
    np.testing.assert_allclose(res.x, x, atol=1e-10)
    np.testing.assert_allclose(res.z, z, atol=1e-10)
    # and so does a dense KKT solve on the right active set, found by enumeration (no LCP)
    x_kkt, _, z_kkt = brute_force_mixed(H, np.zeros((0, nx)), A, -c, np.zeros(0), b)
    np.testing.assert_allclose(x, x_kkt, atol=1e-9)
    np.testing.assert_allclose(z, z_kkt, atol=1e-9)


@pytest.mark.parametrize("seed", range(4))
def test_qp_with_equalities_matches_slsqp(seed):
    rng = np.random.default_rng(10 + seed)
    nx, m, p = 6, 2, 4
    H, c = random_spd(rng, nx), rng.normal(size=nx)
    A, b = rng.normal(size=(p, nx)), rng.normal(size=p)
    G, g = rng.normal(size=(m, nx)), rng.normal(size=m)
    res = solve_qp(H, c, A, b, G, g).check()
    np.testing.assert_allclose(res.x, slsqp(H, c, A, b, G, g), atol=1e-6)
    np.testing.assert_allclose(H @ res.x + c, A.T @ res.z + G.T @ res.lam, atol=1e-10)
    np.testing.assert_allclose(G @ res.x, g, atol=1e-10)
    np.testing.assert_allclose(res.w, A @ res.x - b, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_qp_kkt_lcp_with_singular_hessian(seed):
    # min ½ xᵀHx + cᵀx, x >= 0, A x >= b with H only PSD (rank 2)
    rng = np.random.default_rng(20 + seed)
    nx = 5
    R = rng.normal(size=(2, nx))
    H = R.T @ R
    c = rng.uniform(0.1, 1.0, nx)  # bounded below on x >= 0
    A, b = rng.uniform(0.1, 1.0, (2, nx)), rng.uniform(0.1, 1.0, 2)
    M, q = qp_kkt_lcp(H, c, A, b)
    sol = lemke(M, q).check().z
    x = sol[:nx]
    ref = slsqp(H, c, A, b, bounds=[(0, None)] * nx)
    f = lambda y: 0.5 * y @ H @ y + c @ y
    assert f(x) == pytest.approx(f(ref), abs=1e-8)
    assert x.min() >= -1e-12 and (A @ x - b).min() >= -1e-10


def test_qp_kkt_lcp_without_constraints():
    M, q = qp_kkt_lcp(np.eye(2), [-1.0, 1.0])
    np.testing.assert_allclose(M, np.eye(2))
    np.testing.assert_allclose(lemke(M, q).z, [1.0, 0.0])


# ---------------------------------------------------------------------------- mixed LCP


def mixed_problem(rng, nx=7, m=2, p=5):
    M = random_spd(rng, nx)
    return (
        M,
        rng.normal(size=(m, nx)),
        rng.normal(size=(p, nx)),
        rng.normal(size=nx) * 2,
        rng.normal(size=m),
        rng.normal(size=p),
    )


def test_reduced_lcp_is_the_projected_delassus_matrix():
    # ArtiSynth §0.7: N̄ A⁻¹ N̄ᵀ = N M⁻¹ P_f Nᵀ and q = N M⁻¹ f + N M⁻¹ Gᵀ λ0 - n
    rng = np.random.default_rng(30)
    M, G, N, f, g, n = mixed_problem(rng)
    red = mixed_lcp_to_lcp(M, G, N, f, g, n)
    Mi = np.linalg.inv(M)
    np.testing.assert_allclose(red.M, N @ Mi @ force_projection(M, G) @ N.T, atol=1e-10)
    lam0 = np.linalg.solve(G @ Mi @ G.T, g - G @ Mi @ f)
    np.testing.assert_allclose(red.q, N @ Mi @ f + N @ Mi @ G.T @ lam0 - n, atol=1e-10)
    np.testing.assert_allclose(red.M, red.M.T, atol=1e-12)
    assert np.linalg.eigvalsh(red.M).min() >= -1e-12
    for j in range(N.shape[0]):
        np.testing.assert_allclose(red.column(j), red.M[:, j], atol=1e-12)


@pytest.mark.parametrize("method", ["lemke", "principal_pivoting", "pgs"])
@pytest.mark.parametrize("seed", range(4))
def test_mixed_lcp_matches_direct_solution(method, seed):
    rng = np.random.default_rng(40 + seed)
    M, G, N, f, g, n = mixed_problem(rng)
    options = {"tol": 1e-12, "max_iter": 100000} if method == "pgs" else {}
    res = solve_mixed_lcp(M, G, N, f, g, n, method=method, **options).check()
    x, lam, z = brute_force_mixed(M, G, N, f, g, n)
    np.testing.assert_allclose(res.x, x, atol=1e-8)
    np.testing.assert_allclose(res.lam, lam, atol=1e-8)
    np.testing.assert_allclose(res.z, z, atol=1e-8)
    # the mixed LCP's own equations
    np.testing.assert_allclose(M @ res.x - G.T @ res.lam - N.T @ res.z, f, atol=1e-9)
    np.testing.assert_allclose(G @ res.x, g, atol=1e-10)


def test_mixed_lcp_without_bilateral_constraints():
    rng = np.random.default_rng(50)
    M, _, N, f, _, n = mixed_problem(rng)
    res = solve_mixed_lcp(M, None, N, f, None, n)
    x, _, z = brute_force_mixed(M, np.zeros((0, M.shape[0])), N, f, np.zeros(0), n)
    np.testing.assert_allclose(res.x, x, atol=1e-10)
    assert res.lam.shape == (0,)


def test_on_demand_pivoting_forms_few_columns():
    # 30 particles on a line above the ground, each with a ground contact; two pairs are joined
    # by rods (bilateral).  Only 4 particles are moving down into the ground.
    rng = np.random.default_rng(60)
    nx = 30
    M = np.diag(rng.uniform(1.0, 2.0, nx))
    G = np.zeros((2, nx))
    G[0, [3, 4]] = [1.0, -1.0]  # rods: equal vertical velocities
    G[1, [20, 21]] = [1.0, -1.0]
    N = np.eye(nx)  # contact i: particle i's upward velocity >= 0
    v_prev = rng.uniform(0.1, 1.0, nx)
    v_prev[[3, 4, 12, 20]] = [-1.0, -0.5, -2.0, -0.3]
    f = M @ v_prev  # momentum of the free step
    red = mixed_lcp_to_lcp(M, G, N, f, None, np.zeros(nx))
    res = solve_mixed_lcp(
        M, G, N, f, None, np.zeros(nx), method="principal_pivoting", on_demand=True
    )
    res.check()
    dense = solve_mixed_lcp(M, G, N, f, None, np.zeros(nx), method="lemke").check()
    np.testing.assert_allclose(res.x, dense.x, atol=1e-10)
    assert res.lcp.columns_formed < nx / 3
    assert red.M is not None
    assert mixed_lcp_to_lcp(M, G, N, f, None, np.zeros(nx), dense=False).M is None
    # physics: no particle moves down, the rod pairs move together
    assert res.x.min() >= -1e-12
    np.testing.assert_allclose(G @ res.x, 0, atol=1e-12)


@pytest.mark.parametrize("method", ["lemke", "principal_pivoting", "pgs"])
def test_infeasible_qp_and_mixed_lcp_are_reported(method):
    # x1 >= 1 and -x1 >= 0 cannot both hold: every solver must say so, not return an x
    M, N, n = np.eye(2), np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1.0, 0.0])
    options = {"max_iter": 200} if method == "pgs" else {}
    for res in (
        solve_mixed_lcp(M, None, N, np.zeros(2), None, n, method=method, **options),
        solve_qp(M, np.zeros(2), N, n, method=method, **options),
    ):
        assert not res.converged and not res.lcp.converged
        assert res.message == res.lcp.message
        with pytest.raises(LCPError, match="MixedLCPResult"):
            res.check()
    if method == "principal_pivoting":
        res = solve_mixed_lcp(M, None, N, np.zeros(2), None, n, method=method, on_demand=True)
        assert not res.converged and "no solution" in res.message


def test_qp_solvers_agree():
    rng = np.random.default_rng(70)
    H, c = random_spd(rng, 5), rng.normal(size=5)
    A, b = rng.normal(size=(6, 5)), rng.normal(size=6)
    xs = [solve_qp(H, c, A, b, method=mth).x for mth in ("lemke", "principal_pivoting")]
    xs.append(solve_qp(H, c, A, b, method="pgs", tol=1e-12, max_iter=100000).x)
    np.testing.assert_allclose(xs[0], xs[1], atol=1e-10)
    np.testing.assert_allclose(xs[0], xs[2], atol=1e-8)


# ---------------------------------------------------------------------------- input errors


def test_qp_input_errors():
    H, c, A, b = np.eye(2), np.zeros(2), np.ones((1, 2)), np.ones(1)
    with pytest.raises(ValueError, match="H must be symmetric positive definite"):
        qp_to_lcp(-np.eye(2), c, A, b)
    with pytest.raises(ValueError, match="H must be symmetric$"):
        qp_to_lcp([[1.0, 0.5], [0.0, 1.0]], c, A, b)
    with pytest.raises(ValueError, match="square"):
        qp_to_lcp(np.ones((2, 3)), c, A, b)
    with pytest.raises(ValueError, match="c must have length 2"):
        qp_to_lcp(H, np.zeros(3), A, b)
    with pytest.raises(ValueError, match="A must have shape"):
        qp_to_lcp(H, c, np.ones((1, 3)), b)
    with pytest.raises(ValueError, match="b must have length 1"):
        qp_to_lcp(H, c, A, np.ones(2))
    with pytest.raises(ValueError, match="A contains non-finite"):
        qp_to_lcp(H, c, [[np.nan, 1.0]], b)
    with pytest.raises(ValueError, match="z must have length 1"):
        qp_primal(H, c, A, np.ones(2))
    with pytest.raises(ValueError, match="H must be symmetric positive definite"):
        solve_qp(np.zeros((2, 2)), c, A, b)
    with pytest.raises(ValueError, match="H must be symmetric$"):
        qp_kkt_lcp([[1.0, 0.5], [0.0, 1.0]], c)
    with pytest.raises(ValueError, match="b must have length 1"):
        qp_kkt_lcp(H, c, A, np.ones(3))
    with pytest.raises(ValueError, match="A must be a 2-D matrix"):
        qp_to_lcp(H, c, np.ones((1, 1, 2)), b)


def test_singular_kkt_matrix_is_an_error_not_a_warning():
    # dependent rows of G: exactly singular (LAPACK reports a zero pivot) and, after rounding,
    # nearly singular (a tiny pivot that scipy's lu_factor would accept without a word)
    rng = np.random.default_rng(81)
    M, G, N, f, _, n = mixed_problem(rng)
    G_exact = np.vstack([G, G[:1]])
    G_rounded = np.vstack([G, G[0] + 1e-14 * G[1]])
    for G_bad in (G_exact, G_rounded):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # any LinAlgWarning fails the test
            with pytest.raises(ValueError, match="KKT matrix .* is singular"):
                mixed_lcp_to_lcp(M, G_bad, N, f, np.zeros(3), n)
            with pytest.raises(ValueError, match="KKT matrix .* is singular"):
                solve_mixed_lcp(M, G_bad, N, f, np.zeros(3), n)
    # M singular on the null space of G (a massless direction no constraint holds)
    M_bad = np.zeros_like(M)
    M_bad[0, 0] = 1.0
    with pytest.raises(ValueError, match="KKT matrix .* is singular"):
        mixed_lcp_to_lcp(M_bad, G, N, f, None, n)


def test_mixed_lcp_input_errors():
    rng = np.random.default_rng(80)
    M, G, N, f, g, n = mixed_problem(rng)
    with pytest.raises(ValueError, match="g must have length 2"):
        mixed_lcp_to_lcp(M, G, N, f, np.zeros(3), n)
    with pytest.raises(ValueError, match="N must have shape"):
        mixed_lcp_to_lcp(M, G, N[:, :3], f, g, n)
    with pytest.raises(ValueError, match="n must have length 5"):
        mixed_lcp_to_lcp(M, G, N, f, g, n[:2])
    with pytest.raises(ValueError, match="G and N must be 2-D"):
        mixed_lcp_to_lcp(M, G[None], N, f, g, n)
    with pytest.raises(ValueError, match="method must be one of"):
        solve_mixed_lcp(M, G, N, f, g, n, method="simplex")
    with pytest.raises(ValueError, match="on_demand=True needs"):
        solve_mixed_lcp(M, G, N, f, g, n, on_demand=True)
    with pytest.raises(ValueError, match="z must have length 5"):
        mixed_lcp_to_lcp(M, G, N, f, g, n).recover(np.zeros(2))


def test_reduction_solves_one_right_hand_side_at_a_time(monkeypatch):
    """LAPACK ``getrs`` only ever sees one right-hand side (OpenBLAS threads several, which a
    busy machine stalls for milliseconds per call), and the LCP matrix is still ``N A⁻¹ Nᵀ``."""
    from spatial.solvers import qp

    rng = np.random.default_rng(3)
    M, G, N = random_spd(rng, 6), rng.normal(size=(2, 6)), rng.normal(size=(5, 6))
    f, g, n = rng.normal(size=6), rng.normal(size=2), rng.normal(size=5)
    shapes = []
    original = qp.get_lapack_funcs

    def spy(names, arrays):
        funcs = original(names, arrays)
        if names != ("getrs",):
            return funcs
        (getrs,) = funcs
        return (lambda lu, piv, b, **k: shapes.append(np.shape(b)) or getrs(lu, piv, b, **k),)

    monkeypatch.setattr(qp, "get_lapack_funcs", spy)
    reduced = mixed_lcp_to_lcp(M, G, N, f, g, n)
    assert shapes and all(len(s) == 1 for s in shapes)
    K = np.block([[M, -G.T], [G, np.zeros((2, 2))]])
    lifted = np.vstack([N.T, np.zeros((2, 5))])
    assert np.allclose(reduced.M, N @ np.linalg.solve(K, lifted)[:6], rtol=1e-12, atol=1e-12)
    assert np.allclose(reduced.q, N @ np.linalg.solve(K, np.r_[f, g])[:6] - n, atol=1e-12)
