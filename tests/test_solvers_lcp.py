"""Tests of spatial.solvers.lcp and .pgs: Lemke, principal pivoting (on-demand columns), PGS."""

import numpy as np
import pytest

from spatial.solvers import (
    LCPError,
    complementarity_error,
    lemke,
    pgs,
    pgs_sweep,
    principal_pivoting,
)

SOLVERS = {
    "lemke": lemke,
    "principal_pivoting": principal_pivoting,
    "pgs": lambda M, q: pgs(M, q, tol=1e-10, max_iter=20000),
}


def random_pd(rng, n):
    A = rng.normal(size=(n, n))
    return A @ A.T + 0.5 * np.eye(n)


def solvable_psd(rng, n):
    """A rank-deficient contact-like PSD matrix (duplicated rows of J) and a q with a solution.

    The solution is planted: pick complementary z*, w* >= 0 and set q = w* - M z*.
    """
    k = max(1, n - 2)
    J = rng.normal(size=(k, n + 2))
    J = np.vstack([J, J[rng.integers(0, k, n - k)]])
    M = J @ np.diag(1 / rng.uniform(1, 3, n + 2)) @ J.T
    z = np.abs(rng.normal(size=n)) * (rng.random(n) < 0.5)
    w = np.abs(rng.normal(size=n)) * (z == 0)
    return M, w - M @ z


def assert_solves(res, M, q, tol):
    z, w = res.z, res.w
    scale = max(1.0, np.abs(q).max())
    assert res.converged, res.message
    np.testing.assert_allclose(w, M @ z + q, rtol=0, atol=1e-12 * scale * max(1, np.abs(z).max()))
    assert z.min() >= -tol * scale and w.min() >= -tol * scale
    assert np.max(np.abs(z * w)) <= tol * scale * max(1.0, np.abs(z).max(), np.abs(w).max())
    assert res.complementarity_error <= tol * scale


# ---------------------------------------------------------------------------- known values


def test_one_dimensional_closed_form():
    # w = a z + b: z = max(0, -b/a) for a > 0
    for a, b in [(2.0, -3.0), (2.0, 3.0), (0.5, 0.0), (4.0, -1e-3)]:
        for solve in SOLVERS.values():
            res = solve([[a]], [b])
            assert res.converged
            np.testing.assert_allclose(res.z, [max(0.0, -b / a)], atol=1e-12)


def test_two_by_two_by_hand():
    M = np.array([[2.0, 1.0], [1.0, 2.0]])
    # q = (-1, -1): both active, 2z1 + z2 = 1 = z1 + 2z2 -> z = (1/3, 1/3), w = 0
    # q = (-1, 2): only z1 active, z1 = 1/2, w2 = 1/2 + 2
    for q, z, w in [([-1, -1], [1 / 3, 1 / 3], [0, 0]), ([-1, 2], [0.5, 0], [0, 2.5])]:
        for name, solve in SOLVERS.items():
            res = solve(M, q)
            np.testing.assert_allclose(res.z, z, atol=1e-9, err_msg=name)
            np.testing.assert_allclose(res.w, w, atol=1e-9, err_msg=name)


def test_q_nonnegative_gives_zero_without_pivots():
    res = lemke(np.eye(3), [1.0, 0.0, 2.0])
    assert res.converged and res.iterations == 0
    np.testing.assert_array_equal(res.z, 0.0)


# ---------------------------------------------------------------------------- random problems


@pytest.mark.parametrize("n", [1, 2, 5, 12, 30])
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_positive_definite(name, n):
    rng = np.random.default_rng(100 + n)
    for _ in range(5):
        M, q = random_pd(rng, n), rng.normal(size=n)
        assert_solves(SOLVERS[name](M, q), M, q, 1e-8)


@pytest.mark.parametrize("n", [3, 6, 10, 20])
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_positive_semidefinite_with_solution(name, n):
    rng = np.random.default_rng(200 + n)
    for _ in range(5):
        M, q = solvable_psd(rng, n)
        assert np.linalg.matrix_rank(M) < n
        res = SOLVERS[name](M, q)
        assert_solves(res, M, q, 1e-8)


def test_psd_solutions_share_w():
    # Featherstone §11.5 property 2: for PSD M all solutions have the same w (and M z)
    rng = np.random.default_rng(7)
    for n in [4, 8, 15]:
        M, q = solvable_psd(rng, n)
        ws = [SOLVERS[name](M, q).w for name in SOLVERS]
        np.testing.assert_allclose(ws[0], ws[1], atol=1e-8)
        np.testing.assert_allclose(ws[0], ws[2], atol=1e-7)


