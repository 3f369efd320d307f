"""Closed-loop solvers say so when their input breaks the loops (no silent answers).

* a configuration that leaves a loop open, or a velocity with ``K q̇ ≠ 0``, gets a
  ``LoopConstraintWarning`` naming the loop joint and the size of the violation;
* ``G_and_g`` refuses a ``K x = k`` that has no solution;
* the sparse matrix method (the only user of ``scipy.sparse``) is loaded on first use.
"""

import subprocess
import sys
import warnings

import numpy as np
import pytest

import spatial as sp
from spatial import builders as B
from spatial.dynamics import loops as L
from spatial.systems import ClosureSystem


def _implicit(model, q0, qd0, dt, steps, **options):
    """The implicit form simulated by the one loop, arrays batch first as ``(t, q, qd)``."""
    traj = sp.simulate(model, q0, qd0, dt, steps=steps, **options)
    return traj.t, np.moveaxis(traj.q, 0, -2), np.moveaxis(traj.v, 0, -2)


def _explicit(model, closure, y0, yd0, dt, steps, **options):
    """The explicit form (§8.11) simulated by the one loop, as ``(t, y, yd)``, batch first."""
    traj = sp.simulate(ClosureSystem(model, closure), y0, yd0, dt, steps=steps, **options)
    return traj.t, np.moveaxis(traj.q, 0, -2), np.moveaxis(traj.v, 0, -2)


def _closed_four_bar(theta=0.7, speed=0.0):
    """The default four-bar closed at crank angle ``theta``, moving as the loop allows."""
    q, G, _ = L.four_bar_closure().jacobians([theta], [speed])
    return q, G[:, 0] * speed


@pytest.mark.parametrize("method", L.METHODS)
def test_open_loop_configuration_warns_with_the_joint_and_the_error(method):
    model = B.four_bar()
    q = np.zeros(3)  # all links along x: the coupler ends at x = 1.3, the rocker at 1.7
    delta = np.abs(L.loop_position_errors(model, q)).max()
    assert delta > 0.3  # the violation the warning has to report
    with pytest.warns(L.LoopConstraintWarning) as caught:
        qdd, _ = L.loop_forward_dynamics(model, q, np.zeros(3), method=method)
    assert len(caught) == 1 and issubclass(caught[0].category, RuntimeWarning)
    message = str(caught[0].message)
    assert "'pin C'" in message and "position_tol = 0.01" in message
    assert f"max |δ| = {delta:.3g}" in message
    assert caught[0].filename == __file__  # points at the caller
    assert np.all(np.isfinite(qdd))  # the answer is still given (simulators need it)
    with warnings.catch_warnings():
        warnings.simplefilter("error", L.LoopConstraintWarning)
        L.loop_forward_dynamics(model, q, np.zeros(3), method=method, position_tol=1.0)


@pytest.mark.parametrize("method", L.METHODS)
def test_velocity_that_breaks_the_loop_warns(method):
    model = B.four_bar()
    q, _ = _closed_four_bar()
    qd = np.array([1.0, 0.0, 0.0])  # the crank turns alone: the coupler must follow, and does not
    K, _ = L.loop_constraints(model, q, qd)
    size = np.abs(K @ qd).max()
    assert size > 0.1
    with pytest.warns(L.LoopConstraintWarning, match="K q̇ = 0") as caught:
        L.loop_forward_dynamics(model, q, qd, method=method)
    assert len(caught) == 1
    assert f"max |K q̇| = {size:.3g}" in str(caught[0].message)
    assert "'pin C'" in str(caught[0].message) and "velocity_tol = 0.1" in str(caught[0].message)
    with warnings.catch_warnings():
        warnings.simplefilter("error", L.LoopConstraintWarning)
        L.loop_forward_dynamics(model, q, qd, method=method, velocity_tol=10.0)


def test_consistent_states_are_silent_and_both_violations_are_reported():
    model = B.four_bar()
    q, qd = _closed_four_bar(0.7, 3.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for gains in (None, (10.0, 10.0)):
            L.loop_forward_dynamics(model, q, qd, stabilization=gains)
    with pytest.warns(L.LoopConstraintWarning) as caught:
        L.loop_forward_dynamics(model, np.zeros(3), np.array([1.0, 0.0, 0.0]))
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2
    assert "position_tol" in messages[0] and "velocity_tol" in messages[1]


def test_batch_warning_counts_the_bad_states_and_names_the_worst_loop(rng):
    ladder = B.ladder(3)
    q = np.stack([ladder.neutral_configuration()] * 3)
    assert np.abs(L.loop_position_errors(ladder, q)).max() < 1e-12
    q[1] = ladder.integrate(q[1], 0.05 * rng.standard_normal(ladder.nv), 1.0)  # opens loops
    per_loop = [
        np.abs(L.loop_position_errors(ladder, q[1])[3 * l : 3 * l + 3]).max() for l in range(3)
    ]
    worst = int(np.argmax(per_loop))
    with pytest.warns(L.LoopConstraintWarning, match=r"\(1 of 3 states\)") as caught:
        L.loop_forward_dynamics(ladder, q, np.zeros(ladder.nv))
    name = ladder.loop_joints[worst].name
    assert f"{name!r} (loop {worst})" in str(caught[0].message)
    assert f"{max(per_loop):.3g}" in str(caught[0].message)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"position_tol": 0.0}, "position_tol must be > 0"),
        ({"velocity_tol": -1.0}, "velocity_tol must be > 0"),
        ({"position_tol": np.nan}, "position_tol contains non-finite"),
    ],
)
def test_tolerances_are_validated(kwargs, match):
    q, qd = _closed_four_bar()
    with pytest.raises(ValueError, match=match):
        L.loop_forward_dynamics(B.four_bar(), q, qd, **kwargs)
    with pytest.raises(ValueError, match=match):
        _implicit(B.four_bar(), q, qd, 0.01, 1, **kwargs)


