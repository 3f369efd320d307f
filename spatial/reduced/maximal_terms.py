"""The bodies as if free: the maximal mass matrix ``M_m`` and force ``f_m`` (Sueda eq. 1.21, §2.3).

In maximal coordinates every body of the tree is a free rigid body with its own twist
``φ_i = [ω_i; v_i]`` in body coordinates.  Its Newton–Euler equation (Sueda eq. 1.21,
Featherstone eq. 2.72 in body coordinates) reads ``I_i φ̇_i = f_i``: the body's spatial
inertia times the rate of its body twist equals the force acting on it, *including* the
velocity-product (Coriolis) wrench ``-φ_i ×* I_i φ_i = (φ_i ×)ᵀ I_i φ_i``.  (In body
coordinates ``φ̇_i`` is Featherstone's spatial acceleration ``a_i``: the frame moves with the
body, and ``d/dt(^iX_0 v) = a_i - v_i × v_i = a_i``.)

Stacking the bodies gives ``M_m φ̇ = f_m`` with the block-diagonal ``M_m = diag(I_1 … I_NB)``
and, per body,

    f_m,i = (φ_i ×)ᵀ I_i φ_i + I_i ^iX_0 a_g + ^iX_0* f^x_i,

the Coriolis wrench, the weight (``a_g = [0; g]`` carried into body coordinates) and any
external force given in base coordinates.  Sign convention: ``f_m`` is on the force side, so
``M_m φ̇ = f_m`` holds for bodies that are not jointed; the joints' constraint forces are what
REDMAX removes by projecting with ``J_mrᵀ`` (:mod:`spatial.reduced.redmax`).
"""

from __future__ import annotations

import numpy as np

from .._batched import T as _T
from .._batched import apply_force, crm_matrix, mv
from .._validate import broadcast_batch as _batch_shape
from ..dynamics.rnea import _check_f_ext
from ..kinematics import _forward_pass
from ..model import Model

__all__ = ["maximal_mass_matrix", "maximal_bias"]


# ----------------------------------------------------------------------------- kernels


def _inertias(model: Model) -> np.ndarray:
    """The body inertias ``I_1 … I_NB`` stacked, (NB, 6, 6).

    Floats, unless the model holds symbolic inertias (object arrays, as
    :func:`spatial.cost.redmax_cost` uses to count operations), which are kept as they are.
    """
    stacked = np.stack([np.asarray(model.inertia[i]) for i in range(1, model.NB + 1)])
    return stacked if stacked.dtype == object else stacked.astype(float)


def _apply_mass(model: Model, A: np.ndarray) -> np.ndarray:
    """``M_m A`` for ``A`` (..., 6 NB, k) without forming ``M_m``: each row block times ``I_i``."""
    blocks = A.reshape(A.shape[:-2] + (model.NB, 6, A.shape[-1]))
    return (_inertias(model) @ blocks).reshape(A.shape)


def _maximal_bias(model: Model, fp, f_ext) -> np.ndarray:
    """``f_m`` (..., 6 NB) from a forward pass with velocities (eq. 1.21 per body)."""
    batch = (
        fp.v[0].shape[:-1]
        if f_ext is None
        else np.broadcast_shapes(fp.v[0].shape[:-1], f_ext.shape[:-2])
    )
    f_m = np.zeros(batch + (6 * model.NB,), dtype=fp.v[1].dtype)  # object if symbolic
    for i in range(1, model.NB + 1):
        I, v, X0 = model.inertia[i], fp.v[i], fp.X0[i]
        f_i = mv(_T(crm_matrix(v)), mv(I, v)) + mv(I, mv(X0, model.a_grav))
        if f_ext is not None:
            f_i = f_i + apply_force(X0, f_ext[..., i, :])
        f_m[..., 6 * (i - 1) : 6 * i] = f_i
    return f_m


# ----------------------------------------------------------------------------- public API


def maximal_mass_matrix(model: Model) -> np.ndarray:
    """Block-diagonal maximal mass matrix ``M_m = diag(I_1, …, I_NB)`` (Sueda §2.3).

    Parameters
    ----------
    model : Model

    Returns
    -------
    M_m : ndarray, shape (6 NB, 6 NB)
        Body ``i``'s spatial inertia (in its own coordinates) at rows and columns
        ``6(i-1) : 6i``; it does not depend on the configuration.

    Examples
    --------
    >>> import spatial as sp
    >>> from spatial.builders import double_pendulum
    >>> sp.reduced.maximal_mass_matrix(double_pendulum()).shape
    (12, 12)
    """
    return _apply_mass(model, np.eye(6 * model.NB))


def maximal_bias(model: Model, q, qd, f_ext=None) -> np.ndarray:
    """Maximal force ``f_m`` with ``M_m φ̇ = f_m`` for the bodies taken as free (Sueda eq. 1.21).

    Body ``i``'s block is ``(φ_i ×)ᵀ I_i φ_i + I_i ^iX_0 a_g + ^iX_0* f^x_i`` in body
    coordinates: Coriolis wrench, weight and external force.  It sits on the *force* side
    (applied forces minus nothing); joint forces ``τ`` are not included (they act in reduced
    coordinates, :func:`~spatial.reduced.redmax_force`).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External force on each body in base coordinates; row 0 (the base) must be zero.

    Returns
    -------
    f_m : ndarray, shape (..., 6 NB)

    Raises
    ------
    ValueError
        If a state array has the wrong shape, is not finite or not a valid configuration, or
        ``f_ext`` has the wrong shape or a nonzero row 0, or the batch shapes do not
        broadcast.
    """
    q, qd, _, _ = model.check_state(q, qd)
    f_ext = _check_f_ext(model, f_ext)
    _batch_shape(q=(q, 1), qd=(qd, 1), f_ext=(f_ext, 2))
    return _maximal_bias(model, _forward_pass(model, q, qd), f_ext)
