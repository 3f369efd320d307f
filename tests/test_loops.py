"""Closed loops (Featherstone ch. 8): loop joints, K and k, forward/inverse dynamics, closures."""

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial.dynamics import loops as L
from spatial.joints import (
    Cylindrical,
    Fixed,
    Free,
    Helical,
    Planar,
    Prismatic,
    Reversed,
    Revolute,
    Spherical,
)
from spatial.model import LOOP_JOINT_TYPES
from spatial.systems import ClosureSystem


def _implicit(model, q0, qd0, dt, steps, **options):
    """The implicit form simulated by the one loop, arrays batch first as ``(t, q, qd)``."""
    traj = sp.simulate(model, q0, qd0, dt, steps=steps, **options)
    return traj.t, np.moveaxis(traj.q, 0, -2), np.moveaxis(traj.v, 0, -2)


def _explicit(model, closure, y0, yd0, dt, steps, **options):
    """The explicit form (§8.11) simulated by the one loop, as ``(t, y, yd)``, batch first."""
    traj = sp.simulate(ClosureSystem(model, closure), y0, yd0, dt, steps=steps, **options)
    return traj.t, np.moveaxis(traj.q, 0, -2), np.moveaxis(traj.v, 0, -2)


TOL = 1e-10  # identities, relative
FD = 1e-6  # central finite differences, relative


def _rel(a, b):
    a, b = np.asarray(a, float), np.asarray(b, float)
    return np.abs(a - b).max(initial=0.0) / max(1.0, np.abs(b).max(initial=0.0))


def _closed_model(rng, n, tree_joints, loop_joints, pairs=None, branching=1.0):
    """A random tree plus loop joints placed so that every loop closes at the returned ``q``.

    Loop ``l`` joins the bodies ``pairs[l]`` (random distinct bodies by default).
    """
    model = B.random_tree(rng, n, joints=tree_joints, branching=branching)
    q = model.random_configuration(rng)
    X0 = sp.forward_kinematics(model, q)
    for l, joint in enumerate(loop_joints):
        if pairs is None:
            p, s = (int(b) for b in rng.choice(model.NB + 1, size=2, replace=False))
        else:
            p, s = pairs[l]
        X_p = B.random_transform(rng)
        X_s = joint.transform(joint.random_configuration(rng)) @ X_p @ X0[p] @ sp.xinv(X0[s])
        model.add_loop_joint(p, s, joint, X_p, X_s)
    return model, q


@pytest.fixture
def spatial_loops(rng):
    tree = ("R", "P", "S", "C", "H", "SY", "RP", "~R")
    axis = rng.standard_normal(3)
    loops = [Revolute(axis / np.linalg.norm(axis)), Spherical(), Planar()]
    return _closed_model(rng, 7, tree, loops)


# ----------------------------------------------------------------------------- loop joints


def test_add_loop_joint_records_the_joint_and_counts():
    model = B.four_bar()
    assert model.NL == 1 and model.loop_joints[0].nc == 5
    lj = model.loop_joints[0]
    assert (lj.predecessor, lj.successor, lj.name) == (2, 3, "pin C")
    l = model.add_loop_joint(0, 1, Spherical(), np.eye(6), sp.xlt([0.3, 0, 0]))
    assert l == 1 and model.NL == 2 and model.loop_joints[1].name == "loop1"


@pytest.mark.parametrize(
    ("args", "match"),
    [
        ((1, 1, Revolute("z")), "closes no loop"),
        ((-1, 2, Revolute("z")), "not a body of the model"),
        ((0, 4, Revolute("z")), "not a body of the model"),
        ((0.0, 2, Revolute("z")), "must be an int body number"),
        ((True, 2, Revolute("z")), "must be an int body number"),
        ((0, 2, Free()), "imposes no"),
        ((0, 2, Helical("z", 0.1)), "not supported as a loop joint"),
        ((0, 2, Reversed(Revolute("z"))), "swap predecessor and successor"),
        ((0, 2, "revolute"), "must be a spatial.joints.Joint"),
    ],
)
def test_add_loop_joint_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        B.four_bar().add_loop_joint(*args, np.eye(6), np.eye(6))


def test_add_loop_joint_rejects_bad_transforms_and_names():
    model = B.four_bar()
    with pytest.raises(ValueError, match="X_p of loop joint 1 is not a Plücker"):
        model.add_loop_joint(0, 2, Revolute("z"), np.ones((6, 6)), np.eye(6))
    with pytest.raises(ValueError, match="X_s of loop joint 1 must be a single"):
        model.add_loop_joint(0, 2, Revolute("z"), np.eye(6), np.stack([np.eye(6)] * 2))
    with pytest.raises(ValueError, match="already used"):
        model.add_loop_joint(0, 2, Revolute("z"), np.eye(6), np.eye(6), name="pin C")


# ----------------------------------------------------------------------------- Table 8.1


@pytest.mark.parametrize(
    "joint",
    [J() for J in (Fixed, Planar, Spherical)]
    + [Revolute([0.6, 0.0, 0.8]), Prismatic("y"), Cylindrical([0.0, 0.6, -0.8])],
)
def test_loop_jcalc_is_zero_on_the_joint_and_first_order_off_it(rng, joint):
    assert isinstance(joint, LOOP_JOINT_TYPES)
    q = joint.random_configuration(rng, (4,))
    X_J = joint.transform(q)
    delta, T = L.loop_jcalc(joint, X_J)
    assert T.shape == (6, 6 - joint.nv) and delta.shape == (4, 6 - joint.nv)
    assert np.abs(delta).max(initial=0.0) < TOL
    assert np.abs(T.T @ joint.motion_subspace(joint.neutral())).max(initial=0.0) < TOL
    # X = X_err X_J with X_err = 1 - d× + O(d²): δ = Tᵀ d to first order (eqs. 8.25-8.27)
    d = 1e-6 * rng.standard_normal((4, 6))
    X_err = sp.plux(np.swapaxes(sp.exp_so3(d[:, :3]), -1, -2), d[:, 3:])
    delta, _ = L.loop_jcalc(joint, X_err @ X_J)
    assert np.abs(delta - d @ T).max() < 1e-4 * np.abs(d @ T).max() + 1e-15
    # and a finite error is seen (nothing in the constrained directions is lost)
    delta, _ = L.loop_jcalc(joint, sp.plux(np.eye(3), [0.1, 0.2, 0.3]) @ sp.rotx(0.2) @ X_J)
    assert np.all(np.abs(delta).max(-1) > 1e-3) or joint.nv == 6


def _table_8_1(joint, X):
    """Featherstone's closed formulas for δ (Table 8.1, joints about z; 1-based ``X_ij``).

    Returns δ and the book's ``T``: unit vectors along the constrained coordinates of ``d``.
    """

    def x(i, j):
        return X[..., i - 1, j - 1]

    if isinstance(joint, Fixed):
        pairs = [(2, 3, 3, 2), (3, 1, 1, 3), (1, 2, 2, 1), (5, 3, 6, 2), (6, 1, 4, 3), (4, 2, 5, 1)]
        delta = [(x(a, b) - x(c, d)) / 2 for a, b, c, d in pairs]
        rows = [0, 1, 2, 3, 4, 5]
    elif isinstance(joint, Revolute):
        delta = [x(2, 3), -x(1, 3), x(5, 3), -x(4, 3), x(4, 1) * x(2, 1) + x(4, 2) * x(2, 2)]
        rows = [0, 1, 3, 4, 5]
    elif isinstance(joint, Prismatic):
        delta = [(x(2, 3) - x(3, 2)) / 2, (x(3, 1) - x(1, 3)) / 2, (x(1, 2) - x(2, 1)) / 2]
        delta += [x(5, 3), -x(4, 3)]
        rows = [0, 1, 2, 3, 4]
    elif isinstance(joint, Cylindrical):
        delta = [x(2, 3), -x(1, 3), x(5, 3), -x(4, 3)]
        rows = [0, 1, 3, 4]
    else:  # spherical
        delta = [sum(x(r, k) * x(c, k) for k in (1, 2, 3)) for r, c in ((5, 3), (6, 1), (4, 2))]
        rows = [3, 4, 5]
    return np.stack(delta, -1), np.eye(6)[:, rows]


