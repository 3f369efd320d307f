"""Floating-base dynamics: a tree whose root body moves freely (Featherstone §9.3–9.5).

Featherstone treats the floating base as body 0 with a spatial velocity ``v_0`` and
acceleration ``a_0`` of its own, and the remaining bodies ``1 … N_B`` hanging from it.  Here the
same system is the model that :func:`spatial.builders.floating_base` (or ``humanoid(True)``,
``random_tree(..., floating=True)``) builds: **body 1 is the floating base**, joined to the fixed
base by a :class:`~spatial.joints.Free` joint, and every other body descends from it.  The
dictionary between the two descriptions:

===========================  ===========================================================
book (floating base = 0)     this package (floating base = body 1)
===========================  ===========================================================
``^0X_ref`` (base pose)       the Free joint's ``q[..., :7]`` (quaternion, position)
``v_0`` (base coordinates)    ``qd[..., :6]`` (``[ω; v_O]`` in body-1 coordinates)
``a_0``                       ``a0`` returned here; equals ``aba(...)[..., :6]``
joints ``1 … N_B``            bodies ``2 … NB``; ``q̈``, ``τ`` = ``qdd[..., 6:]``, ``tau[..., 6:]``
``^0a_g``, ``^0f^x_i``          computed from ``model.gravity`` and world-frame ``f_ext``
===========================  ===========================================================

Because the Free joint has ``S = 1`` in body-1 coordinates, its velocity variables *are* the
base's spatial velocity and its accelerations the base's spatial acceleration (§9.3), so
every function here must agree with the fixed-base algorithms applied to the same model —
which is how the tests check them.  The functions:

* :func:`floating_aba` — the floating-base articulated-body algorithm (Table 9.4);
* :func:`floating_coefficients` — ``I_0^c, F, H, p_0^c, C`` of eq. 9.13 by the floating-base
  RNEA and CRBA (Table 9.5), and :func:`floating_forward_dynamics`, which solves eq. 9.13;
* :func:`floating_inverse_dynamics` — joint torques *and* the base acceleration they cause,
  given the joint accelerations (Table 9.6);
* :func:`floating_momentum`, :func:`centroidal_momentum`, :func:`floating_jacobian` —
  Examples 9.3–9.4: the system's momentum ``I_0^c v_0 + F q̇``, its centroidal form, and the
  Jacobian that accounts for the base's reaction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .._batched import (  # unvalidated: built here
    apply_force,
    crm_matrix,
    cross_motion,
    transform_inertia,
    xinv,
)
from .._validate import as_array
from ..joints import Free
from ..kinematics import _body_index, _forward_pass
from ..model import Model
from ..vectors import unskew, xlt
from .aba import _T, _col, _pass1, _pass2, _solve
from .rnea import _batch_shape, _check_f_ext, _mTv, _mv
from .sparse import ltdl, ltdl_solve

__all__ = [
    "FloatingBaseEquation",
    "Centroidal",
    "floating_aba",
    "floating_coefficients",
    "floating_forward_dynamics",
    "floating_inverse_dynamics",
    "floating_momentum",
    "centroidal_momentum",
    "floating_jacobian",
]


def _require_floating(model: Model) -> None:
    """``ValueError`` unless body 1 is a Free-jointed floating base supporting every body."""
    if model.NB == 0 or not isinstance(model.joints[1], Free) or model.children(0) != [1]:
        joint = model.joints[1] if model.NB else None
        raise ValueError(
            "the floating-base algorithms need a model whose body 1 is the floating base: "
            "joined to the fixed base by a Free joint, with every other body descending from "
            f"it (got joint 1 = {joint!r}, roots {model.children(0)}); build one with "
            "spatial.builders.floating_base(model) or random_tree(..., floating=True)"
        )


def _singular(inertia: str) -> ValueError:
    """The error for a floating system whose inertia cannot be inverted."""
    return ValueError(
        f"the {inertia}, is singular: the floating system (or a subtree of it) has no mass or "
        "no rotational inertia about some axis, so its accelerations are undefined; give every "
        "body a positive-definite spatial inertia"
    )


def _joint_array(model: Model, x, name: str) -> np.ndarray:
    """A joint-space array of the bodies ``2 … NB``: shape (..., nv - 6)."""
    return as_array(x, name, (model.nv - 6,))


# ----------------------------------------------------------------------------- Table 9.4


def floating_aba(model: Model, q, qd, tau, f_ext=None) -> tuple[np.ndarray, np.ndarray]:
    """Floating-base forward dynamics by the articulated-body algorithm (Table 9.4).

    Pass 1 and pass 2 are those of Table 7.1 (the floating base's velocity ``v_0`` is the Free
    joint's ``qd[..., :6]``, and its articulated inertia ``I_0^A`` and bias force ``p_0^A``
    collect the whole tree); then the base acceleration follows from
    ``I_0^A a_0 + p_0^A = 0`` (eq. 9.17), pass 3 runs outwards from it **without gravity**, and
    gravity ``^0a_g`` is added to ``a_0`` at the end: a uniform field accelerates every body of
    a free-floating system equally, so it does not change the joint accelerations (§9.4).

    Parameters
    ----------
    model : Model
        Floating-base model (body 1 joined to the fixed base by a Free joint).
    q : array_like, shape (..., nq)
        Base pose (the Free joint's quaternion and position) and joint positions.
    qd : array_like, shape (..., nv)
        ``v_0`` (body-1 coordinates) followed by the joint velocities.
    tau : array_like, shape (..., nv - 6)
        Forces of joints ``2 … NB`` (the base has no actuator; push it with ``f_ext``).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces on the bodies in world coordinates, row 0 zero.

    Returns
    -------
    a0 : ndarray, shape (..., 6)
        The floating base's spatial acceleration in its own coordinates (gravity included).
    qdd : ndarray, shape (..., nv - 6)
        Joint accelerations.

    Raises
    ------
    ValueError
        If the model has no floating base, a state array or ``f_ext`` is invalid, or an
        articulated inertia is singular (a massless floating system or subtree); if the model
        has loop joints, as :func:`~spatial.dynamics.aba`.
    """
    _require_floating(model)
    q, qd, _, _ = model.check_state(q, qd, tree_dynamics="floating_aba")
    tau = _joint_array(model, tau, "tau")
    f_ext = _check_f_ext(model, f_ext)
    batch = _batch_shape(q=(q, 1), qd=(qd, 1), tau=(tau, 1), f_ext=(f_ext, 2))
    tau_all = np.concatenate(
        [np.zeros(batch + (6,)), np.broadcast_to(tau, batch + tau.shape[-1:])], -1
    )
    Xup, S, v, c, IA, pA = _pass1(model, q, qd, f_ext)  # pass 1: v_i, c_i, I_i, p_i
    singular = _singular("articulated-body inertia of the floating base or a subtree")
    a = [None] * (model.NB + 1)
    qdd = np.zeros(batch + (model.nv - 6,))
    with np.errstate(divide="ignore", invalid="ignore"):  # a massless subtree: raised below
        U, D, u = _pass2(model, Xup, S, c, IA, pA, tau_all)  # pass 2, ending in I_0^A, p_0^A
        try:
            a[1] = -_solve(IA[1], pA[1])  # eq. 9.17, without gravity
        except np.linalg.LinAlgError:
            raise singular from None
        for i in range(2, model.NB + 1):  # pass 3
            a_prime = Xup[i] @ a[model.parent[i]] + c[i]
            qdd_i = _solve(D[i], u[i] - _T(U[i]) @ a_prime)
            a[i] = a_prime + S[i] @ qdd_i
            qdd[..., _shift(model.v_index[i])] = qdd_i[..., 0]
    a0 = a[1] + Xup[1] @ _col(model.a_grav)  # add ^0a_g = ^1X_0 a_g
    if not (np.isfinite(a0).all() and np.isfinite(qdd).all()):
        raise singular
    return np.broadcast_to(a0[..., 0], batch + (6,)).copy(), qdd


def _cross_force(v: np.ndarray, f: np.ndarray) -> np.ndarray:
    """``v ×* f = -(v×)ᵀ f`` for motion ``v`` and force ``f`` (..., 6), unvalidated (eq. 2.32)."""
    return -_mTv(crm_matrix(v), f)


def _shift(index: slice) -> slice:
    """A slice into ``qd`` as a slice into the joint-space arrays of bodies ``2 … NB``."""
    return slice(index.start - 6, index.stop - 6)


# ----------------------------------------------------------------------------- Table 9.5


class FloatingBaseEquation(NamedTuple):
    """Coefficients of the floating-base equation of motion (Featherstone eq. 9.13).

    ``[[I0c, F], [Fᵀ, H]] [a_0; q̈] + [p0c; C] = [0; τ]``, everything about the base in
    floating-base (body 1) coordinates.

    Attributes
    ----------
    I0c : ndarray, shape (..., 6, 6)
        Composite inertia of the whole system.
    F : ndarray, shape (..., 6, nv - 6)
        ``F_i = I_i^c S_i``: the base force needed for a unit acceleration of each joint
        variable (eq. 9.12).
    H : ndarray, shape (..., nv - 6, nv - 6)
        Joint-space inertia of the joints ``2 … NB`` (as if the base were fixed).
    p0c : ndarray, shape (..., 6)
        Bias force of the whole system as one composite body (gravity included).
    C : ndarray, shape (..., nv - 6)
        Joint-space bias force with ``a_0 = 0``.
    """

    I0c: np.ndarray
    F: np.ndarray
    H: np.ndarray
    p0c: np.ndarray
    C: np.ndarray


def _floating_crba(model: Model, Xup: list, S: list):
    """Right half of Table 9.5: ``H``, ``F``, and the composite inertias ``I^c`` (list)."""
    batch = Xup[1].shape[:-2]
    n = model.nv - 6
    H = np.zeros(batch + (n, n))
    F = np.zeros(batch + (6, n))
    Ic = [None] + [model.inertia[i] for i in range(1, model.NB + 1)]
    for i in range(model.NB, 1, -1):
        p = model.parent[i]
        Ic[p] = Ic[p] + _T(Xup[i]) @ Ic[i] @ Xup[i]
        F_i = Ic[i] @ S[i]
        ii = _shift(model.v_index[i])
        H[..., ii, ii] = _T(S[i]) @ F_i
        j = i
        while model.parent[j] != 1:  # the book's λ(j) ≠ 0: stop below the floating base
            F_i = _T(Xup[j]) @ F_i
            j = model.parent[j]
            jj = _shift(model.v_index[j])
            H[..., ii, jj] = _T(F_i) @ S[j]
            H[..., jj, ii] = _T(H[..., ii, jj])
        F[..., :, ii] = _T(Xup[j]) @ F_i  # F_i = ^0X_j* F_i, into floating-base coordinates
    return H, F, Ic


def _floating_rnea(model: Model, q, qd, f_ext, batch):
    """Left half of Table 9.5: ``C``, ``p_0^c`` and the transforms ``Xup``, ``S``."""
    Xup, S, X0 = [None] * (model.NB + 1), [None] * (model.NB + 1), [None] * (model.NB + 1)
    v, a_vp, f = ([None] * (model.NB + 1) for _ in range(3))
    for i in range(1, model.NB + 1):
        p = model.parent[i]
        X_J, S[i], v_J, c_J = model.joints[i].jcalc(
            q[..., model.q_index[i]], qd[..., model.v_index[i]]
        )
        Xup[i] = X_J @ model.X_tree[i]
        X0[i] = Xup[i] if p == 0 else Xup[i] @ X0[p]
        if i == 1:  # the floating base: v_0 = qd[:6], a_0^vp = -^0a_g
            v[1] = v_J
            a_vp[1] = -_mv(Xup[1], model.a_grav)
        else:
            v[i] = _mv(Xup[i], v[p]) + v_J
            a_vp[i] = _mv(Xup[i], a_vp[p]) + c_J + cross_motion(v[i], v_J)
        I = model.inertia[i]
        f[i] = _mv(I, a_vp[i]) + _cross_force(v[i], _mv(I, v[i]))
        if f_ext is not None:
            f[i] = f[i] - apply_force(X0[i], f_ext[..., i, :])
    C = np.zeros(batch + (model.nv - 6,))
    for i in range(model.NB, 1, -1):
        C[..., _shift(model.v_index[i])] = _mTv(S[i], f[i])
        p = model.parent[i]
        f[p] = f[p] + _mTv(Xup[i], f[i])
    return C, np.broadcast_to(f[1], batch + (6,)).copy(), Xup, S


def floating_coefficients(model: Model, q, qd, f_ext=None) -> FloatingBaseEquation:
    """Coefficients of eq. 9.13 by the floating-base RNEA and CRBA (Featherstone Table 9.5).

    The RNEA half runs with ``q̈ = 0`` and starts the velocity-product accelerations at
    ``a_0^vp = -^0a_g`` (gravity in floating-base coordinates), so ``C`` and ``p_0^c`` carry
    the gravity terms; the force reaching the floating base is ``p_0^c``.  The CRBA half
    extends the composite inertias to ``I_0^c`` and keeps the columns ``F_i = I_i^c S_i`` of
    eq. 9.12, transformed into floating-base coordinates.  The assembled matrix
    ``[[I0c, F], [Fᵀ, H]]`` is the fixed-base ``crba`` of the same model and ``[p0c; C]`` its
    ``bias_force`` (eq. 9.11).

    Parameters
    ----------
    model : Model
        Floating-base model (body 1 joined to the fixed base by a Free joint).
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in world coordinates, row 0 zero.

    Returns
    -------
    FloatingBaseEquation
        ``(I0c, F, H, p0c, C)``.

    Raises
    ------
    ValueError
        If the model has no floating base, or a state array or ``f_ext`` is invalid; if the
        model has loop joints, as :func:`~spatial.dynamics.aba`.
    """
    _require_floating(model)
    q, qd, _, _ = model.check_state(q, qd, tree_dynamics="floating_coefficients")
    f_ext = _check_f_ext(model, f_ext)
    batch = _batch_shape(q=(q, 1), qd=(qd, 1), f_ext=(f_ext, 2))
    C, p0c, Xup, S = _floating_rnea(model, q, qd, f_ext, batch)
    H, F, Ic = _floating_crba(model, Xup, S)
    b = batch
    I0c = np.broadcast_to(Ic[1], b + (6, 6)).copy()
    return FloatingBaseEquation(
        I0c,
        np.broadcast_to(F, b + F.shape[-2:]).copy(),
        np.broadcast_to(H, b + H.shape[-2:]).copy(),
        p0c,
        C,
    )


def floating_forward_dynamics(
    model: Model, q, qd, tau, f_ext=None
) -> tuple[np.ndarray, np.ndarray]:
    """Floating-base forward dynamics by solving eq. 9.13 with the Table 9.5 coefficients.

    The ``(n + 6) x (n + 6)`` matrix ``[[I0c, F], [Fᵀ, H]]`` has the branch-induced sparsity of
    the model's expanded parent array (the base's six variables form a chain at the root), so
    it is factorized by the sparse ``LᵀDL`` of Table 6.3 (§9.4).

    Parameters
    ----------
    model, q, qd, tau, f_ext
        As :func:`floating_aba`.

    Returns
    -------
    a0 : ndarray, shape (..., 6)
        Base spatial acceleration in base coordinates (gravity included).
    qdd : ndarray, shape (..., nv - 6)

    Raises
    ------
    ValueError
        As :func:`floating_aba`.
    """
    _require_floating(model)
    model.check_tree("floating_forward_dynamics")
    tau = _joint_array(model, tau, "tau")
    I0c, F, H, p0c, C = floating_coefficients(model, q, qd, f_ext)
    batch = np.broadcast_shapes(C.shape[:-1], tau.shape[:-1])
    M = np.concatenate([np.concatenate([I0c, F], -1), np.concatenate([_T(F), H], -1)], -2)
    rhs = np.concatenate([-p0c, tau - C], -1)
    lam = model.expanded_parent()
    L, D = ltdl(np.broadcast_to(M, batch + M.shape[-2:]), lam)
    x = ltdl_solve(L, D, lam, np.broadcast_to(rhs, batch + rhs.shape[-1:]))
    return x[..., :6], x[..., 6:]


# ----------------------------------------------------------------------------- Table 9.6


def floating_inverse_dynamics(
    model: Model, q, qd, qdd, f_ext=None
) -> tuple[np.ndarray, np.ndarray]:
    """Floating-base inverse dynamics: joint forces and the base acceleration (Table 9.6).

    Only the joint accelerations are given; the base acceleration is whatever makes the
    force on the unactuated base vanish.  Writing every body's acceleration as
    ``a_i = a_0 + a_i^r``, the force across joint ``i`` is ``f_i = I_i^c a_0 + p_i^c``
    (eq. 9.20) with ``p_i^c`` the force that would support the subtree if ``a_0`` were zero
    (eqs. 9.21–9.23).  At the base ``f_0 = 0`` gives ``a_0 = -(I_0^c)⁻¹ p_0^c`` (eq. 9.24) and
    then ``τ_i = S_iᵀ (I_i^c a_0 + p_i^c)`` (eq. 9.25).  Starting ``a_0^r = -^0a_g`` puts the
    gravity terms in ``p^c`` and the correct gravitational acceleration in ``a_0``.

    Parameters
    ----------
    model : Model
        Floating-base model (body 1 joined to the fixed base by a Free joint).
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
        Base velocity ``v_0`` (body-1 coordinates) and joint velocities.
    qdd : array_like, shape (..., nv - 6)
        Joint accelerations of joints ``2 … NB``.
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in world coordinates, row 0 zero.

    Returns
    -------
    a0 : ndarray, shape (..., 6)
        The base's spatial acceleration in its own coordinates.
    tau : ndarray, shape (..., nv - 6)
        Joint forces; ``aba`` with ``[0, tau]`` returns ``[a0, qdd]``.

    Raises
    ------
    ValueError
        If the model has no floating base, a state array or ``f_ext`` is invalid, or the
        composite inertia ``I_0^c`` is singular (a massless floating system); if the model has
        loop joints, as :func:`~spatial.dynamics.aba`.
    """
    _require_floating(model)
    q, qd, _, _ = model.check_state(q, qd, tree_dynamics="floating_inverse_dynamics")
    qdd = _joint_array(model, qdd, "qdd")
    f_ext = _check_f_ext(model, f_ext)
    batch = _batch_shape(q=(q, 1), qd=(qd, 1), qdd=(qdd, 1), f_ext=(f_ext, 2))
    NB = model.NB
    Xup, S, X0, v, a_r, Ic, pc = ([None] * (NB + 1) for _ in range(7))
    for i in range(1, NB + 1):  # pass 1
        p = model.parent[i]
        X_J, S[i], v_J, c_J = model.joints[i].jcalc(
            q[..., model.q_index[i]], qd[..., model.v_index[i]]
        )
        Xup[i] = X_J @ model.X_tree[i]
        X0[i] = Xup[i] if p == 0 else Xup[i] @ X0[p]
        if i == 1:  # the floating base: v_0 from the Free joint, a_0^r = -^0a_g
            v[1] = v_J
            a_r[1] = -_mv(Xup[1], model.a_grav)
        else:
            v[i] = _mv(Xup[i], v[p]) + v_J
            qdd_i = qdd[..., _shift(model.v_index[i])]
            a_r[i] = _mv(Xup[i], a_r[p]) + c_J + cross_motion(v[i], v_J) + _mv(S[i], qdd_i)
        I = model.inertia[i]
        Ic[i] = I
        pc[i] = _mv(I, a_r[i]) + _cross_force(v[i], _mv(I, v[i]))
        if f_ext is not None:
            pc[i] = pc[i] - apply_force(X0[i], f_ext[..., i, :])
    for i in range(NB, 1, -1):  # pass 2
        p = model.parent[i]
        Ic[p] = Ic[p] + _T(Xup[i]) @ Ic[i] @ Xup[i]
        pc[p] = pc[p] + _mTv(Xup[i], pc[i])
    a0 = [None] * (NB + 1)
    try:
        a0[1] = -np.linalg.solve(Ic[1], pc[1][..., None])[..., 0]  # eq. 9.24
    except np.linalg.LinAlgError:
        raise _singular("composite inertia of the whole system, I_0^c") from None
    tau = np.zeros(batch + (model.nv - 6,))
    for i in range(2, NB + 1):  # pass 3: ^ia_0 and eq. 9.25
        a0[i] = _mv(Xup[i], a0[model.parent[i]])
        tau[..., _shift(model.v_index[i])] = _mTv(S[i], _mv(Ic[i], a0[i]) + pc[i])
    return np.broadcast_to(a0[1], batch + (6,)).copy(), tau


# ----------------------------------------------------------------------------- Examples 9.3–9.4


def floating_momentum(model: Model, q, qd) -> np.ndarray:
    """Total spatial momentum ``I_0^c v_0 + F q̇`` in floating-base coordinates (Example 9.3).

    The sum ``Σ_i I_i v_i`` over all bodies, regrouped by joints: the base velocity moves the
    whole system as one composite body, and each joint velocity moves its subtree, whose
    composite inertia times ``S_i`` is the column ``F_i``.  Without external forces (gravity
    included) it is conserved — in world coordinates; in body-1 coordinates it turns with the
    base.

    Parameters
    ----------
    model : Model
        Floating-base model (body 1 joined to the fixed base by a Free joint).
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)

    Returns
    -------
    ndarray, shape (..., 6)
        ``[angular momentum about the base origin; linear momentum]`` in body-1 coordinates.

    Raises
    ------
    ValueError
        If the model has no floating base or a state array is invalid.
    """
    _require_floating(model)
    q, qd, _, _ = model.check_state(q, qd)
    fp = _forward_pass(model, q)
    _, F, Ic = _floating_crba(model, fp.Xup, fp.S)
    return _mv(Ic[1], qd[..., :6]) + _mv(F, qd[..., 6:])


@dataclass(frozen=True)
class Centroidal:
    """Centroidal quantities of a floating-base system (Featherstone Example 9.3).

    Everything is in the *centroidal frame*: origin at the centre of mass, axes parallel to
    the world's.

    Attributes
    ----------
    mass : float
        Total mass.
    com : ndarray, shape (..., 3)
        Centre of mass in world coordinates.
    com_velocity : ndarray, shape (..., 3)
        Its velocity, ``h_lin / m``.
    momentum : ndarray, shape (..., 6)
        Centroidal momentum ``h_G = [angular momentum about the CoM; linear momentum]``.
    inertia : ndarray, shape (..., 6, 6)
        Composite inertia of the whole system (as if all joints were locked) about the CoM:
        ``[[I_G, 0], [0, m 1]]``.
    """

    mass: float
    com: np.ndarray
    com_velocity: np.ndarray
    momentum: np.ndarray
    inertia: np.ndarray


def centroidal_momentum(model: Model, q, qd) -> Centroidal:
    """Centroidal momentum, composite inertia and centre-of-mass motion (Example 9.3).

    From the floating-base CRBA quantities: ``I_0^c`` gives the mass and the centre of mass
    (eq. 2.63's ``m c×`` block), ``h = I_0^c v_0 + F q̇`` the momentum; both are carried to the
    centroidal frame (origin at the CoM, world axes).  Its rate of change is the total
    external force about the CoM, ``[0; m g]`` under gravity alone, and ``ċ = h_lin / m``.

    Parameters
    ----------
    model : Model
        Floating-base model (body 1 joined to the fixed base by a Free joint).
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)

    Returns
    -------
    Centroidal

    Raises
    ------
    ValueError
        If the model has no floating base, a state array is invalid, or the total mass is 0.
    """
    _require_floating(model)
    q, qd, _, _ = model.check_state(q, qd)
    fp = _forward_pass(model, q)
    _, F, Ic = _floating_crba(model, fp.Xup, fp.S)
    X_1w = fp.X0[1]  # ^1X_0: world -> floating-base coordinates
    h_world = _mTv(X_1w, _mv(Ic[1], qd[..., :6]) + _mv(F, qd[..., 6:]))
    I_world = _T(X_1w) @ Ic[1] @ X_1w
    mass = float(sum(model.inertia[i][3, 3] for i in range(1, model.NB + 1)))
    if mass <= 0.0:
        raise ValueError("the model has zero total mass: no centre of mass")
    com = unskew(I_world[..., :3, 3:]) / mass
    X_G = xlt(com)  # centroidal frame from world: a pure translation to the CoM
    return Centroidal(
        mass=mass,
        com=com,
        com_velocity=h_world[..., 3:] / mass,
        momentum=apply_force(X_G, h_world),
        inertia=transform_inertia(X_G, I_world),
    )


def floating_jacobian(model: Model, q, body) -> np.ndarray:
    """Floating-base Jacobian ``J_i^fl = J_i - (I_0^c)⁻¹ F`` of a body (Example 9.4).

    ``J_i`` maps the joint velocities to body ``i``'s velocity relative to the floating base
    (columns ``S_j`` of the joints supporting it, in floating-base coordinates).  On a free
    system the base reacts to every joint motion: with no external impulse, a change ``δq̇``
    of the joint velocities changes the base velocity by ``-(I_0^c)⁻¹ F δq̇`` (momentum is
    unchanged), so body ``i``'s velocity changes by ``J_i^fl δq̇``; likewise
    ``a_i = J_i^fl q̈ + J̇_i q̇ - (I_0^c)⁻¹ p_0^c``.

    Parameters
    ----------
    model : Model
        Floating-base model (body 1 joined to the fixed base by a Free joint).
    q : array_like, shape (..., nq)
    body : int or str
        Body number ``1 … NB`` or name.

    Returns
    -------
    ndarray, shape (..., 6, nv - 6)
        In floating-base (body 1) coordinates.

    Raises
    ------
    ValueError
        If the model has no floating base, ``q`` is invalid, or ``body`` is not a body.
    """
    _require_floating(model)
    i = _body_index(model, body)
    if i == 0:
        raise ValueError("body 0 is the fixed world, not part of the floating system")
    q, _, _, _ = model.check_state(q)
    fp = _forward_pass(model, q)
    _, F, Ic = _floating_crba(model, fp.Xup, fp.S)
    batch = q.shape[:-1]
    J = np.zeros(batch + (6, model.nv - 6))
    for j in model.support(i)[1:]:  # the joints between the base and body i
        X_1j = fp.X0[1] @ xinv(fp.X0[j])  # ^1X_j
        J[..., :, _shift(model.v_index[j])] = X_1j @ fp.S[j]
    return J - np.linalg.solve(Ic[1], F)
