"""spatial.integrators: orders, energy, amplification and the two implicit forms (ArtiSynth §0.9),
soft constraints (§0.11), every check against a closed form or an independent route."""

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial.integrators import (
    ORDERS,
    STEPPERS,
    Linearized,
    LinearOscillator,
    reference_solution,
    regularization,
    soft_step,
    step,
)
from spatial.systems import RedmaxSystem, TreeSystem

IMPLICIT_PAIRS = (("implicit-euler", "implicit-euler-tilde"), ("trapezoidal", "trapezoidal-tilde"))


def damped_exact(m, k, c, x0, v0, t):
    """Closed form of m ẍ + c ẋ + k x = 0 (underdamped)."""
    s = c / (2 * m)
    wd = np.sqrt(k / m - s * s)
    A, Bc = x0, (v0 + s * x0) / wd
    e = np.exp(-s * t)
    x = e * (A * np.cos(wd * t) + Bc * np.sin(wd * t))
    v = -s * x + e * (-A * wd * np.sin(wd * t) + Bc * wd * np.cos(wd * t))
    return x, v


def measured_orders(run, exact, steps=(50, 100, 200)):
    errors = []
    for n in steps:
        q, v = run(n)
        errors.append(
            np.abs(np.concatenate([np.ravel(q - exact[0]), np.ravel(v - exact[1])])).max()
        )
    return np.log2(np.array(errors[:-1]) / np.array(errors[1:]))


# ------------------------------------------------------------------------------ orders


@pytest.mark.parametrize("name", sorted(STEPPERS))
def test_order_by_step_halving_on_a_damped_oscillator(name):
    m, k, c, T = 2.0, 18.0, 0.6, 1.0
    osc = LinearOscillator(m, k, c)
    exact = damped_exact(m, k, c, 1.0, 0.5, T)

    def run(n):
        tr = sp.simulate(osc, [1.0], [0.5], T / n, steps=n, integrator=name)
        return tr.q[-1, 0], tr.v[-1, 0]

    orders = measured_orders(run, exact, (100, 200, 400))
    assert np.all(np.abs(orders - ORDERS[name]) < 0.15), orders


@pytest.mark.parametrize(
    "name", ["symplectic-euler", "implicit-euler", "trapezoidal", "rk4", "bridson-marino"]
)
def test_order_by_step_halving_on_a_double_pendulum(name):
    """A nonlinear tree whose mass matrix depends on q: the frozen-mass linearization keeps
    the trapezoidal rule and Bridson–Marino second order."""
    model = B.double_pendulum()
    q0, v0, T = np.array([1.0, 0.5]), np.array([0.0, -0.5]), 0.5
    qr, vr = reference_solution(model, q0, v0, [0.0, T])
    system = Linearized(model)

    def run(n):
        tr = sp.simulate(system, q0, v0, T / n, steps=n, integrator=name)
        return tr.q[-1], tr.v[-1]

    steps = (20, 40, 80) if name == "rk4" else (100, 200, 400)  # RK4 stays above round-off
    orders = measured_orders(run, (qr[-1], vr[-1]), steps)
    assert np.all(np.abs(orders - ORDERS[name]) < 0.2), orders


def test_reference_solution_matches_the_closed_form():
    osc = LinearOscillator(2.0, 18.0, 0.6)
    t = np.linspace(0.0, 2.0, 9)
    q, v = reference_solution(osc, [1.0], [0.5], t)
    x, xd = damped_exact(2.0, 18.0, 0.6, 1.0, 0.5, t)
    assert np.abs(q[:, 0] - x).max() < 1e-10 and np.abs(v[:, 0] - xd).max() < 1e-9


# ------------------------------------------------------------------------------ energy


def test_trapezoidal_conserves_the_energy_of_an_undamped_oscillator_to_round_off():
    osc = LinearOscillator([[2.0, 0.0], [0.0, 1.0]], [[5.0, -1.0], [-1.0, 3.0]])
    tr = sp.simulate(osc, [1.0, -0.5], [0.2, 0.0], 0.05, steps=2000, integrator="trapezoidal")
    E = tr.energy
    assert np.abs(E - E[0]).max() < 1e-12 * E[0]
    # explicit RK4 is not conservative: it dissipates measurably at the same step
    rk = sp.simulate(osc, [1.0, -0.5], [0.2, 0.0], 0.05, steps=2000, integrator="rk4")
    assert E[0] - rk.energy[-1] > 1e-6 * E[0]


def test_symplectic_euler_energy_is_bounded_over_ten_thousand_steps():
    """Symplectic Euler conserves the modified energy v² + ω²x² − hω² x v exactly, so the true
    energy stays within a band of width O(h) and does not drift."""
    w, h = 3.0, 0.02
    osc = LinearOscillator(1.0, w * w)
    tr = sp.simulate(osc, [1.0], [0.0], h, steps=10_000, integrator="symplectic-euler")
    x, v = tr.q[:, 0], tr.v[:, 0]
    modified = v * v + w * w * x * x - h * w * w * x * v
    assert np.abs(modified - modified[0]).max() < 1e-11 * 10_000 * modified[0] / 9  # round-off
    E = tr.energy
    first, last = np.abs(E[:1000] - E[0]).max(), np.abs(E[-1000:] - E[0]).max()
    assert last < 1.05 * first and first < h * w * E[0]
    # explicit (forward) Euler would have grown by (1 + h²ω²)^n: compare the scale
    assert (1 + (h * w) ** 2) ** 10_000 > 1e15