@pytest.mark.parametrize(
    "joint", [Fixed(), Revolute("z"), Prismatic("z"), Cylindrical("z"), Spherical()]
)
def test_loop_jcalc_agrees_with_table_8_1(rng, joint):
    """Near closure, δ is the book's δ in the joint library's basis of T: δ = Tᵀ T_book δ_book.

    Both are first-order measures of the same small displacement, so they differ by O(|d|²).
    """
    X_J = joint.transform(joint.random_configuration(rng, (5,)))
    d = 1e-4 * rng.standard_normal((5, 6))
    X = sp.plux(np.swapaxes(sp.exp_so3(d[:, :3]), -1, -2), d[:, 3:]) @ X_J  # eq. 8.25
    delta, T = L.loop_jcalc(joint, X)
    delta_book, T_book = _table_8_1(joint, X)
    assert np.abs(delta_book).max() > 1e-5  # a visible error, in every case
    assert np.abs(delta - delta_book @ (T.T @ T_book).T).max() < 20 * np.abs(d).max() ** 2


def test_loop_jcalc_rejects_bad_input():
    with pytest.raises(ValueError, match="not a supported loop-joint type"):
        L.loop_jcalc(Helical("z", 0.1), np.eye(6))
    with pytest.raises(ValueError, match="not a Plücker transform"):
        L.loop_jcalc(Revolute("z"), np.ones((6, 6)))


# ----------------------------------------------------------------------------- Table 8.4


def test_K_is_the_derivative_of_the_position_error(spatial_loops, rng):
    """δ̇ = K q̇ on the closed loop, for any q̇ (eq. 8.9 with δ of eq. 8.23)."""
    model, q = spatial_loops
    assert np.abs(L.loop_position_errors(model, q)).max() < TOL
    v = rng.standard_normal(model.nv)
    K, _ = L.loop_constraints(model, q, np.zeros(model.nv))
    h = 1e-6
    fd = (
        L.loop_position_errors(model, model.integrate(q, v, h))
        - L.loop_position_errors(model, model.integrate(q, v, -h))
    ) / (2 * h)
    assert _rel(fd, K @ v) < FD


def test_k_is_minus_Kdot_qdot(spatial_loops, rng):
    """k = -K̇ q̇ (eqs. 8.15, 8.47): the derivative of K(q(t)) q̇ along q̈ = 0, at any state."""
    model, _ = spatial_loops
    q = model.random_configuration(rng)
    qd = rng.standard_normal(model.nv)
    _, k = L.loop_constraints(model, q, qd)
    h = 1e-6
    Kp, _ = L.loop_constraints(model, model.integrate(q, qd, h), qd)
    Km, _ = L.loop_constraints(model, model.integrate(q, qd, -h), qd)
    assert _rel((Kp - Km) @ qd / (2 * h), -k) < FD


def test_K_columns_vanish_off_the_loop_paths():
    """K_lj = 0 for tree joints outside loop l (eq. 8.20): the ladder's K is banded."""
    model = B.ladder(4)
    K, _ = L.loop_constraints(model, model.neutral_configuration(), np.zeros(model.nv))
    for l in range(model.NL):
        on_path = {2 * l, 2 * l + 1, 2 * l + 2} - {0}  # b_l, a_(l+1), b_(l+1)
        for i in range(1, model.NB + 1):
            block = K[3 * l : 3 * l + 3, model.v_index[i]]
            assert (np.abs(block).max() > 0) == (i in on_path)


def test_baumgarte_term_and_batched_gains(spatial_loops, rng):
    model, q0 = spatial_loops
    q = model.integrate(q0, 0.01 * rng.standard_normal(model.nv), 1.0)  # loops slightly open
    qd = rng.standard_normal((3, model.nv))
    alpha, beta = np.array([0.0, 2.0, 5.0]), np.array([1.0, 3.0, 4.0])
    K, k = L.loop_constraints(model, q, qd)
    _, k_stab = L.loop_constraints(model, q, qd, stabilization=(alpha, beta))
    delta = L.loop_position_errors(model, q)
    expected = k - 2 * alpha[:, None] * (qd[:, None, :] @ np.swapaxes(K, -1, -2))[:, 0]
    expected = expected - beta[:, None] ** 2 * delta
    assert _rel(k_stab, expected) < TOL
    for j in range(3):
        _, k_j = L.loop_constraints(model, q, qd[j], stabilization=(alpha[j], beta[j]))
        assert _rel(k_j, k_stab[j]) < TOL


@pytest.mark.parametrize(
    ("stabilization", "match"),
    [
        ((1.0,), "pair"),
        (3.0, "pair"),
        ((-1.0, 1.0), "alpha must be ≥ 0"),
        ((np.nan, 1), "non-finite"),
    ],
)
def test_bad_stabilization(stabilization, match):
    model = B.four_bar()
    with pytest.raises(ValueError, match=match):
        L.loop_constraints(model, np.zeros(3), np.zeros(3), stabilization=stabilization)


# ----------------------------------------------------------------------------- §8.5


@pytest.mark.parametrize("method", L.METHODS)
def test_forward_dynamics_satisfies_the_constraints(spatial_loops, rng, method):
    model, q = spatial_loops
    K, _ = L.loop_constraints(model, q, np.zeros(model.nv))
    null = np.linalg.svd(K)[2][np.linalg.matrix_rank(K) :].T
    qd = null @ rng.standard_normal(null.shape[1])  # velocities the loops allow
    tau = rng.standard_normal(model.nv)
    qdd, lam = L.loop_forward_dynamics(model, q, qd, tau, method=method)
    K, k = L.loop_constraints(model, q, qd)
    assert _rel(K @ qdd, k) < TOL
    # the equation of motion with the loop forces (eq. 8.34)
    tree = model.spanning_tree()
    H, C = sp.crba(tree, q), sp.bias_force(tree, q, qd)
    assert _rel(H @ qdd + C, tau + K.T @ lam) < TOL
    reference, lam_ref = L.loop_forward_dynamics(model, q, qd, tau)
    assert _rel(qdd, reference) < 1e-8 and _rel(lam, lam_ref) < 1e-8