@pytest.mark.parametrize("n", [2, 7, 25])
def test_lemke_and_principal_pivoting_agree_on_pd(n):
    rng = np.random.default_rng(300 + n)
    for _ in range(10):
        M, q = random_pd(rng, n), rng.normal(size=n) * 3
        np.testing.assert_allclose(lemke(M, q).z, principal_pivoting(M, q).z, atol=1e-9)


def test_nonsymmetric_p_matrix():
    # M = SPD + skew is positive definite (not symmetric), hence a P-matrix: unique solution
    rng = np.random.default_rng(11)
    for n in [3, 8]:
        S = rng.normal(size=(n, n))
        M = random_pd(rng, n) + (S - S.T)
        q = rng.normal(size=n)
        a, b = lemke(M, q), principal_pivoting(M, q)
        assert_solves(a, M, q, 1e-9)
        assert_solves(b, M, q, 1e-9)
        np.testing.assert_allclose(a.z, b.z, atol=1e-9)


def test_degenerate_ties_are_resolved():
    # equal ratios in the first pivot and zero entries in q (degenerate bases)
    n = 4
    M = np.eye(n) + np.ones((n, n))
    for q in [-np.ones(n), np.array([-1.0, -1.0, 0.0, 0.0]), np.array([0.0, -2.0, -2.0, 0.0])]:
        assert_solves(lemke(M, q), M, q, 1e-10)
        assert_solves(principal_pivoting(M, q), M, q, 1e-10)


# ---------------------------------------------------------------------------- failures


def test_infeasible_lcp_reported_by_lemke():
    # w = -z - 1 < 0 for every z >= 0: no solution
    res = lemke([[-1.0]], [-1.0])
    assert not res.converged
    assert "ray termination" in res.message and "no solution" in res.message
    with pytest.raises(LCPError, match="ray termination"):
        res.check()


def test_infeasible_psd_lcp():
    # w1 + w2 = -2 for every z: infeasible; M is PSD, so ray termination proves it
    M, q = np.array([[1.0, -1.0], [-1.0, 1.0]]), np.array([-1.0, -1.0])
    res = lemke(M, q)
    assert not res.converged and "ray termination" in res.message
    res = principal_pivoting(M, q)
    assert not res.converged and "no solution" in res.message
    with pytest.raises(LCPError, match="no solution"):
        res.check()


def test_check_returns_result_on_success():
    res = lemke(np.eye(2), [-1.0, 1.0])
    assert res.check() is res


def test_iteration_limit_reports_cycling():
    rng = np.random.default_rng(5)
    M, q = random_pd(rng, 6), -np.abs(rng.normal(size=6)) - 1
    res = lemke(M, q, max_iter=2)
    assert not res.converged and "cycling" in res.message
    res = principal_pivoting(M, q, max_iter=2)
    assert not res.converged and "iteration limit" in res.message


def test_principal_pivoting_singular_block():
    # PSD but not symmetric (nor a P-matrix): driving z1 up, w2 = 1 - z1 blocks first at
    # z1 = 1, and index 2 cannot join because M22 = 0.  Lemke still solves it: z = (1, 1).
    M, q = np.array([[1.0, 1.0], [-1.0, 0.0]]), np.array([-2.0, 1.0])
    res = principal_pivoting(M, q)
    assert not res.converged and "singular principal block" in res.message
    np.testing.assert_allclose(lemke(M, q).z, [1.0, 1.0], atol=1e-12)


def test_pgs_reports_non_convergence():
    rng = np.random.default_rng(8)
    M, q = random_pd(rng, 10), rng.normal(size=10)
    res = pgs(M, q, max_iter=3)
    assert not res.converged and res.iterations == 3 and "not converged" in res.message


# ---------------------------------------------------------------------------- Lemke trace


def test_lemke_trace():
    M = np.array([[2.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 1.0, 2.0]])
    q = np.array([-1.0, -1.0, 1.0])
    res = lemke(M, q, trace=True)
    assert res.converged and len(res.trace) == res.iterations
    first, last = res.trace[0], res.trace[-1]
    assert first.entering == "z0" and first.leaving in ("w1", "w2")
    assert last.leaving == "z0"
    for step in res.trace:  # basic values stay nonnegative on the whole path
        assert step.values.min() >= -1e-12
    for prev, step in zip(res.trace, res.trace[1:], strict=False):  # complementary pivot rule
        comp = ("z" if prev.leaving[0] == "w" else "w") + prev.leaving[1:]
        assert step.entering == comp
    # final basis is complementary: never both z_i and w_i
    for i in range(1, 4):
        assert not ({f"z{i}", f"w{i}"} <= set(last.basis))
    # by hand: z3 = 0, 2 z1 + z2 = 1, z1 + 2 z2 = 1 -> z = (1/3, 1/3, 0), w3 = 1/3 + 1
    np.testing.assert_allclose(res.z, [1 / 3, 1 / 3, 0], atol=1e-12)


