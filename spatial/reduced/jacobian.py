"""The REDMAX Jacobian ``J_mr`` and its time derivative (Sueda part 2, §2.1–2.2).

REDMAX describes a kinematic tree twice: by its joint (reduced) coordinates ``q`` with velocity
variables ``q̇``, and by the twists of its bodies (maximal coordinates).  The bridge between the
two is the Jacobian ``J_mr`` that stacks the body twists ``φ_i = [ω_i; v_i]``, each in its own
body's coordinates, as ``φ = J_mr q̇`` (eq. 2.1).

Building ``J_mr`` (eqs. 2.7–2.14).  A body's twist is its parent's twist carried into the
body's frame plus what its own joint adds: ``φ_i = ^iX_λ(i) φ_λ(i) + S_i q̇_i`` (eq. 2.11).
The package's ``^iX_λ(i) = X_J(q_i) X_T(i)`` is Sueda's adjoint ``Ad`` of the parent-to-body
frame, and ``S_i`` is already expressed in body ``i``'s coordinates, so Sueda's product
``Ad S`` is simply our ``S_i``.  Unrolling the recursion from the base (whose twist is zero)
gives a block lower-triangular matrix (eq. 2.14): the diagonal block of body ``i`` is ``S_i``,
and the block of each ancestor ``a`` is the parent's block carried one frame outwards,
``J(i, a) = ^iX_λ(i) J(λ(i), a)``.  Blocks of joints that do not support body ``i`` are zero.
Filling the rows in body order (parents first) reuses the parent's row (Alg. 1).

Its time derivative (eqs. 2.15–2.17).  Differentiating the recursion gives
``J̇(i, i) = Ṡ_i`` and ``J̇(i, a) = d/dt(^iX_λ(i)) J(λ(i), a) + ^iX_λ(i) J̇(λ(i), a)``.
(The book's Alg. 2 drops the dot from the first ``Ad`` in line 7; the derivative belongs
there.)  Rather than the book's route through the world frame (eq. 2.17), the relative form is
shorter: a transform between two moving frames changes as
``d/dt(^iX_λ(i)) = -(v_J ×) ^iX_λ(i)`` with ``v_J = S_i q̇_i`` the joint's relative twist in
body coordinates.  As a check, ``J̇ q̇`` then reproduces the velocity-product acceleration
``c_J + v_i × v_J`` of Featherstone's eq. 5.7 body by body.

``Ṡ_i`` is zero for joints with a constant ``S``.  For the others the joint library gives
``c_J = Ṡ α`` (a quadratic form in ``α``) but not ``Ṡ`` itself; with ``α = q̇`` the columns of
``S`` are the joint's body Jacobian, whose mixed partials obey
``∂_j S_k - ∂_k S_j = -S_j × S_k``, and together with the symmetric part read off ``c_J`` this
gives ``Ṡ = ½ ∂c_J/∂α - ½ (v_J ×) S`` exactly; a reversed joint differentiates
``S' = -X_J⁻¹ S`` directly (:func:`_motion_subspace_dot`).
"""

from __future__ import annotations

import numpy as np

from .._batched import crm_matrix, xinv
from .._validate import broadcast_batch as _batch_shape
from ..joints import Composite, Joint, Reversed
from ..kinematics import _forward_pass
from ..model import Model

__all__ = ["redmax_jacobian", "redmax_jacobian_dot"]


# ----------------------------------------------------------------------------- kernels
# Unvalidated: the public functions below check the state once, then call these.


def _jacobian(model: Model, fp) -> np.ndarray:
    """Alg. 1 (eqs. 2.11–2.14) on a forward pass: ``J_mr`` of shape (..., 6 NB, nv)."""
    batch = fp.X0[0].shape[:-2]
    J = np.zeros(batch + (6 * model.NB, model.nv), dtype=fp.Xup[1].dtype)  # object if symbolic
    for i in range(1, model.NB + 1):
        rows, p = _rows(i), model.parent[i]
        if p != 0:  # J(i, a) = ^iX_λ(i) J(λ(i), a); zero for a past λ(i) (regular numbering)
            a = slice(0, model.v_index[p].stop)
            J[..., rows, a] = fp.Xup[i] @ J[..., _rows(p), a]
        J[..., rows, model.v_index[i]] = fp.S[i]  # J(i, i) = S_i
    return J