def test_forward_dynamics_batch_equals_loop_and_no_loops_is_the_tree(rng):
    model = B.four_bar()
    closure = L.four_bar_closure()
    y = rng.uniform(-np.pi, np.pi, (4, 1))
    q = closure.gamma(y)
    qd = rng.standard_normal((4, 3))
    tau = rng.standard_normal((4, 3))
    # random velocities violate K q̇ = 0 (so the Baumgarte α term matters): each call says so
    with pytest.warns(L.LoopConstraintWarning, match=r"4 of 4 states.*velocity_tol"):
        qdd, lam = L.loop_forward_dynamics(model, q, qd, tau, stabilization=(2.0, 3.0))
    for j in range(4):
        with pytest.warns(L.LoopConstraintWarning, match=r"max \|K q̇\|"):
            qdd_j, lam_j = L.loop_forward_dynamics(model, q[j], qd[j], tau[j], stabilization=(2, 3))
        assert _rel(qdd[j], qdd_j) < TOL and _rel(lam[j], lam_j) < TOL
    tree = B.planar_chain(3)
    qdd, lam = L.loop_forward_dynamics(tree, q, qd, tau)
    assert lam.shape == (4, 0) and _rel(qdd, sp.forward_dynamics(tree, q, qd, tau)) < TOL


def test_forward_dynamics_rejects_unknown_method():
    with pytest.raises(ValueError, match="method must be one of"):
        L.loop_forward_dynamics(B.four_bar(), np.zeros(3), np.zeros(3), method="magic")


def _four_bar_by_hand(theta, theta_dot, tau1, lengths, masses, g, branch=1):
    """θ̈ of a four-bar of uniform rods from Lagrange's equation with the closure relation.

    Written from scratch: circle intersection for the pin C, the mass matrix
    ``M(θ) = Σ m |ċ/θ̇|² + I_zz (ω/θ̇)²`` and the potential ``V(θ) = g Σ m y_c``;
    ``M θ̈ + ½ M' θ̇² + V' = τ₁``.  Derivatives by 4th-order central differences.
    """
    l1, l2, l3, l0 = lengths

    def pose(t):
        B_ = l1 * np.array([np.cos(t), np.sin(t)])
        D = np.array([l0, 0.0])
        e = np.linalg.norm(D - B_)
        a = (l2**2 - l3**2 + e**2) / (2 * e)
        u = (D - B_) / e
        C = B_ + a * u + branch * np.sqrt(l2**2 - a**2) * np.array([-u[1], u[0]])
        phi2 = np.arctan2(*(C - B_)[::-1])
        phi3 = np.arctan2(*(C - D)[::-1])
        centres = np.array([B_ / 2, (B_ + C) / 2, (D + C) / 2])
        return np.array([t, phi2, phi3]), centres

    def d(f, t, h=1e-3):
        return (f(t - 2 * h) - 8 * f(t - h) + 8 * f(t + h) - f(t + 2 * h)) / (12 * h)

    inertias = [
        m * (l**2 / 12 + (l / 20) ** 2 / 4) for m, l in zip(masses, (l1, l2, l3), strict=True)
    ]

    def M(t):
        angle_rates = d(lambda s: np.unwrap(pose(s)[0]), t)
        centre_rates = d(lambda s: pose(s)[1], t)
        return sum(
            m * centre_rates[i] @ centre_rates[i] + inertias[i] * angle_rates[i] ** 2
            for i, m in enumerate(masses)
        )

    def V(t):
        return g * sum(m * pose(t)[1][i, 1] for i, m in enumerate(masses))

    return (tau1 - 0.5 * d(M, theta) * theta_dot**2 - d(V, theta)) / M(theta)


@pytest.mark.parametrize("branch", [1, -1])
def test_four_bar_matches_lagrange_by_hand(branch):
    lengths, masses, g = (0.3, 1.0, 0.8, 0.9), (1.0, 2.0, 1.5), 9.81
    model = B.four_bar(*lengths, masses=masses, g=g)
    closure = L.four_bar_closure(*lengths, branch=branch)
    theta, theta_dot, tau1 = 0.8, 1.7, 0.4
    q, G, _ = closure.jacobians([theta], [theta_dot])
    qdd, _ = L.loop_forward_dynamics(model, q, G[:, 0] * theta_dot, [tau1, 0.0, 0.0])
    expected = _four_bar_by_hand(theta, theta_dot, tau1, lengths, masses, g, branch)
    assert abs(qdd[0] - expected) < 1e-7 * abs(expected)


# ----------------------------------------------------------------------------- §8.4


def test_loop_joint_forces_reproduce_the_motion_and_do_no_work(rng):
    model, q = _closed_model(rng, 6, ("R", "S", "C"), [Spherical(), Revolute("x")])
    K, _ = L.loop_constraints(model, q, np.zeros(model.nv))
    null = np.linalg.svd(K)[2][np.linalg.matrix_rank(K) :].T
    qd = null @ rng.standard_normal(null.shape[1])  # a motion the loops allow
    tau = rng.standard_normal(model.nv)
    qdd, lam = L.loop_forward_dynamics(model, q, qd, tau)
    f = L.loop_joint_forces(model, q, lam)
    assert f.shape == (2, 6)
    # applied to the tree as external forces, they produce the loop-closed motion (eq. 8.29)
    f_ext = np.zeros((model.NB + 1, 6))
    for l, lj in enumerate(model.loop_joints):
        f_ext[lj.successor] += f[l]
        f_ext[lj.predecessor] -= f[l]
    f_ext[0] = 0.0
    assert _rel(sp.rnea(model.spanning_tree(), q, qd, qdd, f_ext), tau) < TOL
    # the constraint forces do no work on the allowed motion: λᵀ K q̇ = 0
    power = lam @ (K @ qd)
    assert abs(power) < TOL * np.abs(lam).max() * np.abs(qd).max()
    v = sp.body_velocities(model, q, qd, frame="world")
    for l, lj in enumerate(model.loop_joints):
        assert abs(f[l] @ (v[lj.successor] - v[lj.predecessor])) < TOL * np.abs(f).max()


def test_loop_bias_force_subtracts_the_active_loop_forces(spatial_loops, rng):
    """C - τᵃ with τᵃ = Σ J_Lᵀ X_sᵀ S τ_k (eq. 8.28; S orthonormal for these joints)."""
    model, q = spatial_loops
    qd = rng.standard_normal(model.nv)
    n_a = sum(lj.joint.nv for lj in model.loop_joints)
    tau_loop = rng.standard_normal(n_a)
    X0 = sp.forward_kinematics(model, q)
    tau_a, start = np.zeros(model.nv), 0
    for lj in model.loop_joints:
        S = lj.joint.motion_subspace(lj.joint.neutral())
        f_a = (lj.X_s @ X0[lj.successor]).T @ (S @ tau_loop[start : start + lj.joint.nv])
        start += lj.joint.nv
        J_L = sp.body_jacobian(model, q, lj.successor, frame="world") - sp.body_jacobian(
            model, q, lj.predecessor, frame="world"
        )
        tau_a += J_L.T @ f_a
    got = L.loop_bias_force(model, q, qd, tau_loop)
    assert _rel(got, sp.bias_force(model.spanning_tree(), q, qd) - tau_a) < TOL
    with pytest.raises(ValueError, match="tau_loop must have shape"):
        L.loop_bias_force(model, q, qd, np.zeros(n_a + 1))


# ----------------------------------------------------------------------------- §8.8


def test_G_and_g_solve_K_x_equals_k(rng):
    K = rng.standard_normal((3, 7))
    K = np.vstack([K, K[0] + 2 * K[2]])  # a dependent row: m = 4, rank 3
    k = K @ rng.standard_normal(7)
    G, g, independent = L.G_and_g(K, k)
    assert len(independent) == 4 and G.shape == (7, 4)
    assert np.abs(K @ G).max() < TOL and _rel(K @ g, k) < TOL
    assert np.array_equal(G[list(independent)], np.eye(4)) and np.all(g[list(independent)] == 0)
    # a given choice, batched
    Kb, kb = np.stack([K, 2 * K]), np.stack([k, 2 * k])
    Gb, gb, _ = L.G_and_g(Kb, kb, independent=(0, 1, 2, 3))
    assert np.abs(Kb @ Gb).max() < TOL and _rel((Kb @ gb[..., None])[..., 0], kb) < TOL


