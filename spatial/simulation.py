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

A run that goes wrong stops loudly and keeps what it had.  Every stage of a step (each
``accelerations`` an integrator asks for) and every new state is checked: it must be finite and
keep the state's shape, and no floating-point operation inside a step may overflow.  The first
failure raises :class:`SimulationDiverged` (a ``FloatingPointError``), whose message names the
step, the time, the integrator, the step size and the offending component and suggests a remedy;
an interrupt (Ctrl-C) raises :class:`SimulationInterrupted` (a ``KeyboardInterrupt``).  Both
carry the trajectory up to the last good state as ``err.trajectory``, so a long run is never
lost: ``except SimulationDiverged as err: traj = err.trajectory``, or in IPython after the fact
``sys.last_value.trajectory``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

import numpy as np

from . import integrators
from ._validate import positive_scalar
from .systems import MechanicalSystem, SteppedSystem, _Cores, as_system

__all__ = [
    "Trajectory",
    "simulate",
    "INTEGRATORS",
    "SimulationDiverged",
    "SimulationInterrupted",
]

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


class SimulationDiverged(FloatingPointError):
    """A simulation produced a state or acceleration that is not finite, or overflowed.

    Raised by :func:`simulate` at the first failed check; the message says where and suggests a
    remedy (a smaller step, an implicit integrator, a look at stiffness and damping).

    Attributes
    ----------
    trajectory : Trajectory
        The motion up to and including the last good state (at least the initial state).
    t : float
        Time at the start of the failed step.
    step : int
        Number of the failed step (0 is the first step).
    integrator : str or None
        The integrator (``None``: the system's own step).
    h : float
        The step size.
    """

    def __init__(self, message: str, trajectory, t: float, step: int, integrator, h: float):
        super().__init__(message)
        self.trajectory, self.t, self.step = trajectory, t, step
        self.integrator, self.h = integrator, h


class SimulationInterrupted(KeyboardInterrupt):
    """A simulation stopped by the user (Ctrl-C, or a notebook's interrupt button).

    Attributes
    ----------
    trajectory : Trajectory
        The motion up to the last completed step.
    """

    def __init__(self, message: str, trajectory):
        super().__init__(message)
        self.trajectory = trajectory


def _happened(value) -> bool:
    """A record value that says something happened: not None and not a false flag."""
    return value is not None and (not isinstance(value, bool | np.bool_) or bool(value))


class _Failure(Exception):
    """A failed check inside a step: what went wrong, for :class:`SimulationDiverged`."""


def _check_array(value, reference, what: str) -> np.ndarray:
    """``value`` as an array that is finite and shaped like ``reference`` (batch may grow).

    A result may add leading batch dimensions to the state's (a batched force on one initial
    state), but never change the state's own last axis or shrink the batch.
    """
    value = np.asarray(value)
    shape, ref = value.shape, np.shape(reference)
    if shape == ref:  # the usual case, at every stage: nothing to broadcast
        grows = True
    else:
        try:
            grows = np.broadcast_shapes(shape, ref) == shape
        except ValueError:
            grows = False
    if not grows or shape[-1:] != ref[-1:]:
        raise _Failure(f"{what} has shape {shape}, but the state has shape {ref}")
    if value.dtype.kind in "fc" and not np.isfinite(value).all():
        index = tuple(int(i) for i in np.argwhere(~np.isfinite(value))[0])
        raise _Failure(f"{what}{list(index)} = {value[index]} is not finite")
    return value


class _Guarded(_Cores):
    """A smooth system seen through its cores (:class:`~spatial.systems._Cores`), whose
    ``accelerations`` are checked at every stage of a step."""

    def __init__(self, system):
        super().__init__(system)
        self.stage = 0
        self._accelerations = vars(self).pop("accelerations")  # the core, wrapped below

    def accelerations(self, t, q, v, **options):
        self.stage += 1
        a = self._accelerations(t, q, v, **options)
        return _check_array(a, v, f"the acceleration of stage {self.stage} (t = {t:.6g} s)")


def _stepper(system: MechanicalSystem, integrator: str | None):
    """The function that takes one step of ``system``: its own step (``integrator=None``, a
    stepped system) or an ODE integrator.

    An ODE integrator sees the system through :class:`_Guarded`, so each stage is checked.
    """
    if integrator is None:
        return lambda t, q, v, h, carry, options: system.step(t, q, v, h, carry, **options)
    integrators.stepper(integrator, system)  # checks that the system suits the integrator
    guarded = _Guarded(system)
    take = integrators.stepper(integrator, guarded)

    def step(t, q, v, h, carry, options):
        guarded.stage = 0
        return take(t, q, v, h, options)

    return step


