"""Time integration of closed-loop systems with RK4, in both forms (§8.3, §8.11).

* :func:`simulate_closed_loop` integrates the implicit form: each RK4 stage solves the
  closed-loop forward dynamics for ``q̈`` (§8.5) and the tree variables ``q`` advance through
  ``model.integrate``.  Only the loop errors' second derivative is controlled, so round-off and
  truncation let the loops drift open unless Baumgarte gains pull them back (§8.3).  After the
  run the trajectory is checked once: if the loops opened by more than ``position_tol``, or
  their velocity error exceeded ``velocity_tol``, one :class:`LoopConstraintWarning` reports the
  worst loop joint.
* :func:`simulate_reduced` integrates the explicit form in independent coordinates ``y``
  (eq. 8.45 with a loop closure function): the loops cannot open.

Both share one classical RK4 step (:func:`_rk4`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..._batched import mv as _mv
from ..._validate import as_array, as_scalar_array
from ...model import Model
from .constraints import (
    POSITION_TOL,
    VELOCITY_TOL,
    _constraints,
    _gains,
    _tolerances,
    _warn_if_violated,
)
from .explicit import LoopClosure, _reduced
from .forward import METHODS, _forward_dynamics

__all__ = ["simulate_closed_loop", "simulate_reduced"]


def _rk4(accel: Callable, advance: Callable, x0, v0, dt: float, steps: int):
    """Classical RK4 for ``ẋ = v``, ``v̇ = accel(t, x, v)``; positions move by ``advance``."""
    xs, vs = [x0], [v0]
    x, v = x0, v0
    for n in range(steps):
        t = n * dt
        a1 = accel(t, x, v)
        v2 = v + 0.5 * dt * a1
        a2 = accel(t + 0.5 * dt, advance(x, v, 0.5 * dt), v2)
        v3 = v + 0.5 * dt * a2
        a3 = accel(t + 0.5 * dt, advance(x, v2, 0.5 * dt), v3)
        v4 = v + dt * a3
        a4 = accel(t + dt, advance(x, v3, dt), v4)
        x = advance(x, (v + 2.0 * v2 + 2.0 * v3 + v4) / 6.0, dt)
        v = v + dt * (a1 + 2.0 * a2 + 2.0 * a3 + a4) / 6.0
        xs.append(x)
        vs.append(v)
    t = dt * np.arange(steps + 1)
    return t, np.stack(xs, -2), np.stack(vs, -2)


def _steps(dt, steps) -> tuple[float, int]:
    dt = float(as_scalar_array(dt, "dt"))
    if dt <= 0:
        raise ValueError(f"dt must be > 0, got {dt}")
    if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 0:
        raise ValueError(f"steps must be a non-negative int, got {steps!r}")
    return dt, int(steps)


def _forces(tau, t, q, qd):
    """``tau`` evaluated: a constant array, a callable ``tau(t, q, qd)``, or None."""
    return tau(t, q, qd) if callable(tau) else tau


def simulate_closed_loop(
    model: Model,
    q0,
    qd0,
    dt: float,
    steps: int,
    tau=None,
    tau_loop=None,
    stabilization=None,
    method: str = "schur",
    position_tol: float = POSITION_TOL,
    velocity_tol: float = VELOCITY_TOL,
):
    """Integrate a closed-loop system in the implicit form with RK4 (§8.3, §8.5).

    Each stage solves :func:`loop_forward_dynamics`; positions advance through
    ``model.integrate`` (plain RK4 for joints whose positions are integrals of their velocity
    variables).  Without ``stabilization`` the loop-closure errors grow from round-off and
    truncation; with Baumgarte gains they decay (§8.3).

    Parameters
    ----------
    model : Model
    q0 : array_like, shape (..., nq)
    qd0 : array_like, shape (..., nv)
    dt : float
        Step (s).
    steps : int
    tau : array_like, shape (..., nv), or callable ``tau(t, q, qd)``, optional
        Tree-joint forces.
    tau_loop : array_like, optional
        Active loop-joint forces (constant).
    stabilization : (alpha, beta), optional
        Baumgarte gains, scalars or one pair per batch entry.
    method : str
        As :func:`loop_forward_dynamics`.
    position_tol, velocity_tol : float
        Bounds on the loop errors ``|δ|`` (m or rad) and ``|K q̇|`` (m/s or rad/s) along the
        trajectory, as :func:`loop_forward_dynamics`.  The stages are not checked one by one.

    Returns
    -------
    t : ndarray, shape (steps + 1,)
    q : ndarray, shape (..., steps + 1, nq)
    qd : ndarray, shape (..., steps + 1, nv)

    Raises
    ------
    ValueError
        If an input is invalid.

    Warns
    -----
    LoopConstraintWarning
        Once, after the run, if some state of the trajectory (the initial one included) leaves
        a loop open by more than ``position_tol`` or violates ``K q̇ = 0`` by more than
        ``velocity_tol``: an unstabilized simulation drifting too far, gains too stiff for the
        step, or an inconsistent start.
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    q0, qd0, _, _ = model.check_state(q0, qd0)
    dt, steps = _steps(dt, steps)
    gains = _gains(stabilization)
    tolerances = _tolerances(position_tol, velocity_tol)
    zeros = np.zeros(model.nv)

    def accel(t, q, qd):
        tau_t = _forces(tau, t, q, qd)
        q, qd, _, tau_t = model.check_state(q, qd, None, zeros if tau_t is None else tau_t)
        return _forward_dynamics(
            model, q, qd, tau_t, tau_loop, None, gains, method, None, 1e-10, None
        )[0]

    t, q, qd = _rk4(accel, model.integrate, q0, qd0, dt, steps)
    K, _, delta = _constraints(model, q, qd, None)
    _warn_if_violated(model, delta, _mv(K, qd), *tolerances, "simulate_closed_loop", 2, True)
    return t, q, qd


def simulate_reduced(
    model: Model, closure: LoopClosure, y0, yd0, dt: float, steps: int, tau=None, tau_loop=None
):
    """Integrate the explicit form in ``(y, ẏ)`` with RK4 (§8.11): the loops stay closed.

    Parameters
    ----------
    model : Model
    closure : LoopClosure
    y0, yd0 : array_like, shape (..., ny)
    dt : float
    steps : int
    tau : array_like, shape (..., nv), or callable ``tau(t, q, qd)``, optional
        Tree-joint forces (``q = γ(y)``, ``qd = G ẏ``).
    tau_loop : array_like, optional

    Returns
    -------
    t : ndarray, shape (steps + 1,)
    y : ndarray, shape (..., steps + 1, ny)
    yd : ndarray, shape (..., steps + 1, ny)
        ``q = closure.gamma(y)``.

    Raises
    ------
    ValueError
        If an input is invalid or the motion reaches a configuration where the closure fails.
    """
    if not isinstance(closure, LoopClosure):
        raise ValueError(f"closure must be a LoopClosure, got {closure!r}")
    y0 = as_array(y0, "y0", (closure.ny,))
    yd0 = as_array(yd0, "yd0", (closure.ny,))
    dt, steps = _steps(dt, steps)

    def accel(t, y, yd):
        q, G, g = closure.jacobians(y, yd)
        tau_t = _forces(tau, t, q, _mv(G, yd))
        return _reduced(model, q, G, g, yd, tau_t, tau_loop, None)

    return _rk4(accel, lambda y, yd, h: y + h * yd, y0, yd0, dt, steps)