def test_G_and_g_errors(rng):
    K = rng.standard_normal((3, 5))
    with pytest.raises(ValueError, match="are not independent"):
        L.G_and_g(K, np.zeros(3), independent=(0, 1, 2))
    with pytest.raises(ValueError, match="cannot be solved for"):
        L.G_and_g(K, np.zeros(3), independent=(0,))
    K[:, 3] = K[:, 4] = 0.0  # variables 3, 4 are unconstrained: they must be independent
    with pytest.raises(ValueError, match="cannot be solved for"):
        L.G_and_g(K, np.zeros(3), independent=(0, 1))
    with pytest.raises(ValueError, match="pass independent="):
        L.G_and_g(np.stack([K, K]), np.zeros((2, 3)))
    with pytest.raises(ValueError, match="distinct integer indices"):
        L.G_and_g(K, np.zeros(3), independent=(3, 3))
    with pytest.raises(ValueError, match=r"independent\[0\] must be an integer, got 3.5"):
        L.G_and_g(K, np.zeros(3), independent=(3.5, 4))  # int() made it (3, 4)
    with pytest.raises(ValueError, match="must index the 5"):
        L.G_and_g(K, np.zeros(3), independent=(3, 7))
    with pytest.raises(ValueError, match="k must have shape"):
        L.G_and_g(K, np.zeros(4), independent=(3, 4))


# ----------------------------------------------------------------------------- §8.11


CLOSURES = [
    (B.four_bar, L.four_bar_closure, {}, [[0.8]], [[1.3]]),
    (B.four_bar, L.four_bar_closure, {"branch": -1}, [[-2.0]], [[-0.7]]),
    (B.crank_slider, L.crank_slider_closure, {"offset": 0.1}, [[0.8]], [[2.0]]),
    (B.crank_slider, L.crank_slider_closure, {"offset": -0.1, "branch": -1}, [[2.5]], [[1.0]]),
    (B.planar_loop_fig_8_3, L.fig_8_3_closure, {}, [[0.9, -0.4]], [[1.5, 0.7]]),
]


@pytest.mark.parametrize(("build", "make", "kwargs", "y", "yd"), CLOSURES)
def test_closed_form_closures(build, make, kwargs, y, yd):
    """γ closes the loop; G = ∂γ/∂y and g = Ġẏ by finite differences; K G = 0, K g = k."""
    model = build(**{k: v for k, v in kwargs.items() if k != "branch"})
    closure = make(**kwargs)
    y, yd = np.array(y[0]), np.array(yd[0])
    q, G, g = closure.jacobians(y, yd)
    assert _rel(q, closure.gamma(y)) < TOL
    assert np.abs(L.loop_position_errors(model, q)).max() < TOL
    h = 1e-6
    for j in range(closure.ny):
        e = np.eye(closure.ny)[j] * h
        dq = model.difference(closure.gamma(y - e), closure.gamma(y + e)) / (2 * h)
        assert _rel(dq, G[:, j]) < FD
    Gp = closure.jacobians(y + h * yd, yd)[1]
    Gm = closure.jacobians(y - h * yd, yd)[1]
    assert _rel((Gp - Gm) @ yd / (2 * h), g) < FD
    K, k = L.loop_constraints(model, q, G @ yd)
    assert np.abs(K @ G).max() < TOL and _rel(K @ g, k) < TOL
    # the general Newton closure from a nearby guess finds the same assembly
    newton = L.newton_closure(model, closure.independent, q + 0.05)
    q_n, G_n, g_n = newton.jacobians(y, yd)
    assert _rel(model.difference(q, q_n), 0 * q_n) < 1e-9
    assert _rel(G_n, G) < 1e-8 and _rel(g_n, g) < 1e-8


def test_fig_8_3_G_is_the_book_formula():
    l1, l2 = 1.0, 0.5
    y1 = 0.9
    _, G, g = L.fig_8_3_closure(l1, l2).jacobians([y1, 0.3], [2.0, 0.0])
    d = np.sqrt(l1**2 + l2**2 - 2 * l1 * l2 * np.cos(y1))
    u1, u2 = (l2**2 - l1 * l2 * np.cos(y1)) / d**2, l1 * l2 * np.sin(y1) / d
    assert _rel(G, [[1, 0], [u1, 0], [u2, 0], [0, 1]]) < TOL
    u3 = (l1**2 - l2**2) * l1 * l2 * np.sin(y1) / d**4 * 4.0
    assert _rel(g, [0, u3, (l1 * l2 * np.cos(y1) - u2**2) / d * 4.0, 0]) < TOL


def test_four_bar_configuration_ambiguity_and_singularities():
    lengths = (1.0, 0.5, 0.8, 1.0)  # a triple rocker: the crank cannot turn fully
    up, down = (L.four_bar_closure(*lengths, branch=b) for b in (1, -1))
    q_up, q_down = up.gamma([0.6]), down.gamma([0.6])
    assert abs(q_up[2] - q_down[2]) > 0.1  # two assemblies for one input angle (§8.10)
    # dead-centre: coupler and rocker aligned, |D - B| = l2 + l3
    theta_dead = np.arccos((1.0 + 1.0 - 1.3**2) / 2.0)
    with pytest.raises(ValueError, match="dead-centre"):
        up.gamma([theta_dead])
    with pytest.raises(ValueError, match="dead-centre"):
        up.jacobians([[0.6], [theta_dead]], [[1.0], [1.0]])
    with pytest.raises(ValueError, match="cannot be assembled at input angle 2"):
        up.gamma([2.0])
    # the generic route reports the same singularity instead of an infinite G
    model = B.four_bar(*lengths)
    B_ = np.array([np.cos(theta_dead), np.sin(theta_dead)])
    phi = np.arctan2(-B_[1], 1.0 - B_[0])  # the coupler points at D, the rocker back at it
    q_dead = np.array([theta_dead, phi - theta_dead, phi + np.pi])
    assert np.abs(L.loop_position_errors(model, q_dead)).max() < 1e-12
    K, k = L.loop_constraints(model, q_dead, np.zeros(3))
    with pytest.raises(ValueError, match="configuration singularity"):
        L.G_and_g(K, k, independent=(0,))
    # still mobility 1, but the one allowed motion leaves the crank still: y = θ₁ cannot drive it
    assert int(L.mobility(model, q_dead).mobility) == 1
    null = np.linalg.svd(K)[2][-1]
    assert abs(null[0]) < 1e-7 * np.abs(null).max()


def test_closure_errors():
    with pytest.raises(ValueError, match="branch must be"):
        L.four_bar_closure(branch=0)
    with pytest.raises(ValueError, match="coupler must be > 0"):
        L.four_bar_closure(coupler=-1.0)
    with pytest.raises(ValueError, match="cannot be assembled"):
        L.crank_slider_closure(crank=1.0, rod=0.5).gamma([np.pi / 2])
    with pytest.raises(ValueError, match="direction is undefined"):
        L.fig_8_3_closure(1.0, 1.0).gamma([0.0, 0.0])
    with pytest.raises(ValueError, match="y must have shape"):
        L.four_bar_closure().gamma([0.1, 0.2])
    model = B.four_bar()
    with pytest.raises(ValueError, match="did not close"):
        L.newton_closure(model, (0,), np.zeros(3), max_iter=2).gamma([0.5])
    planar = B.random_tree(np.random.default_rng(0), 2, joints=("PL",))
    with pytest.raises(ValueError, match="not the integrals"):
        L.newton_closure(planar, (1,), planar.neutral_configuration())
    with pytest.raises(ValueError, match="closure must be a LoopClosure"):
        L.reduced_forward_dynamics(model, "four-bar", [0.1], [0.0])