# ---------------------------------------------------------------------------- box-bounded LCP


def test_box_lcp_lemke_matches_pgs_and_conditions():
    rng = np.random.default_rng(21)
    for n in [1, 3, 8]:
        for _ in range(5):
            M, q = random_pd(rng, n), 3 * rng.normal(size=n)
            lo = -rng.uniform(0.1, 1, n)
            hi = rng.uniform(0.1, 1, n)
            lo[0], hi[-1] = 0.0, np.inf  # mix: a contact-like row and a one-sided row
            a = lemke(M, q, lo=lo, hi=hi)
            b = pgs(M, q, lo=lo, hi=hi, tol=1e-12, max_iter=20000)
            assert a.converged and b.converged
            np.testing.assert_allclose(a.z, b.z, atol=1e-9)
            z, w = a.z, a.w
            assert np.all(z >= lo - 1e-12) and np.all(z <= hi + 1e-12)
            inside = (z > lo + 1e-9) & (z < hi - 1e-9)
            np.testing.assert_allclose(w[inside], 0, atol=1e-9)
            assert np.all(w[np.isclose(z, lo)] >= -1e-9)
            assert np.all(w[np.isclose(z, hi)] <= 1e-9)


def test_box_lcp_upper_bound_only():
    # z <= 1 only: flipped in sign internally.  w = z + 3 with z in (-inf, 1] -> z = -3, w = 0
    res = lemke([[1.0]], [3.0], lo=-np.inf, hi=1.0)
    np.testing.assert_allclose(res.z, [-3.0], atol=1e-12)
    # w = z - 3 wants z = 3 > 1: z at the upper bound with w = -2 <= 0
    res = lemke([[1.0]], [-3.0], lo=-np.inf, hi=1.0)
    np.testing.assert_allclose([res.z[0], res.w[0]], [1.0, -2.0], atol=1e-12)


def test_box_lcp_error_definition():
    # inside the box w must vanish, at a bound it must have the right sign
    lo, hi = np.array([-1.0, -1.0, -1.0]), np.array([1.0, 1.0, 1.0])
    assert complementarity_error([0.5, -1.0, 1.0], [0.0, 2.0, -3.0], lo, hi) == 0.0
    assert complementarity_error([0.5, 0.0, 0.0], [0.2, 0.0, 0.0], lo, hi) == pytest.approx(0.2)
    assert complementarity_error([1.0, 0.0, 0.0], [0.5, 0.0, 0.0], lo, hi) == pytest.approx(0.5)


# ---------------------------------------------------------------------------- complementarity


def test_complementarity_error_definition():
    assert complementarity_error([0.0, 2.0], [3.0, 0.0]) == 0.0
    assert complementarity_error([1.0, 2.0], [3.0, 0.0]) == 1.0  # both positive
    assert complementarity_error([-0.5, 0.0], [3.0, 1.0]) == 0.5  # negative z
    assert complementarity_error([0.0, 0.0], [3.0, -0.25]) == 0.25  # negative w
    assert complementarity_error([], []) == 0.0


# ---------------------------------------------------------------------------- on-demand columns


def test_on_demand_columns_few_active_contacts():
    # 40 contacts on a chain of particles, only 3 are pressed together (q < 0)
    rng = np.random.default_rng(31)
    n = 40
    J = np.eye(n) - np.eye(n, k=1)  # contact i pushes particles i and i+1 apart
    M = J @ np.diag(1 / rng.uniform(1, 2, n)) @ J.T
    q = rng.uniform(0.5, 1.0, n)
    q[[4, 17, 30]] = -1.0
    calls = []

    def column(j):
        calls.append(j)
        return M[:, j]

    res = principal_pivoting(q=q, column=column)
    assert_solves(res, M, q, 1e-10)
    np.testing.assert_allclose(res.z, lemke(M, q).z, atol=1e-10)
    assert res.columns_formed == len(set(calls)) == len(calls)  # each column formed once
    assert res.columns_formed < n / 4


def test_columns_formed_reported_with_dense_matrix():
    res = principal_pivoting(np.eye(5) * 2, [-1.0, 1.0, -1.0, 1.0, 1.0])
    assert res.columns_formed == 2


