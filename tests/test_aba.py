"""Tests of the articulated-body algorithm (Featherstone ch. 7, Tables 7.1–7.2).

Oracles: the RNEA (``aba(rnea(q̈)) == q̈``), the inertia-matrix method (``H q̈ = τ - C``),
the projection formula for articulated inertias (eq. 7.12), the closed-form equations of a
pendulum and a cart-pole derived by hand below, Example 7.1, and conservation of energy and
momentum along simulated trajectories.
"""

import warnings

import numpy as np
import pytest

import spatial as sp
from spatial import builders
from spatial.dynamics import aba, articulated_inertia, bias_force, crba, rnea
from spatial.joints import Free, Prismatic, Revolute

TOL = 1e-10  # relative tolerance for identities between formulations

MIXED = ("R", "P", "H", "C", "S", "SY", "FREE", "PL", "F", "RP", "~RP", "~H")
ASSEMBLIES = ("standard", "variant1", "variant2")


def rel_err(a, b) -> float:
    return float(np.abs(np.asarray(a) - b).max() / (1.0 + np.abs(b).max()))


def random_state(model, rng, batch=()):
    q = model.random_configuration(rng, batch)
    qd = rng.standard_normal(batch + (model.nv,))
    qdd = rng.standard_normal(batch + (model.nv,))
    return q, qd, qdd


def random_f_ext(model, rng, batch=()):
    f = rng.standard_normal(batch + (model.NB + 1, 6))
    f[..., 0, :] = 0.0
    return f


def trees(rng):
    """Random branched trees: fixed and floating, revolute-only and mixed joints."""
    return [
        builders.random_tree(rng, 9, joints=("R",)),
        builders.random_tree(rng, 12, joints=MIXED),
        builders.random_tree(rng, 12, joints=MIXED, floating=True),
        builders.random_tree(rng, 6, joints=("S", "FREE", "C", "PL")),
        builders.random_tree(rng, 8, joints=MIXED, branching=0.0),  # an unbranched chain
    ]


# ----------------------------------------------------------------------------- consistency


@pytest.mark.parametrize("assembly", ASSEMBLIES)
def test_aba_inverts_rnea(rng, assembly):
    for model in trees(rng):
        q, qd, qdd = random_state(model, rng, (3,))
        f_ext = random_f_ext(model, rng, (3,))
        for f in (None, f_ext):
            tau = rnea(model, q, qd, qdd, f)
            assert rel_err(aba(model, q, qd, tau, f, assembly=assembly), qdd) < TOL


def test_aba_matches_inertia_matrix_method(rng):
    for model in trees(rng):
        q, qd, _ = random_state(model, rng, (2,))
        tau = rng.standard_normal((2, model.nv))
        f_ext = random_f_ext(model, rng, (2,))
        H, C = crba(model, q), bias_force(model, q, qd, f_ext)
        expected = np.linalg.solve(H, (tau - C)[..., None])[..., 0]
        assert rel_err(aba(model, q, qd, tau, f_ext), expected) < TOL


def test_assembly_variants_agree_with_each_other(rng):
    model = builders.random_tree(rng, 10, joints=MIXED, floating=True)
    q, qd, _ = random_state(model, rng, (4,))
    tau = rng.standard_normal((4, model.nv))
    results = [aba(model, q, qd, tau, assembly=a) for a in ASSEMBLIES]
    assert rel_err(results[1], results[0]) < TOL
    assert rel_err(results[2], results[0]) < TOL


def test_independent_of_the_numbering(rng):
    model = builders.random_tree(rng, 8, joints=MIXED)
    # a different regular numbering: visit the children of each body in reverse order
    order, stack = [], list(reversed(model.children(0)))
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(model.children(i))
    assert order != list(range(1, model.NB + 1))
    new, q_perm, v_perm = builders.renumber(model, order)
    q, qd, _ = random_state(model, rng)
    tau = rng.standard_normal(model.nv)
    qdd = aba(model, q, qd, tau)
    assert rel_err(aba(new, q[q_perm], qd[v_perm], tau[v_perm]), qdd[v_perm]) < TOL