# ----------------------------------------------------------------------------- explicit vs implicit


@pytest.mark.parametrize(
    ("build", "closure"),
    [(B.four_bar, L.four_bar_closure()), (B.crank_slider, L.crank_slider_closure())],
)
def test_implicit_and_explicit_forms_give_the_same_motion(build, closure):
    model = build()
    y0, yd0 = np.array([0.4]), np.array([2.0])
    ydd = L.reduced_forward_dynamics(model, closure, y0, yd0, tau=[0.5, 0.0, 0.0])
    q0, G, g = closure.jacobians(y0, yd0)
    qdd, _ = L.loop_forward_dynamics(model, q0, G @ yd0, [0.5, 0.0, 0.0])
    assert _rel(G @ ydd + g, qdd) < TOL
    dt, steps = 5e-3, 40
    t, y, yd = _explicit(model, closure, y0, yd0, dt, steps, tau=[0.5, 0.0, 0.0])
    t2, q, qd = _implicit(model, q0, G @ yd0, dt, steps, tau=[0.5, 0.0, 0.0])
    assert np.array_equal(t, t2) and y.shape == (steps + 1, 1) and q.shape == (steps + 1, 3)
    assert np.abs(q[:, 0] - y[:, 0]).max() < 1e-7
    assert np.abs(model.difference(closure.gamma(y), q)).max() < 1e-6
    assert np.abs(qd[:, 0] - yd[:, 0]).max() < 1e-6


def test_explicit_form_solvers_take_batches():
    """Eq. 8.45 over a batch: ``GᵀHG ÿ = ...`` is solved per state (a batch of 3 one-DoF
    systems once failed in ``np.linalg.solve``, which read the stacked right sides as a matrix)."""
    model, closure = B.four_bar(), L.four_bar_closure()
    y, yd = np.array([[0.3], [0.5], [-1.0]]), np.array([[1.0], [2.0], [0.0]])
    tau = [0.5, 0.0, 0.0]
    ydd = L.reduced_forward_dynamics(model, closure, y, yd, tau=tau)
    _, ys, _ = _explicit(model, closure, y, yd, 0.01, 3, tau=tau)
    q, G, _ = closure.jacobians(y, yd)
    qd = (G @ yd[..., None])[..., 0]
    for method in ("reduced", "clusters"):
        qdd, _ = L.loop_forward_dynamics(model, q, qd, tau, method=method, independent=(0,))
        assert _rel(qdd[:, 0], ydd[:, 0]) < 1e-9
    for j in range(3):
        assert _rel(ydd[j], L.reduced_forward_dynamics(model, closure, y[j], yd[j], tau=tau)) < TOL
        _, y_j, _ = _explicit(model, closure, y[j], yd[j], 0.01, 3, tau=tau)
        assert _rel(ys[j], y_j) < TOL


def _energy(model, q, qd):
    return sp.kinetic_energy(model, q, qd) + sp.potential_energy(model, q)


def test_energy_is_conserved_without_stabilization():
    """RK4 on the implicit form conserves energy to O(h⁴): 1e-7 relative at h = 5 ms over 0.5 s."""
    model = B.four_bar()
    q0, G, _ = L.four_bar_closure().jacobians([0.3], [3.0])
    drift = []
    for dt, steps in ((1e-2, 50), (5e-3, 100)):
        _, q, qd = _implicit(model, q0, G[:, 0] * 3.0, dt, steps)
        E = _energy(model, q, qd)
        drift.append(np.abs(E - E[0]).max() / np.abs(E).max())
    assert drift[1] < 1e-7
    assert drift[0] / drift[1] > 10  # halving h divides the error by about 2⁴ = 16


def test_stabilization_bounds_the_residual_while_unstabilized_drifts():
    """Coarse RK4 steps (h = 0.04 s, 3 s): the loop error drifts without Baumgarte, decays with."""
    model = B.four_bar()
    q0, G, _ = L.four_bar_closure().jacobians([0.3], [6.0])
    gains = (np.array([0.0, 10.0]), np.array([0.0, 10.0]))  # one batch: plain and stabilized
    q0, qd0 = np.stack([q0, q0]), np.stack([G[:, 0] * 6.0] * 2)
    with pytest.warns(
        L.LoopConstraintWarning, match=r"open along the trajectory.*max \|δ\| = 0\.01"
    ):
        _, q, qd = _implicit(model, q0, qd0, 0.04, 75, stabilization=gains)
    err = np.abs(L.loop_position_errors(model, q)).max(-1)  # (2, steps + 1)
    assert err[0, -1] > 1e-3 and err[0, -1] > 5 * err[0, 25]  # drift keeps growing
    assert err[1].max() < 1e-3 and err[1, 50:].max() < 0.05 * err[0, -1]  # bounded


def test_baumgarte_error_dynamics_are_critically_damped():
    """With α = β the loop error obeys ë + 2βė + β²e = 0: e(t) = e₀ (1 + βt) e^(-βt) (§8.3)."""
    model = B.four_bar(g=0.0)
    closure = L.four_bar_closure()
    q0 = closure.gamma([0.3]) + np.array([0.0, 1e-5, 0.0])  # open the loop a little
    K, _ = L.loop_constraints(model, q0, np.zeros(3))
    beta = 5.0
    for speed, tol in ((0.0, 1e-6), (2.0, 1e-2)):  # at rest (exact), moving (first order)
        qd0 = closure.jacobians([0.3], [speed])[1][:, 0] * speed
        qd0 = qd0 - np.linalg.pinv(K) @ (K @ qd0)  # ė(0) = K q̇ = 0
        t, q, _ = _implicit(model, q0, qd0, 5e-3, 60, stabilization=(beta, beta))
        e = np.linalg.norm(L.loop_position_errors(model, q), axis=-1)
        expected = e[0] * (1 + beta * t) * np.exp(-beta * t)
        assert np.abs(e - expected).max() < tol * e[0]


def test_simulate_accepts_a_torque_function_and_rejects_bad_steps():
    model = B.crank_slider()
    closure = L.crank_slider_closure()
    q0, G, _ = closure.jacobians([0.0], [1.0])

    def motor(t, q, qd):  # a damped motor on the crank
        return np.stack([2.0 - 0.5 * qd[..., 0], 0 * qd[..., 0], 0 * qd[..., 0]], -1)

    _, q, _ = _implicit(model, q0, G[:, 0], 0.01, 5, tau=motor)
    _, y, _ = _explicit(model, closure, [0.0], [1.0], 0.01, 5, tau=motor)
    assert abs(q[-1, 0] - y[-1, 0]) < 1e-8
    with pytest.raises(ValueError, match="h must be > 0"):
        _implicit(model, q0, G[:, 0], 0.0, 5)
    with pytest.raises(ValueError, match="steps must be a non-negative integer"):
        _explicit(model, closure, [0.0], [1.0], 0.01, 2.5)