# ---------------------------------------------------------------------------- PGS


def test_pgs_sweep_by_hand():
    # z1 <- max(0, z1 - (2 z1 + z2 - 1)/2) = max(0, 0.5 - 0.5 z2) with the old z2 = 1  -> 0
    # z2 <- max(0, z2 - (z1 + 2 z2 - 1)/2) with the new z1 = 0 -> 0.5
    M, q = np.array([[2.0, 1.0], [1.0, 2.0]]), np.array([-1.0, -1.0])
    np.testing.assert_allclose(pgs_sweep(M, q, [0.0, 1.0]), [0.0, 0.5])
    # over-relaxed, with a box
    z = pgs_sweep(M, q, [0.0, 0.0], lo=-0.2, hi=0.6, omega=1.5)
    np.testing.assert_allclose(z, [0.6, min(0.6, 0.0 + 1.5 * (1 - 0.6) / 2)])


def test_pgs_monotone_on_diagonally_dominant_problem():
    rng = np.random.default_rng(41)
    n = 30
    A = rng.uniform(-1, 1, (n, n))
    M = (A + A.T) / 2
    M[np.diag_indices(n)] = np.abs(M).sum(axis=1) + 1.0  # strictly diagonally dominant
    q = rng.normal(size=n)
    res = pgs(M, q, tol=1e-13)
    assert res.converged
    assert np.all(np.diff(res.residuals) < 0)  # the error drops at every sweep
    assert res.residuals[-1] <= 1e-13 * np.abs(q).max()


def test_pgs_decreases_qp_objective():
    # every sweep lowers f(z) = ½ zᵀMz + qᵀz (exact coordinate minimization, 0 < ω < 2)
    rng = np.random.default_rng(42)
    M, q = random_pd(rng, 12), rng.normal(size=12)
    for omega in [0.5, 1.0, 1.6]:
        z, f = np.zeros(12), 0.0
        for _ in range(40):
            z = pgs_sweep(M, q, z, omega=omega)
            f_new = 0.5 * z @ M @ z + q @ z
            assert f_new <= f + 1e-13
            f = f_new


@pytest.mark.parametrize("omega", [0.6, 1.0, 1.3, 1.8])
def test_pgs_relaxation_converges(omega):
    rng = np.random.default_rng(43)
    M, q = random_pd(rng, 15), rng.normal(size=15)
    res = pgs(M, q, omega=omega, tol=1e-10, max_iter=50000)
    assert_solves(res, M, q, 1e-10)
    np.testing.assert_allclose(res.z, lemke(M, q).z, atol=1e-8)


def test_pgs_warm_start_at_solution():
    rng = np.random.default_rng(44)
    M, q = random_pd(rng, 6), rng.normal(size=6)
    z = lemke(M, q).z
    assert pgs(M, q, z0=z).iterations == 0


# ---------------------------------------------------------------------------- input errors


@pytest.mark.parametrize("solver", [lemke, principal_pivoting, pgs])
def test_bad_matrix_and_vector(solver):
    with pytest.raises(ValueError, match="square"):
        solver(np.ones((2, 3)), np.ones(2))
    with pytest.raises(ValueError, match="q must have length 2"):
        solver(np.eye(2), np.ones(3))
    with pytest.raises(ValueError, match="M contains non-finite"):
        solver([[1.0, np.nan], [0.0, 1.0]], np.ones(2))
    with pytest.raises(ValueError, match="q contains non-finite"):
        solver(np.eye(2), [np.nan, 1.0])
    with pytest.raises(ValueError, match="tol"):
        solver(np.eye(2), np.ones(2), tol=0.0)
    with pytest.raises(ValueError, match="max_iter"):
        solver(np.eye(2), np.ones(2), max_iter=0)


def test_lemke_input_errors():
    with pytest.raises(ValueError, match="covering vector"):
        lemke(np.eye(2), [-1.0, 1.0], d=[1.0, 0.0])
    with pytest.raises(ValueError, match="d must have length 2"):
        lemke(np.eye(2), [-1.0, 1.0], d=[1.0])
    with pytest.raises(ValueError, match="no finite bound"):
        lemke(np.eye(2), [-1.0, 1.0], lo=-np.inf, hi=np.inf)
    with pytest.raises(ValueError, match="covering vector d is only"):
        lemke(np.eye(2), [-1.0, 1.0], lo=0.0, hi=1.0, d=[1.0, 1.0])
    with pytest.raises(ValueError, match="lo must not exceed hi"):
        lemke(np.eye(2), [-1.0, 1.0], lo=[0.0, 2.0], hi=1.0)
    with pytest.raises(ValueError, match="lo contains nan"):
        lemke(np.eye(2), [-1.0, 1.0], lo=[0.0, np.nan])
    with pytest.raises(ValueError, match="hi must be a scalar or a vector of length 2"):
        lemke(np.eye(2), [-1.0, 1.0], hi=[1.0, 1.0, 1.0])
    with pytest.raises(ValueError, match="lo must be < \\+inf"):
        lemke(np.eye(2), [-1.0, 1.0], lo=np.inf)


