"""The one simulation loop and its one result type.

Every simulator of the package is this loop: start from a validated state, advance it step by
step until the requested time, and record the state, the energy and whatever each step reports.
What differs between formulations is only *how one step is taken*, and that is the system's
business (:mod:`spatial.systems`):

* a smooth system (joint coordinates of a tree or of a closed loop, independent coordinates of
  §8.11) gives ``v̇ = accelerations(t, q, v)``, and the loop advances it with a fixed-step
  integrator of :mod:`spatial.integrators` (ArtiSynth §0.9): the classical fourth-order
  Runge–Kutta method (``"rk4"``, the default), symplectic (semi-implicit) Euler
  (``"semi-implicit-euler"``: ``v⁺ = v + h v̇(q, v)``, ``q⁺ = q ⊕ h v⁺``, Sueda eq. 1.29), or,
  for a system that also gives its force Jacobians, linearized backward Euler, the trapezoidal
  rule or Bridson–Marino;
* a time-stepped system (maximal coordinates with a KKT step, contact scenes with impulses)
  takes its own step, which may end early at an event and hands a ``carry`` to the next.

Positions always move through the system's ``integrate``, so quaternions stay unit and frames
stay rigid.  Either way the result is a :class:`Trajectory` whose arrays are **time first**:
``traj.q[k]`` is the state at ``traj.t[k]``, followed by any batch dimensions of the initial
state (a fan of initial conditions simulated together).

Two formulations of the same mechanism therefore run with the same call, e.g. a pendulum chain
in joint coordinates (``simulate(model, q0, qd0, h, duration=T)``) and in maximal coordinates
(``simulate(maximal.from_model(model), T0, phi0, h, duration=T)``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from . import integrators
from ._validate import positive_scalar
from .systems import MechanicalSystem, SteppedSystem, as_system

__all__ = ["Trajectory", "simulate", "INTEGRATORS"]

#: The fixed-step ODE integrators :func:`simulate` offers for smooth systems.
INTEGRATORS = tuple(integrators.STEPPERS)

_STEP_LIMIT = 20  # at most this many times the nominal number of steps (events shorten steps)


@dataclass
class Trajectory:
    """A simulated motion: one row per stored state, time first.

    Attributes
    ----------
    t : ndarray, shape (n,)
        Times of the stored states (``t[0] = 0``).
    q : ndarray, shape (n, ...) + position shape
        Positions (joint variables, independent coordinates, or body frames ``(NB, 4, 4)`` in
        maximal coordinates).
    v : ndarray, shape (n, ...) + velocity shape
    kinetic, potential : ndarray, shape (n, ...)
        Kinetic and gravitational potential energy of each state.
    records : dict of str to ndarray or list
        What the steps reported, e.g. ``"contacts"`` (number of active contacts), ``"error"``
        (constraint errors), ``"joint_wrench"``: one row per stored state when the system
        describes its initial state (``initial_records(q, v)``), else one row per step
        (``n - 1`` rows).  Each record is also an attribute: ``traj.contacts is
        traj.records["contacts"]``.
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    kinetic: np.ndarray
    potential: np.ndarray
    records: dict = field(default_factory=dict)

    @property
    def energy(self) -> np.ndarray:
        """Total mechanical energy ``T + V`` of each state."""
        return self.kinetic + self.potential

    def __getattr__(self, name: str):
        records = self.__dict__.get("records", {})
        if name in records:
            return records[name]
        raise AttributeError(f"Trajectory has no attribute or record {name!r}")

    def __len__(self) -> int:
        return len(self.t)

    def occurrences(self, name: str) -> list[tuple[float, object]]:
        """``(t, value)`` for every row where the record ``name`` holds something.

        For records of rare happenings (e.g. a contact scene's ``"impact"``, None in most
        steps): the rows whose value is neither None nor False, with their times.

        Raises
        ------
        KeyError
            If there is no such record.
        """
        rows = self.records[name]
        times = self.t[len(self.t) - len(rows) :]
        return [(float(t), r) for t, r in zip(times, rows, strict=True) if _happened(r)]


def _happened(value) -> bool:
    """A record value that says something happened: not None and not a false flag."""
    return value is not None and (not isinstance(value, bool | np.bool_) or bool(value))


