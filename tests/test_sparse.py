"""Tests of spatial.dynamics.sparse (Featherstone §6.4–6.5, Tables 6.3–6.6, §6.1).

The sparse factors are checked against dense linear algebra (they reproduce ``H``, ``L`` equals
the Cholesky factor of the reversed matrix, solves equal ``np.linalg.solve``), the no-fill-in
property, the operation counts against eq. 6.28 and direct counts, and forward dynamics
against the RNEA and the articulated-body algorithm.
"""

import numpy as np
import pytest

from spatial.builders import branched_tree, random_tree, renumber
from spatial.dynamics import (
    bias_force,
    crba,
    forward_dynamics,
    ltdl,
    ltdl_solve,
    ltl,
    ltl_solve,
    mul_H,
    mul_L,
    mul_Lt,
    operation_counts,
    rnea,
    solve_L,
    solve_Lt,
    sparsity_sums,
)

ALL_JOINTS = ("R", "P", "H", "C", "PL", "SY", "S", "FREE", "RP", "F", "~RP", "~S")
TOL = 1e-10


def assert_close(got, expected, tol=TOL):
    """Max-norm error relative to the size of ``expected`` (at least 1)."""
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    err = np.abs(got - expected).max(initial=0.0)
    assert err <= tol * max(1.0, np.abs(expected).max(initial=0.0)), err


def pattern(lam):
    """Dense (n, n) mask: [k, j] for j == k or j an ancestor of k, by walking λ (independent)."""
    n = len(lam)
    mask = np.zeros((n, n), dtype=bool)
    for k in range(n):
        j = k
        while j != -1:
            mask[k, j] = True
            j = lam[j]
    return mask


def random_sparse_spd(rng, lam, shape=()):
    """H = GᵀG with G lower-triangular on the λ pattern: SPD with branch-induced sparsity."""
    n = len(lam)
    G = rng.standard_normal(tuple(shape) + (n, n)) * pattern(lam)
    G[..., np.arange(n), np.arange(n)] = rng.uniform(1.0, 2.0, size=tuple(shape) + (n,))
    return np.swapaxes(G, -1, -2) @ G


PARENT_ARRAYS = {
    "chain": np.arange(7) - 1,
    "all roots": -np.ones(5, dtype=int),
    "binary": np.array([-1, 0, 0, 1, 1, 2, 2, 3, 3]),
    "Table 6.4 example": np.array([-1, 0, 1, 2, 0, 3, 3, 4]),  # the book's (0,1,2,3,1,4,4,5)
}


@pytest.fixture(params=list(PARENT_ARRAYS))
def system(request):
    rng = np.random.default_rng(list(PARENT_ARRAYS).index(request.param))
    lam = PARENT_ARRAYS[request.param]
    return random_sparse_spd(rng, lam), lam, rng


@pytest.fixture(params=[0, 1])
def tree(request):
    rng = np.random.default_rng(700 + request.param)
    model = random_tree(rng, 9, joints=ALL_JOINTS, branching=0.7, floating=request.param == 1)
    q = model.random_configuration(rng)
    return model, q, rng.standard_normal(model.nv), rng.standard_normal(model.nv), rng


# ----------------------------------------------------------------------------- Table 6.3


def test_factors_reproduce_H(system):
    H, lam, _ = system
    L = ltl(H, lam)
    assert_close(L.T @ L, H)
    assert np.all(L == np.tril(L)) and np.all(np.diag(L) > 0)
    L1, D = ltdl(H, lam)
    assert_close(L1.T @ np.diag(D) @ L1, H)
    assert np.all(np.diag(L1) == 1.0) and np.all(L1 == np.tril(L1))
    assert_close(L, np.sqrt(D)[:, None] * L1)  # the two factorizations agree


def test_ltl_is_the_cholesky_factor_of_the_reversed_matrix(system):
    """H = LᵀL is Cholesky on the reversed ordering: P H P = (P Lᵀ P)(P L P) (George & Liu)."""
    H, lam, _ = system
    G = np.linalg.cholesky(H[::-1, ::-1])
    assert_close(ltl(H, lam), G.T[::-1, ::-1])


def test_no_fill_in(system):
    """L[k, j] = 0 whenever j is not an ancestor of k (Featherstone §6.4)."""
    H, lam, _ = system
    outside = ~pattern(lam)
    assert np.all(ltl(H, lam)[outside] == 0.0)
    assert np.all(ltdl(H, lam)[0][outside] == 0.0)


def test_no_fill_in_on_crba(tree):
    model, q, _, _, _ = tree
    H, lam = crba(model, q), model.expanded_parent()
    L, D = ltdl(H, lam)
    assert np.all(L[~pattern(lam)] == 0.0)
    assert_close(L.T @ np.diag(D) @ L, H)