def test_batched_equals_looped(rng):
    model = builders.random_tree(rng, 7, joints=MIXED, floating=True)
    q, qd, _ = random_state(model, rng, (2, 3))
    tau = rng.standard_normal((2, 3, model.nv))
    f_ext = random_f_ext(model, rng, (2, 3))
    for assembly in ASSEMBLIES:
        batched = aba(model, q, qd, tau, f_ext, assembly=assembly)
        assert batched.shape == (2, 3, model.nv)
        for j in np.ndindex(2, 3):
            one = aba(model, q[j], qd[j], tau[j], f_ext[j], assembly=assembly)
            assert rel_err(batched[j], one) < TOL
    # broadcasting: one configuration, a batch of velocities and torques
    batched = aba(model, q[0, 0], qd[0], tau[0])
    looped = [aba(model, q[0, 0], qd[0, k], tau[0, k]) for k in range(3)]
    assert batched.shape == (3, model.nv) and rel_err(batched, np.stack(looped)) < TOL


def test_external_forces_are_in_base_coordinates(rng):
    """Gravity as a base acceleration == gravity as external forces at the centres of mass."""
    g = np.array([0.3, -2.0, -9.81])
    seed = int(rng.integers(1 << 31))
    heavy = builders.random_tree(np.random.default_rng(seed), 9, joints=MIXED, gravity=g)
    weightless = builders.random_tree(
        np.random.default_rng(seed), 9, joints=MIXED, gravity=[0, 0, 0]
    )
    q, qd, _ = random_state(heavy, rng, (2,))
    tau = rng.standard_normal((2, heavy.nv))
    poses = sp.body_poses(heavy, q)  # T_0i: body i → world
    f_ext = np.zeros((2, heavy.NB + 1, 6))
    for i in range(1, heavy.NB + 1):
        m, c, _ = sp.inertia_params(heavy.inertia[i])
        c_world = (poses[:, i, :3, :3] @ c) + poses[:, i, :3, 3]
        f_ext[:, i] = np.concatenate([np.cross(c_world, m * g), np.broadcast_to(m * g, (2, 3))], -1)
    expected = aba(heavy, q, qd, tau)
    assert rel_err(aba(weightless, q, qd, tau, f_ext), expected) < TOL


# ----------------------------------------------------------------------------- articulated inertia


def test_articulated_inertia_properties(rng):
    model = builders.random_tree(rng, 12, joints=MIXED)
    q = model.random_configuration(rng, (2,))
    IA = articulated_inertia(model, q)
    assert IA.shape == (2, model.NB + 1, 6, 6) and np.all(IA[:, 0] == 0)
    assert rel_err(IA[1], articulated_inertia(model, q[1])) < TOL  # batched == looped
    X0 = sp.forward_kinematics(model, q)
    for i in range(1, model.NB + 1):
        I_A = IA[:, i]
        assert rel_err(I_A, np.swapaxes(I_A, -1, -2)) < TOL
        assert np.linalg.eigvalsh(I_A).min() > 0.0  # positive definite (every I_j is)
        if not model.children(i):  # a leaf's articulated body is the body itself
            assert rel_err(I_A, np.broadcast_to(model.inertia[i], I_A.shape)) < TOL
        # I_i ≤ I^A_i ≤ I^c_i: the subtree can only make the body feel heavier, and at most as
        # heavy as the whole subtree welded together (the composite inertia, eq. 6.8)
        X_i0 = X0[:, i]
        composite = 0.0
        for j in model.subtree(i):
            X_ji = X0[:, j] @ sp.xinv(X_i0)  # ^jX_i
            composite = composite + np.swapaxes(X_ji, -1, -2) @ model.inertia[j] @ X_ji
        scale = np.abs(composite).max()
        assert np.linalg.eigvalsh(I_A - model.inertia[i]).min() > -TOL * scale
        assert np.linalg.eigvalsh(composite - I_A).min() > -TOL * scale


def test_articulated_inertia_equals_projection_formula(rng):
    """Eq. 7.12: I^A = (J H⁻¹ Jᵀ)⁻¹ for the handle of a floating tree.

    Body 1 of a floating tree is joined to the base by a free joint whose velocity variables are
    body 1's velocity in its own coordinates, so its Jacobian is ``J = [1₆ 0]`` and ``J H⁻¹ Jᵀ``
    is the top-left 6x6 block of ``H⁻¹`` (computed here by the CRBA).
    """
    model = builders.random_tree(rng, 8, joints=MIXED, floating=True)
    for _ in range(3):
        q = model.random_configuration(rng)
        Phi = np.linalg.inv(crba(model, q))[:6, :6]
        assert rel_err(articulated_inertia(model, q)[1], np.linalg.inv(Phi)) < 1e-9


