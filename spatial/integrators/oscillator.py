"""A linear mass–spring–damper system: the test problem of every integrator (ArtiSynth §0.9).

``M ẍ = -K_s x - C ẋ`` with constant symmetric matrices: ``M`` positive definite, the
stiffness ``K_s`` and the damping ``C`` positive semi-definite.  In the sign convention of
:mod:`spatial.forces` the force Jacobians are ``K = ∂f/∂x = -K_s`` and ``D = ∂f/∂ẋ = -C``.
One degree of freedom with mass ``m``, stiffness ``k`` and no damping oscillates at
``ω = √(k/m)`` with the energy ``½ m ẋ² + ½ k x²`` conserved: every claim about an integrator's
accuracy, stability or energy behaviour on such a system can be checked against that closed
form.  It has a constant mass matrix and forces of the position alone, the case in which the
symplectic schemes keep the energy error bounded; what it shows about energy does not carry over
to a mechanism whose mass matrix depends on its configuration (:mod:`.explicit`).

Because every stepper is linear on this system, one step is a matrix acting on the state
``(x, ẋ)``; :meth:`LinearOscillator.step_matrix` builds it by stepping the unit states, and its
eigenvalues are the amplification factors whose moduli say whether the scheme damps
(< 1), conserves (= 1) or blows up (> 1).
"""

from __future__ import annotations

import numpy as np

from .._batched import mv as _mv
from .._validate import as_array, as_scalar_array, real_array
from ..se3 import frame
from .steppers import step

__all__ = ["LinearOscillator"]


def _matrix(x, name: str, n: int | None, definite: bool) -> np.ndarray:
    """A symmetric ``n x n`` matrix from a number or an array, positive (semi-)definite."""
    a = as_scalar_array(x, name)
    if a.ndim == 0:
        a = a * np.eye(1 if n is None else n)
    if a.ndim != 2 or a.shape[0] != a.shape[1] or (n is not None and a.shape[0] != n):
        raise ValueError(f"{name} must be a number or a square matrix matching mass, got {a.shape}")
    if not np.allclose(a, a.T, rtol=1e-12, atol=1e-12 * max(1.0, np.abs(a).max())):
        raise ValueError(f"{name} must be symmetric")
    low = np.linalg.eigvalsh(a).min()
    if low <= 0 if definite else low < -1e-12 * max(1.0, np.abs(a).max()):
        kind = "positive definite" if definite else "positive semi-definite (>= 0)"
        raise ValueError(f"{name} must be {kind}, got smallest eigenvalue {low:g}")
    return a


class LinearOscillator:
    """``M ẍ = -K_s x - C ẋ``: a smooth system with exact force Jacobians.

    Implements :class:`~spatial.systems.SmoothSystem` and the
    :class:`~spatial.integrators.ForceJacobians` hook.  The coordinates are flat
    (``integrate`` adds), and each degree of freedom is drawn as a point moving along x.

    Parameters
    ----------
    mass : float or array_like (n, n)
        ``M``, symmetric positive definite.
    stiffness : float or array_like (n, n)
        ``K_s`` (N/m), symmetric positive semi-definite.
    damping : float or array_like (n, n)
        ``C`` (N s/m), symmetric positive semi-definite; default 0.

    Raises
    ------
    ValueError
        If a matrix is not symmetric, has the wrong size or the wrong definiteness (a
        negative stiffness or damping).

    Examples
    --------
    >>> from spatial.integrators import LinearOscillator
    >>> osc = LinearOscillator(2.0, 8.0)
    >>> round(float(osc.omega[0]), 12)
    2.0
    """

    def __init__(self, mass=1.0, stiffness=1.0, damping=0.0):
        self.M = _matrix(mass, "mass", None, definite=True)
        n = self.M.shape[0]
        self.stiffness = _matrix(stiffness, "stiffness", n, definite=False)
        self.damping = _matrix(damping, "damping", n, definite=False)

    NB = property(lambda self: self.M.shape[0])
    nq = nv = NB

    @property
    def omega(self) -> np.ndarray:
        """Undamped natural frequencies ``√eig(M⁻¹ K_s)`` (rad/s), ascending."""
        L = np.linalg.cholesky(self.M)
        Li = np.linalg.inv(L)
        return np.sqrt(np.clip(np.linalg.eigvalsh(Li @ self.stiffness @ Li.T), 0.0, None))

    def check_state(self, q, v):
        q = as_array(q, "x", (self.nq,))
        v = as_array(v, "xd", (self.nv,))
        batch = np.broadcast_shapes(q.shape[:-1], v.shape[:-1])
        return np.broadcast_to(q, batch + q.shape[-1:]), np.broadcast_to(v, batch + v.shape[-1:])

    def integrate(self, q, v, dt):
        return q + dt * v

    def difference(self, q0, q1):
        return q1 - q0

    def mass_matrix(self, q=None):
        return self.M

    def forces(self, q, v) -> np.ndarray:
        """``f = -K_s x - C ẋ``."""
        return -_mv(self.stiffness, q) - _mv(self.damping, v)

    def accelerations(self, t, q, v):
        return np.linalg.solve(self.M, self.forces(q, v)[..., None])[..., 0]

    def force_jacobians(self, t, q, v):
        """``(f, K, D) = (-K_s x - C ẋ, -K_s, -C)``."""
        return self.forces(q, v), -self.stiffness, -self.damping

    def energy(self, q, v):
        kinetic = 0.5 * np.einsum("...i,ij,...j->...", v, self.M, v)
        return kinetic, 0.5 * np.einsum("...i,ij,...j->...", q, self.stiffness, q)

    def poses(self, q):
        q = real_array(q, "q")
        T = np.broadcast_to(frame(np.eye(3), np.zeros(3)), q.shape + (4, 4)).copy()
        T[..., 0, 3] = q
        return T

    def step_matrix(self, integrator: str, h: float) -> np.ndarray:
        """The ``2n x 2n`` matrix of one step of ``integrator`` on the state ``(x, ẋ)``.

        Built by stepping the ``2n`` unit states (every stepper is linear here), so it is an
        independent view of the scheme: its eigenvalues are the amplification factors.

        Raises
        ------
        ValueError
            For an unknown integrator or ``h <= 0``.
        """
        n = self.NB
        E = np.eye(2 * n)
        out = step(self, 0.0, E[:, :n], E[:, n:], h, integrator=integrator)
        return np.concatenate([out.q, out.v], axis=-1).T

    def __repr__(self) -> str:
        return f"LinearOscillator(n={self.NB})"