# ----------------------------------------------------------------------------- Table 6.5


def test_products_and_substitutions(system):
    H, lam, rng = system
    x = rng.standard_normal(len(lam))
    for L in (ltl(H, lam), ltdl(H, lam)[0]):
        assert_close(mul_L(L, lam, x), L @ x)
        assert_close(mul_Lt(L, lam, x), L.T @ x)
        assert_close(solve_L(L, lam, x), np.linalg.solve(L, x))
        assert_close(solve_Lt(L, lam, x), np.linalg.solve(L.T, x))
    assert_close(mul_H(H, lam, x), H @ x)


def test_solves_equal_numpy(system):
    H, lam, rng = system
    b = rng.standard_normal(len(lam))
    expected = np.linalg.solve(H, b)
    assert_close(ltl_solve(ltl(H, lam), lam, b), expected)
    assert_close(ltdl_solve(*ltdl(H, lam), lam, b), expected)


def test_batched_equals_looped(system):
    _, lam, rng = system
    H = random_sparse_spd(rng, lam, (2, 3))
    x = rng.standard_normal((3, len(lam)))
    L, (L1, D) = ltl(H, lam), ltdl(H, lam)
    results = {
        "ltl": L,
        "L1": L1,
        "D": D,
        "mul_L": mul_L(L, lam, x),
        "mul_Lt": mul_Lt(L, lam, x),
        "solve_L": solve_L(L, lam, x),
        "solve_Lt": solve_Lt(L, lam, x),
        "mul_H": mul_H(H, lam, x),
        "ltdl_solve": ltdl_solve(L1, D, lam, x),
    }
    for a in range(2):
        for b in range(3):
            h, xb = H[a, b], x[b]
            la, (l1, d) = ltl(h, lam), ltdl(h, lam)
            assert_close(results["ltl"][a, b], la)
            assert_close(results["L1"][a, b], l1)
            assert_close(results["D"][a, b], d)
            assert_close(results["mul_L"][a, b], mul_L(la, lam, xb))
            assert_close(results["mul_Lt"][a, b], mul_Lt(la, lam, xb))
            assert_close(results["solve_L"][a, b], solve_L(la, lam, xb))
            assert_close(results["solve_Lt"][a, b], solve_Lt(la, lam, xb))
            assert_close(results["mul_H"][a, b], mul_H(h, lam, xb))
            assert_close(results["ltdl_solve"][a, b], ltdl_solve(l1, d, lam, xb))


# ----------------------------------------------------------------------------- Table 6.6


