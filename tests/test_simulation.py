"""The one system interface and the one simulation loop (spatial.systems, spatial.simulation)."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import spatial as sp
from spatial import builders as B
from spatial.dynamics import loops as L
from spatial.joints import Prismatic, Revolute
from spatial.reduced import ParticleSystem
from spatial.simulation import Trajectory, simulate
from spatial.systems import (
    ClosureSystem,
    CoupledSystem,
    MechanicalSystem,
    RedmaxSystem,
    Step,
    TreeSystem,
    as_system,
)


def _energy_drift(traj: Trajectory) -> float:
    return float(np.abs(traj.energy - traj.energy[0]).max())


def test_a_model_is_simulated_as_a_tree_system_and_the_result_is_time_first():
    model = B.double_pendulum()
    traj = simulate(model, [0.5, -0.3], [0.0, 1.0], 1e-2, steps=10)
    assert traj.t.shape == (11,) and np.allclose(traj.t, 0.01 * np.arange(11))
    assert traj.q.shape == traj.v.shape == (11, 2)
    assert traj.kinetic.shape == traj.potential.shape == (11,)
    assert len(traj) == 11 and traj.records == {}
    assert isinstance(as_system(model), TreeSystem)
    assert isinstance(as_system(model), MechanicalSystem)


@pytest.mark.parametrize(("integrator", "order"), [("rk4", 4), ("semi-implicit-euler", 1)])
def test_order_of_accuracy_by_step_halving(integrator, order):
    """Differences of solutions at h, h/2, h/4 shrink by 2^order (Richardson's estimate)."""
    model = B.double_pendulum()
    q0, v0 = np.array([0.9, -0.4]), np.array([0.3, 0.5])
    end = [
        simulate(model, q0, v0, h, duration=0.4, integrator=integrator).q[-1]
        for h in (0.02, 0.01, 0.005)
    ]
    ratio = np.abs(end[0] - end[1]).max() / np.abs(end[1] - end[2]).max()
    assert np.log2(ratio) == pytest.approx(order, abs=0.3)


def test_rk4_keeps_energy_and_symplectic_euler_keeps_it_bounded():
    # the generated ABA (equal to the dense one to round-off): the test is about the steppers
    model = TreeSystem(B.double_pendulum(), generated=True)
    q0, v0 = np.array([1.0, 0.5]), np.zeros(2)
    rk4 = simulate(model, q0, v0, 1e-3, duration=2.0)
    assert _energy_drift(rk4) < 1e-8 * abs(rk4.energy[0]) + 1e-9
    euler = simulate(model, q0, v0, 1e-3, duration=2.0, integrator="semi-implicit-euler")
    drift = euler.energy - euler.energy[0]
    # first order in h and oscillating, not growing: the late error is no larger than the early
    assert np.abs(drift).max() < 0.05
    assert np.abs(drift[-500:]).max() < 2.0 * np.abs(drift[:1000]).max()


def test_a_constant_or_time_dependent_torque_reaches_the_dynamics():
    model = B.simple_pendulum()
    q0, v0 = np.zeros(1), np.zeros(1)
    # hanging straight down with gravity along the rod: only the torque moves it
    free = simulate(model, q0, v0, 1e-3, steps=10)
    pushed = simulate(model, q0, v0, 1e-3, steps=10, tau=np.array([0.2]))
    timed = simulate(model, q0, v0, 1e-3, steps=10, tau=lambda t, q, v: np.array([0.2]))
    assert np.allclose(pushed.q, timed.q, atol=0, rtol=0)
    assert np.abs(pushed.q[-1] - free.q[-1]).max() > 1e-6


def test_a_batch_of_states_runs_as_one_simulation():
    model = B.double_pendulum()
    rng = np.random.default_rng(3)
    Q, V = rng.standard_normal((2, 4, 2))
    batched = simulate(model, Q, V, 1e-2, steps=20)
    assert batched.q.shape == (21, 4, 2) and batched.energy.shape == (21, 4)
    for b in range(4):
        single = simulate(model, Q[b], V[b], 1e-2, steps=20)
        assert np.allclose(batched.q[:, b], single.q, rtol=1e-13, atol=1e-13)
    # an unbatched position with batched velocities broadcasts from the first step on
    mixed = simulate(model, Q[0], V, 1e-2, steps=3)
    assert mixed.q.shape == (4, 4, 2)


def test_a_four_bar_gives_the_same_motion_in_tree_and_in_independent_coordinates():
    """Two formulations of §8 with the one loop: implicit (K q̈ = k) and explicit (q = γ(y))."""
    model, closure = B.four_bar(), L.four_bar_closure()
    y0, yd0 = np.array([0.8]), np.array([1.3])
    q0, qd0 = closure.gamma(y0), closure.jacobians(y0, yd0)[1] @ yd0
    implicit = simulate(model, q0, qd0, 2e-3, duration=0.3, stabilization=(20.0, 100.0))
    explicit = simulate(ClosureSystem(model, closure), y0, yd0, 2e-3, duration=0.3)
    assert np.allclose(closure.gamma(explicit.q), implicit.q, atol=1e-6)
    assert np.allclose(explicit.energy, implicit.energy, atol=1e-6)
    assert np.abs(explicit.energy - explicit.energy[0]).max() < 1e-9 * abs(explicit.energy[0])


class _Bouncer:
    """A minimal stepped system: a point on a line that stops at 0 within a step."""

    nq = nv = NB = 1

    def check_state(self, q, v):
        return np.asarray(q, float), np.asarray(v, float)

    def integrate(self, q, v, dt):
        return q + dt * v

    def difference(self, q0, q1):
        return q1 - q0

    def mass_matrix(self, q):
        return np.ones(np.shape(q) + (1,))

    def energy(self, q, v):
        return 0.5 * v[..., 0] ** 2, np.zeros(np.shape(q)[:-1])

    def poses(self, q):
        return np.broadcast_to(np.eye(4), np.shape(q)[:-1] + (1, 4, 4))

    def step(self, t, q, v, h, carry=None, **options):
        to_wall = -q[0] / v[0] if v[0] < 0 else np.inf
        taken = min(h, to_wall)
        v_next = -v if taken < h else v
        return Step(q + taken * v, v_next, taken, {"bounced": taken < h}, (carry or 0) + 1)


class _RecordingBouncer(_Bouncer):
    def initial_records(self, q, v):
        return {"bounced": False}


def test_records_line_up_with_the_states_when_the_system_describes_its_start():
    plain = simulate(_Bouncer(), [0.25], [-1.0], 0.1, duration=0.5)
    aligned = simulate(_RecordingBouncer(), [0.25], [-1.0], 0.1, duration=0.5)
    assert len(plain.bounced) == len(plain) - 1 and len(aligned.bounced) == len(aligned)
    assert np.array_equal(aligned.bounced[1:], plain.bounced) and not aligned.bounced[0]


def test_a_stepped_system_takes_its_own_steps_which_may_end_early():
    traj = simulate(_Bouncer(), [0.25], [-1.0], 0.1, duration=0.5)
    assert 0.25 in np.round(traj.t, 12)  # the step was shortened to the event
    assert traj.records["bounced"].sum() == 1 and traj.bounced is traj.records["bounced"]
    assert traj.occurrences("bounced") == [(pytest.approx(0.25), True)]  # at the step's end
    with pytest.raises(KeyError):
        traj.occurrences("nothing")
    assert traj.t[-1] == pytest.approx(0.5) and traj.q[-1, 0] == pytest.approx(0.25)
    with pytest.raises(ValueError, match="only takes its own time steps"):
        simulate(_Bouncer(), [0.25], [-1.0], 0.1, duration=0.5, integrator="rk4")


def test_bad_input_is_named():
    model = B.double_pendulum()
    with pytest.raises(ValueError, match="exactly one of steps and duration"):
        simulate(model, np.zeros(2), np.zeros(2), 0.1)
    with pytest.raises(ValueError, match="exactly one of steps and duration"):
        simulate(model, np.zeros(2), np.zeros(2), 0.1, steps=2, duration=1.0)
    with pytest.raises(ValueError, match="h must be"):
        simulate(model, np.zeros(2), np.zeros(2), 0.0, steps=2)
    with pytest.raises(ValueError, match="steps must be a non-negative integer"):
        simulate(model, np.zeros(2), np.zeros(2), 0.1, steps=2.5)
    with pytest.raises(ValueError, match="integrator must be one of"):
        simulate(model, np.zeros(2), np.zeros(2), 0.1, steps=2, integrator="leapfrog")
    with pytest.raises(ValueError, match="qd"):
        simulate(model, np.zeros(2), np.zeros(3), 0.1, steps=2)
    with pytest.raises(ValueError, match="is not a mechanical system: it lacks"):
        simulate(object(), np.zeros(2), np.zeros(2), 0.1, steps=2)
    with pytest.raises(ValueError, match="only to models with loops"):
        simulate(model, np.zeros(2), np.zeros(2), 0.1, steps=2, stabilization=(1.0, 1.0))
    with pytest.raises(AttributeError, match="no attribute or record 'nothing'"):
        _ = simulate(model, np.zeros(2), np.zeros(2), 0.1, steps=1).nothing


def test_poses_are_bodies_one_to_NB():
    model = B.double_pendulum()
    q = np.array([0.3, -0.2])
    poses = TreeSystem(model).poses(q)
    assert poses.shape == (2, 4, 4)
    assert np.allclose(poses, sp.body_poses(model, q)[1:])


def test_tree_and_maximal_coordinates_run_with_the_same_call():
    """One pendulum chain, two formulations, one loop: both symplectic-Euler-like first-order
    steps, so they agree to O(h) and converge together as h shrinks."""
    model = B.planar_chain(3)
    system = sp.maximal.from_model(model)
    q0, v0 = np.array([0.5, -0.3, 0.2]), np.array([0.0, 1.0, 0.0])
    T0, phi0 = sp.maximal.maximal_state(model, q0, v0)
    gaps = []
    for h in (4e-3, 2e-3):
        tree = simulate(model, q0, v0, h, duration=0.2, integrator="semi-implicit-euler")
        maximal = simulate(system, T0, phi0, h, duration=0.2, baumgarte=0.2 / h)
        assert maximal.q.shape == (len(tree), 3, 4, 4) and maximal.joint_q.shape == tree.q.shape
        assert np.allclose(maximal.energy[0], tree.energy[0], rtol=1e-12)
        assert np.allclose(system.poses(maximal.q[0]), TreeSystem(model).poses(q0), atol=1e-12)
        gaps.append(np.abs(maximal.joint_q - tree.q).max())
    assert gaps[1] < 0.6 * gaps[0] and gaps[1] < 5e-3


def test_redmax_and_aba_give_the_same_trajectory():
    """Sueda's REDMAX (eq. 2.18) and Featherstone's ABA under the one loop: the same motion."""
    rng = np.random.default_rng(5)
    model = B.random_tree(rng, 5, joints=("R", "P", "S", "U", "SE"), floating=True)
    q0 = model.random_configuration(rng)
    v0 = 0.5 * rng.standard_normal(model.nv)
    tau = lambda t, q, v: -0.1 * v  # noqa: E731 (a damper, as a time-dependent force)
    aba_run = simulate(model, q0, v0, 5e-3, steps=40, tau=tau)
    redmax_run = simulate(RedmaxSystem(model), q0, v0, 5e-3, steps=40, tau=tau)
    assert np.abs(redmax_run.q - aba_run.q).max() < 1e-10 * (1 + np.abs(aba_run.q).max())
    assert np.abs(redmax_run.v - aba_run.v).max() < 1e-10 * (1 + np.abs(aba_run.v).max())
    assert np.allclose(RedmaxSystem(model).mass_matrix(q0), sp.crba(model, q0), atol=1e-12)
    # loop joints are closed by their point constraints (tests/test_formulations_loops.py); a
    # loop joint that has none would be ignored, so it is refused as by the tree functions
    slotted = B.four_bar()
    slotted.add_loop_joint(1, 3, Prismatic("x"), np.eye(6), np.eye(6), "slot")
    refusal = (
        r"RedmaxSystem .* loop joints \('pin C', 'slot'\).*spanning_tree.*'slot' is a Prismatic"
    )
    with pytest.raises(ValueError, match=refusal):
        RedmaxSystem(slotted)


def _rope_on_pendulum():
    """A pendulum with a rope of three free nodes hanging from its tip (Sueda §2.7)."""
    model = sp.Model(gravity=[0.0, -9.81, 0.0])
    model.add_body(0, Revolute("z"), np.eye(6), sp.mcI(1.0, [0.0, -0.5, 0.0], 0.02 * np.eye(3)))
    rope = ParticleSystem(
        [0.1] * 4,
        attached=[(1, [0.0, -1.0, 0.0])] + [None] * 3,
        springs=[(i, i + 1) for i in range(3)],
        stiffness=[40.0] * 3,
        rest_length=[0.3] * 3,
    )
    x0 = np.array([[np.sin(0.8) + 0.3 * k, -np.cos(0.8) - 0.05 * k, 0.02 * k] for k in (1, 2, 3)])
    return CoupledSystem(model, rope), np.concatenate([[0.8], x0.ravel()]), np.zeros(10)


def test_a_rope_on_a_pendulum_runs_under_the_one_loop_and_matches_an_adaptive_solution():
    system, q0, v0 = _rope_on_pendulum()
    traj = simulate(system, q0, v0, 2e-3, duration=1.0)
    assert traj.q.shape == (501, 10) and traj.kinetic.shape == (501,)
    rhs = lambda t, y: np.concatenate([y[10:], system.accelerations(t, y[:10], y[10:])])  # noqa: E731
    y0 = np.concatenate([q0, v0])  # DOP853: 998 evaluations at these tolerances, RK45 3866
    ref = solve_ivp(rhs, (0, 1.0), y0, method="DOP853", rtol=1e-11, atol=1e-12).y[:, -1]
    assert np.abs(traj.q[-1] - ref[:10]).max() < 1e-7
    assert np.abs(traj.energy - traj.energy[0]).max() < 1e-6 * np.abs(traj.energy).max()
    assert np.ptp(traj.q[:, 0]) > 0.5  # the pendulum really swings
    M = system.mass_matrix(q0)
    assert M.shape == (10, 10) and np.allclose(M, M.T) and np.linalg.eigvalsh(M).min() > 0
    assert np.allclose(system.difference(q0, system.integrate(q0, v0 + 1.0, 0.1)), 0.1)


def test_coupled_system_rejects_bad_states_and_models():
    system, q0, v0 = _rope_on_pendulum()
    with pytest.raises(ValueError, match=r"shapes \(10,\) and \(10,\)"):
        system.check_state(q0[:-1], v0)
    with pytest.raises(ValueError, match="finite"):
        system.check_state(np.where(np.arange(10) == 4, np.nan, q0), v0)
    with pytest.raises(ValueError, match=r"CoupledSystem .* loop joint \('pin C'\)"):
        CoupledSystem(B.four_bar(), system.particles)
    with pytest.raises(ValueError, match="needs a spatial.Model"):
        CoupledSystem("model", system.particles)
    with pytest.raises(ValueError, match="ParticleSystem"):
        CoupledSystem(system.model, "rope")
