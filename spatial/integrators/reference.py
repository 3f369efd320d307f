"""Reference solutions by an adaptive integrator (``scipy.integrate.solve_ivp``).

To measure the error of a fixed-step scheme one needs a solution far more accurate than the
scheme: this module hands the first-order form ``(q̇, v̇) = (q̇(q, v), a(t, q, v))`` of a smooth
system to SciPy's adaptive Runge–Kutta or implicit integrators with tight tolerances.

SciPy integrates flat vectors, so the configuration is integrated in its own coordinates with
``q̇`` from the system: ``model.q_dot(q, v)`` for a tree (quaternion rates, Featherstone
§4.4), ``v`` itself for flat coordinates (where ``integrate`` adds), else the central
difference ``(integrate(q, v, ε) - integrate(q, v, -ε)) / 2ε`` with ``ε = 1e-5`` (error about
1e-10).  A quaternion integrated this way leaves the unit sphere only by about the solver's
tolerance.

SciPy is imported when the function runs, so ``import spatial`` stays light.
"""

from __future__ import annotations

import numpy as np

from .._validate import positive_scalar
from ..systems import SmoothSystem, TreeSystem, as_system

__all__ = ["reference_solution"]

_EPS = 1e-5  # difference step of q̇ for curved coordinates without a q_dot


def _rate(system, q0, v0):
    """``q̇(q, v)`` of ``system`` (see the module docstring)."""
    if isinstance(system, TreeSystem):
        return system.model.q_dot
    probe = np.linspace(0.5, 1.5, v0.shape[-1])
    if q0.shape == v0.shape and np.allclose(system.integrate(q0, probe, 1.0), q0 + probe, 0, 1e-14):
        return lambda q, v: v  # flat coordinates: integrate adds

    def rate(q, v):
        return (system.integrate(q, v, _EPS) - system.integrate(q, v, -_EPS)) / (2 * _EPS)

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
    times = np.asarray(times, dtype=float)
    if times.ndim != 1 or times.size == 0 or times[0] < 0 or np.any(np.diff(times) <= 0):
        raise ValueError("times must be a non-empty increasing 1-D array of times >= 0")
    rtol, atol = positive_scalar(rtol, "rtol"), positive_scalar(atol, "atol")
    nq = q0.shape[0]
    rate = _rate(system, q0, v0)

    def rhs(t, y):
        q, v = y[:nq], y[nq:]
        return np.concatenate([rate(q, v), system.accelerations(t, q, v, **options)])

    sol = solve_ivp(
        rhs,
        (0.0, float(times[-1])),
        np.concatenate([q0, v0]),
        method=method,
        t_eval=times,
        rtol=rtol,
        atol=atol,
    )
    if not sol.success:
        raise ValueError(f"solve_ivp failed: {sol.message}")
    q, v = sol.y[:nq].T, sol.y[nq:].T
    return q, v