def test_example_7_1_box_and_slotted_cylinder():
    """Featherstone Example 7.1: I^A = diag(I₁, I₁+I₂, I₁+I₂, m₁+m₂, m₁, m₁+m₂)."""
    m1, I1, m2, I2 = 3.0, 0.4, 1.5, 0.1
    model = sp.Model()
    box = model.add_body(0, Free(), np.eye(6), np.diag([I1, I1, I1, m1, m1, m1]))
    # the cylinder slides along y and turns about x: two joints through a massless body
    slider = model.add_body(box, Prismatic("y"), np.eye(6), np.zeros((6, 6)))
    model.add_body(slider, Revolute("x"), np.eye(6), np.diag([I2, I2, I2, m2, m2, m2]))
    q = np.concatenate([sp.quat_normalize([0.3, -0.2, 0.5, 0.8]), [0.1, 0.2, 0.3], [0.0], [0.7]])
    expected = np.diag([I1, I1 + I2, I1 + I2, m1 + m2, m1, m1 + m2])
    assert rel_err(articulated_inertia(model, q)[box], expected) < TOL


# ----------------------------------------------------------------------------- closed forms


def test_simple_pendulum_closed_form(rng):
    for length, mass in [(1.0, 1.0), (2.5, 0.3), (0.4, 7.0)]:
        model = builders.simple_pendulum(length=length, mass=mass, g=9.81)
        theta = rng.uniform(-np.pi, np.pi, size=5)
        tau = rng.standard_normal(5)
        # m l² θ̈ = τ - m g l sin θ (the velocity does not matter)
        expected = tau / (mass * length**2) - 9.81 / length * np.sin(theta)
        qdd = aba(model, theta[:, None], rng.standard_normal((5, 1)), tau[:, None])
        assert rel_err(qdd[:, 0], expected) < TOL


def test_cart_pole_closed_form(rng):
    """Lagrange's equations of the cart-pole, derived by hand.

    Cart position ``x``, pole angle ``θ`` from upright (``θ > 0`` tilts towards -x); the pole is
    a uniform solid rod of mass ``m``, length ``l`` and radius ``l/20`` with centre of mass at
    ``h = l/2`` from the pivot, so ``p_c = (x - h sin θ, h cos θ)`` and its inertia about the
    pivot is ``J = m (3 r² + l²)/12 + m h²``.  With
    ``L = ½ (M+m) ẋ² - m h cos θ ẋ θ̇ + ½ J θ̇² - m g h cos θ``:

        (M+m) ẍ - m h cos θ θ̈ = F - m h sin θ θ̇²
        -m h cos θ ẍ + J θ̈     = τ + m g h sin θ
    """
    M, m, l, g = 1.3, 0.4, 0.9, 9.81
    model = builders.cart_pole(cart_mass=M, pole_mass=m, pole_length=l, g=g)
    h, r = l / 2, l / 20
    J = m * (3 * r**2 + l**2) / 12 + m * h**2
    q, qd, tau = (
        rng.standard_normal((6, 2)),
        rng.standard_normal((6, 2)),
        rng.standard_normal((6, 2)),
    )
    theta, theta_d = q[:, 1], qd[:, 1]
    A = np.zeros((6, 2, 2))
    A[:, 0, 0], A[:, 1, 1] = M + m, J
    A[:, 0, 1] = A[:, 1, 0] = -m * h * np.cos(theta)
    b = np.stack(
        [tau[:, 0] - m * h * np.sin(theta) * theta_d**2, tau[:, 1] + m * g * h * np.sin(theta)],
        -1,
    )
    expected = np.linalg.solve(A, b[..., None])[..., 0]
    assert rel_err(aba(model, q, qd, tau), expected) < TOL


# ----------------------------------------------------------------------------- invariants


