"""A simulation that goes wrong stops loudly and keeps what it had (spatial.simulation)."""

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial.integrators import LinearOscillator
from spatial.simulation import SimulationDiverged, SimulationInterrupted, simulate
from spatial.systems import Step, TreeSystem

STIFF = LinearOscillator(1.0, 1e6)  # ω = 1000 rad/s: explicit steps of 0.1 s are far too long


@pytest.mark.parametrize(
    "integrator", ["rk4", "symplectic-euler", "semi-implicit-euler", "bridson-marino"]
)
def test_an_explicit_step_far_too_long_stops_with_the_motion_so_far(integrator):
    with pytest.raises(SimulationDiverged) as info:
        simulate(STIFF, [1.0], [0.0], 0.1, steps=200, integrator=integrator)
    err = info.value
    assert isinstance(err, FloatingPointError)
    message = str(err)
    for part in (f"step {err.step} ", f"t = {err.t:.6g} s", repr(integrator), "h = 0.1 s"):
        assert part in message
    assert "smaller h" in message and "implicit" in message
    assert err.integrator == integrator and err.h == 0.1
    traj = err.trajectory
    assert len(traj) == err.step + 1 and traj.t[-1] == pytest.approx(err.t)
    assert np.isfinite(traj.q).all() and np.isfinite(traj.v).all()
    assert traj.q.shape == (len(traj), 1) and traj.energy.shape == (len(traj),)
    assert traj.q[0, 0] == 1.0 and np.abs(traj.q[-1, 0]) > 1e100  # it was running away


@pytest.mark.parametrize("integrator", ["implicit-euler", "trapezoidal"])
def test_the_implicit_steppers_stay_bounded_on_the_same_problem(integrator):
    traj = simulate(STIFF, [1.0], [0.0], 0.1, steps=200, integrator=integrator)
    assert len(traj) == 201 and np.abs(traj.q).max() <= 1.0 + 1e-12
    assert np.isfinite(traj.energy).all()


class _Line:
    """A point on a line whose acceleration a test chooses (a smooth system)."""

    NB = 1

    def __init__(self, acceleration):
        self.acceleration, self.calls = acceleration, 0

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

    def accelerations(self, t, q, v):
        self.calls += 1
        return self.acceleration(t, q, v, self.calls)


def test_a_nan_acceleration_is_reported_with_its_stage_and_component():
    system = _Line(lambda t, q, v, k: np.array([np.nan]) if k == 6 else -q)
    with pytest.raises(SimulationDiverged, match=r"stage 2 .*\[0\] = nan is not finite") as info:
        simulate(system, [1.0], [0.0], 0.1, steps=4)
    assert info.value.step == 1 and len(info.value.trajectory) == 2  # step 0 went through


def test_an_acceleration_of_the_wrong_shape_is_refused_not_broadcast_into_the_state():
    system = _Line(lambda t, q, v, k: np.zeros(3))
    with pytest.raises(SimulationDiverged, match=r"shape \(3,\), but the state has shape \(1,\)"):
        simulate(system, [1.0], [0.0], 0.1, steps=3, integrator="symplectic-euler")


def test_a_batched_force_may_still_add_batch_dimensions():
    model = B.double_pendulum()
    tau = np.array([[0.0, 0.0], [1.0, -1.0], [2.0, 0.5]])
    traj = simulate(model, [0.3, 0.1], [0.0, 0.0], 0.01, steps=5, tau=tau)
    assert traj.q.shape == (6, 3, 2)
    assert np.allclose(traj.q[:, 0], simulate(model, [0.3, 0.1], [0.0, 0.0], 0.01, steps=5).q)


def test_a_diverging_pendulum_ends_in_the_package_error_not_deep_inside_aba():
    model = B.double_pendulum()
    with pytest.raises(SimulationDiverged, match="overflow") as info:
        simulate(model, [0.1, 0.2], [0.0, 0.0], 0.01, steps=200, tau=lambda t, q, v: -1e8 * q)
    assert np.isfinite(info.value.trajectory.q).all()


def test_aba_tells_an_overflow_from_a_massless_subtree():
    model = B.double_pendulum()
    with pytest.raises(FloatingPointError, match="overflowed"):
        sp.aba(model, [0.1, 0.2], [1e180, 1e180], [0.0, 0.0])
    massless = sp.Model()
    massless.add_body(0, sp.joints.Revolute("z"), np.eye(6), np.zeros((6, 6)))
    with pytest.raises(ValueError, match="singular"):
        sp.aba(massless, [0.1], [0.0], [0.0])


def test_the_simulation_core_keeps_abas_checks_of_the_forces_and_of_a_massless_subtree():
    """The loop's ABA core trusts the validated state but still checks what changes per stage."""
    model = B.double_pendulum()
    with pytest.raises(ValueError, match="tau"):
        simulate(model, [0.1, 0.2], [0.0, 0.0], 0.01, steps=3, tau=lambda t, q, v: np.ones(3))
    with pytest.raises(ValueError, match="tau"):
        simulate(model, [0.1, 0.2], [0.0, 0.0], 0.01, steps=3, tau=lambda t, q, v: [np.nan, 0])
    massless = sp.Model()
    massless.add_body(0, sp.joints.Revolute("z"), np.eye(6), np.zeros((6, 6)))
    with pytest.raises(ValueError, match="singular"):
        simulate(massless, [0.1], [0.0], 0.01, steps=3)
    tau = lambda t, q, v: -q  # noqa: E731
    traj = simulate(
        model, [0.1, 0.2], [0.3, 0.0], 0.01, steps=3, integrator="symplectic-euler", tau=tau
    )
    v = np.array([0.3, 0.0]) + 0.01 * sp.aba(model, [0.1, 0.2], [0.3, 0.0], [-0.1, -0.2])
    assert np.array_equal(traj.v[1], v)  # the public aba's numbers, bit for bit


class _Stepper(_Line):
    """A stepped system: one explicit Euler step of the chosen acceleration."""

    def step(self, t, q, v, h, carry=None):
        v_next = v + h * self.accelerations(t, q, v)
        return Step(q + h * v_next, v_next, h, {"speed": abs(float(v_next[0]))})


def test_a_stepped_system_whose_step_goes_non_finite_is_stopped_too():
    system = _Stepper(lambda t, q, v, k: -q if k < 4 else np.array([np.inf]))
    with pytest.raises(SimulationDiverged, match="own step") as info:
        simulate(system, [1.0], [0.0], 0.1, steps=10)
    err = info.value
    assert err.integrator is None and err.step == 3
    assert len(err.trajectory.speed) == len(err.trajectory) - 1 == 3  # records of good steps


def test_an_interrupt_keeps_the_motion_computed_so_far():
    def interrupt_late(t, q, v, k):
        if k > 40:  # the 11th RK4 step
            raise KeyboardInterrupt
        return -q

    with pytest.raises(SimulationInterrupted, match="last_value.trajectory") as info:
        simulate(_Line(interrupt_late), [1.0], [0.0], 0.1, steps=100)
    assert isinstance(info.value, KeyboardInterrupt)
    traj = info.value.trajectory
    assert len(traj) == 11 and traj.t[-1] == pytest.approx(1.0)
    assert traj.q[-1, 0] == pytest.approx(np.cos(1.0), abs=1e-5)  # the states are the real ones


def test_a_run_that_does_not_fail_is_unchanged():
    model = B.double_pendulum()
    traj = simulate(TreeSystem(model), [0.5, -0.3], [0.0, 1.0], 1e-2, steps=10)
    assert len(traj) == 11 and np.isfinite(traj.q).all()
