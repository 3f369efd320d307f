"""Inverse dynamics of a kinematic tree: the recursive Newton–Euler algorithm (Featherstone ch. 5).

Given the motion ``q, q̇, q̈`` of a tree, the joint forces ``τ`` that produce it follow from three
steps (§5.3): the velocity and acceleration of every body, from the base outwards
(eqs. 5.7–5.8); the force each body needs for that acceleration, by Newton–Euler (eq. 5.9); and
the force each joint transmits, from the leaves inwards (eq. 5.10), projected on the joint's
motion subspace (eq. 5.11).  Everything is done in body coordinates (eqs. 5.14–5.20, Table 5.1).
Gravity is not a force here but a fictitious acceleration of the base, ``a_0 = -a_g`` (§5.3).

* :func:`rnea` — Table 5.1; :func:`bias_force` — ``C`` of ``τ = H q̈ + C`` (eq. 6.2);
  :func:`joint_forces` — the spatial forces ``f_i`` the same pass computes;
* :func:`rnea_3d` — the original 3D-vector algorithm of Luh, Walker and Paul for revolute
  joints (Table 5.2), kept as a cross-check and for teaching.

Conventions (``spatial.__doc__`` and the tree contract): ``q`` has shape ``(..., nq)``, ``qd``
and ``qdd`` ``(..., nv)``; external forces ``f_ext`` ``(..., NB + 1, 6)`` with row ``i`` the
spatial force on body ``i`` **in base coordinates** (row 0, the base, must be zero).  Leading
batch dimensions broadcast and go through the same code.
"""

from __future__ import annotations

import numpy as np

from .._batched import apply_force, crm_matrix  # unvalidated kernels: X0 is built here
from .._batched import mTv as _mTv
from .._batched import mv as _mv
from .._validate import as_array
from .._validate import broadcast_batch as _batch_shape  # the one batch-shape message
from ..inertia import inertia_params
from ..joints import Revolute
from ..kinematics import _joint_motion, _tree_factors, _tree_transforms
from ..model import Model
from ..vectors import unplux
from ..vectors.factored import factored_force_T, factored_motion

__all__ = ["rnea", "bias_force", "joint_forces", "rnea_3d"]


def _check_f_ext(model: Model, f_ext) -> np.ndarray | None:
    """``f_ext`` as a float array (..., NB + 1, 6) with a zero base row, or None."""
    if f_ext is None:
        return None
    f_ext = as_array(f_ext, "f_ext", (model.NB + 1, 6))
    if np.any(f_ext[..., 0, :] != 0.0):
        raise ValueError(
            "f_ext: row 0 is the fixed base; the force on body i goes in row i "
            f"(f_ext has shape (..., NB + 1, 6) = (..., {model.NB + 1}, 6))"
        )
    return f_ext


def _rnea(model: Model, q, qd, qdd, f_ext) -> tuple[np.ndarray, list]:
    """Table 5.1 on validated arrays; returns ``τ`` and the list of joint forces ``f_i``.

    ``f[0]`` collects the force transmitted from the base to the tree (the book skips it).
    """
    batch = _batch_shape(q=(q, 1), qd=(qd, 1), qdd=(qdd, 1), f_ext=(f_ext, 2))
    dtype = q.dtype
    v = [np.zeros(batch + (6,), dtype)]
    a = [np.broadcast_to(-model.a_grav.astype(dtype), batch + (6,))]  # gravity (§5.3)
    S, f, X0 = [None], [np.zeros(batch + (6,), dtype)], [np.eye(6, dtype=dtype)]
    # ^iX_λ(i) = X_J X_T(i) of every body, as rot(E) xlt(r): the primitives of Table A.4
    X = _tree_factors(model, _tree_transforms(model, q), overwrite=True)
    for i in range(1, model.NB + 1):
        p = model.parent[i]
        S_i, v_J, c_J = _joint_motion(model, i, q[..., model.q_index[i]], qd[..., model.v_index[i]])
        S.append(S_i)
        v.append(factored_motion(X[i], v[p]) + v_J)  # eq. 5.18; X v: 24m + 18a (Table A.4)
        v_cross = crm_matrix(v[i])  # v_i×, and v_i×* = -(v_i×)ᵀ
        a.append(
            factored_motion(X[i], a[p]) + _mv(S_i, qdd[..., model.v_index[i]]) + _mv(v_cross, v_J)
        )  # eq. 5.19
        if c_J is not None:  # joints with a constant S have c_J = 0
            a[i] = a[i] + c_J
        w_cross = v_cross.copy()  # w× for w = [ω_i; 0]: v_i× without its v_O× block
        w_cross[..., 3:, :3] = 0.0
        # f_i = I_i a_i + v_i ×* I_i v_i, evaluated as I_i (a_i + w × v_i) + w ×* I_i w: equal
        # for a rigid-body inertia (the v_O terms cancel: v_O × m v_O = 0, and the two mixed
        # terms sum to I_i (w × v_i) by the Jacobi identity), 57m + 45a instead of 66m + 54a
        I = model.inertia[i]
        I_w = _mv(I[..., :, :3], v[i][..., :3])  # I_i w: the columns of I_i that ω_i meets
        f.append(_mv(I, a[i] + _mv(w_cross, v[i])) - _mTv(w_cross, I_w))
        if f_ext is not None:
            X0.append(X[i].rot @ (X[i].xlt @ X0[p]))  # ^iX_0 = ^iX_λ(i) λ(i)X_0
            f[i] = f[i] - apply_force(X0[i], f_ext[..., i, :])
    tau = np.zeros(batch + (model.nv,), dtype)
    for i in range(model.NB, 0, -1):
        tau[..., model.v_index[i]] = _mTv(S[i], f[i])  # eq. 5.11
        p = model.parent[i]
        f[p] = f[p] + factored_force_T(X[i], f[i])  # eq. 5.20; ^λX_i* f: 24m + 18a
    return tau, f


