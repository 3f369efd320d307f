"""Reference solutions by an adaptive integrator (``scipy.integrate.solve_ivp``).

To measure the error of a fixed-step scheme one needs a solution far more accurate than the
scheme: this module hands the first-order form of a smooth system, ``v̇ = a(t, q, v)`` with the
configuration moving along ``v``, to SciPy's adaptive Runge–Kutta or implicit integrators with
tight tolerances.

SciPy integrates flat vectors, but a configuration may be curved (a quaternion must stay on the
unit sphere, and a trial stage of an adaptive method would leave it).  So the configuration is
integrated in a *chart*: around a base point ``q_b`` write ``q = q_b ⊕ δ`` (``integrate(q_b, δ,
1)``) and integrate ``δ``, whose rate is ``d/dt difference(q_b, q ⊕ t v)`` at ``t = 0`` — taken
as a central difference with ``ε = 1e-5`` (error about 1e-10), or exactly ``v`` for flat
coordinates (where ``integrate`` adds).  The chart is re-centred at every output time and at
least every ``chart_step`` seconds, so ``δ`` stays small and every state the system sees is
valid.

SciPy is imported when the function runs, so ``import spatial`` stays light.
"""

from __future__ import annotations

import numpy as np

from .._validate import positive_scalar, real_array
from ..systems import SmoothSystem, as_system

__all__ = ["reference_solution"]

_EPS = 1e-5  # difference step of q̇ for curved coordinates without a q_dot


def _chart_rate(system, flat: bool):
    """``δ̇(q_b, δ, v)``: the rate of the chart coordinates (module docstring)."""
    if flat:
        return lambda base, delta, v: v

    def rate(base, delta, v):
        q = system.integrate(base, delta, 1.0)
        ahead = system.difference(base, system.integrate(q, v, _EPS))
        behind = system.difference(base, system.integrate(q, v, -_EPS))
        return (ahead - behind) / (2 * _EPS)

    return rate


def reference_solution(
    system,
    q0,
    v0,
    times,
    *,
    method: str = "DOP853",
    rtol: float = 1e-11,
    atol: float = 1e-12,
    chart_step: float = 0.01,
    **options,
) -> tuple[np.ndarray, np.ndarray]:
    """States of ``system`` at ``times`` by ``scipy.integrate.solve_ivp`` (tight tolerances).

    Parameters
    ----------
    system : SmoothSystem or Model
    q0, v0 : array_like
        One initial state (no batch dimensions).
    times : array_like, shape (n,)
        Increasing times >= 0 at which to report the state.
    method : str
        A ``solve_ivp`` method, default ``"DOP853"`` (8th order); ``"Radau"`` for stiff systems.
    rtol, atol : float
        Tolerances, > 0.
    chart_step : float
        Longest time (s) integrated in one chart, > 0.
    **options
        Passed to ``system.accelerations`` (e.g. ``tau=``).

    Returns
    -------
    q : ndarray, shape (n, nq)
    v : ndarray, shape (n, nv)

    Raises
    ------
    ValueError
        If the system is not smooth, the state is batched, the times are not increasing and
        >= 0, a tolerance is not > 0, or the solver fails.

    Examples
    --------
    >>> import numpy as np
    >>> from spatial.integrators import LinearOscillator, reference_solution
    >>> q, v = reference_solution(LinearOscillator(1.0, 4.0), [1.0], [0.0], [0.0, 1.0])
    >>> bool(abs(q[1, 0] - np.cos(2.0)) < 1e-10)
    True
    """
    from scipy.integrate import solve_ivp

    system = as_system(system)
    if not isinstance(system, SmoothSystem):
        raise ValueError(f"reference_solution needs a smooth system, got {type(system).__name__}")
    q0, v0 = system.check_state(q0, v0)
    if q0.ndim != 1 or v0.ndim != 1:
        raise ValueError(f"reference_solution takes one state, got q0 of shape {q0.shape}")
    times = real_array(times, "times")
    if (
        times.ndim != 1
        or times.size == 0
        or not np.all(np.isfinite(times))
        or times[0] < 0
        or np.any(np.diff(times) <= 0)
    ):
        raise ValueError("times must be a non-empty increasing 1-D array of finite times >= 0")
    rtol, atol = positive_scalar(rtol, "rtol"), positive_scalar(atol, "atol")
    chart_step = positive_scalar(chart_step, "chart_step")
    probe = np.linspace(0.5, 1.5, v0.shape[-1])
    flat = q0.shape == v0.shape and np.allclose(
        system.integrate(q0, probe, 1.0), q0 + probe, rtol=0, atol=1e-14
    )
    rate, nv = _chart_rate(system, flat), v0.shape[0]
    pieces = int(np.ceil(times[-1] / chart_step)) if times[-1] > 0 else 0
    grid = np.union1d(times, np.linspace(0.0, times[-1], pieces + 1))
    q, v, qs, vs = q0, v0, [], []
    for t0, t1 in zip(grid[:-1], grid[1:], strict=True):
        if np.isin(t0, times):
            qs.append(q)
            vs.append(v)
        base = q

        def rhs(t, y, base=base):
            delta, vel = y[:nv], y[nv:]
            here = system.integrate(base, delta, 1.0)
            acc = system.accelerations(t, here, vel, **options)
            return np.concatenate([rate(base, delta, vel), acc])

        sol = solve_ivp(
            rhs, (t0, t1), np.concatenate([np.zeros(nv), v]), method=method, rtol=rtol, atol=atol
        )
        if not sol.success:
            raise ValueError(f"solve_ivp failed: {sol.message}")
        q, v = system.integrate(base, sol.y[:nv, -1], 1.0), sol.y[nv:, -1]
    if len(qs) < len(times):  # the last time (or the only one, t = 0)
        qs.append(q)
        vs.append(v)
    return np.stack(qs), np.stack(vs)