# ----------------------------------------------------------------------------- §8.9-8.10


def test_mobility_and_clusters():
    model = B.four_bar()
    mob = L.mobility(model, L.four_bar_closure().gamma([0.3]))
    assert (mob.n, mob.nc, int(mob.rank), int(mob.mobility), int(mob.redundant)) == (3, 5, 2, 1, 3)
    ladder = B.ladder(3)
    mob = L.mobility(ladder, ladder.neutral_configuration())
    assert (int(mob.rank), int(mob.mobility), int(mob.redundant)) == (9, 9, 0)
    assert L.loop_clusters(ladder) == [([0, 1, 2], [1, 2, 3, 4, 5, 6])]
    # two four-bars side by side: two minimal clusters (Figure 8.1)
    twin = B.four_bar()
    a = twin.add_body(0, Revolute("z"), sp.xlt([3, 0, 0]), twin.inertia[1])
    b = twin.add_body(a, Revolute("z"), sp.xlt([0.3, 0, 0]), twin.inertia[2])
    c = twin.add_body(0, Revolute("z"), sp.xlt([3.9, 0, 0]), twin.inertia[3])
    twin.add_loop_joint(b, c, Revolute("z"), sp.xlt([1.0, 0, 0]), sp.xlt([0.8, 0, 0]))
    assert L.loop_clusters(twin) == [([0], [1, 2, 3]), ([1], [4, 5, 6])]
    # numbered cluster by cluster, K and G are block-diagonal (§8.9)
    closure = L.four_bar_closure()
    q = np.concatenate([closure.gamma([0.4]), closure.gamma([2.0])])  # the same linkage, shifted
    assert np.abs(L.loop_position_errors(twin, q)).max() < TOL
    K, k = L.loop_constraints(twin, q, np.zeros(6))
    G, _, independent = L.G_and_g(K, k)
    assert np.all(K[:5, 3:] == 0) and np.all(K[5:, :3] == 0)
    assert len(independent) == 2 and independent[0] < 3 <= independent[1]
    assert np.abs(G[:3, 1]).max() < TOL and np.abs(G[3:, 0]).max() < TOL


# ----------------------------------------------------------------------------- §8.12


def test_inverse_dynamics_example_8_2():
    """Actuators at joints 3 and 4 of Figure 8.3: u = [[1/u₂, u₁/u₂, 1, 0], [0, 0, 0, 1]] τ_ID."""
    model = B.planar_loop_fig_8_3()
    closure = L.fig_8_3_closure()
    y, yd, ydd = np.array([0.9, -0.4]), np.array([1.5, 0.7]), np.array([0.3, -0.2])
    q, G, g = closure.jacobians(y, yd)
    qd, qdd = G @ yd, G @ ydd + g
    tau = L.loop_inverse_dynamics(model, q, qd, qdd, actuated=[2, 3])
    u1, u2 = G[1, 0], G[2, 0]
    book = np.array([[1 / u2, u1 / u2, 1, 0], [0, 0, 0, 1]]) @ sp.rnea(
        model.spanning_tree(), q, qd, qdd
    )
    assert _rel(tau[[2, 3]], book) < TOL and np.all(tau[[0, 1]] == 0)
    # forward dynamics with these forces reproduces the motion
    assert _rel(L.loop_forward_dynamics(model, q, qd, tau)[0], qdd) < 1e-9


def test_inverse_dynamics_reproduces_tau_and_classifies_actuation(rng):
    model = B.four_bar()
    closure = L.four_bar_closure()
    q, G, _ = closure.jacobians(rng.uniform(-3, 3, (3, 1)), rng.standard_normal((3, 1)))
    qd = (G @ rng.standard_normal((3, 1, 1)))[..., 0]
    tau = np.zeros((3, 3))
    tau[:, 0] = rng.standard_normal(3)  # the crank is actuated
    qdd, _ = L.loop_forward_dynamics(model, q, qd, tau)
    got = L.loop_inverse_dynamics(model, q, qd, qdd, actuated=[0])
    assert _rel(got, tau) < 1e-9
    for j in range(3):
        assert _rel(L.loop_inverse_dynamics(model, q[j], qd[j], qdd[j], [0]), got[j]) < TOL
    with pytest.raises(ValueError, match="underactuated"):
        L.loop_inverse_dynamics(model, q, qd, qdd, actuated=[])
    with pytest.raises(ValueError, match="redundantly actuated"):
        L.loop_inverse_dynamics(model, q, qd, qdd, actuated=[0, 2])
    u = L.loop_inverse_dynamics(model, q, qd, qdd, actuated=[0, 2], allow_redundant=True)
    assert _rel(L.loop_forward_dynamics(model, q, qd, u)[0], qdd) < 1e-9
    assert np.all(np.linalg.norm(u, axis=-1) <= np.linalg.norm(tau, axis=-1) + 1e-12)
    with pytest.raises(ValueError, match="violates the loop constraints"):
        L.loop_inverse_dynamics(model, q, qd, qdd + 1.0, actuated=[0])
    with pytest.raises(ValueError, match="actuated must index"):
        L.loop_inverse_dynamics(model, q, qd, qdd, actuated=[5])


# ----------------------------------------------------------------------------- §8.13


def test_sparse_matrix_method_agrees_with_the_spanning_tree(rng):
    tree = ("S", "C", "SY", "~R", "RP")
    loops = [Spherical(), Cylindrical("x")]
    model, q = _closed_model(rng, 6, tree, loops, pairs=[(0, 6), (5, 2)], branching=0.0)
    assert int(L.mobility(model, q).redundant) == 0  # properly constrained (§8.13 assumes it)
    qd = rng.standard_normal(model.nv)
    tau = rng.standard_normal(model.nv)
    f_ext = np.vstack([np.zeros(6), rng.standard_normal((model.NB, 6))])
    n_a = sum(lj.joint.nv for lj in model.loop_joints)
    tau_loop = rng.standard_normal(n_a)
    with pytest.warns(L.LoopConstraintWarning, match="K q̇ = 0"):  # a random q̇, deliberately
        expected, _ = L.loop_forward_dynamics(model, q, qd, tau, tau_loop, f_ext)
    got = L.sparse_matrix_method(model, q, qd, tau, tau_loop, f_ext)
    assert _rel(got, expected) < 1e-9
    system = L.sparse_system(model, q, qd, tau)
    A = system.A.toarray()
    assert np.abs(A - A.T).max() < TOL * np.abs(A).max()  # symmetric (eq. 8.64)


def test_sparse_method_on_the_ladder_is_banded(rng):
    widths = []
    for n in (2, 4, 6):
        model = B.ladder(n)
        q = model.neutral_configuration()
        K, _ = L.loop_constraints(model, q, np.zeros(model.nv))
        null = np.linalg.svd(K)[2][3 * n :].T
        qd = null @ rng.standard_normal(null.shape[1])
        tau = rng.standard_normal(model.nv)
        expected, _ = L.loop_forward_dynamics(model, q, qd, tau)
        assert _rel(L.sparse_matrix_method(model, q, qd, tau), expected) < 1e-9
        system = L.sparse_system(model, q, qd, tau)
        o = system.banded_order
        assert sorted(o) == list(range(system.A.shape[0]))
        rows, cols = system.A.toarray()[np.ix_(o, o)].nonzero()
        widths.append(np.abs(rows - cols).max())
        assert len(system.labels) == len(system.blocks) == 2 * n + 2 * n + n
    assert widths[0] == widths[1] == widths[2]  # fixed bandwidth: O(n) factorization


