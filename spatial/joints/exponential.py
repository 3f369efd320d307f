"""Spherical joint in exponential coordinates (Sueda §2.4.8).

Three numbers ``r`` (a rotation vector) describe the child's orientation as
``R = exp([r])``: a turn by ``φ = |r|`` about ``r/φ`` (Rodrigues' formula, Sueda eq. 1.10).  In
Featherstone's form ``X_J = rot(Rᵀ)``.  Sueda obtains the motion subspace from the partial
derivatives of ``R`` (eqs. 2.43–2.44, Gallego and Yezzi); they collapse to the transpose of the
left Jacobian of SO(3),

    ``S = [V(r)ᵀ; 0]``,  ``V(r) = 1 + B(φ)[r] + C(φ)[r]²``,
    ``B = (1 - cos φ)/φ²``,  ``C = (φ - sin φ)/φ³``

(see :func:`spatial.rotvec_dR`), so that ``ω = V(r)ᵀ ṙ`` in child coordinates.  With
``α = ṙ``, the velocity-product term ``c_J = (d/dt Vᵀ) ṙ`` follows by differentiating
``Vᵀ = 1 - B[r] + C[r]²`` along ``ṙ``; the terms with ``ṙ × ṙ`` drop out and

    ``c_J = -Ḃ (r × ṙ) + Ċ r × (r × ṙ) + C ṙ × (r × ṙ)``,
    ``Ḃ = (B'(φ)/φ)(rᵀṙ)``,  ``Ċ = (C'(φ)/φ)(rᵀṙ)``.

(This is derived here rather than copied from Sueda's ``Ṡ``; the finite-difference tests check
it.)  ``S`` is singular on the spheres ``|r| = 2πn`` (``det V = 2(1 - cos φ)/φ²``): there
``V = u uᵀ`` (``u = r/φ``), so rates perpendicular to ``r`` do not turn the body
at all.  Sueda's remedy is to switch, once ``|r|`` passes ``π``, to the equivalent vector
``(1 - 2π/|r|) r`` of length ``2π - |r|`` and map ``ṙ`` so that the angular velocity is
unchanged: :meth:`SphericalExp.reparameterize`.
"""

from __future__ import annotations

import numpy as np

from .._batched import rot as _rotation_transform  # rot(E), unvalidated (Table 2.2)
from .._validate import as_array
from ..rotations import rotvec_reparameterize
from ..se3 import (
    _one_minus_cos_over_t2,
    _sinc,
    _so3_left_jacobian,
    _t_minus_sin_over_t3,
    _taylor_or,
)
from ..vectors import skew
from .base import Joint, _batch_shape, _finite_scalar

__all__ = ["SphericalExp"]


def _b_rate(phi: np.ndarray) -> np.ndarray:
    """``B'(φ)/φ = (φ sin φ - 2(1 - cos φ))/φ⁴`` for ``B = (1 - cos φ)/φ²``."""
    return _taylor_or(
        phi,
        (-1 / 12, 1 / 180, -1 / 6720, 1 / 453600, -1 / 47900160),
        lambda t: (t * np.sin(t) - 2.0 * (1.0 - np.cos(t))) / t**4,
    )


def _c_rate(phi: np.ndarray) -> np.ndarray:
    """``C'(φ)/φ = (φ(1 - cos φ) - 3(φ - sin φ))/φ⁵`` for ``C = (φ - sin φ)/φ³``."""
    return _taylor_or(
        phi,
        (-1 / 60, 1 / 1260, -1 / 60480, 1 / 4989600, -1 / 622702080),
        lambda t: (t * (1.0 - np.cos(t)) - 3.0 * (t - np.sin(t))) / t**5,
    )