def test_sparsity_sums_of_chain_and_star():
    for n in (1, 4, 9):
        assert sparsity_sums(np.arange(n) - 1) == ((n * n - n) // 2, (n**3 - n) // 6)  # eq. 6.28
        assert sparsity_sums(-np.ones(n, dtype=int)) == (0, 0)


def test_sparsity_sums_count_nonzeros_and_updates(tree):
    """D₁ = entries below the diagonal in the pattern; D₂ = the area-3 updates, counted."""
    model, _, _, _, _ = tree
    lam = model.expanded_parent()
    D1, D2 = sparsity_sums(lam)
    mask = pattern(lam)
    assert D1 == np.count_nonzero(np.tril(mask, -1))
    area3 = sum(mask[i].sum() for k in range(len(lam)) for i in np.flatnonzero(mask[k]) if i != k)
    assert D2 == area3


def test_operation_counts_dense_and_binary():
    n = 7
    dense = operation_counts(np.arange(n) - 1)
    assert dense["ltl"] == {"mul": 56, "add": 56, "div": 21, "sqrt": 7}  # standard Cholesky
    assert dense["ltdl_solve"] == {"mul": 42, "add": 42, "div": 7, "sqrt": 0}
    assert dense["mul_H"]["mul"] == n * n
    binary = branched_tree(n, branching_factor=2.0)  # depths 1, 2, 2, 3, 3, 3, 3
    counts = operation_counts(binary.expanded_parent())
    assert counts["ltdl"] == {"mul": 14, "add": 14, "div": 10, "sqrt": 0}


# ----------------------------------------------------------------------------- §6.1


def test_forward_dynamics_inverts_rnea(tree):
    model, q, qd, qdd, rng = tree
    f_ext = rng.standard_normal((model.NB + 1, 6))
    f_ext[0] = 0.0
    tau = rnea(model, q, qd, qdd, f_ext)
    assert_close(forward_dynamics(model, q, qd, tau, f_ext), qdd, tol=1e-9)
    H, C = crba(model, q), bias_force(model, q, qd)
    assert_close(forward_dynamics(model, q, qd, tau), np.linalg.solve(H, tau - C), tol=1e-9)


def test_forward_dynamics_batched_and_renumbered(tree):
    model, _, _, _, rng = tree
    q = model.random_configuration(rng, (2, 3))
    qd, tau = rng.standard_normal((2, 2, 3, model.nv))
    qdd = forward_dynamics(model, q, qd, tau)
    for a in range(2):
        for b in range(3):
            assert_close(qdd[a, b], forward_dynamics(model, q[a, b], qd[a, b], tau[a, b]))
    order = [1]
    while len(order) < model.NB:
        order.append(
            max(
                i
                for i in range(2, model.NB + 1)
                if i not in order and model.parent[i] in [0, *order]
            )
        )
    new, q_perm, v_perm = renumber(model, order)
    assert_close(
        forward_dynamics(new, q[..., q_perm], qd[..., v_perm], tau[..., v_perm]),
        qdd[..., v_perm],
        tol=1e-9,
    )


# ----------------------------------------------------------------------------- errors


def test_bad_input_raises(system):
    H, lam, _ = system
    n = len(lam)
    x = np.ones(n)
    with pytest.raises(ValueError, match="one entry per row"):
        ltl(H, lam[:-1])
    with pytest.raises(ValueError, match="-1 ≤ lam"):
        ltdl(H, np.arange(n))
    with pytest.raises(ValueError, match="1-D sequence of ints"):
        sparsity_sums([0.5, -1])
    with pytest.raises(ValueError, match=r"shape \(\.\.\., n, n\)"):
        ltl(H[:, :-1], lam)
    asymmetric = H.copy()
    asymmetric[0, -1] += 1.0  # the upper triangle is not read, but H must be symmetric
    with pytest.raises(ValueError, match="symmetric"):
        ltdl(asymmetric, lam)
    with pytest.raises(ValueError, match="not positive definite"):
        ltl(-H, lam)
    with pytest.raises(ValueError, match="not positive definite"):
        ltdl(-H, lam)
    with pytest.raises(ValueError, match="x must have shape"):
        mul_H(H, lam, np.ones(n + 1))
    L = ltl(H, lam)
    with pytest.raises(ValueError, match="batch shapes do not broadcast"):
        mul_L(np.stack([L, L]), lam, np.ones((3, n)))
    L_singular = L.copy()
    L_singular[-1, -1] = 0.0
    with pytest.raises(ValueError, match="zero on its diagonal"):
        solve_L(L_singular, lam, x)
    with pytest.raises(ValueError, match="D has a zero"):
        ltdl_solve(*ltdl(H, lam)[:1], np.zeros(n), lam, x)
    with pytest.raises(ValueError, match="D must have shape"):
        ltdl_solve(L, np.ones(n + 1), lam, x)


def test_entries_outside_the_pattern_raise():
    lam = PARENT_ARRAYS["binary"]
    H = random_sparse_spd(np.random.default_rng(3), lam)
    H[5, 3] = H[3, 5] = 0.1  # 3 is not an ancestor of 5
    with pytest.raises(ValueError, match=r"H\[5, 3\] is non-zero but 3 is not an ancestor of 5"):
        ltl(H, lam)
    with pytest.raises(ValueError, match=r"L\[5, 3\] is non-zero"):
        mul_L(np.tril(H), lam, np.ones(len(lam)))


def test_forward_dynamics_bad_input():
    model = random_tree(np.random.default_rng(4), 3, joints=("R",))
    with pytest.raises(ValueError, match="tau must have shape"):
        forward_dynamics(model, np.zeros(3), np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match="row 0 is the fixed base"):
        forward_dynamics(model, np.zeros(3), np.zeros(3), np.zeros(3), np.ones((4, 6)))


# ----------------------------------------------------------------------------- loop joints


def test_forward_dynamics_refuses_loop_joints_and_answers_for_the_spanning_tree_on_request(
    four_bar_and_open_tree,
):
    """The inertia-matrix method refuses a model with a loop joint (naming it and pointing at
    the ch. 8 functions); on spanning_tree() it solves the hand-built tree's H q̈ = τ - C."""
    model, open_tree, q, qd, tau = four_bar_and_open_tree
    refusal = (
        r"forward_dynamics computes .* loop joint \('pin C'\).*loop_forward_dynamics"
        r".*spanning_tree\(\)"
    )
    with pytest.raises(ValueError, match=refusal):
        forward_dynamics(model, q, qd, tau)
    expected = np.linalg.solve(crba(open_tree, q), tau - bias_force(open_tree, q, qd))
    got = forward_dynamics(model.spanning_tree(), q, qd, tau)
    np.testing.assert_allclose(got, expected, rtol=1e-12)