def test_sparse_method_rejects_overconstrained_and_batches():
    model = B.four_bar()
    q = L.four_bar_closure().gamma([0.3])
    with pytest.raises(ValueError, match="singular"):
        L.sparse_matrix_method(model, q, np.zeros(3))
    with pytest.raises(ValueError, match="one state at a time"):
        L.sparse_system(model, np.stack([q, q]), np.zeros(3))


# ----------------------------------------------------------------------------- more error paths


def test_variable_mobility_of_a_folded_four_bar():
    """All four pins on a line (l₀ + l₃ = l₁ + l₂, q = 0): rank K drops to 1, mobility to 2."""
    model = B.four_bar(0.3, 1.0, 0.4, 0.9)
    folded, moving = np.zeros(3), L.four_bar_closure(0.3, 1.0, 0.4, 0.9).gamma([0.5])
    assert np.abs(L.loop_position_errors(model, folded)).max() < TOL
    mob = L.mobility(model, np.stack([folded, moving]))
    assert mob.rank.tolist() == [1, 2] and mob.mobility.tolist() == [2, 1]
    with pytest.raises(ValueError, match="differs across the batch"):
        L.loop_inverse_dynamics(model, np.stack([folded, moving]), np.zeros(3), np.zeros(3), [0])


@pytest.mark.parametrize("method", L.METHODS)
def test_forward_dynamics_warns_when_the_constraints_cannot_be_met(method, recwarn):
    """Folded four-bar: a velocity K allows to first order cannot continue (k ∉ range K)."""
    model = B.four_bar(0.3, 1.0, 0.4, 0.9)
    folded = np.zeros(3)
    K, _ = L.loop_constraints(model, folded, np.zeros(3))
    assert np.linalg.matrix_rank(K) == 1  # rank drop: the singularity of the test above
    qd = np.array([0.0, 1.0, 2.5])  # K q̇ = 0: all three pins stay on their line
    assert np.abs(K @ qd).max() < TOL
    with pytest.warns(RuntimeWarning, match="configuration singularity"):
        qdd, _ = L.loop_forward_dynamics(model, folded, qd, method=method)
    _, k = L.loop_constraints(model, folded, qd)
    assert np.abs(K @ qdd - k).max() > 0.1 * np.abs(k).max()  # the warning is deserved
    # no warning at rest there, nor in motion at a regular configuration, stabilized or not
    L.loop_forward_dynamics(model, folded, np.zeros(3), method=method)
    q, G, _ = L.four_bar_closure(0.3, 1.0, 0.4, 0.9).jacobians([0.5], [4.0])
    for gains in (None, (10.0, 10.0)):
        L.loop_forward_dynamics(model, q, G[:, 0] * 4.0, method=method, stabilization=gains)
    assert not [w for w in recwarn if issubclass(w.category, RuntimeWarning)]


def test_closures_batch_equals_loop():
    closure = L.four_bar_closure()
    y, yd = np.array([[0.1], [1.0], [-2.5]]), np.array([[1.0], [-0.5], [2.0]])
    q, G, g = closure.jacobians(y, yd)
    for j in range(3):
        q_j, G_j, g_j = closure.jacobians(y[j], yd[j])
        assert _rel(q[j], q_j) < TOL and _rel(G[j], G_j) < TOL and _rel(g[j], g_j) < TOL


def test_remaining_error_paths():
    model = B.four_bar(1.0, 0.5, 0.8, 1.0)
    theta_dead = np.arccos((2.0 - 1.3**2) / 2.0)
    phi = np.arctan2(-np.sin(theta_dead), 1.0 - np.cos(theta_dead))
    q_dead = np.array([theta_dead, phi - theta_dead, phi + np.pi])
    newton = L.newton_closure(model, (0,), q_dead)
    with pytest.raises(ValueError, match="did not close"):
        newton.gamma([theta_dead + 1e-2])  # beyond the dead centre: no assembly
    with pytest.raises(ValueError, match="configuration singularity"):
        newton.jacobians([theta_dead], [1.0])
    # at the dead-centre a crank motor cannot drive the linkage; the rocker's can
    K, _ = L.loop_constraints(model, q_dead, np.zeros(3))
    qd_dead = 2.0 * np.linalg.svd(K)[2][-1]  # the one allowed motion: the crank stays still
    qdd_dead, _ = L.loop_forward_dynamics(model, q_dead, qd_dead, [0.0, 0.0, 0.7])
    with pytest.raises(ValueError, match="control only 0 of the 1.*configuration singularity"):
        L.loop_inverse_dynamics(model, q_dead, qd_dead, qdd_dead, actuated=[0])
    tau = L.loop_inverse_dynamics(model, q_dead, qd_dead, qdd_dead, actuated=[2])
    assert _rel(tau, [0.0, 0.0, 0.7]) < 1e-9
    with pytest.raises(ValueError, match="q_guess must be one configuration"):
        L.newton_closure(model, (0,), np.stack([q_dead, q_dead]))
    with pytest.raises(ValueError, match="sequence of variable indices"):
        L.newton_closure(model, 0, q_dead)
    with pytest.raises(ValueError, match="K must have shape"):
        L.G_and_g(np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="lam must have shape"):
        L.loop_joint_forces(model, q_dead, np.zeros(4))
    with pytest.raises(ValueError, match="f_ext must have shape"):
        L.loop_bias_force(model, q_dead, np.zeros(3), np.zeros(1), np.zeros((3, 6)))
    with pytest.raises(ValueError, match="offset contains non-finite"):
        L.crank_slider_closure(offset=np.inf)
    with pytest.raises(ValueError, match="closure must be a LoopClosure"):
        _explicit(model, None, [0.0], [0.0], 0.01, 1)
    closure = L.four_bar_closure()
    q, G, _ = closure.jacobians([0.4], [1.0])
    with pytest.raises(ValueError, match=r"K q̇ = 0"):
        L.loop_inverse_dynamics(B.four_bar(), q, np.ones(3), np.zeros(3), [0])
    with pytest.raises(ValueError, match="crank must be > 0"):
        B.four_bar(crank=0.0)
    with pytest.raises(ValueError, match="slider mass must be > 0"):
        B.crank_slider(masses=(1.0, 1.0, -1.0))
    with pytest.raises(ValueError, match="l2 must be > 0"):
        B.planar_loop_fig_8_3(l2=0.0)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        B.ladder(0)


# ----------------------------------------------------------------------------- the tree's dynamics


def _floating_four_bar():
    """The four-bar on a free-floating base (body 1): a floating model with a loop joint."""
    model = B.floating_base(
        B.four_bar().spanning_tree().astype(float), inertia=sp.mcI(2.0, [0, 0, 0], np.eye(3))
    )
    model.add_loop_joint(3, 4, Revolute("z"), sp.xlt([1.0, 0, 0]), sp.xlt([0.8, 0, 0]), "pin C")
    return model