def test_principal_pivoting_input_errors():
    with pytest.raises(ValueError, match="exactly one of M"):
        principal_pivoting(np.eye(2), [1.0, -1.0], column=lambda j: np.eye(2)[:, j])
    with pytest.raises(ValueError, match="exactly one of M"):
        principal_pivoting(q=[1.0, -1.0])
    with pytest.raises(ValueError, match="q is required"):
        principal_pivoting(np.eye(2))
    with pytest.raises(ValueError, match=r"column\(1\) must return"):
        principal_pivoting(q=[1.0, -1.0], column=lambda j: np.ones(3))
    with pytest.raises(ValueError, match=r"column\(0\) must return"):
        principal_pivoting(q=[-1.0, 1.0], column=lambda j: [np.nan, 1.0])


def test_pgs_input_errors():
    with pytest.raises(ValueError, match="positive diagonal"):
        pgs([[0.0, 1.0], [1.0, 1.0]], [-1.0, 1.0])
    with pytest.raises(ValueError, match="omega"):
        pgs(np.eye(2), [-1.0, 1.0], omega=2.0)
    with pytest.raises(ValueError, match="z0 must have length 2"):
        pgs(np.eye(2), [-1.0, 1.0], z0=[0.0])
    with pytest.raises(ValueError, match="z must have length 2"):
        pgs_sweep(np.eye(2), [-1.0, 1.0], [0.0])
    with pytest.raises(ValueError, match="omega"):
        pgs_sweep(np.eye(2), [-1.0, 1.0], [0.0, 0.0], omega=0.0)


def test_complementarity_error_input_errors():
    with pytest.raises(ValueError, match="w must have length 2"):
        complementarity_error([0.0, 1.0], [1.0])
    with pytest.raises(ValueError, match="z must be a 1-D vector"):
        complementarity_error([[0.0, 1.0]], [1.0, 0.0])
    with pytest.raises(ValueError, match="z contains non-finite"):
        complementarity_error([np.nan], [1.0])


# ---------------------------------------------------------------------------- exercises (nb 17)


def test_chapter_17_checkers_accept_right_and_reject_typical_mistakes():
    from spatial.exercises import ch17

    def right_sweep(M, q, z):
        z = np.array(z, dtype=float)
        for i in range(len(z)):
            z[i] = max(0.0, z[i] - (M[i] @ z + q[i]) / M[i, i])
        return z

    def in_place_sweep(M, q, z):
        for i in range(len(z)):
            z[i] = max(0.0, z[i] - (M[i] @ z + q[i]) / M[i, i])
        return z

    def right_qp(H, c, A, b):
        return A @ np.linalg.solve(H, A.T), -b - A @ np.linalg.solve(H, c)

    ch17.CHECKS["17.1"](lambda z, w: float(np.max(np.abs(np.minimum(z, w)), initial=0.0)))
    ch17.CHECKS["17.2"](right_sweep)
    ch17.CHECKS["17.3"](right_qp)
    with pytest.raises(AssertionError, match="largest difference"):  # |z w| is not the error
        ch17.CHECKS["17.1"](lambda z, w: float(np.max(np.abs(z * w), initial=0.0)))
    with pytest.raises(AssertionError, match="Jacobi"):
        ch17.CHECKS["17.2"](lambda M, q, z: np.maximum(0.0, z - (M @ z + q) / np.diag(M)))
    with pytest.raises(AssertionError, match="changed its input"):
        ch17.CHECKS["17.2"](in_place_sweep)
    with pytest.raises(AssertionError, match="q for"):  # sign of b
        ch17.CHECKS["17.3"](
            lambda H, c, A, b: (right_qp(H, c, A, b)[0], b - A @ np.linalg.solve(H, c))
        )
    with pytest.raises(AssertionError, match="tuple"):
        ch17.CHECKS["17.3"](lambda H, c, A, b: right_qp(H, c, A, b)[0])
