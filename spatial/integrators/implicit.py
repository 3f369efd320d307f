"""Linearly implicit steppers: backward Euler, trapezoidal rule, Bridson–Marino (ArtiSynth §0.9).

All three solve one linear system per step built from the mass matrix ``M`` and the force
Jacobians ``K = ∂f/∂q``, ``D = ∂f/∂v`` (the :class:`~spatial.integrators.ForceJacobians` hook;
signs as in :mod:`spatial.forces`, so a spring's ``K`` and a damper's ``D`` are negative
semi-definite).  The configuration always moves by the system's ``integrate``.

Implicit (backward) Euler, §0.9.2
---------------------------------
Backward Euler evaluates the force at the *end* of the step, ``M v⁺ = M v + h f(q⁺, v⁺)``
with ``q⁺ = q ⊕ h v⁺``.  Linearizing ``f(q⁺, v⁺) ≈ f + K (h v⁺) + D (v⁺ - v)`` and collecting
``v⁺`` gives one linear solve with ``M̂ = M - h D - h² K``.  The right-hand side can be
written in two ways, which give the same ``v⁺`` up to round-off:

* the f̂ form, ``M̂ v⁺ = M v + h f̂`` with ``f̂ = f - D v``;
* the f̃ form, ``M̂ v⁺ = M̂ v + h f̃`` with ``f̃ = f + h K v`` (it solves for the *change*
  ``v⁺ - v = h M̂⁻¹ f̃``, convenient when constraints act on the increment).

Expanding ``M̂ v + h f̃ = M v - h D v - h² K v + h f + h² K v`` shows the two are equal.
First order; for ``m ẍ = -k x`` each step multiplies the state by a matrix whose eigenvalues
have modulus ``1/√(1 + h²ω²)`` < 1 (artificial damping, never unstable).

Trapezoidal rule, §0.9.3
------------------------
The average of the start and end forces, ``M v⁺ = M v + (h/2)(f + f(q⁺, v⁺))`` and
``q⁺ = q ⊕ (h/2)(v + v⁺)``.  Linearizing as above with ``q⁺ - q = (h/2)(v + v⁺)`` gives
``M̂ = M - (h/2) D - (h²/4) K`` and ``M̂ v⁺ = (M - (h/2) D + (h²/4) K) v + h f``, i.e.

* f̂ form: ``M̂ v⁺ = M v + h f̂``, ``f̂ = f - ½ D v + (h/4) K v``;
* f̃ form: ``M̂ v⁺ = M̂ v + h f̃``, ``f̃ = f + (h/2) K v``.

(The notes print ``h²/4`` in f̂; the factor is ``h/4``, see notebook 16.)  Second order, and for
a linear undamped oscillator the step is a Cayley transform: energy is conserved to round-off.

Bridson–Marino, §0.9.4
----------------------
A half step with the start force, the position with that half-step velocity, then the velocity
with the average of the start force and the force at the new position (and the *old*
velocity), the damping treated implicitly by ``M - (h/2) D``::

    (M - (h/2) D) v½ = (M - (h/2) D) v + (h/2) f(q, v)
    q⁺ = q ⊕ h v½,         f' = f(q⁺, v)
    (M - (h/2) D) v⁺ = (M - (h/2) D) v + (h/2) (f + f')

No stiffness ``K`` is needed.  Without damping it is velocity Verlet (leapfrog): second order,
and symplectic for a constant mass matrix and forces of the position alone (a separable
Hamiltonian); with a configuration-dependent mass matrix or velocity-dependent forces (``f'``
takes the old velocity) it is not, and its energy error is not bounded (as for symplectic Euler,
:mod:`~spatial.integrators.explicit`).  With damping it stays second order
(``(M - (h/2)D)(v⁺ - v)`` is the trapezoidal average of the damping force).  The notes claim
no order; the tests measure 2.  Here ``f'`` is ``M(q) a(q⁺, v)``, the mass matrix frozen at the
start like ``f`` (see
:mod:`~spatial.integrators.jacobians`).
"""

from __future__ import annotations

import numpy as np

from .._batched import mv as _mv
from ..systems import Step

__all__: list[str] = []  # the kernels are reached through spatial.integrators.step / STEPPERS


def _solve(A: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``A⁻¹ b`` for batched ``A (..., n, n)`` and ``b (..., n)``."""
    batch = np.broadcast_shapes(A.shape[:-2], b.shape[:-1])
    A = np.broadcast_to(A, batch + A.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-1:])
    return np.linalg.solve(A, b[..., None])[..., 0]


def _flat(x: np.ndarray, n: int) -> tuple[np.ndarray, tuple]:
    """``x`` with its velocity dimensions flattened to ``n`` (maximal twists are ``(N, 6)``)."""
    k = 1
    while int(np.prod(x.shape[x.ndim - k :])) != n:
        k += 1
    return x.reshape(x.shape[: x.ndim - k] + (n,)), x.shape[x.ndim - k :]


def _terms(system, t: float, q, v, options: dict):
    """``M``, ``f``, ``K``, ``D`` at the start of a step, ``v`` flat, and ``v``'s own shape."""
    f, K, D = system.force_jacobians(t, q, v, **options)
    M = system.mass_matrix(q)
    v_flat, core = _flat(v, M.shape[-1])
    return M, f, K, D, v_flat, core


def _unflat(x: np.ndarray, core: tuple) -> np.ndarray:
    return x.reshape(x.shape[:-1] + core)


def _implicit_euler(system, t: float, q, v, h: float, options: dict, form: str = "hat") -> Step:
    """Linearized backward Euler in the f̂ (``form="hat"``) or f̃ (``"tilde"``) form."""
    M, f, K, D, v, core = _terms(system, t, q, v, options)
    M_hat = M - h * D - h * h * K
    if form == "hat":
        rhs = _mv(M, v) + h * (f - _mv(D, v))
    else:
        rhs = _mv(M_hat, v) + h * (f + h * _mv(K, v))
    v_next = _unflat(_solve(M_hat, rhs), core)
    return Step(system.integrate(q, v_next, h), v_next, h)


def _trapezoidal(system, t: float, q, v, h: float, options: dict, form: str = "hat") -> Step:
    """The linearized trapezoidal rule in the f̂ or f̃ form (module docstring)."""
    M, f, K, D, v, core = _terms(system, t, q, v, options)
    M_hat = M - 0.5 * h * D - 0.25 * h * h * K
    if form == "hat":
        rhs = _mv(M, v) + h * (f - 0.5 * _mv(D, v) + 0.25 * h * _mv(K, v))
    else:
        rhs = _mv(M_hat, v) + h * (f + 0.5 * h * _mv(K, v))
    v_next = _solve(M_hat, rhs)
    return Step(system.integrate(q, _unflat(0.5 * (v + v_next), core), h), _unflat(v_next, core), h)


def _bridson_marino(system, t: float, q, v0, h: float, options: dict) -> Step:
    """Bridson–Marino: half step, position, then the averaged force (module docstring)."""
    M, f, _, D, v, core = _terms(system, t, q, v0, options)
    A = M - 0.5 * h * D
    v_half = v + _solve(A, 0.5 * h * f)
    q_next = system.integrate(q, _unflat(v_half, core), h)
    a_new, _ = _flat(system.accelerations(t + h, q_next, v0, **options), M.shape[-1])
    v_next = v + _solve(A, 0.5 * h * (f + _mv(M, a_new)))
    return Step(q_next, _unflat(v_next, core), h)