def rk4_step(model, q, qd, tau, h):
    """One classical Runge–Kutta step; positions move with ``model.integrate`` (quaternions)."""
    k1v, k1a = qd, aba(model, q, qd, tau)
    k2v = qd + h / 2 * k1a
    k2a = aba(model, model.integrate(q, k1v, h / 2), k2v, tau)
    k3v = qd + h / 2 * k2a
    k3a = aba(model, model.integrate(q, k2v, h / 2), k3v, tau)
    k4v = qd + h * k3a
    k4a = aba(model, model.integrate(q, k3v, h), k4v, tau)
    q_new = model.integrate(q, (k1v + 2 * k2v + 2 * k3v + k4v) / 6, h)
    return q_new, qd + h / 6 * (k1a + 2 * k2a + 2 * k3a + k4a)


def energy_drift(model, q0, qd0, h, T):
    """Largest relative change of the total energy along an unforced RK4 trajectory."""

    def energy(q, qd):
        return sp.kinetic_energy(model, q, qd) + sp.potential_energy(model, q)

    q, qd, tau = q0, qd0, np.zeros_like(qd0)
    E0, worst = energy(q0, qd0), 0.0
    for _ in range(round(T / h)):
        q, qd = rk4_step(model, q, qd, tau, h)
        worst = max(worst, float(np.max(np.abs(energy(q, qd) - E0) / np.abs(E0))))
    return worst


def test_double_pendulum_conserves_energy_to_fourth_order():
    model = builders.double_pendulum(lengths=(1.0, 0.7), masses=(1.0, 0.5))
    q0 = np.array([[1.2, -0.5], [2.0, 1.0], [0.3, 2.5]])  # a batch of three swings
    qd0 = np.array([[0.0, 0.0], [0.5, -1.0], [-1.0, 2.0]])
    drifts = [energy_drift(model, q0, qd0, h, T=2.0) for h in (0.01, 0.005)]
    assert drifts[1] < 1e-6
    assert 12.0 < drifts[0] / drifts[1] < 20.0  # ~2⁴ = 16 for a fourth-order method


def test_floating_tree_conserves_momentum_without_gravity(rng):
    model = builders.random_tree(rng, 6, joints=("R", "S", "H"), floating=True, gravity=[0, 0, 0])
    q, qd, _ = random_state(model, rng)
    tau = rng.standard_normal(model.nv)
    tau[:6] = 0.0  # nothing pushes on the floating base; the other joint forces are internal
    h0 = sp.momentum(model, q, qd)

    # the rate of change of the momentum vanishes: central difference along the motion
    qdd, eps = aba(model, q, qd, tau), 1e-5

    def momentum_at(s):
        return sp.momentum(model, model.integrate(q, qd, s), qd + s * qdd)

    rate = (momentum_at(eps) - momentum_at(-eps)) / (2 * eps)
    inertial = (sp.momentum(model, q, qd + eps * qdd) - sp.momentum(model, q, qd - eps * qdd)) / (
        2 * eps
    )
    assert np.linalg.norm(rate) < 1e-7 * np.linalg.norm(inertial)

    # and stays put along a trajectory (model.integrate keeps the quaternions on the sphere).
    # rk4_step adds body-frame velocities taken at different orientations without transporting
    # them, which makes it second order for free joints: the drift falls ~4x per halved step.
    drift = []
    for step in (4e-3, 2e-3):
        q_t, qd_t = q, qd
        for _ in range(round(0.2 / step)):
            q_t, qd_t = rk4_step(model, q_t, qd_t, tau, step)
        drift.append(np.linalg.norm(sp.momentum(model, q_t, qd_t) - h0) / np.linalg.norm(h0))
    assert drift[1] < 1e-4 and drift[0] / drift[1] > 3.5


# ----------------------------------------------------------------------------- errors


