"""REDMAX equations of motion in reduced coordinates (Sueda §2.3, eq. 2.18).

The maximal equations ``M_m φ̇ = f_m + (joint constraint forces)`` hold for the bodies of the
tree taken one by one (:mod:`spatial.reduced.maximal_terms`).  Differentiating ``φ = J_mr q̇``
gives the accelerations ``φ̇ = J_mr q̈ + J̇_mr q̇`` (eq. 2.2).  Substituting, and multiplying
by ``J_mrᵀ`` — which removes the constraint forces, since they do no work on motions the joints
allow — leaves the reduced equations

    (J_mrᵀ M_m J_mr) q̈ = J_mrᵀ (f_m - M_m J̇_mr q̇) + τ,   i.e.  M_r q̈ = f_r   (eq. 2.18),

with the joint forces ``τ`` added directly in reduced coordinates (they are already the
generalized forces of ``q``).  ``M_r`` is Featherstone's joint-space inertia ``H`` and
``τ - f_r`` his bias force ``C``; the term ``-J_mrᵀ M_m J̇_mr q̇`` is the quadratic-velocity
force that the change of coordinates adds.  Solving the dense ``nv x nv`` system costs
``O(nv³)``; the recursive :func:`spatial.aba` does the same job in ``O(NB)``.

Only the product ``J̇_mr q̇`` enters ``f_r``, never ``J̇_mr`` itself, so it is not formed
(Alg. 2 would fill ``O(NB nv)`` entries to multiply them by one vector).  Applying Alg. 2's
recursion to the vector ``q̇`` gives, body by body,
``(J̇q̇)_i = ^iX_λ(i) (J̇q̇)_λ(i) - (v_J×) ^iX_λ(i) φ_λ(i) + Ṡ_i q̇_i``; with
``^iX_λ(i) φ_λ(i) = φ_i - v_J`` and ``Ṡ_i q̇_i = c_J`` this is
``(J̇q̇)_i = ^iX_λ(i) (J̇q̇)_λ(i) + φ_i × v_J + c_J`` — the body accelerations of a
forward pass with ``q̈ = 0`` (Featherstone eq. 5.7 without gravity), ``O(NB)``.  The tests
check it against :func:`~spatial.reduced.redmax_jacobian_dot` times ``q̇``.
"""

from __future__ import annotations

import numpy as np

from .._batched import T as _T
from .._validate import broadcast_batch as _batch_shape
from ..dynamics.rnea import _check_f_ext
from ..kinematics import _forward_pass
from ..model import Model
from .jacobian import _jacobian
from .maximal_terms import _apply_mass, _maximal_bias

__all__ = ["redmax_mass_matrix", "redmax_force", "redmax_forward_dynamics"]


# ----------------------------------------------------------------------------- kernels


def _mass_matrix(model: Model, J: np.ndarray) -> np.ndarray:
    """``M_r = J_mrᵀ M_m J_mr`` (eq. 2.18)."""
    return _T(J) @ _apply_mass(model, J)


def _redmax_pass(model: Model, q: np.ndarray, qd: np.ndarray):
    """The forward pass ``_force`` needs: velocities ``φ`` and accelerations at ``q̈ = 0``."""
    return _forward_pass(model, q, qd, np.zeros_like(qd))


def _force(model: Model, fp, J, q, qd, tau, f_ext) -> np.ndarray:
    """``f_r = J_mrᵀ (f_m - M_m J̇_mr q̇) + τ`` (eq. 2.18), (..., nv).

    ``fp`` comes from :func:`_redmax_pass`: its accelerations are ``J̇_mr q̇`` body by body.
    """
    batch = np.broadcast_shapes(*(fp.a[i].shape[:-1] for i in range(1, model.NB + 1)))
    a = [np.broadcast_to(fp.a[i], batch + (6,)) for i in range(1, model.NB + 1)]
    Jd_qd = np.concatenate(a, axis=-1)[..., None]
    rhs = _maximal_bias(model, fp, f_ext)[..., None] - _apply_mass(model, Jd_qd)
    f_r = (_T(J) @ rhs)[..., 0]
    return f_r if tau is None else f_r + tau