def _stepper(system: MechanicalSystem, integrator: str | None):
    """The function that takes one step of ``system``: its own step or an ODE integrator."""
    if integrator is None:
        if isinstance(system, SteppedSystem):
            return lambda t, q, v, h, carry, options: system.step(t, q, v, h, carry, **options)
        integrator = "rk4"
    take = integrators.stepper(integrator, system)
    return lambda t, q, v, h, carry, options: take(t, q, v, h, options)


def _duration(h: float, steps, duration) -> float:
    if (steps is None) == (duration is None):
        raise ValueError("give exactly one of steps and duration")
    if duration is not None:
        return positive_scalar(duration, "duration")
    if isinstance(steps, bool) or not isinstance(steps, int | np.integer) or steps < 0:
        raise ValueError(f"steps must be a non-negative integer, got {steps!r}")
    return int(steps) * h


def _stack(rows: list):
    """Stack equally shaped array rows; keep a list of anything else (e.g. result objects)."""
    try:
        arrays = [np.asarray(r) for r in rows]
    except (ValueError, TypeError):
        return rows
    if arrays and all(a.dtype != object and a.shape == arrays[0].shape for a in arrays):
        return np.stack(arrays)
    return rows


def simulate(
    system,
    q0,
    v0,
    h: float,
    /,
    *,
    steps: int | None = None,
    duration: float | None = None,
    integrator: str | None = None,
    **options,
) -> Trajectory:
    """Simulate ``system`` from ``(q0, v0)`` with time step ``h``: the package's one loop.

    Parameters
    ----------
    system : MechanicalSystem or Model
        Any system of :mod:`spatial.systems`; a ``Model`` is simulated in joint coordinates
        (:class:`~spatial.systems.TreeSystem`).
    q0, v0 : array_like
        Initial state in the system's coordinates, with optional leading batch dimensions.
    h : float
        Step (s), > 0.  The last step is shortened to end at ``duration``.
    steps, duration :
        How long: exactly one of a number of steps (>= 0) or a time (s, > 0).
    integrator : None or str
        For a smooth system a fixed-step integrator of :data:`spatial.integrators.STEPPERS`
        (default ``"rk4"``; the implicit ones need the system's ``force_jacobians``, e.g.
        ``spatial.integrators.Linearized(model)``); ``None`` for a time-stepped system means
        its own step.
    **options
        Passed to every ``accelerations`` or ``step`` call, e.g. ``tau=`` (constant or
        ``tau(t, q, v)``) for a tree, the step options of a maximal system or a contact scene.

    Returns
    -------
    Trajectory

    Raises
    ------
    ValueError
        If the system, state, step or duration is invalid, or the integrator does not suit
        the system.
    RuntimeError
        If events shorten the steps so often that far more steps than ``duration / h`` are
        needed.

    Warns
    -----
    LoopConstraintWarning
        Once, for a closed-loop model whose trajectory left the loops open by more than
        ``position_tol`` (default 1e-2) or moved against them by more than ``velocity_tol``
        (default 0.1), both options of the run
        (:meth:`~spatial.systems.TreeSystem.check_trajectory`).
    """
    system = as_system(system)
    h = positive_scalar(h, "h")
    end = _duration(h, steps, duration)
    step = _stepper(system, integrator)
    q, v = system.check_state(q0, v0)

    times, qs, vs = [0.0], [q], [v]
    # a stepped system may describe its initial state too, so that records line up with t
    start = getattr(system, "initial_records", None)
    records = {key: [value] for key, value in start(q, v).items()} if start else {}
    limit = _STEP_LIMIT * int(np.ceil(end / h - 1e-9)) + 100
    t, carry = 0.0, None
    while t < end - 1e-12 * max(1.0, end):
        if len(times) > limit:
            raise RuntimeError(f"more than {limit} steps (events too frequent) before t={t:g}")
        result = step(t, q, v, min(h, end - t), carry, options)
        q, v, carry, t = result.q, result.v, result.carry, t + result.h
        for key, value in result.info.items():
            records.setdefault(key, []).append(value)
        times.append(t)
        qs.append(q)
        vs.append(v)
    # rows broadcast to the batch of the whole run (a step may add batch dimensions)
    q_all, v_all = np.stack(np.broadcast_arrays(*qs)), np.stack(np.broadcast_arrays(*vs))
    check = getattr(system, "check_trajectory", None)
    if check is not None:
        check(q_all, v_all, **options)
    kinetic, potential = system.energy(q_all, v_all)
    return Trajectory(
        np.array(times),
        q_all,
        v_all,
        np.asarray(kinetic),
        np.asarray(potential),
        {key: _stack(rows) for key, rows in records.items()},
    )
