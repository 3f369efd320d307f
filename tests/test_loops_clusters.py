"""Loop clusters and the block-by-block explicit form (Featherstone §8.9).

Loops that share no tree joint with a freedom form separate clusters; ``K`` is zero outside
each cluster's rows and columns, so ``K x = k`` can be solved one block at a time.  The block
solve is checked against the solve of the whole matrix (same ``G`` for the same independent
variables, same ``q̈`` for any) on independent loops, coupled loops, overconstrained (planar)
loops and loops that only share a joint without freedom.
"""

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial.dynamics import loops as L
from spatial.joints import Fixed, Revolute, Spherical
from spatial.model import Model

ROUND_OFF = 1e-12  # same arithmetic on the same blocks, relative


def _rel(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.abs(a - b).max(initial=0.0) / max(1.0, np.abs(b).max(initial=0.0))


def _allowed_velocity(model, q, rng):
    """A random ``q̇`` with ``K q̇ = 0``, from an SVD null-space basis (not from G)."""
    K, _ = L.loop_constraints(model, q, np.zeros(model.nv))
    null = np.linalg.svd(K)[2][np.linalg.matrix_rank(K) :].T
    return null @ rng.standard_normal(null.shape[1])


def _twin_four_bars_and_a_pendulum():
    """Two four-bars on one base (two clusters, 3 redundant constraints each) + a free pendulum."""
    model = B.four_bar()
    a = model.add_body(0, Revolute("z"), sp.xlt([3, 0, 0]), model.inertia[1])
    b = model.add_body(a, Revolute("z"), sp.xlt([0.3, 0, 0]), model.inertia[2])
    c = model.add_body(0, Revolute("z"), sp.xlt([3.9, 0, 0]), model.inertia[3])
    model.add_loop_joint(b, c, Revolute("z"), sp.xlt([1.0, 0, 0]), sp.xlt([0.8, 0, 0]))
    model.add_body(0, Revolute("x"), sp.xlt([-1, 0, 0]), model.inertia[1], name="pendulum")
    closure = L.four_bar_closure()
    q = np.concatenate([closure.gamma([0.4]), closure.gamma([2.0]), [0.3]])
    return model, q


def _loops_sharing_a_fixed_joint(rng):
    """Two spatial loops whose paths meet only at a welded (Fixed) platform, closed at q."""
    inertia = sp.mcI(1.0, [0.2, 0.0, 0.0], np.diag([0.02, 0.03, 0.04]))
    model = Model()
    platform = model.add_body(0, Fixed(), sp.xlt([0, 0, 1]), inertia)
    arms = [
        (model.add_body(platform, Spherical(), sp.xlt([0.4, 0, 0]), inertia), [1.0, 0.0, 0.5]),
        (model.add_body(platform, Spherical(), sp.xlt([-0.4, 0, 0]), inertia), [-1.0, 0.0, 0.5]),
    ]
    legs = [model.add_body(0, Spherical(), sp.xlt(r), inertia) for _, r in arms]
    q = model.random_configuration(rng)
    X0 = sp.forward_kinematics(model, q)
    for (arm, _), leg in zip(arms, legs, strict=True):
        joint, X_p = Revolute([0.0, 0.6, 0.8]), sp.xlt([0.5, 0.1, 0.0])
        X_s = joint.transform(joint.random_configuration(rng)) @ X_p @ X0[arm] @ sp.xinv(X0[leg])
        model.add_loop_joint(arm, leg, joint, X_p, X_s)
    return model, q


def test_clusters_and_blocks_of_independent_loops():
    model, q = _twin_four_bars_and_a_pendulum()
    assert L.loop_clusters(model) == [([0], [1, 2, 3]), ([1], [4, 5, 6])]
    blocks = L.cluster_blocks(model)
    assert [(r.tolist(), c.tolist()) for r, c in blocks] == [
        (list(range(5)), [0, 1, 2]),
        (list(range(5, 10)), [3, 4, 5]),
    ]
    K, _ = L.loop_constraints(model, q, np.zeros(model.nv))
    outside = np.ones(K.shape, bool)
    for rows, cols in blocks:
        outside[np.ix_(rows, cols)] = False
    assert np.all(K[outside] == 0) and np.abs(K[~outside]).max() > 0.1  # eq. 8.20


def test_a_joint_without_freedom_couples_nothing(rng):
    model, q = _loops_sharing_a_fixed_joint(rng)
    assert np.abs(L.loop_position_errors(model, q)).max() < 1e-10
    assert L.loop_clusters(model) == [([0], [2, 4]), ([1], [3, 5])]  # platform 1 left out
    K, _ = L.loop_constraints(model, q, np.zeros(model.nv))
    assert np.all(K[:5, 3:6] == 0) and np.all(K[:5, 9:] == 0) and np.all(K[5:, :3] == 0)
    qd = _allowed_velocity(model, q, rng)
    tau = rng.standard_normal(model.nv)
    qdd, lam = L.loop_forward_dynamics(model, q, qd, tau, method="clusters")
    reference, lam_ref = L.loop_forward_dynamics(model, q, qd, tau, method="schur")
    assert _rel(qdd, reference) < 1e-9 and _rel(lam, lam_ref) < 1e-9


@pytest.mark.parametrize("case", ["twin four-bars", "ladder", "fixed platform"])
def test_block_solve_equals_the_full_solve(case, rng):
    if case == "twin four-bars":
        model, q = _twin_four_bars_and_a_pendulum()
    elif case == "ladder":  # coupled loops: one cluster, plus a free pendulum on the base
        model = B.ladder(3)
        model.add_body(0, Revolute("x"), sp.xlt([0, 2, 0]), model.inertia[1], name="pendulum")
        q = model.neutral_configuration()
    else:
        model, q = _loops_sharing_a_fixed_joint(rng)
    qd = _allowed_velocity(model, q, rng)
    K, k = L.loop_constraints(model, q, qd)
    # the explicit form: the same independent variables give the same G and g
    G, g, independent = L.G_and_g_by_cluster(model, K, k)
    assert np.abs(K @ G).max() < 1e-12 and _rel(K @ g, k) < 1e-12
    assert G.shape[1] == model.nv - np.linalg.matrix_rank(K)  # the mobility
    assert np.array_equal(G[list(independent)], np.eye(len(independent)))
    G_full, g_full, _ = L.G_and_g(K, k, independent=independent)
    assert _rel(G, G_full) < ROUND_OFF and _rel(g, g_full) < ROUND_OFF
    # the dynamics: the cluster method equals the other routes
    tau = rng.standard_normal(model.nv)
    qdd, lam = L.loop_forward_dynamics(model, q, qd, tau, method="clusters")
    same, lam_same = L.loop_forward_dynamics(
        model, q, qd, tau, method="reduced", independent=independent
    )
    assert _rel(qdd, same) < ROUND_OFF and _rel(lam, lam_same) < ROUND_OFF
    for method in ("schur", "direct"):
        reference, _ = L.loop_forward_dynamics(model, q, qd, tau, method=method)
        assert _rel(qdd, reference) < 1e-9
    tree = model.spanning_tree()
    H, C = sp.crba(tree, q), sp.bias_force(tree, q, qd)
    assert _rel(H @ qdd + C, tau + K.T @ lam) < 1e-10  # eq. 8.34 with the returned λ


def test_redundant_constraints_are_treated_like_the_full_solve(rng):
    """Planar loops: 3 redundant constraints per cluster, whose rows of k must match.

    Slightly open loops with Baumgarte gains go through both routes alike; and a k pushed out
    of the range of K (in a redundant row) is refused by both, or, on request, met in the
    least-squares sense by both with the same g (K_d is block-diagonal, so is its
    pseudo-inverse).
    """
    model, q = _twin_four_bars_and_a_pendulum()
    q = model.integrate(q, 1e-4 * rng.standard_normal(model.nv), 1.0)  # both loops ajar
    assert int(L.mobility(model, q).redundant) == 6
    qd = _allowed_velocity(model, q, rng)
    tau = rng.standard_normal(model.nv)
    gains = (5.0, 5.0)
    qdd, _ = L.loop_forward_dynamics(model, q, qd, tau, stabilization=gains, method="clusters")
    K, k = L.loop_constraints(model, q, qd, stabilization=gains)
    independent = L.G_and_g_by_cluster(model, K, k)[2]
    same, _ = L.loop_forward_dynamics(
        model, q, qd, tau, stabilization=gains, method="reduced", independent=independent
    )
    assert _rel(qdd, same) < ROUND_OFF
    redundant_row = int(np.argmin(np.abs(K).max(1)))  # a zero row: moment about x of loop 0
    assert np.abs(K[redundant_row]).max() < 1e-12
    k_bad = k + 0.1 * np.eye(K.shape[0])[redundant_row]
    for solve in (L.G_and_g, lambda K, k, **kw: L.G_and_g_by_cluster(model, K, k, **kw)):
        with pytest.raises(ValueError, match=r"no solution.*max\|K x - k\| = 0\.1\b"):
            solve(K, k_bad)
    _, g_full, _ = L.G_and_g(K, k_bad, independent=independent, consistency_tol=1.0)
    _, g, _ = L.G_and_g_by_cluster(model, K, k_bad, independent=independent, consistency_tol=1.0)
    assert _rel(g, g_full) < ROUND_OFF


def test_block_solve_in_a_batch_and_its_errors(rng):
    model, q = _twin_four_bars_and_a_pendulum()
    K, k = L.loop_constraints(model, q, np.zeros(model.nv))
    independent = L.G_and_g_by_cluster(model, K, k)[2]
    closure = L.four_bar_closure()
    qb = np.stack([q, np.concatenate([closure.gamma([1.0]), closure.gamma([-2.0]), [0.0]])])
    qdb = np.stack([_allowed_velocity(model, x, rng) for x in qb])
    tau = rng.standard_normal((2, model.nv))
    qdd, _ = L.loop_forward_dynamics(
        model, qb, qdb, tau, method="clusters", independent=independent
    )
    for j in range(2):
        one, _ = L.loop_forward_dynamics(model, qb[j], qdb[j], tau[j], method="clusters")
        assert _rel(qdd[j], one) < 1e-10
    with pytest.raises(ValueError, match="pass independent="):
        L.loop_forward_dynamics(model, qb, qdb, tau, method="clusters")
    with pytest.raises(ValueError, match=r"\[6\] cannot be solved for.*on no loop"):
        L.loop_forward_dynamics(model, q, qdb[0], method="clusters", independent=(0, 3))
    with pytest.raises(ValueError, match=r"dependent variables \[3, 4, 5\] cannot be solved"):
        L.G_and_g_by_cluster(model, K, k, independent=(0, 6))  # names the model's variables
    with pytest.raises(ValueError, match="K must have shape"):
        L.G_and_g_by_cluster(model, K[:, :5], k)