def rnea(model: Model, q, qd, qdd, f_ext=None) -> np.ndarray:
    """Inverse dynamics ``τ = ID(model, q, q̇, q̈, f^x)`` by the recursive Newton–Euler algorithm.

    Featherstone Table 5.1 (body coordinates): an outward pass computes ``^iX_λ(i)``, the
    body velocities ``v_i`` and accelerations ``a_i`` (eqs. 5.18–5.19, with ``a_0 = -a_g``
    standing for gravity) and each body's force ``f_i = I_i a_i + v_i ×* I_i v_i - ^iX_0* f^x_i``;
    an inward pass accumulates ``f_λ(i) += ^λ(i)X_i* f_i`` (eq. 5.20) and projects
    ``τ_i = S_iᵀ f_i`` (eq. 5.11).  Cost ``O(N_B)``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
        Joint position variables.
    qd, qdd : array_like, shape (..., nv)
        Joint velocity variables ``α`` and their derivatives ``α̇`` (``q̇``, ``q̈`` for joints
        whose velocity variables are the derivatives of their positions).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External spatial forces on the bodies, in base coordinates (row 0 must be zero).

    Returns
    -------
    ndarray, shape (..., nv)
        Joint force variables ``τ``.

    Raises
    ------
    ValueError
        If a state array has the wrong shape, is complex, not finite or not a valid configuration,
        if ``f_ext`` has the wrong shape or a non-zero row 0, or if the batch shapes do not
        broadcast.  If the model has loop joints (:meth:`~spatial.Model.check_tree`): pass
        ``model.spanning_tree()`` for the open tree's answer, or use
        :func:`~spatial.dynamics.loops.loop_inverse_dynamics` for the closed loops.

    Examples
    --------
    A pendulum of mass 1 kg and length 1 m, held horizontal, needs ``m g l`` of torque:

    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> float(sp.rnea(simple_pendulum(), [np.pi / 2], [0.0], [0.0])[0])  # doctest: +ELLIPSIS
    9.81...
    """
    q, qd, qdd, _ = model.check_state(q, qd, qdd, tree_dynamics="rnea")
    return _rnea(model, q, qd, qdd, _check_f_ext(model, f_ext))[0]


def bias_force(model: Model, q, qd, f_ext=None) -> np.ndarray:
    """Joint-space bias force ``C(q, q̇, f^x) = ID(q, q̇, 0, f^x)`` (Featherstone eq. 6.2).

    ``C`` collects gravity, Coriolis and centrifugal forces and the effect of external forces,
    so that the equation of motion reads ``τ = H q̈ + C`` (eq. 6.1).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in base coordinates, as for :func:`rnea`.

    Returns
    -------
    ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        As :func:`rnea`.
    """
    q, qd, _, _ = model.check_state(q, qd, tree_dynamics="bias_force")
    return _rnea(model, q, qd, np.zeros(qd.shape), _check_f_ext(model, f_ext))[0]


def joint_forces(model: Model, q, qd, qdd, f_ext=None) -> np.ndarray:
    """Spatial forces transmitted across the joints, from the same pass as :func:`rnea`.

    Row ``i ≥ 1`` is ``f_i``, the force body ``λ(i)`` exerts on body ``i`` through joint ``i``
    (Featherstone eq. 5.10), in body ``i`` coordinates; ``τ_i = S_iᵀ f_i``.  Row 0 is the
    total force the fixed base exerts on the tree through its joints, in base coordinates
    (the reaction a force plate under the tree would measure).  With ``a_0 = -a_g`` these are
    the true joint forces, gravity included.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd, qdd : array_like, shape (..., nv)
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in base coordinates, as for :func:`rnea`.

    Returns
    -------
    ndarray, shape (..., NB + 1, 6)

    Raises
    ------
    ValueError
        As :func:`rnea`.
    """
    q, qd, qdd, _ = model.check_state(q, qd, qdd, tree_dynamics="joint_forces")
    _, f = _rnea(model, q, qd, qdd, _check_f_ext(model, f_ext))
    batch = f[0].shape[:-1]
    return np.stack([np.broadcast_to(f_i, batch + (6,)) for f_i in f], axis=len(batch))