def test_errors(rng):
    model = builders.random_tree(rng, 4, joints=("R", "S"))
    q, qd, _ = random_state(model, rng)
    tau = np.zeros(model.nv)
    with pytest.raises(ValueError, match="q must have shape"):
        aba(model, q[:-1], qd, tau)
    with pytest.raises(ValueError, match="qd must have shape"):
        aba(model, q, qd[:-1], tau)
    with pytest.raises(ValueError, match="tau must have shape"):
        aba(model, q, qd, np.zeros(model.nv + 1))
    with pytest.raises(ValueError, match="non-finite"):
        aba(model, q, np.full(model.nv, np.nan), tau)
    with pytest.raises(ValueError, match="f_ext must have shape"):
        aba(model, q, qd, tau, np.zeros((model.NB, 6)))
    f_ext = np.zeros((model.NB + 1, 6))
    f_ext[0, 2] = 1.0
    with pytest.raises(ValueError, match="row 0 is the fixed base"):
        aba(model, q, qd, tau, f_ext)
    with pytest.raises(ValueError, match="batch shapes do not broadcast"):
        aba(model, model.random_configuration(rng, (2,)), qd, np.zeros((3, model.nv)))
    with pytest.raises(ValueError, match="assembly must be one of"):
        aba(model, q, qd, tau, assembly="variant3")
    pendulum = builders.simple_pendulum()  # a point mass: no inverse inertia
    with pytest.raises(ValueError, match="singular"):
        aba(pendulum, [0.1], [0.0], [0.0], assembly="variant1")
    with pytest.raises(ValueError, match="q must have shape"):
        articulated_inertia(model, q[:-1])
    ball = builders.random_tree(rng, 2, joints=("S",))
    with pytest.raises(ValueError, match="q of joint 1"):
        aba(ball, [2.0, 0, 0, 0, 1.0, 0, 0, 0], np.zeros(6), np.zeros(6))


def test_a_massless_subtree_is_reported_not_nan():
    """A joint that moves nothing with mass has D_i = 0: a clear error, not NaN or a warning."""
    model = sp.Model()
    model.add_body(0, sp.joints.Revolute("z"), np.eye(6), np.zeros((6, 6)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match="articulated inertia D_i .* is singular"):
            aba(model, [0.0], [0.0], [1.0])


@pytest.mark.parametrize("assembly", ["standard", "variant1", "variant2"])
def test_a_model_without_bodies_has_empty_dynamics(assembly):
    # nv = 0: q̈, τ and H are empty, batched or not; articulated_inertia holds the base row only
    model = sp.Model()
    for batch in ((), (3,)):
        empty = np.zeros(batch + (0,))
        assert sp.aba(model, empty, empty, empty, assembly=assembly).shape == batch + (0,)
        assert sp.rnea(model, empty, empty, empty).shape == batch + (0,)
        assert sp.crba(model, empty).shape == batch + (0, 0)
        assert sp.forward_dynamics(model, empty, empty, empty).shape == batch + (0,)
        assert not sp.articulated_inertia(model, empty).any()
        assert sp.articulated_inertia(model, empty).shape == batch + (1, 6, 6)


# ----------------------------------------------------------------------------- loop joints


def test_aba_refuses_loop_joints_and_answers_for_the_spanning_tree_on_request(
    four_bar_and_open_tree,
):
    """A model with a loop joint is refused (naming the joint and the ch. 8 function); the
    open tree's answer, asked for with spanning_tree(), is that of a tree built by hand."""
    model, open_tree, q, qd, tau = four_bar_and_open_tree
    refusal = r"aba computes .* loop joint \('pin C'\).*loop_forward_dynamics.*spanning_tree\(\)"
    with pytest.raises(ValueError, match=refusal):
        aba(model, q, qd, tau)
    with pytest.raises(ValueError, match=r"articulated_inertia .*'pin C'"):
        articulated_inertia(model, q)
    tree = model.spanning_tree()
    np.testing.assert_allclose(aba(tree, q, qd, tau), aba(open_tree, q, qd, tau), rtol=1e-13)
    np.testing.assert_allclose(
        articulated_inertia(tree, q), articulated_inertia(open_tree, q), rtol=1e-13, atol=1e-15
    )


# ----------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("argument", ["q", "qd", "tau"])
def test_complex_state_is_refused_naming_the_argument(argument):
    model = builders.double_pendulum()
    state = {"q": np.array([0.1, 0.2]), "qd": np.zeros(2), "tau": np.zeros(2)}
    state[argument] = state[argument] + 1e-20j  # NumPy would drop it with a ComplexWarning
    with pytest.raises(ValueError, match=f"^{argument} must be real"):
        aba(model, state["q"], state["qd"], state["tau"])
    if argument != "tau":
        with pytest.raises(ValueError, match=f"^{argument} must be real"):
            rnea(model, state["q"], state["qd"], np.zeros(2))
    with pytest.raises(ValueError, match="^f_ext must be real"):
        aba(model, np.zeros(2), np.zeros(2), np.zeros(2), np.zeros((3, 6)) + 0j)
    with pytest.raises(ValueError, match="^q must be real"):
        crba(model, np.zeros(2) + 1j)
