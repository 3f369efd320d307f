"""Explicit steppers: symplectic Euler and the classical Runge–Kutta method (ArtiSynth §0.9.1).

Both need nothing but the forward dynamics of a smooth system, ``v̇ = a(t, q, v)``
(:class:`~spatial.systems.SmoothSystem`), and both move the configuration only through the
system's ``integrate(q, v, dt)``, so a quaternion stays on the unit sphere and a frame stays
rigid whatever the step.

Symplectic (semi-implicit) Euler, ArtiSynth §0.9.1 and Sueda eq. 1.29, updates the velocity
first with the force of the old state and then moves the position with the *new* velocity::

    v⁺ = v + h M⁻¹ f(q, v) = v + h a(t, q, v),      q⁺ = q ⊕ h v⁺.

It is first-order accurate.  For a conservative system with a *constant mass matrix* and
forces that depend on the position alone (a separable Hamiltonian ``½ vᵀMv + V(q)``: springs,
a particle or a translating body in a potential, :class:`~spatial.integrators.LinearOscillator`)
it is symplectic: it exactly conserves a perturbed energy, so the energy error oscillates at
O(h) and does not drift however long the run.

Only then.  In joint coordinates the mass matrix depends on the configuration and the
accelerations carry velocity-product terms (Coriolis, centrifugal, gyroscopic); this
velocity-form update, with ``a`` taken at the old ``v``, is then not a symplectic map and nothing
bounds the energy error.  A torque-free rigid body on a ``Free`` joint shows it plainly: its
gyroscopic term ``c = v ×* M v`` does no work (``vᵀc = 0``), so every step changes the kinetic
energy by ``+½ h² cᵀM⁻¹c ≥ 0`` and the energy rises steadily, fastest for a body tumbling
about its intermediate axis (tests/test_integrators.py measures the rise; the maximal-coordinate
step of :mod:`spatial.maximal.dynamics` has the same gain).  Long runs of such systems that must
keep their energy need a smaller step or a higher-order scheme, and a look at the energy.

The classical fourth-order Runge–Kutta method samples the acceleration four times per step
(start, twice in the middle, end) and averages them with the weights 1, 2, 2, 1.  In flat
coordinates the position moves along the same weighted average of the stage velocities.  On a
curved configuration space (a quaternion joint, where ``q ⊕ v = q exp(v)`` and rotations do not
commute) that shortcut loses two orders: moving once along the averaged velocity is only
second-order accurate (measured on a spinning top: error ratio 4.0 per halving instead of 16).
So the positions follow the commutator-free fourth-order scheme of Celledoni, Marthinsen and
Owren, written for ``q ⊕ v``: the last stage starts from the first half-step stage,
``q₄ = q₂ ⊕ h(v₃ - ½v₁)``, and the step ends with two moves, the one weighted towards the
early stages first,

    q⁺ = (q ⊕ h(3v₁ + 2v₂ + 2v₃ - v₄)/12) ⊕ h(-v₁ + 2v₂ + 2v₃ + 3v₄)/12.

(The published method acts from the left, ``exp(·) y``; for the right action ``q exp(v)`` of
``integrate`` the two final moves swap their order, which the order test on the top confirms:
in the other order the error ratio per halving is 8 for one step, i.e. third order locally.)

In flat coordinates both reduce to the classical formulas (the two moves add up to the weights
1, 2, 2, 1 over 6), and the velocity update is the classical one.  RK4 is not symplectic: for a
conservative system its energy error is small (fourth order) but not bounded, and it accumulates
over a long run; on the linear oscillator it is a slow loss (``|R(iωh)| < 1``), on other systems
it may have either sign.
"""

from __future__ import annotations

from ..systems import SmoothSystem, Step

__all__: list[str] = []  # the kernels are reached through spatial.integrators.step / STEPPERS


def _symplectic_euler(system: SmoothSystem, t: float, q, v, h: float, options: dict) -> Step:
    """Symplectic Euler (ArtiSynth §0.9.1): the velocity first, then the position with it."""
    v_next = v + h * system.accelerations(t, q, v, **options)
    return Step(system.integrate(q, v_next, h), v_next, h)


def _rk4(system: SmoothSystem, t: float, q, v, h: float, options: dict) -> Step:
    """Fourth-order Runge–Kutta on the configuration manifold (commutator-free form, see above)."""
    v1, a1 = v, system.accelerations(t, q, v, **options)
    q2, v2 = system.integrate(q, v1, 0.5 * h), v + 0.5 * h * a1
    a2 = system.accelerations(t + 0.5 * h, q2, v2, **options)
    q3, v3 = system.integrate(q, v2, 0.5 * h), v + 0.5 * h * a2
    a3 = system.accelerations(t + 0.5 * h, q3, v3, **options)
    q4, v4 = system.integrate(q2, v3 - 0.5 * v1, h), v + h * a3
    a4 = system.accelerations(t + h, q4, v4, **options)
    first = system.integrate(q, (3.0 * v1 + 2.0 * v2 + 2.0 * v3 - v4) / 12.0, h)
    q_next = system.integrate(first, (-v1 + 2.0 * v2 + 2.0 * v3 + 3.0 * v4) / 12.0, h)
    return Step(q_next, v + h * (a1 + 2.0 * a2 + 2.0 * a3 + a4) / 6.0, h)