def test_simulation_warns_once_for_a_trajectory_that_leaves_the_loops():
    model = B.four_bar()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _, q, _ = _implicit(model, np.zeros(3), np.zeros(3), 0.01, 10)
    loop_warnings = [w for w in caught if issubclass(w.category, L.LoopConstraintWarning)]
    assert len(loop_warnings) == 1  # not one per RK4 stage
    message = str(loop_warnings[0].message)
    assert message.startswith("simulate: the loops were open along the trajectory")
    delta = np.abs(L.loop_position_errors(model, q)).max()
    assert f"max |δ| = {delta:.3g}" in message and "(11 of 11 states)" in message
    assert loop_warnings[0].filename == __file__


def test_stabilized_and_short_unstabilized_simulations_stay_below_the_defaults():
    """The drift the defaults must tolerate (notebook 08's coarse step, h = 0.04 s).

    Measured: α = β = 10 holds |δ| ≤ 3.3e-4 and |K q̇| ≤ 0.011 over 3 s; without
    stabilization the loop opens to 1.6e-3 within 1 s (and 1.4e-2 after 3 s, which warns).
    """
    model = B.four_bar()
    q0, qd0 = _closed_four_bar(0.3, 6.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", L.LoopConstraintWarning)
        _, q, qd = _implicit(model, q0, qd0, 0.04, 75, stabilization=(10.0, 10.0))
        _implicit(model, q0, qd0, 0.04, 25)
    assert np.abs(L.loop_position_errors(model, q)).max() > 1e-4  # there is drift to tolerate


def test_G_and_g_refuses_an_inconsistent_system():
    K, k = np.array([[1.0, 1.0], [1.0, 1.0]]), np.array([1.0, 2.0])
    # the best x has x1 + x2 = 1.5, leaving 0.5 in each row
    with pytest.raises(ValueError, match=r"no solution.*max\|K x - k\| = 0\.5\b"):
        L.G_and_g(K, k)
    with pytest.raises(ValueError, match="no solution"):
        L.G_and_g(np.stack([K, K]), np.stack([k, k]), independent=(1,))
    G, g, independent = L.G_and_g(K, k, consistency_tol=0.5)  # least squares on request
    assert np.allclose(K @ g, [1.5, 1.5]) and np.abs(K @ G).max() < 1e-12
    G, g, _ = L.G_and_g(K, [1.0, 1.0 + 1e-12])  # round-off is accepted
    assert np.allclose(K @ g, 1.0)
    with pytest.raises(ValueError, match="consistency_tol must be > 0"):
        L.G_and_g(K, [1.0, 1.0], consistency_tol=0.0)


def test_sparse_method_is_loaded_on_first_use():
    code = (
        "import sys, spatial; from spatial.dynamics import loops; "
        "print('scipy.sparse' in sys.modules); "
        "loops.sparse_matrix_method; import spatial.dynamics as d; d.sparse_matrix_method; "
        "print('scipy.sparse' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "True"]
    for name in L.__all__:
        assert getattr(L, name) is not None and name in dir(L)
    with pytest.raises(AttributeError, match="no_such_name"):
        L.no_such_name  # noqa: B018


def test_simulation_reports_a_velocity_error_from_too_stiff_gains():
    """α = β = 40 with h = 0.04 s: h β = 1.6 makes RK4 overshoot, |K q̇| reaches about 0.5."""
    model = B.four_bar()
    q0, qd0 = _closed_four_bar(0.3, 6.0)
    with pytest.warns(L.LoopConstraintWarning) as caught:
        _, q, qd = _implicit(model, q0, qd0, 0.04, 25, stabilization=(40.0, 40.0))
    K, _ = L.loop_constraints(model, q, qd)
    size = np.abs((K @ qd[..., None])[..., 0]).max()
    assert [str(w.message).split(":")[1] for w in caught] == [
        " the velocity left the loop constraints K q̇ = 0 (eq. 8.9) along the trajectory"
    ]
    assert f"max |K q̇| = {size:.3g}" in str(caught[0].message) and size > 0.1


def test_simulation_rejects_an_unknown_method():
    q0, qd0 = _closed_four_bar()
    with pytest.raises(ValueError, match="method must be one of"):
        _implicit(B.four_bar(), q0, qd0, 0.01, 1, method="magic")