def _jacobian_dot(model: Model, fp, J: np.ndarray, q, qd) -> np.ndarray:
    """Alg. 2 (eqs. 2.15–2.17), corrected: ``J̇_mr`` of shape (..., 6 NB, nv).

    ``J̇(i, a) = -(v_J×) ^iX_λ(i) J(λ(i), a) + ^iX_λ(i) J̇(λ(i), a)`` and ``J̇(i, i) = Ṡ_i``.
    """
    batch = np.broadcast_shapes(J.shape[:-2], qd.shape[:-1])
    Jd = np.zeros(batch + J.shape[-2:])
    for i in range(1, model.NB + 1):
        rows, p = _rows(i), model.parent[i]
        q_i, qd_i = q[..., model.q_index[i]], qd[..., model.v_index[i]]
        if p != 0:
            v_J = (fp.S[i] @ qd_i[..., None])[..., 0]
            Xdot = -crm_matrix(v_J) @ fp.Xup[i]  # d/dt ^iX_λ(i)
            Jd[..., rows, :] = Xdot @ J[..., _rows(p), :] + fp.Xup[i] @ Jd[..., _rows(p), :]
        Jd[..., rows, model.v_index[i]] = _motion_subspace_dot(model.joints[i], q_i, qd_i)
    return Jd


def _rows(i: int) -> slice:
    """Rows of body ``i`` (1-based) in the stacked maximal vector: ``6(i-1) : 6i``."""
    return slice(6 * (i - 1), 6 * i)


def _motion_subspace_dot(joint: Joint, q: np.ndarray, qd: np.ndarray) -> np.ndarray:
    """``Ṡ`` of one joint, (..., 6, nv), in successor coordinates (eq. 2.15's ``Ṡ``).

    Zero when the joint keeps the default zero bias (``S`` constant).  A reversed joint has
    ``S' = -X_J⁻¹ S`` with ``X_J``, ``S`` the inner joint's, and since
    ``d/dt(X_J⁻¹) = -(v_J' ×) X_J⁻¹`` (``v_J' = S' α`` its own relative twist),
    ``Ṡ' = -(v_J' ×) S' - X_J⁻¹ Ṡ``.  A composite joint (``S = [X₂ S₁, S₂]``) differentiates
    each part, ``Ṡ = [-(S₂ α₂ ×) X₂ S₁ + X₂ Ṡ₁, Ṡ₂]``, so its parts may have other velocity
    variables (the quaternion ball joint inside :func:`~spatial.joints.free_3d`).  Otherwise,
    with ``α = q̇``, write ``T_jk = ∂S_k/∂q_j`` so that ``c_J(α) = Σ T_jk α_j α_k``.  The
    derivative ``∂c_J/∂α_k = Σ_j (T_jk + T_kj) α_j`` is exact as a central difference of the
    quadratic ``c_J`` with unit steps, and the antisymmetric part is the Lie bracket,
    ``T_jk - T_kj = -S_j × S_k`` (the columns of ``S`` are the body Jacobian of ``X_J(q)``), so
    ``Ṡ e_k = Σ_j T_jk α_j = ½ ∂c_J/∂α_k - ½ (S α) × S_k``.
    """
    S = joint.motion_subspace(q)
    batch = np.broadcast_shapes(S.shape[:-2], qd.shape[:-1])
    v_J = (S @ qd[..., None])[..., 0]
    if isinstance(joint, Reversed):
        inner_dot = _motion_subspace_dot(joint.joint, q, qd)
        return -crm_matrix(v_J) @ S - xinv(joint.joint.transform(q)) @ inner_dot
    if isinstance(joint, Composite):  # S = [X₂ S₁, S₂] with d/dt X₂ = -(S₂ α₂ ×) X₂
        (q1, q2), (a1, a2) = joint._q(q), joint._v(qd)
        X2 = joint.second.transform(q2)
        v2 = (joint.second.motion_subspace(q2) @ a2[..., None])[..., 0]
        first = (-crm_matrix(v2) @ X2) @ joint.first.motion_subspace(q1) + X2 @ (
            _motion_subspace_dot(joint.first, q1, a1)
        )
        second = _motion_subspace_dot(joint.second, q2, a2)
        batch = np.broadcast_shapes(first.shape[:-2], second.shape[:-2])
        first = np.broadcast_to(first, batch + first.shape[-2:])
        return np.concatenate([first, np.broadcast_to(second, batch + second.shape[-2:])], -1)
    if type(joint).bias is Joint.bias:
        return np.zeros(batch + (6, joint.nv))
    if type(joint).q_dot is not Joint.q_dot:
        raise NotImplementedError(
            f"Ṡ of {joint!r}: S depends on q but the velocity variables are not q̇, "
            "so Ṡ cannot be recovered from the joint's bias c_J"
        )
    qd = np.broadcast_to(qd, batch + (joint.nv,))
    dc = np.empty(batch + (6, joint.nv))
    for k in range(joint.nv):
        e_k = np.zeros(joint.nv)
        e_k[k] = 1.0
        dc[..., k] = 0.5 * (joint.bias(q, qd + e_k) - joint.bias(q, qd - e_k))
    return 0.5 * dc - 0.5 * crm_matrix(v_J) @ S