def test_symplectic_euler_energy_drifts_when_the_mass_matrix_is_not_constant():
    """The bound above needs a constant mass matrix (a separable Hamiltonian).  A torque-free
    body on a Free joint, non-diagonal inertia, tumbling at 3 rad/s near its intermediate axis:
    the gyroscopic term c does no work, so each step adds ½h²aᵀMa (a = -M⁻¹c) to the kinetic
    energy and the energy rises at every step, without bound.  The oscillator of the same step
    and length stays in its O(h) band."""
    h, steps = 0.02, 300  # 6 s
    R = sp.se3.exp_so3(np.array([0.3, -0.5, 0.2]))
    inertia = sp.mcI(1.0, np.zeros(3), R @ np.diag([1.0, 2.0, 3.0]) @ R.T)
    body = sp.Model(gravity=[0.0, 0.0, 0.0])
    body.add_body(0, sp.joints.Free(), np.eye(6), inertia)
    w = R[:, 1] + 0.01 * R[:, 0]  # near the intermediate principal axis
    v0 = np.concatenate([3.0 * w / np.linalg.norm(w), np.zeros(3)])
    q0 = body.neutral_configuration()
    fast = TreeSystem(body, generated=True)  # the generated ABA: the drift is the scheme's
    tr = sp.simulate(fast, q0, v0, h, steps=steps, integrator="symplectic-euler")
    E = tr.energy
    assert np.all(np.diff(E) > 0)  # a monotone rise ...
    assert E[-1] - E[0] > 0.05 * E[0]  # ... of more than 5 % in 6 s (it keeps going)
    assert E[-1] - E[steps // 2] > E[steps // 2] - E[0] > 0  # not levelling off
    # the rise of each step is ½h² aᵀMa, with a the accelerations at its start (from aba)
    a = sp.aba(body, tr.q[:-1], tr.v[:-1], np.zeros((steps, 6)))
    gain = 0.5 * h * h * np.einsum("ki,ij,kj->k", a, inertia, a)
    # (to the round-off of a difference of two energies, a few ulps of E)
    np.testing.assert_allclose(np.diff(E), gain, rtol=1e-9, atol=1e-14 * E[0])
    # the same body under RK4 keeps its energy (the drift is the scheme's, not the body's)
    rk = sp.simulate(fast, q0, v0, h, steps=steps, integrator="rk4").energy
    assert np.abs(rk - rk[0]).max() < 1e-6 * rk[0]
    # constant mass matrix: the oscillator's energy error stays in its band
    osc = LinearOscillator(1.0, 9.0)
    E_osc = sp.simulate(osc, [1.0], [0.0], h, steps=steps, integrator="symplectic-euler").energy
    error = np.abs(E_osc - E_osc[0])
    assert error[-100:].max() <= 1.05 * error[:100].max() and error.max() < 3.0 * h * E_osc[0]


def test_implicit_euler_amplification_equals_its_closed_form():
    for w, h in ((2.0, 0.1), (10.0, 0.3)):
        osc = LinearOscillator(1.5, 1.5 * w * w)
        A = osc.step_matrix("implicit-euler", h)
        closed = np.array([[1.0, h], [-h * w * w, 1.0]]) / (1 + (h * w) ** 2)
        assert np.allclose(A, closed, rtol=0, atol=1e-14)
        moduli = np.abs(np.linalg.eigvals(A))
        assert np.allclose(moduli, 1 / np.sqrt(1 + (h * w) ** 2), rtol=1e-13)


def test_trapezoidal_and_symplectic_euler_step_matrices_have_unit_determinant():
    osc = LinearOscillator(1.0, 49.0)
    for name in ("trapezoidal", "symplectic-euler", "bridson-marino"):
        A = osc.step_matrix(name, 0.1)
        assert abs(np.linalg.det(A) - 1.0) < 1e-13
    # the trapezoidal rule is a Cayley transform: both amplification factors have modulus 1
    assert np.allclose(np.abs(np.linalg.eigvals(osc.step_matrix("trapezoidal", 0.5))), 1.0)


# ------------------------------------------------------------------------------ f̂ and f̃


@pytest.mark.parametrize("pair", IMPLICIT_PAIRS)
def test_hat_and_tilde_forms_give_the_same_velocities(pair):
    rng = np.random.default_rng(3)
    A = rng.standard_normal((3, 3))
    osc = LinearOscillator(np.eye(3) + A @ A.T, 4 * np.eye(3) + A.T @ A, 0.3 * np.eye(3))
    q, v = rng.standard_normal(3), rng.standard_normal(3)
    hat, tilde = (step(osc, 0.0, q, v, 0.05, integrator=name) for name in pair)
    assert np.abs(hat.v - tilde.v).max() < 1e-14 * (1 + np.abs(hat.v).max())
    model = Linearized(B.double_pendulum())
    hat, tilde = (step(model, 0.0, [0.4, 1.0], [1.0, -2.0], 0.01, integrator=n) for n in pair)
    assert np.abs(hat.v - tilde.v).max() < 1e-13


class _Counted:
    """A tree system that counts its ``accelerations`` calls and the states each call held."""

    def __init__(self, model, batched=True):
        self.tree, self.batched, self.calls = sp.systems.TreeSystem(model), batched, []

    def __getattr__(self, name):
        return getattr(self.tree, name)

    def accelerations(self, t, q, v, **options):
        self.calls.append(int(np.prod(np.shape(q)[:-1])))
        return self.tree.accelerations(t, q, v, **options)


def test_linearized_evaluates_the_displaced_states_in_one_call_when_the_system_takes_stacks():
    """On a floating base (quaternion: q has nv + 1 entries) with a batch of three states, the
    stacked differences equal the one-state-at-a-time ones; a controller function, which may
    not read a stack, gets one state at a time."""
    model = B.floating_base(B.double_pendulum(), inertia=B.sphere_inertia(1.0, 0.2))
    rng = np.random.default_rng(5)
    q, v = model.random_configuration(rng, (3,)), rng.standard_normal((3, model.nv))
    tau, nv = rng.standard_normal(model.nv), model.nv
    stacked, looped = _Counted(model), _Counted(model, batched=False)
    f, K, D = Linearized(stacked).force_jacobians(0.0, q, v, tau=tau)
    f1, K1, D1 = Linearized(looped).force_jacobians(0.0, q, v, tau=tau)
    assert stacked.calls == [3, 4 * nv * 3] and looped.calls == [3] * (1 + 4 * nv)
    assert np.array_equal(f, f1)
    for J, J1 in ((K, K1), (D, D1)):  # central differences agree to their own accuracy
        assert J.shape == (3, nv, nv) and np.abs(J - J1).max() < 1e-7 * np.abs(J1).max()
    controlled = _Counted(model)
    Linearized(controlled).force_jacobians(0.0, q[0], v[0], tau=lambda t, q, v: tau)
    assert controlled.calls == [1] * (1 + 4 * nv)


def test_trapezoidal_hat_form_needs_h_over_four_not_h_squared_over_four():
    """The notes print f̂ = f − ½Dv + (h²/4)Kv; only h/4 reproduces the f̃ form and the
    trapezoidal rule derived from its definition."""
    m, k, h, x, v = 1.0, 100.0, 0.1, 1.0, 0.0
    M_hat = m + 0.25 * h * h * k
    f = -k * x
    printed = (m * v + h * (f + 0.25 * h * h * (-k) * v + 0.25 * h * h * (-k) * 0)) / M_hat
    v_tilde = (M_hat * v + h * (f + 0.5 * h * (-k) * v)) / M_hat
    ours = step(LinearOscillator(m, k), 0.0, [x], [v], h, integrator="trapezoidal").v[0]
    assert abs(ours - v_tilde) < 1e-15
    v = 1.0  # with a velocity the printed factor differs
    printed = (m * v + h * (f + 0.25 * h * h * (-k) * v)) / M_hat
    v_tilde = (M_hat * v + h * (f + 0.5 * h * (-k) * v)) / M_hat
    ours = step(LinearOscillator(m, k), 0.0, [x], [v], h, integrator="trapezoidal").v[0]
    assert abs(ours - v_tilde) < 1e-14 and abs(printed - v_tilde) > 1e-2


# ------------------------------------------------------------------------------ formulations


@pytest.mark.parametrize("name", sorted(STEPPERS))
def test_the_same_stepper_gives_the_same_trajectory_by_aba_and_by_redmax(name):
    """A pendulum chain in joint coordinates, dynamics by ABA and by REDMAX: same stepper,
    same trajectory to 1e-10 (the implicit ones with finite-difference Jacobians of each)."""
    model = B.planar_chain(3)
    q0, v0 = np.array([0.5, -0.3, 0.2]), np.array([0.0, 1.0, 0.0])
    a = sp.simulate(Linearized(model), q0, v0, 5e-3, steps=100, integrator=name)
    b = sp.simulate(Linearized(RedmaxSystem(model)), q0, v0, 5e-3, steps=100, integrator=name)
    assert np.abs(a.q - b.q).max() < 1e-10 and np.abs(a.v - b.v).max() < 1e-10


def test_tree_implicit_euler_and_the_maximal_kkt_step_converge_together():
    """The maximal System is stepped only by its own linearly implicit KKT step (Sueda eq. 1.30
    = §0.9.2's f̂ form with constraints); against the tree's implicit Euler the gap is O(h)."""
    model = B.planar_chain(3)
    system = sp.maximal.from_model(model)
    q0, v0 = np.array([0.5, -0.3, 0.2]), np.array([0.0, 1.0, 0.0])
    T0, phi0 = sp.maximal.maximal_state(model, q0, v0)
    gaps = []
    for h in (4e-3, 2e-3, 1e-3):
        tree = sp.simulate(Linearized(model), q0, v0, h, duration=0.2, integrator="implicit-euler")
        maximal = sp.simulate(system, T0, phi0, h, duration=0.2, baumgarte=0.2 / h)
        gaps.append(np.abs(maximal.joint_q - tree.q).max())
    ratios = np.array(gaps[:-1]) / np.array(gaps[1:])
    assert np.all(ratios > 1.6) and gaps[-1] < 5e-3, gaps


def free_box(gravity=(0.0, 0.0, -9.81)):
    from spatial import forces

    system = sp.maximal.System(gravity=list(gravity))
    system.add_body(sp.cuboid_inertia(2.0, 0.2, 0.1, 0.3))
    anchor = sp.frame(np.eye(3), [0.0, 0.0, 0.5])
    spring = forces.FrameSpring(1, np.eye(4), 0, anchor, k_t=50.0, k_r=5.0, d_t=0.5, d_r=0.05)
    T0 = sp.exp_se3(np.array([0.3, -0.2, 0.1, 0.1, 0.05, 0.4]))[None]
    return system, spring, T0, np.array([[1.0, -0.5, 2.0, 0.2, 0.1, -0.3]])


def test_maximal_free_bodies_give_exact_force_jacobians():
    system, spring, T0, phi0 = free_box()
    f, K, D = system.force_jacobians(0.0, T0, phi0, forces=[spring])
    eps = 1e-6
    for j in range(6):
        e = np.zeros((1, 6))
        e[0, j] = eps
        plus = system.force_jacobians(0.0, system.integrate(T0, e, 1.0), phi0, forces=[spring])
        minus = system.force_jacobians(0.0, system.integrate(T0, -e, 1.0), phi0, forces=[spring])
        assert np.allclose((plus[0] - minus[0]) / (2 * eps), K[:, j], atol=1e-7)
        plus = system.force_jacobians(0.0, T0, phi0 + e, forces=[spring])[0]
        minus = system.force_jacobians(0.0, T0, phi0 - e, forces=[spring])[0]
        assert np.allclose((plus - minus) / (2 * eps), D[:, j], atol=1e-7)
    a = system.accelerations(0.0, T0, phi0, forces=[spring])
    assert a.shape == (1, 6) and np.allclose(system.mass_matrix() @ a[0], f)


def test_maximal_kkt_step_is_backward_euler_and_every_stepper_has_its_order():
    """Without joints and gravity, maximal.kkt_step (gyroscopic="implicit") is §0.9.2's f̂ form;
    with gravity the other steppers keep their orders on SE(3) (reference: RK4 at h/16, whose
    error, ~1e-10, is 1e4 times below the smallest error measured)."""
    system, spring, T0, phi0 = free_box(gravity=(0.0, 0.0, 0.0))
    h, opts = 1e-3, dict(forces=[spring])
    kkt = sp.simulate(system, T0, phi0, h, steps=200, gyroscopic="implicit", **opts)
    ie = sp.simulate(system, T0, phi0, h, steps=200, integrator="implicit-euler", **opts)
    assert np.abs(kkt.q - ie.q).max() < 1e-12 and np.abs(kkt.v - ie.v).max() < 1e-11
    system, spring, T0, phi0 = free_box()
    opts = dict(forces=[spring])
    ref = sp.simulate(system, T0, phi0, 0.4 / 1600, steps=1600, integrator="rk4", **opts)
    for name in ("symplectic-euler", "rk4", "trapezoidal", "bridson-marino"):
        errors = []
        for n in (25, 50, 100) if name == "rk4" else (100, 200, 400):
            run = sp.simulate(system, T0, phi0, 0.4 / n, steps=n, integrator=name, **opts)
            errors.append(np.abs(run.v[-1] - ref.v[-1]).max())
        orders = np.log2(np.array(errors[:-1]) / errors[1:])
        assert np.all(np.abs(orders - ORDERS[name]) < 0.15), (name, orders)
    chain = sp.maximal.from_model(B.planar_chain(2))
    with pytest.raises(ValueError, match="free bodies only"):
        chain.accelerations(0.0, np.broadcast_to(np.eye(4), (2, 4, 4)), np.zeros((2, 6)))
    with pytest.raises(ValueError, match="Force objects"):
        system.force_jacobians(0.0, T0, phi0, forces=["spring"])


def test_a_spinning_top_keeps_unit_quaternions_and_rk4_is_fourth_order():
    model = sp.Model(gravity=[0.0, 0.0, -9.81])
    inertia = sp.mcI(1.0, [0.0, 0.0, 0.3], np.diag([0.02, 0.02, 0.01]))
    model.add_body(0, sp.joints.Spherical(), np.eye(6), inertia, name="top")
    top = TreeSystem(model, generated=True)  # the generated ABA: the test is about the stepper
    q0 = sp.rotations.quat_from_rotvec(np.array([0.3, 0.0, 0.0]))
    v0 = np.array([0.0, 0.0, 40.0])
    T = 0.2
    qr, vr = reference_solution(top, q0, v0, [0.0, T])
    errs = []
    for n in (50, 100, 200):
        tr = sp.simulate(top, q0, v0, T / n, steps=n, integrator="rk4")
        assert np.abs(np.linalg.norm(tr.q, axis=-1) - 1).max() < 1e-13
        errs.append(np.abs(tr.v[-1] - vr[-1]).max())
    order = np.log2(np.array(errs[:-1]) / errs[1:])
    assert np.all(np.abs(order - 4) < 0.3), order
    tr = sp.simulate(Linearized(model), q0, v0, T / 100, steps=100, integrator="trapezoidal")
    assert np.abs(np.linalg.norm(tr.q, axis=-1) - 1).max() < 1e-13


# ------------------------------------------------------------------------------ bad input


def test_bad_input_raises_clear_errors():
    osc = LinearOscillator(1.0, 1.0)
    for h in (0.0, -0.1):
        with pytest.raises(ValueError, match="h must be > 0"):
            step(osc, 0.0, [1.0], [0.0], h)
    with pytest.raises(ValueError, match="integrator must be one of"):
        step(osc, 0.0, [1.0], [0.0], 0.1, integrator="leapfrog")
    with pytest.raises(ValueError, match="needs the force Jacobians"):
        sp.simulate(
            B.double_pendulum(), np.zeros(2), np.zeros(2), 0.1, steps=1, integrator="implicit-euler"
        )
    with pytest.raises(ValueError, match="bridson-marino.*Linearized"):
        step(B.simple_pendulum(), 0.0, [0.1], [0.0], 0.1, integrator="bridson-marino")
    with pytest.raises(ValueError, match="stiffness must be positive semi-definite"):
        LinearOscillator(1.0, -1.0)
    with pytest.raises(ValueError, match="damping must be positive semi-definite"):
        LinearOscillator(1.0, 1.0, -0.5)
    with pytest.raises(ValueError, match="mass must be positive definite"):
        LinearOscillator(0.0, 1.0)
    with pytest.raises(ValueError, match="must be symmetric"):
        LinearOscillator(np.eye(2), [[1.0, 2.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="alpha must be >= 0"):
        regularization(0.01, -1e-3)
    with pytest.raises(ValueError, match="beta must be >= 0"):
        soft_step([[1.0]], [0.0], 0.01, G=[[1.0]], phi=[0.0], beta=-1.0)
    with pytest.raises(ValueError, match="alpha_n must be >= 0"):
        soft_step([[1.0]], [0.0], 0.01, N=[[1.0]], phi_n=[0.0], alpha_n=-1.0)
    with pytest.raises(ValueError, match="h must be > 0"):
        soft_step([[1.0]], [0.0], 0.0, G=[[1.0]], phi=[0.0])
    with pytest.raises(ValueError, match="singular bilateral rows"):
        soft_step(np.eye(2), np.zeros(2), 0.01, G=[[1.0, 0.0], [2.0, 0.0]], phi=[0.0, 0.0])
    with pytest.raises(ValueError, match="one state"):
        reference_solution(osc, [[1.0], [2.0]], [0.0], [0.0, 1.0])
    with pytest.raises(ValueError, match="increasing"):
        reference_solution(osc, [1.0], [0.0], [1.0, 0.5])
    from spatial.integrators import Impacts

    stepped = Impacts(osc, lambda q: q[..., 0] + 1.0, lambda q, v: -v)  # a stepped system
    with pytest.raises(ValueError, match="needs a smooth system"):
        Linearized(stepped)


# ------------------------------------------------------------------------------ soft constraints


def soft_rod(alpha, beta, h, steps, x0, v0, m=1.0, length=1.0, g=9.81):
    """A point mass on a soft massless rod to the origin: φ = |x| − L (§0.11)."""
    x, v = np.array(x0, float), np.array(v0, float)
    M, f = m * np.eye(3), np.array([0.0, 0.0, -m * g])
    xs, phis = [x.copy()], [np.linalg.norm(x) - length]
    for _ in range(steps):
        r = np.linalg.norm(x)
        out = soft_step(M, M @ v + h * f, h, G=[x / r], phi=[r - length], alpha=alpha, beta=beta)
        v = out.v
        x = x + h * v
        xs.append(x.copy())
        phis.append(np.linalg.norm(x) - length)
    return np.array(xs), np.array(phis)


def test_soft_rod_static_sag_is_alpha_m_g():
    m, g, alpha = 2.0, 9.81, 1e-3
    # start at the predicted sag: a fixed point of the step for any h and beta
    for h, beta in ((1e-2, 0.0), (1e-3, 0.05)):
        _, phis = soft_rod(alpha, beta, h, 50, [0.0, 0.0, -(1 + alpha * m * g)], np.zeros(3), m)
        assert np.abs(phis - alpha * m * g).max() < 1e-12
    # from the unstretched length with damping it settles there
    _, phis = soft_rod(alpha, 0.02, 1e-3, 3000, [0.0, 0.0, -1.0], np.zeros(3), m)
    assert abs(phis[-1] - alpha * m * g) < 1e-6 * alpha * m * g


def test_soft_rod_oscillation_frequency_matches_the_closed_form():
    """β = 0 (γ = 2): along the rod the step is λ̃ = -(h/α)(φ + h v⁺/2), v⁺ = v + g h + λ̃/m,
    φ⁺ = φ + h v⁺.  Its step matrix has det 1/(1 + h²ω²/2) and cos(hω_d) = (1 − h²ω²/4) /
    √(1 + h²ω²/2) with ω = 1/√(α m): the stretch oscillates about α m g at ω_d → ω and its
    amplitude shrinks by √det per step."""
    m, alpha = 1.0, 1e-2
    w = 1 / np.sqrt(alpha * m)
    for h in (2e-3, 2e-2):
        z = (h * w) ** 2
        steps = int(round(4 * 2 * np.pi / w / h))
        _, phis = soft_rod(alpha, 0.0, h, steps, [0.0, 0.0, -1.0], np.zeros(3), m)
        s = phis - alpha * m * 9.81
        crossings = np.nonzero(np.diff(np.sign(s)) > 0)[0]
        t_cross = [(i + s[i] / (s[i] - s[i + 1])) * h for i in crossings]  # linear interpolation
        measured = 2 * np.pi / np.mean(np.diff(t_cross))
        expected = np.arccos((1 - z / 4) / np.sqrt(1 + z / 2)) / h
        assert abs(measured - expected) < 2e-4 * expected, (measured, expected)
        assert abs(expected - w) < 0.01 * w  # → ω as h → 0
        # amplitude of (s, v/ω_d) decays by (1 + h²ω²/2)^(-1/2) per step
        period = int(round(2 * np.pi / w / h))
        i1, i2 = np.argmax(np.abs(s[:period])), steps + 1 - period + np.argmax(np.abs(s[-period:]))
        decay = np.abs(s[i2]) / np.abs(s[i1])
        assert np.isclose(decay, (1 + z / 2) ** (-(i2 - i1) / 2), rtol=0.05), decay


def test_soft_rod_converges_to_the_hard_constraint_as_alpha_goes_to_zero():
    """A swinging soft pendulum: the constraint violation (stretch) shrinks like α."""
    h, steps = 1e-3, 600
    violations = []
    alphas = (1e-3, 5e-4, 2.5e-4, 1.25e-4)
    for alpha in alphas:
        _, phis = soft_rod(alpha, 2 * h, h, steps, [1.0, 0.0, 0.0], np.zeros(3))
        violations.append(np.abs(phis).max())
    rates = np.log2(np.array(violations[:-1]) / violations[1:])
    assert np.all(np.abs(rates - 1) < 0.1), rates


def test_soft_unilateral_contact_rests_at_alpha_m_g_penetration_and_damping_lets_go_early():
    m, g, h, alpha = 1.0, 9.81, 1e-3, 1e-4
    # at rest on a soft floor the gap is -α m g: a fixed point of eq. 0.10
    out = soft_step([[m]], [-h * m * g], h, N=[[1.0]], phi_n=[-alpha * m * g], alpha_n=alpha)
    assert abs(out.v[0]) < 1e-14 and abs(out.z[0] - h * m * g) < 1e-14
    # penetrating (φ < 0) but separating (φ̇ > 0): a large β releases the contact at once
    phi, vel = -1e-3, 0.5
    stiff = soft_step([[m]], [m * vel], h, N=[[1.0]], phi_n=[phi], alpha_n=alpha, beta_n=0.0)
    damped = soft_step([[m]], [m * vel], h, N=[[1.0]], phi_n=[phi], alpha_n=alpha, beta_n=0.01)
    assert stiff.z[0] > 0
    assert damped.z[0] == 0 and phi + h * damped.v[0] < 0  # still overlapping after the step
    # and the released case matches the criterion φ + (h/2 + β) φ̇ > 0 of §0.11
    assert phi + (h / 2 + 0.01) * damped.v[0] > 0 and phi + (h / 2) * vel < 0


def test_regularization_gamma_and_diagonal():
    gamma, diag = regularization(0.01, [1e-3, 0.0], [0.0, 0.005])
    assert np.allclose(gamma, [2.0, 1.0]) and np.allclose(diag, [2.0 * 1e-3 / 1e-4, 0.0])


# ------------------------------------------------------------------------------ impacts


def ball_on_slider(radius=0.1, g=9.81):
    model = sp.Model(gravity=[0.0, 0.0, -g])
    model.add_body(0, sp.joints.Prismatic("z"), np.eye(6), sp.sphere_inertia(1.0, radius))
    return model


def apexes(z, flags):
    """The highest sample between consecutive impacts."""
    cuts = np.nonzero(flags)[0]
    return np.array([z[a:b].max() for a, b in zip(cuts[:-1], cuts[1:], strict=True)])


@pytest.mark.parametrize("integrator", ["rk4", "trapezoidal"])
def test_bouncing_ball_with_located_impacts_keeps_its_apex_over_ten_bounces(integrator):
    """Both schemes are exact on the parabola of free flight, so the apexes do not depend on h
    (1.1e-6 off at h = 1e-3 and at 2e-3): the larger step halves the cost, not the check.  The
    test is about locating impacts, so the ball's ABA is the generated straight-line code (equal
    to the dense one to round-off, tests/test_generate.py): a tenth of the cost per stage."""
    from spatial.integrators import Impacts

    r, H, h, g = 0.1, 1.0, 2e-3, 9.81
    model = sp.systems.TreeSystem(ball_on_slider(r, g), generated=True)
    system = model if integrator == "rk4" else Linearized(model)
    ball = Impacts(system, lambda q: q[..., 0] - r, lambda q, v: -v, integrator=integrator)
    fall, bounces = np.sqrt(2 * H / g), 10 if integrator == "rk4" else 3
    run = sp.simulate(ball, [H + r], [0.0], h, duration=fall * (2 * bounces + 1.5))
    flags = np.asarray(run.impact, dtype=bool)
    assert flags.sum() == bounces + 1
    heights = apexes(run.q[:, 0] - r, flags)
    assert len(heights) == bounces and np.abs(heights - H).max() < 1e-4
    # the impacts come every 2√(2H/g), as in the closed form
    times = run.t[flags]
    assert np.allclose(np.diff(times), 2 * fall, rtol=0, atol=1e-9)


def test_symplectic_euler_loses_h_sqrt_2gH_of_apex_per_bounce():
    """The same ball stepped by symplectic Euler (with impacts still located): the modified
    energy E − (hg/2)v is what the scheme conserves, so each bounce costs h√(2gH)."""
    from spatial.integrators import Impacts

    r, H, h, g = 0.1, 1.0, 1e-3, 9.81
    ball = Impacts(
        ball_on_slider(r, g), lambda q: q[..., 0] - r, lambda q, v: -v, "symplectic-euler"
    )
    run = sp.simulate(ball, [H + r], [0.0], h, duration=np.sqrt(2 * H / g) * 7.5)
    heights = apexes(run.q[:, 0] - r, np.asarray(run.impact, dtype=bool))
    predicted = [H]
    for _ in heights:
        predicted.append(predicted[-1] - h * np.sqrt(2 * g * predicted[-1]))
    assert np.allclose(heights, predicted[1:], rtol=0, atol=5 * h * h * g + 1e-5)
    assert heights[0] < H - 4e-3


def test_impacts_bad_input():
    from spatial.integrators import Impacts

    with pytest.raises(ValueError, match="callables"):
        Impacts(ball_on_slider(), 0.1, lambda q, v: -v)
    stepped = Impacts(ball_on_slider(), lambda q: q[..., 0] - 0.1, lambda q, v: -v)
    with pytest.raises(ValueError, match="needs a smooth system"):
        Impacts(stepped, lambda q: q, lambda q, v: -v)
    stuck = Impacts(ball_on_slider(), lambda q: q[..., 0] - 0.1, lambda q, v: 0 * v)
    with pytest.raises(RuntimeError, match="impact at the start of a step"):
        sp.simulate(stuck, [0.2], [0.0], 1e-2, duration=1.0)
    # a step taken by hand checks its state once: its stages call the cores of a free body,
    # which trust the state (sp.simulate validates it once)
    body = sp.maximal.System()
    body.add_body(sp.mcI(1.0, [0.0, 0.0, 0.0], 0.1 * np.eye(3)))
    falling = Impacts(body, lambda T: T[..., 2, 3] + 1.0, lambda T, v: -v)
    sheared = np.eye(4)[None].copy()
    sheared[0, 0, 1] = 0.5
    with pytest.raises(ValueError, match="not orthonormal"):
        falling.step(0.0, sheared, np.zeros((1, 6)), 1e-2)
    with pytest.raises(ValueError, match="non-finite"):
        falling.step(0.0, np.full((1, 4, 4), np.nan), np.zeros((1, 6)), 1e-2)


# ------------------------------------------------------------------------------ exercises


def test_ch16_checkers_pass_the_solutions_and_fail_wrong_answers():
    from spatial.exercises import ch16

    def trapezoidal_matrix(h, w):
        A = np.array([[0.0, 1.0], [-w * w, 0.0]])
        return np.linalg.solve(np.eye(2) - 0.5 * h * A, np.eye(2) + 0.5 * h * A)

    def soft_parameters(h, alpha, beta):
        gamma = 1.0 / (0.5 + beta / h)
        return gamma, gamma * alpha / h**2

    def modified_energy(x, v, h, g):
        return 0.5 * v * v + g * x - 0.5 * h * g * v

    ch16.CHECKS["16.1"](trapezoidal_matrix)
    ch16.CHECKS["16.2"](soft_parameters)
    ch16.CHECKS["16.3"](modified_energy)

    def backward_euler(h, w):
        return np.array([[1.0, h], [-h * w * w, 1.0]]) / (1 + (h * w) ** 2)

    with pytest.raises(AssertionError, match="backward Euler"):
        ch16.CHECKS["16.1"](backward_euler)
    with pytest.raises(AssertionError, match="trapezoidal step matrix"):
        ch16.CHECKS["16.1"](lambda h, w: trapezoidal_matrix(h, w).T)
    with pytest.raises(AssertionError, match="γ = 1/"):
        ch16.CHECKS["16.2"](lambda h, a, b: soft_parameters(h, a, b * h * h))
    with pytest.raises(AssertionError, match="not conserved"):
        ch16.CHECKS["16.3"](lambda x, v, h, g: 0.5 * v * v + g * x)
    with pytest.raises(AssertionError, match="at rest"):
        ch16.CHECKS["16.3"](lambda x, v, h, g: 0.0 * x)


# ------------------------------------------------------------------------------ §0.10 step


def slide(friction, direction, mu=0.4, v0=3.0, m=2.0, h=1e-3, g=9.81, bilateral=False):
    """A mass sliding on the floor z = 0 (one contact, tangents x and y) until it stops."""
    from spatial.integrators import constrained_step

    d = np.array([direction[0], direction[1], 0.0]) / np.hypot(*direction)
    x, v = np.zeros(3), v0 * d
    J = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    G = np.array([[-d[1], d[0], 0.0]]) if bilateral else None  # stay on the line through d
    for _ in range(int(2 * v0 / (mu * g * h))):
        b = m * v + h * np.array([0.0, 0.0, -m * g])
        out = constrained_step(m * np.eye(3), b, G=G, J=J, mu=mu, friction=friction, k=8)
        v = out.v
        x = x + h * v
        if np.linalg.norm(v) < 1e-12:
            return x, out
    raise AssertionError("did not stop")


@pytest.mark.parametrize("friction", ["polyhedral", "box"])
def test_constrained_step_stopping_distance_is_v2_over_2_mu_g(friction):
    # the discrete distance is v0²/(2μg) - v0 h/2 at any v0 (measured at 1 and 3 m/s), so the
    # v0 h tolerances are as strict at 1 m/s as at 3 m/s, in a third of the steps
    mu, v0, g, h = 0.4, 1.0, 9.81, 1e-3
    x, out = slide(friction, (1.0, 0.0), mu, v0, h=h)
    assert abs(x[0] - v0**2 / (2 * mu * g)) < v0 * h and abs(x[1]) < 1e-12 and abs(x[2]) < 1e-12
    assert np.isclose(out.contact.normal[0], 2.0 * g * h)  # the weight's impulse
    # on the diagonal (a facet direction of the 8-sided cone) polyhedral friction is still μ,
    # the box lets each axis carry μθ, √2 μ in all: the box model's anisotropy
    x, out = slide(friction, (1.0, 1.0), mu, v0, h=h, bilateral=True)
    factor = np.sqrt(2) if friction == "box" else 1.0
    assert abs(np.hypot(x[0], x[1]) - v0**2 / (2 * factor * mu * g)) < v0 * h
    assert abs(x[0] - x[1]) < 1e-12


def test_constrained_step_bilateral_rows_and_bad_input():
    from spatial.integrators import constrained_step

    M = np.diag([1.0, 2.0, 3.0])
    b = np.array([1.0, -2.0, 0.5])
    G = np.array([[1.0, 1.0, 0.0]])
    out = constrained_step(M, b, G=G, g=[0.2])
    assert np.isclose(G[0] @ out.v, 0.2)
    assert np.allclose(M @ out.v, b + G.T @ out.lam)  # the KKT system, solved independently
    K = np.block([[M, -G.T], [G, np.zeros((1, 1))]])
    sol = np.linalg.solve(K, np.r_[b, 0.2])
    assert np.allclose(out.v, sol[:3]) and np.allclose(out.lam, sol[3:])
    with pytest.raises(ValueError, match="singular bilateral rows"):
        constrained_step(M, b, G=np.array([G[0], 2 * G[0]]), g=[0.0, 0.0])
    with pytest.raises(ValueError, match="b must have shape"):
        constrained_step(M, b[:2])
    with pytest.raises(ValueError, match="J must have shape"):
        constrained_step(M, b, J=np.eye(2))


def tipping(tilt, a=0.1, b=0.2, m=1.0, mu=1.0, h=2e-3, duration=1.5, g=9.81):
    """A planar box (state x, y, θ; gravity -y) released on its bottom-left corner, tilted by
    ``tilt``, stepped by constrained_step with symplectic Euler; returns θ over time."""
    from spatial.integrators import constrained_step

    M = np.diag([m, m, m * (4 * a * a + 4 * b * b) / 12])
    corners = np.array([[-a, -b], [a, -b], [a, b], [-a, b]])
    c, s = np.cos(tilt), np.sin(tilt)
    q = np.array([0.0, a * s + b * c, tilt])  # the bottom-left corner on the floor y = 0
    v, thetas = np.zeros(3), []
    for _ in range(int(duration / h)):
        c, s = np.cos(q[2]), np.sin(q[2])
        r = corners @ np.array([[c, s], [-s, c]])  # world offsets R(θ) r of the corners
        near = q[1] + r[:, 1] < 5e-3  # corners near the floor (speculative contacts)
        r, gap, nc = r[near], q[1] + r[near, 1], near.sum()
        normal = np.c_[np.zeros(nc), np.ones(nc), r[:, 0]]  # d/dt of the corner's y
        tangent = np.c_[np.ones(nc), np.zeros(nc), -r[:, 1]]  # d/dt of its x
        bias = np.where(gap > 0, -gap / h, -0.2 * gap / h)  # close open gaps, push out overlaps
        b_step = M @ v + h * np.array([0.0, -m * g, 0.0])
        out = constrained_step(
            M, b_step, J=np.vstack([normal, tangent]), mu=mu, bias=bias, tangent_dim=1
        )
        assert out.converged
        v = out.v
        q = q + h * v
        thetas.append(q[2])
    return np.array(thetas)


def test_constrained_step_tipping_angle_is_atan_a_over_b():
    """Through the §0.10 step: a box on one edge falls back below tan θ = a/b and over above."""
    critical = np.arctan2(0.1, 0.2)
    back = tipping(critical - 0.05)
    assert back.max() <= critical - 0.05 + 1e-9 and abs(back[-1]) < 1e-3  # back on its face
    over = tipping(critical + 0.05)
    assert abs(over[-1] - np.pi / 2) < 1e-2  # lying on its side


def test_constrained_step_as_impact_law_gives_bounce_heights_e_to_the_2n():
    """A ball on an (x, z) slider; its impact law is a constrained step of zero length
    (b = M v, Newton's restitution as the target normal velocity -e v_n), its free flight RK4
    with located impacts: apex n is e^{2n} h₀, and the contact scenario agrees to its O(h)."""
    import spatial.contact as ct
    from spatial.integrators import Impacts, constrained_step

    e, h0, r, g, h = 0.5, 0.4, 0.1, 9.81, 1e-3
    model = sp.Model(gravity=[0.0, 0.0, -g])
    model.add_body(0, sp.joints.Prismatic("x"), np.eye(6), np.zeros((6, 6)))
    model.add_body(1, sp.joints.Prismatic("z"), np.eye(6), sp.sphere_inertia(1.0, r))
    J = np.array([[0.0, 1.0], [1.0, 0.0]])  # normal z, tangent x

    def impact(q, v):
        H = sp.crba(model, q)
        return constrained_step(H, H @ v, J=J, bias=-e * v[1], tangent_dim=1).v

    ball = Impacts(model, lambda q: q[..., 1] - r, impact)
    fall = np.sqrt(2 * h0 / g)
    run = sp.simulate(ball, [0.0, h0 + r], [0.3, 0.0], h, duration=fall * (1 + 2 * e + 1.5 * e**2))
    heights = apexes(run.q[:, 1] - r, np.asarray(run.impact, dtype=bool))
    assert len(heights) >= 1
    expected = h0 * e ** (2 * np.arange(1, len(heights) + 1))
    assert np.allclose(heights, expected, rtol=0, atol=1e-6)
    assert np.allclose(run.v[:, 0], 0.3, rtol=0, atol=1e-12)  # frictionless: x speed kept
    # the rigid-contact scenario (symplectic Euler) agrees to its first-order error v h per bounce
    tr = ct.bouncing_ball(e, height=h0, law="newton", h=h).simulate(duration=fall * (1 + 2.5 * e))
    z = tr.q[:, 0, 2, 3] - r
    first = z[np.argmax(np.diff(z) < 0) :]  # after the first bounce's descent started
    scenario = first[np.argmax(np.diff(first) > 0) :].max()
    assert abs(scenario - heights[0]) < 2 * np.sqrt(2 * g * h0) * h


def test_constrained_step_soft_contact_rests_at_alpha_m_g_and_rejects_negative_compliance():
    """Soft normal rows (ArtiSynth eq. 0.10): a mass resting on a contact of compliance α sinks
    to the static penetration α m g; a negative regularization is refused."""
    from spatial.integrators import constrained_step, regularization

    m, g, h, alpha = 2.0, 9.81, 1e-3, 1e-4
    gamma, R = regularization(h, alpha, 0.01)
    J = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    z, v = 0.0, np.zeros(3)
    for _ in range(1000):  # 1 s: within 2e-12 of α m g (2e-6 after 0.5 s, 1.5e-9 after 0.75 s)
        b = m * v + h * np.array([0.0, 0.0, -m * g])
        out = constrained_step(m * np.eye(3), b, J=J, mu=0.5, bias=-gamma * z / h, regularization=R)
        v = out.v
        z = z + h * v[2]
    assert np.isclose(z, -alpha * m * g, rtol=1e-6)
    assert out.converged and isinstance(out.message, str)
    with pytest.raises(ValueError, match="regularization must be >= 0"):
        constrained_step(np.eye(3), np.zeros(3), J=J, regularization=-1.0)


@pytest.mark.parametrize(
    "name", ["symplectic-euler", "rk4", "implicit-euler", "trapezoidal", "bridson-marino"]
)
def test_a_free_body_as_tree_and_as_maximal_system_follows_the_same_trajectory(name):
    """One body on a Free joint (quaternion + position, body-twist velocities, integrated on SE(3))
    and the same body as a maximal System: same stepper, same trajectory to 1e-10 (the implicit
    ones with the tree's finite-difference Jacobians against the System's exact ones: 2e-12)."""
    inertia = sp.mcI(1.5, [0.05, -0.02, 0.1], np.diag([0.03, 0.05, 0.04]))
    model = sp.Model(gravity=[0.0, 0.0, -9.81])
    model.add_body(0, sp.joints.Free(), np.eye(6), inertia)
    system = sp.maximal.System()
    system.add_body(inertia)
    T0 = sp.exp_se3(np.array([0.3, -0.2, 0.5, 0.1, 0.0, 1.0]))
    q0 = np.concatenate([sp.rotations.quat_from_matrix(T0[:3, :3]), T0[:3, 3]])
    phi0 = np.array([2.0, -1.0, 5.0, 0.3, 0.2, 1.0])
    tree_system = model if name in ("symplectic-euler", "rk4") else Linearized(model)
    tree = sp.simulate(tree_system, q0, phi0, 1e-3, steps=100, integrator=name)
    maximal = sp.simulate(system, T0[None], phi0[None], 1e-3, steps=100, integrator=name)
    poses = sp.systems.TreeSystem(model).poses(tree.q)
    assert np.abs(poses - maximal.q).max() < 1e-10
    assert np.abs(tree.v - maximal.v[:, 0]).max() < 1e-10


def test_soft_step_with_bilateral_and_unilateral_rows_solves_the_full_system():
    """Both kinds of rows at once, against the two cases of the complementarity solved as
    plain linear systems (the contact active or not)."""
    rng = np.random.default_rng(11)
    A = rng.standard_normal((4, 4))
    M = np.eye(4) + A @ A.T
    G, N = rng.standard_normal((1, 4)), rng.standard_normal((1, 4))
    h, alpha, beta, alpha_n = 0.01, 1e-3, 0.002, 1e-4
    gamma, R = regularization(h, alpha, beta)
    gamma_n, R_n = regularization(h, alpha_n, 0.0)
    for phi_n in (-0.02, 0.05):  # penetrating (pushes) and apart (no impulse)
        b = M @ rng.standard_normal(4)
        out = soft_step(
            M, b, h, G=G, phi=[0.003], alpha=alpha, beta=beta, N=N, phi_n=[phi_n], alpha_n=alpha_n
        )
        # active contact: M v - Gᵀλ - Nᵀz = b, G v + R λ = -γφ/h, N v + R_n z = -γ_n φ_n/h
        K = np.zeros((6, 6))
        K[:4, :4], K[:4, 4], K[:4, 5] = M, -G[0], -N[0]
        K[4, :4], K[4, 4], K[5, :4], K[5, 5] = G[0], R, N[0], R_n
        active = np.linalg.solve(K, np.r_[b, -gamma * 0.003 / h, -gamma_n * phi_n / h])
        if active[5] > 0:
            assert np.allclose(out.v, active[:4]) and np.isclose(out.z[0], active[5])
            assert abs(out.w[0]) < 1e-9
        else:
            free = np.linalg.solve(K[:5, :5], np.r_[b, -gamma * 0.003 / h])
            assert np.allclose(out.v, free[:4]) and out.z[0] == 0 and out.w[0] >= 0
        assert np.isclose(G[0] @ out.v + R * out.lam[0], -gamma * 0.003 / h)


# ----------------------------------------------------------------------------- bad input


def test_entry_points_refuse_inputs_that_used_to_pass_or_fail_deep_inside():
    osc = LinearOscillator(1.0, 1.0)
    with pytest.raises(ValueError, match="t must be a single finite number, got nan"):
        step(osc, np.nan, [1.0], [0.0], 0.1)
    with pytest.raises(
        ValueError, match="times must be a non-empty increasing 1-D array of finite"
    ):
        reference_solution(osc, [1.0], [0.0], [0.0, np.nan])  # failed later as "qd non-finite"
    with pytest.raises(ValueError, match="G is given without phi"):
        soft_step(np.eye(2), np.ones(2), 0.01, G=np.ones((1, 2)))  # was "G's constraint values"
    with pytest.raises(ValueError, match="phi_n is given without N"):
        soft_step(np.eye(2), np.ones(2), 0.01, phi_n=[0.0])
    with pytest.raises(ValueError, match="^mass must be real"):
        LinearOscillator(mass=1.0 + 1j)
    with pytest.raises(ValueError, match="^alpha must be real"):
        regularization(0.01, 1e-3 + 1j)


def test_constrained_step_checks_regularization_and_names_J():
    from spatial.integrators import constrained_step

    with pytest.raises(ValueError, match="regularization must be >= 0"):
        constrained_step(np.eye(2), np.ones(2), regularization=-1.0)  # ignored without J
    with pytest.raises(ValueError, match="J has 2 rows, not a multiple of 1 \\+ tangent_dim = 3"):
        constrained_step(np.eye(3), np.ones(3), J=np.ones((2, 3)))  # the message said W