def _refusals():
    """(name, call) for every function that computes the tree's equations of motion.

    Not here: ``RedmaxSystem``, which closes revolute and ball loop joints with REDMAX point
    constraints and refuses only a loop joint it cannot close (tests/test_simulation.py,
    tests/test_formulations_loops.py); ``maximal.from_model`` refuses by default and keeps the
    loops with ``loops=True`` (tests/test_formulations_loops.py)."""
    from spatial import accuracy, constrained, maximal, reduced, symbolic
    from spatial import dynamics as D

    n, z = 3, np.zeros(3)
    q = np.array([0.3, 0.2, -0.4])
    pin = [reduced.PointConstraint(2, (1.0, 0, 0), 3, (0.8, 0, 0), axis=(0, 0, 1))]
    J_rR = np.ones((3, 1))
    rope = reduced.ParticleSystem([0.1], attached=[(1, [0.3, 0.0, 0.0])])
    x0 = np.zeros((0, 3))
    none = np.zeros(n, bool)
    fq = _floating_four_bar().neutral_configuration()
    fz = np.zeros(_floating_four_bar().nv)
    return [
        ("rnea", lambda m: D.rnea(m, q, z, z)),
        ("bias_force", lambda m: D.bias_force(m, q, z)),
        ("joint_forces", lambda m: D.joint_forces(m, q, z, z)),
        ("rnea_3d", lambda m: D.rnea_3d(m, q, z, z)),
        ("crba", lambda m: D.crba(m, q)),
        ("inertia_product", lambda m: D.inertia_product(m, q, z)),
        ("coriolis_matrix", lambda m: D.coriolis_matrix(m, q, z)),
        ("aba", lambda m: D.aba(m, q, z, z)),
        ("articulated_inertia", lambda m: D.articulated_inertia(m, q)),
        ("forward_dynamics", lambda m: D.forward_dynamics(m, q, z, z)),
        ("hybrid_dynamics", lambda m: D.hybrid_dynamics(m, q, z, z, z, none)),
        ("hybrid_inertia", lambda m: D.hybrid_inertia(m, q, none)),
        ("geared_forward_dynamics", lambda m: D.geared_forward_dynamics(m, np.eye(3), q, z, z)),
        ("geared_inverse_dynamics", lambda m: D.geared_inverse_dynamics(m, np.eye(3), q, z, z)),
        ("crba_with_rotors", lambda m: D.crba_with_rotors(m, q, z)),
        ("aba_with_rotors", lambda m: D.aba_with_rotors(m, q, z, z, z)),
        ("handle_inverse_inertia", lambda m: D.handle_inverse_inertia(m, q, z, [3])),
        ("floating_aba", lambda m: D.floating_aba(_floating_four_bar(), fq, fz, fz[6:])),
        ("floating_coefficients", lambda m: D.floating_coefficients(_floating_four_bar(), fq, fz)),
        (
            "floating_forward_dynamics",
            lambda m: D.floating_forward_dynamics(_floating_four_bar(), fq, fz, fz[6:]),
        ),
        (
            "floating_inverse_dynamics",
            lambda m: D.floating_inverse_dynamics(_floating_four_bar(), fq, fz, fz[6:]),
        ),
        ("redmax_mass_matrix", lambda m: reduced.redmax_mass_matrix(m, q)),
        ("redmax_force", lambda m: reduced.redmax_force(m, q, z)),
        ("redmax_forward_dynamics", lambda m: reduced.redmax_forward_dynamics(m, q, z, z)),
        ("redmax_step", lambda m: reduced.redmax_step(m, q, z, 0.01)),
        ("hyper_reduced_mass_matrix", lambda m: reduced.hyper_reduced_mass_matrix(m, J_rR, [0.1])),
        ("hyper_reduced_force", lambda m: reduced.hyper_reduced_force(m, J_rR, [0.1], [0.0])),
        (
            "hyper_reduced_forward_dynamics",
            lambda m: reduced.hyper_reduced_forward_dynamics(m, J_rR, [0.1], [0.0]),
        ),
        ("coupled_mass_matrix", lambda m: reduced.coupled_mass_matrix(m, rope, q, x0)),
        ("coupled_force", lambda m: reduced.coupled_force(m, rope, q, x0, z, x0)),
        (
            "coupled_forward_dynamics",
            lambda m: reduced.coupled_forward_dynamics(m, rope, q, x0, z, x0),
        ),
        ("inverse_inertia_factor", lambda m: reduced.inverse_inertia_factor(m, q)),
        ("inverse_inertia_product", lambda m: reduced.inverse_inertia_product(m, q, z)),
        ("inverse_inertia", lambda m: reduced.inverse_inertia(m, q)),
        (
            "recursive_hybrid_dynamics",
            lambda m: reduced.recursive_hybrid_dynamics(m, q, z, z, z, none),
        ),
        ("delassus_matrix", lambda m: reduced.delassus_matrix(m, q, np.ones((1, 3)))),
        ("dual_forward_dynamics", lambda m: reduced.dual_forward_dynamics(m, q, z, z, pin)),
        (
            "constrained_forward_dynamics",
            lambda m: reduced.constrained_forward_dynamics(m, q, z, z, pin),
        ),
        ("constrained_step", lambda m: reduced.constrained_step(m, q, z, 0.01, z, pin)),
        ("staggered_step", lambda m: reduced.staggered_step(m, q, z, 0.01, [], 0.5)),
        ("bisp_step", lambda m: reduced.bisp_step(m, q, z, 0.01, [])),
        ("joint_reaction_forces", lambda m: reduced.joint_reaction_forces(m, q, z, z)),
        ("rnea_base_coordinates", lambda m: accuracy.rnea_base_coordinates(m, q, z, z)),
        ("backward_error", lambda m: accuracy.backward_error(m, q, z, z, z)),
        ("big_matrix_dynamics", lambda m: constrained.big_matrix_dynamics(m, q, z, z)),
        ("planar_chain_data", lambda m: symbolic.planar_chain_data(m)),
        ("generate_planar_rnea", lambda m: symbolic.generate_planar_rnea(m)),
        ("maximal.from_model", lambda m: maximal.from_model(m)),
        ("CoupledSystem", lambda m: sp.systems.CoupledSystem(m, rope)),
    ]


@pytest.mark.parametrize("name, call", _refusals(), ids=[name for name, _ in _refusals()])
def test_every_function_of_the_tree_dynamics_refuses_loop_joints(name, call):
    """Each names itself, the loop joint and the ch. 8 alternatives; on the spanning tree the
    same call runs (it answers for the open tree, as asked)."""
    model = B.four_bar()
    message = rf"{name} computes the dynamics of a kinematic tree.*\('pin C'\).*loop_forward"
    with pytest.raises(ValueError, match=message):
        call(model)
    if not name.startswith("floating"):
        call(model.spanning_tree())


def test_kinematics_and_the_loop_functions_still_take_a_loop_model(four_bar_and_open_tree):
    model, open_tree, q, qd, tau = four_bar_and_open_tree
    np.testing.assert_array_equal(sp.body_poses(model, q), sp.body_poses(open_tree, q))
    np.testing.assert_array_equal(sp.body_jacobian(model, q, 3), sp.body_jacobian(open_tree, q, 3))
    assert np.isclose(sp.kinetic_energy(model, q, qd), sp.kinetic_energy(open_tree, q, qd))
    L.loop_forward_dynamics(model, q, qd, tau)
    # the systems' mass matrices are the spanning tree's H (and GᵀHG in independent coordinates)
    H = sp.crba(open_tree, q)
    np.testing.assert_allclose(sp.systems.TreeSystem(model).mass_matrix(q), H, rtol=1e-13)
    closure = L.four_bar_closure()
    _, G, _ = closure.jacobians([0.8], [0.0])
    M = ClosureSystem(model, closure).mass_matrix(np.array([0.8]))
    np.testing.assert_allclose(M, G.T @ H @ G, rtol=1e-12)