# ----------------------------------------------------------------------------- public API


def redmax_jacobian(model: Model, q) -> np.ndarray:
    """REDMAX Jacobian ``J_mr`` with ``φ = J_mr q̇`` (Sueda eqs. 2.1, 2.14, Alg. 1).

    ``φ`` stacks the twists ``[ω_i; v_i]`` of bodies ``1 … NB``, each in its own body's
    coordinates.  Row block ``i`` is filled from its parent's, ``J(i, a) = ^iX_λ(i) J(λ(i), a)``,
    with ``J(i, i) = S_i`` on the diagonal; it equals :func:`spatial.body_jacobian` of body
    ``i``.  For joints whose velocity variables are not ``q̇`` (quaternions), the columns
    belong to the velocity variables ``α``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)

    Returns
    -------
    J : ndarray, shape (..., 6 NB, nv)
        Body ``i`` owns rows ``6(i-1) : 6i``.

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is not finite or not a valid configuration.

    Examples
    --------
    A pendulum's bob body turns about its joint axis z at the rate ``q̇``:

    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> J = sp.reduced.redmax_jacobian(simple_pendulum(), [0.3])
    >>> J.shape, float(J[2, 0])
    ((6, 1), 1.0)
    """
    q, _, _, _ = model.check_state(q)
    return _jacobian(model, _forward_pass(model, q))


def redmax_jacobian_dot(model: Model, q, qd) -> np.ndarray:
    """Time derivative ``J̇_mr`` along the motion ``(q, q̇)`` (Sueda eqs. 2.15–2.17, Alg. 2).

    ``J̇(i, i) = Ṡ_i`` and ``J̇(i, a) = d/dt(^iX_λ(i)) J(λ(i), a) + ^iX_λ(i) J̇(λ(i), a)`` with
    ``d/dt(^iX_λ(i)) = -(S_i q̇_i ×) ^iX_λ(i)``.  ``J̇ q̇`` is the stacked velocity-product
    acceleration of the bodies (what they would accelerate with at ``q̈ = 0`` and no gravity).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)

    Returns
    -------
    Jd : ndarray, shape (..., 6 NB, nv)

    Raises
    ------
    ValueError
        If a state array has the wrong shape, is not finite or not a valid configuration, or
        the batch shapes do not broadcast.
    NotImplementedError
        If a joint's ``S`` depends on ``q`` while its velocity variables are not ``q̇`` (no
        joint of :mod:`spatial.joints` is such a joint), so ``Ṡ`` cannot be formed.
    """
    q, qd, _, _ = model.check_state(q, qd)
    _batch_shape(q=(q, 1), qd=(qd, 1))
    fp = _forward_pass(model, q, qd)
    return _jacobian_dot(model, fp, _jacobian(model, fp), q, qd)
