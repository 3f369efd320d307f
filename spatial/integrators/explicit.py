"""Explicit steppers: symplectic Euler and the classical Runge–Kutta method (ArtiSynth §0.9.1).

Both need nothing but the forward dynamics of a smooth system, ``v̇ = a(t, q, v)``
(:class:`~spatial.systems.SmoothSystem`), and both move the configuration only through the
system's ``integrate(q, v, dt)``, so a quaternion stays on the unit sphere and a frame stays
rigid whatever the step.

Symplectic (semi-implicit) Euler, ArtiSynth §0.9.1 and Sueda eq. 1.29, updates the velocity
first with the force of the old state and then moves the position with the *new* velocity::

    v⁺ = v + h M⁻¹ f(q, v) = v + h a(t, q, v),      q⁺ = q ⊕ h v⁺.

It is first-order accurate, but for a conservative mechanical system it is symplectic: it
exactly conserves a perturbed energy, so the energy error oscillates at O(h) and does not
drift however long the run.

The classical fourth-order Runge–Kutta method samples the acceleration four times per step
(start, twice in the middle, end) and averages them with the weights 1, 2, 2, 1; the position
moves along the same weighted average of the stage velocities.  It is fourth-order accurate but
not symplectic: for a conservative system its energy drifts slowly (it dissipates).
"""

from __future__ import annotations

from ..systems import SmoothSystem, Step

__all__: list[str] = []  # the kernels are reached through spatial.integrators.step / STEPPERS


def _symplectic_euler(system: SmoothSystem, t: float, q, v, h: float, options: dict) -> Step:
    """Symplectic Euler (ArtiSynth §0.9.1): the velocity first, then the position with it."""
    v_next = v + h * system.accelerations(t, q, v, **options)
    return Step(system.integrate(q, v_next, h), v_next, h)


def _rk4(system: SmoothSystem, t: float, q, v, h: float, options: dict) -> Step:
    """One classical Runge–Kutta step for ``q̇ = v``, ``v̇ = a(t, q, v)`` (positions by ⊕)."""
    a1 = system.accelerations(t, q, v, **options)
    v2 = v + 0.5 * h * a1
    a2 = system.accelerations(t + 0.5 * h, system.integrate(q, v, 0.5 * h), v2, **options)
    v3 = v + 0.5 * h * a2
    a3 = system.accelerations(t + 0.5 * h, system.integrate(q, v2, 0.5 * h), v3, **options)
    v4 = v + h * a3
    a4 = system.accelerations(t + h, system.integrate(q, v3, h), v4, **options)
    q_next = system.integrate(q, (v + 2.0 * v2 + 2.0 * v3 + v4) / 6.0, h)
    return Step(q_next, v + h * (a1 + 2.0 * a2 + 2.0 * a3 + a4) / 6.0, h)