class SphericalExp(Joint):
    """Spherical joint whose position variables are a rotation vector (Sueda §2.4.8).

    ``q = r`` with ``R = exp([r])`` the active rotation of F_s relative to F_p, so
    ``X_J = rot(Rᵀ)``; ``α = ṙ``; ``S = [V(r)ᵀ; 0]`` (Sueda eq. 2.44, ``V`` the left Jacobian
    of SO(3)) and ``c_J = [(d/dt V(r)ᵀ) ṙ; 0]`` (see the module docstring for its closed form).

    ``S`` loses rank on the spheres ``|r| = 2πn``, ``n ≥ 1``: :meth:`check_q` raises
    ``ValueError`` when ``det S = 2(1 - cos|r|)/|r|² < singularity_tol``.  A simulation keeps
    away from them by calling :meth:`reparameterize` (e.g. after every step) once ``|r| > π``:
    it returns the equivalent vector of length ``≤ π`` and the matching ``ṙ``.

    Parameters
    ----------
    singularity_tol : float
        Threshold on ``det S`` below which a configuration is rejected (default 1e-6).

    Raises
    ------
    ValueError
        If ``singularity_tol`` is negative or not finite.
    """

    nq = 3
    nv = 3

    def __init__(self, singularity_tol: float = 1e-6):
        self.singularity_tol = _finite_scalar(singularity_tol, "singularity_tol")
        if self.singularity_tol < 0:
            raise ValueError(f"singularity_tol must be ≥ 0, got {singularity_tol!r}")

    def transform(self, q):
        # E = Rᵀ = exp(-[r]) = 1 - sinc(φ)[r] + B(φ)[r]² (Rodrigues)
        phi = np.linalg.norm(q, axis=-1)[..., None, None]
        W = skew(q)
        E = np.eye(3) - _sinc(phi) * W + _one_minus_cos_over_t2(phi) * (W @ W)
        return _rotation_transform(E)

    def motion_subspace(self, q):
        S3 = _so3_left_jacobian(-q)  # V(r)ᵀ = V(-r)
        return np.concatenate([S3, np.zeros(S3.shape)], -2)

    def bias(self, q, qd):
        q, qd = np.broadcast_arrays(q, qd) if _batch_shape(q, qd) else (q, qd)
        phi = np.linalg.norm(q, axis=-1)[..., None]
        rate = np.sum(q * qd, axis=-1, keepdims=True)  # rᵀṙ = φ φ̇
        r_x_rd = np.cross(q, qd)
        c = (
            -_b_rate(phi) * rate * r_x_rd
            + _c_rate(phi) * rate * np.cross(q, r_x_rd)
            + _t_minus_sin_over_t3(phi) * np.cross(qd, r_x_rd)
        )
        return np.concatenate([c, np.zeros(c.shape)], -1)

    def reparameterize(self, q, qd=None):
        """Equivalent position (and velocity) variables with ``|r| ≤ π`` (Sueda §2.4.8).

        Vectors longer than ``π`` are replaced by the same rotation about the reversed axis,
        ``r' = (1 - 2πn/|r|) r`` with ``n`` the nearest integer to ``|r|/2π``; shorter ones are
        returned unchanged.  Given ``ṙ``, the new rate ``ṙ'`` gives the same angular velocity,
        ``S(r') ṙ' = S(r) ṙ``, so a simulation continues smoothly through the switch
        (:func:`spatial.rotvec_reparameterize`).

        Parameters
        ----------
        q : array_like, shape (..., 3)
        qd : array_like, shape (..., 3), optional

        Returns
        -------
        ndarray, shape (..., 3), or the tuple ``(q', q̇')`` when ``qd`` is given.

        Raises
        ------
        ValueError
            If an input is not a finite (..., 3) array.
        """
        return rotvec_reparameterize(q, qd)

    def random_configuration(self, rng, shape=()):
        shape = tuple(shape)
        direction = rng.standard_normal(shape + (3,))
        direction /= np.linalg.norm(direction, axis=-1, keepdims=True)
        return rng.uniform(0.0, np.pi, size=shape + (1,)) * direction

    def check_q(self, q, name="q"):
        q = as_array(q, name, (3,))
        det = 2.0 * _one_minus_cos_over_t2(np.linalg.norm(q, axis=-1))
        worst = det.min(initial=np.inf)
        if worst < self.singularity_tol:
            raise ValueError(
                f"{name} is at a singularity of the exponential coordinates: det S = "
                f"{worst:.3g} < {self.singularity_tol:g} (|r| = 2πn, Sueda §2.4.8); call "
                f"SphericalExp.reparameterize to switch to the equivalent |r| ≤ π"
            )

    def __repr__(self) -> str:
        return f"SphericalExp(singularity_tol={self.singularity_tol!r})"