def rnea_3d(model: Model, q, qd, qdd) -> np.ndarray:
    """Inverse dynamics with 3D vectors: the original recursive Newton–Euler algorithm.

    Featherstone Table 5.2 (Luh, Walker and Paul, 1980), written for a tree of revolute
    joints (the table shows a chain; here the inward pass sums over children).  With
    ``E = ^iE_λ(i)`` the rotation from the parent's to body ``i``'s coordinates, ``r`` the
    position of body ``i``'s origin in the parent's coordinates and ``z`` the joint axis:

    * outwards: ``ω_i = E ω_λ + z q̇_i``; ``ω̇_i = E ω̇_λ + z q̈_i + (E ω_λ) × z q̇_i``;
      ``v̇_i = E (v̇_λ + ω̇_λ × r + ω_λ × (ω_λ × r))`` — the *classical* acceleration of the
      origin, started at ``v̇_0 = -g`` for gravity;
    * each body: ``F_i = m (v̇_i + ω̇_i × c + ω_i × (ω_i × c))`` and
      ``N_i = I_cm ω̇_i + ω_i × I_cm ω_i`` (moment about the centre of mass ``c``);
    * inwards: ``f_i = F_i + Σ_children Eᵀ f_j``;
      ``n_i = N_i + c × F_i + Σ_children (Eᵀ n_j + r_j × Eᵀ f_j)``; ``τ_i = zᵀ n_i``.

    The linear velocities ``v_i`` of the table are never used by the other lines (a property
    of classical accelerations, §5.4), so they are not computed.  Compared with Table 5.1,
    ``[ω; v̇ - ω × v]`` is the spatial acceleration and ``[N + c × F; F]`` the spatial net
    force.

    Parameters
    ----------
    model : Model
        Every joint must be :class:`~spatial.joints.Revolute`.
    q, qd, qdd : array_like, shape (..., NB)

    Returns
    -------
    ndarray, shape (..., NB)
        ``τ``, equal to :func:`rnea` without external forces.

    Raises
    ------
    ValueError
        If a joint is not revolute, or as :func:`rnea` (state arrays, loop joints).
    """
    model.check_tree("rnea_3d")
    for i in range(1, model.NB + 1):
        if not isinstance(model.joints[i], Revolute):
            raise ValueError(
                f"rnea_3d implements Table 5.2 for revolute joints only; joint {i} is "
                f"{model.joints[i]!r} (use rnea)"
            )
    q, qd, qdd, _ = model.check_state(q, qd, qdd)
    batch = _batch_shape(q=(q, 1), qd=(qd, 1), qdd=(qdd, 1))
    zero = np.zeros(batch + (3,))
    w, wd, vd = [zero], [zero], [np.broadcast_to(-model.gravity, batch + (3,))]
    E, r, f, n = [None], [None], [None], [None]
    for i in range(1, model.NB + 1):
        p, z = model.parent[i], model.joints[i].axis
        qd_i, qdd_i = qd[..., model.v_index[i]], qdd[..., model.v_index[i]]
        E_T, r_i = unplux(model.X_tree[i])
        E.append(model.joints[i].transform(q[..., model.q_index[i]])[..., :3, :3] @ E_T)
        r.append(r_i)
        w_p = _mv(E[i], w[p])  # the parent's angular velocity in body i coordinates
        w.append(w_p + z * qd_i)
        wd.append(_mv(E[i], wd[p]) + z * qdd_i + np.cross(w_p, z * qd_i))
        vd.append(_mv(E[i], vd[p] + np.cross(wd[p], r_i) + np.cross(w[p], np.cross(w[p], r_i))))
        I = model.inertia[i]
        m, c, I_cm = inertia_params(I) if I[3, 3] > 0 else (0.0, np.zeros(3), I[:3, :3])
        F = m * (vd[i] + np.cross(wd[i], c) + np.cross(w[i], np.cross(w[i], c)))
        N = _mv(I_cm, wd[i]) + np.cross(w[i], _mv(I_cm, w[i]))
        f.append(F)
        n.append(N + np.cross(c, F))
    tau = np.zeros(batch + (model.NB,))
    for i in range(model.NB, 0, -1):
        tau[..., model.v_index[i]] = (n[i] @ model.joints[i].axis)[..., None]
        p = model.parent[i]
        if p != 0:
            f_up = _mTv(E[i], f[i])  # ^λE_i f_i = (^iE_λ)ᵀ f_i
            f[p] = f[p] + f_up
            n[p] = n[p] + _mTv(E[i], n[i]) + np.cross(r[i], f_up)
    return tau