def _check(model: Model, q, qd, tau, f_ext, who: str):
    """Validate the state once (for ``who``); return it with the forward pass and ``J_mr``."""
    q, qd, _, tau = model.check_state(q, qd, None, tau, tree_dynamics=who)
    f_ext = _check_f_ext(model, f_ext)
    _batch_shape(q=(q, 1), qd=(qd, 1), tau=(tau, 1), f_ext=(f_ext, 2))
    fp = _redmax_pass(model, q, qd)
    return q, qd, tau, f_ext, fp, _jacobian(model, fp)


# ----------------------------------------------------------------------------- public API


def redmax_mass_matrix(model: Model, q) -> np.ndarray:
    """Reduced mass matrix ``M_r = J_mrᵀ M_m J_mr`` (Sueda eq. 2.18).

    Equal to the joint-space inertia matrix ``H`` of :func:`spatial.crba`.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    M_r : ndarray, shape (..., nv, nv)

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is not finite or not a valid configuration.  If the
        model has loop joints (:meth:`~spatial.Model.check_tree`): REDMAX closes loops with
        constraints (:func:`~spatial.reduced.constrained_forward_dynamics` on
        ``model.spanning_tree()``); pass ``model.spanning_tree()`` alone for the open tree's
        answer.

    Examples
    --------
    A point mass ``m`` on a massless rod of length ``l`` has ``M_r = m l²``:

    >>> import spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> M = sp.reduced.redmax_mass_matrix(simple_pendulum(length=2.0, mass=3.0), [0.4])
    >>> round(float(M[0, 0]), 12)
    12.0
    """
    q, _, _, _ = model.check_state(q, tree_dynamics="redmax_mass_matrix")
    return _mass_matrix(model, _jacobian(model, _forward_pass(model, q)))


def redmax_force(model: Model, q, qd, tau=None, f_ext=None) -> np.ndarray:
    """Reduced force ``f_r = J_mrᵀ (f_m - M_m J̇_mr q̇) + τ`` (Sueda eq. 2.18).

    Equal to ``τ - C(q, q̇, f^x)`` with Featherstone's bias force :func:`spatial.bias_force`.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    tau : array_like, shape (..., nv), optional
        Joint forces (zero if omitted).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External force on each body in base coordinates; row 0 (the base) must be zero.

    Returns
    -------
    f_r : ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        If a state array or ``f_ext`` has the wrong shape or is not finite, ``q`` is not a
        valid configuration, ``f_ext`` has a nonzero row 0, or the batch shapes do not
        broadcast; if the model has loop joints, as :func:`redmax_mass_matrix`.
    """
    q, qd, tau, f_ext, fp, J = _check(model, q, qd, tau, f_ext, "redmax_force")
    return _force(model, fp, J, q, qd, tau, f_ext)


def redmax_forward_dynamics(model: Model, q, qd, tau, f_ext=None) -> np.ndarray:
    """Forward dynamics ``q̈ = M_r⁻¹ f_r`` by REDMAX (Sueda eq. 2.18).

    Forms ``J_mr``, the product ``J̇_mr q̇``, the reduced mass matrix and force, and solves
    the dense system; the result equals :func:`spatial.aba`.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    tau : array_like, shape (..., nv)
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External force on each body in base coordinates; row 0 (the base) must be zero.

    Returns
    -------
    qdd : ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        As :func:`redmax_force` (loop joints included); also if ``M_r`` is singular (a joint
        moves no mass).

    Examples
    --------
    A pendulum released horizontally falls with ``q̈ = -g / l``:

    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> model = simple_pendulum(length=2.0)
    >>> qdd = sp.reduced.redmax_forward_dynamics(model, [np.pi / 2], [0.0], [0.0])
    >>> bool(np.isclose(qdd[0], -9.81 / 2.0))
    True
    """
    q, qd, tau, f_ext, fp, J = _check(model, q, qd, tau, f_ext, "redmax_forward_dynamics")
    M_r = _mass_matrix(model, J)
    f_r = _force(model, fp, J, q, qd, tau, f_ext)
    M_r, f_r = np.broadcast_arrays(M_r, f_r[..., None])
    try:
        return np.linalg.solve(M_r, f_r)[..., 0]
    except np.linalg.LinAlgError:
        raise ValueError(
            "redmax_forward_dynamics: the reduced mass matrix M_r is singular (a joint moves "
            "a subtree with no mass or inertia along its motion), so q̈ is undefined"
        ) from None