_REMEDY = (
    "The step is probably too large for how stiff or fast the system is: try a smaller h "
    "(e.g. h/10), an implicit integrator ('implicit-euler', 'trapezoidal'), or check the "
    "stiffness, damping and applied forces."
)


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
    SimulationDiverged
        (a ``FloatingPointError``) At the first stage or step whose result is not finite or
        not shaped like the state, or that overflows: the message names the step, the time,
        the integrator, ``h`` and the component, and ``err.trajectory`` holds the motion up to
        the last good state.
    SimulationInterrupted
        (a ``KeyboardInterrupt``) On Ctrl-C; ``err.trajectory`` holds the motion so far.

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
    if integrator is None and not isinstance(system, SteppedSystem):
        integrator = "rk4"
    step = _stepper(system, integrator)
    q, v = system.check_state(q0, v0)

    # a stepped system may describe its initial state too, so that records line up with t
    start = getattr(system, "initial_records", None)
    run = _Run(system, [0.0], [q], [v], start(q, v) if start else {})
    limit = _STEP_LIMIT * int(np.ceil(end / h - 1e-9)) + 100
    t, carry = 0.0, None
    try:
        while t < end - 1e-12 * max(1.0, end):
            if len(run.times) > limit:
                raise RuntimeError(f"more than {limit} steps (events too frequent) before t={t:g}")
            try:
                with np.errstate(over="raise"):
                    result = step(t, q, v, min(h, end - t), carry, options)
                q, v = _check_array(result.q, q, "q"), _check_array(result.v, v, "v")
            except (_Failure, FloatingPointError) as failure:
                raise run.diverged(failure, integrator, h) from None
            carry, t = result.carry, t + result.h
            run.append(t, q, v, result.info)
    except KeyboardInterrupt:
        raise SimulationInterrupted(
            f"simulate interrupted at t = {t:.6g} s after {len(run.times) - 1} steps; the "
            "motion so far is kept in this exception's .trajectory (in IPython: "
            "sys.last_value.trajectory)",
            run.trajectory(finished=False),
        ) from None
    trajectory = run.trajectory(finished=True)
    check = getattr(system, "check_trajectory", None)  # e.g. closed loops that drifted open
    if check is not None:
        check(trajectory.q, trajectory.v, **options)
    return trajectory


@dataclass
class _Run:
    """The states and records a run has stored so far."""

    system: MechanicalSystem
    times: list
    qs: list
    vs: list
    first: dict  # the records of the initial state, if the system describes it
    records: dict = field(init=False)

    def __post_init__(self):
        self.records = {key: [value] for key, value in self.first.items()}

    def append(self, t: float, q, v, info: dict) -> None:
        for key, value in info.items():
            self.records.setdefault(key, []).append(value)
        self.times.append(t)
        self.qs.append(q)
        self.vs.append(v)

    def diverged(self, failure: Exception, integrator, h: float) -> SimulationDiverged:
        """The exception for a step that failed its checks, with the run so far."""
        k, t = len(self.times) - 1, self.times[-1]
        name = "the system's own step" if integrator is None else repr(integrator)
        what = f"overflow ({failure})" if isinstance(failure, FloatingPointError) else failure
        return SimulationDiverged(
            f"simulate: step {k} from t = {t:.6g} s (integrator {name}, h = {h:g} s) failed: "
            f"{what}.  {_REMEDY}  The {k + 1} states up to t = {t:.6g} s are kept in this "
            "exception's .trajectory.",
            self.trajectory(finished=False),
            t,
            k,
            integrator,
            h,
        )

    def trajectory(self, finished: bool) -> Trajectory:
        """The :class:`Trajectory` of the stored states.

        A run cut short keeps only the records of its completed steps, and its energies are
        evaluated with floating-point warnings silenced (its last states may be huge).
        """
        n, system = len(self.times), self.system
        # rows broadcast to the batch of the whole run (a step may add batch dimensions)
        q = np.stack(np.broadcast_arrays(*self.qs))
        v = np.stack(np.broadcast_arrays(*self.vs))
        with np.errstate(all="ignore") if not finished else contextlib.nullcontext():
            kinetic, potential = system.energy(q, v)
        # a record starts with the initial state's row or with the first step's
        rows = {key: values[: n - (key not in self.first)] for key, values in self.records.items()}
        return Trajectory(
            np.array(self.times),
            q,
            v,
            np.asarray(kinetic),
            np.asarray(potential),
            {key: _stack(values) for key, values in rows.items()},
        )
