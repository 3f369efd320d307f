"""Denavit–Hartenberg-like body frames for the generator (Featherstone §10.3.1, optimization 1).

The operation counts of Table 10.1 assume Denavit–Hartenberg coordinate frames (Fig. 4.8): each
body's frame has its origin on its joint's axis, where the common normal from the parent's axis
meets it, and an axis along the common normal to the next joint's axis.  Then a link-to-link
transform has zeros that a general one lacks: the next axis is perpendicular to the normal,
and the next origin lies in the plane of the normal and the axis.

A model's body frames are the modeller's choice, and the generated code is free to work in
other ones: a body frame moved by a screw ``Y_i`` along its joint's own axis (a rotation about
it and a translation along it) commutes with the joint's transform ``X_J(q)`` for the axial
joints (revolute, prismatic, helical, cylindrical), so the joint keeps its ``X_J``, ``S`` and
variables, and only the constants change:

* ``X_T(i) → Y_i X_T(i) Y_λ(i)⁻¹``, that is ``E → R_i E R_λᵀ`` and
  ``r → R_λ (r + Eᵀ o_i - o_λ)`` for ``Y = rot(R) xlt(o)`` (eq. 2.24);
* ``I_i → Y_i* I_i Y_i⁻¹`` (eq. 2.66).

The base frame stays (gravity and external forces are given in it), so ``τ`` (RNEA), ``H``
(CRBA) and ``q̈`` (ABA), which depend on the joints' variables only, are the same in either set
of frames: the generated function is checked against the dense algorithm on the model as given.
"""

from __future__ import annotations

import numpy as np

from ..joints import Cylindrical, Helical, Prismatic, Revolute
from ..model import Model
from ..vectors.factored import translation_of
from ..vectors.plucker import _rotation_about

__all__ = ["dh_frames"]

_AXIAL = (Revolute, Prismatic, Helical, Cylindrical)
# an entry this close to 0 or ±1 after the change of frames is one in exact arithmetic
_SNAP = 1e-13


def _axis(model: Model, i: int) -> int | None:
    """The coordinate axis (0, 1, 2) of joint ``i`` if it is axial along ±x, ±y or ±z."""
    joint = model.joints[i]
    if type(joint) not in _AXIAL:
        return None
    u = np.abs(joint.axis)
    k = int(np.argmax(u))
    return k if u[k] == 1.0 and np.count_nonzero(u) == 1 else None


def _feet(p1, u1, p2, u2, near):
    """Where the common normal of two lines ``p + t u`` meets each: (foot on 1, foot on 2).

    For parallel (or coincident) lines the normal is not unique: the one through the point of
    line 1 nearest ``near`` is taken.
    """
    c = u1 @ u2
    d = p2 - p1
    det = 1.0 - c * c
    if det < 1e-12:
        t1 = (near - p1) @ u1
        foot1 = p1 + t1 * u1
        return foot1, p2 + ((foot1 - p2) @ u2) * u2
    t1 = (d @ u1 - c * (d @ u2)) / det
    t2 = (c * (d @ u1) - d @ u2) / det
    return p1 + t1 * u1, p2 + t2 * u2


def _turn_towards(k: int, n: np.ndarray) -> np.ndarray:
    """The coordinate rotation about axis ``k`` whose next axis ``(k + 1) % 3`` points along ``n``
    (``n ⊥ e_k``; the identity if ``n`` is zero)."""
    m, m2 = (k + 1) % 3, (k + 2) % 3
    if np.hypot(n[m], n[m2]) < 1e-12:
        return np.eye(3)
    return _rotation_about(np.arctan2(n[m2], n[m]), m, m2)


def _plux(E: np.ndarray, r: np.ndarray) -> np.ndarray:
    """``rot(E) xlt(r) = [[E, 0], [-E r×, E]]`` (eq. 2.24) in the type of ``E``."""
    x, y, z = r
    r_cross = np.array([[0, -z, y], [z, 0, -x], [-y, x, 0]], E.dtype)
    return np.block([[E, np.zeros_like(E)], [-E @ r_cross, E]])


def _snap(x: np.ndarray, targets: tuple, scale: float) -> np.ndarray:
    """``x`` with the entries within round-off of ``targets`` (relative to ``scale``) made exact."""
    for target in targets:
        x = np.where(np.abs(x - target) < _SNAP * scale, target, x)
    return x


def _general_entries(X_tree: list, inertia: list) -> int:
    """Entries of the tree transforms and inertias other than 0 and ±1: what costs arithmetic."""
    arrays = [np.asarray(a) for a in (*X_tree[1:], *inertia[1:])]
    return sum(int(np.count_nonzero((a != 0) & (np.abs(a) != 1))) for a in arrays)


def dh_frames(model: Model) -> tuple[list, list] | None:
    """``model``'s tree transforms and inertias in Denavit–Hartenberg-like body frames.

    Each body on an axial joint along a coordinate axis ``e_k`` (revolute, prismatic, helical,
    cylindrical) gets a frame moved along that axis (Featherstone Fig. 4.8, §10.3.1):

    * its origin where the common normal from the parent's axis meets it (for a parent with no
      such axis, where the normal to its first child's axis does);
    * its axis ``e_(k+1)`` along the common normal to its first axial child's axis (for a leaf,
      along the normal from its parent's axis).

    Then ``X_T`` of a first child has its axis perpendicular to the parent's ``e_(k+1)`` and its
    origin in the parent's plane of ``e_k`` and ``e_(k+1)``: two zeros per link, as in the
    book's transform by two axial screws.  Entries that are 0 or ±1 up to round-off are made
    exact.  Other bodies keep their frames.

    Parameters
    ----------
    model : Model
        A kinematic tree (not changed; its joints keep their meaning in the new frames).

    Returns
    -------
    tuple of two lists, or None
        The new ``X_tree`` and ``inertia`` lists (entry 0 ``None``), in the model's floating
        type; ``None`` when they have no fewer general entries (not 0, not ±1) than the model's
        own (a model already in such frames, such as a URDF arm in modified DH frames, keeps
        them).
    """
    dtype = np.longdouble if model.dtype == np.longdouble else np.float64
    NB = model.NB
    axes = [None] + [_axis(model, i) for i in range(1, NB + 1)]
    X = [None] + [np.asarray(model.X_tree[i], dtype) for i in range(1, NB + 1)]
    E = [None] + [X[i][:3, :3] for i in range(1, NB + 1)]
    r = [None] + [translation_of(X[i]) for i in range(1, NB + 1)]
    unit = np.eye(3, dtype=dtype)
    R = [unit] + [unit] * NB  # new-from-old rotations of the body frames
    o = [np.zeros(3, dtype)] * (NB + 1)  # new origins in old body coordinates
    children = [[j for j in range(i + 1, NB + 1) if model.parent[j] == i] for i in range(NB + 1)]
    first = [next((j for j in c if axes[j] is not None), None) for c in children]

    for i in range(1, NB + 1):
        k, p = axes[i], model.parent[i]
        if k is None:
            continue
        u = unit[k]
        j = first[i]
        # the child's axis in body i coordinates: through r_j along E_jᵀ e_k(j)
        child = None if j is None else (r[j], E[j].T @ unit[axes[j]])
        if p != 0 and axes[p] is not None:
            # the origin: the foot of the normal from the parent's axis, found in parent
            # coordinates (both axes are fixed there), then brought into body i's
            _, foot = _feet(o[p], unit[axes[p]], r[i], E[i].T @ u, o[p])
            o[i] = (E[i] @ (foot - r[i])) @ u * u
        elif child is not None:
            foot, _ = _feet(np.zeros(3, dtype), u, *child, np.zeros(3, dtype))
            o[i] = (foot @ u) * u
        if child is not None:
            foot, other = _feet(o[i], u, *child, o[i])
            n = other - foot
            if np.linalg.norm(n) < 1e-12:  # intersecting axes: the normal is u × w
                n = np.cross(u, child[1])
        elif p != 0 and axes[p] is not None and first[p] == i:
            # a leaf: along the normal from the parent's axis (the parent's e_(k+1))
            n = E[i] @ (R[p].T @ unit[(axes[p] + 1) % 3])
        else:
            n = np.zeros(3, dtype)
        R[i] = _turn_towards(k, n - (n @ u) * u).astype(dtype)

    X_tree, inertia = [None], [None]
    for i in range(1, NB + 1):
        p = model.parent[i]
        E_new = _snap(R[i] @ E[i] @ R[p].T, (0.0, 1.0, -1.0), 1.0)
        r_new = R[p] @ (r[i] + E[i].T @ o[i] - o[p])
        r_new = _snap(r_new, (0.0,), max(1.0, float(np.abs(r_new).max())))
        X_tree.append(_plux(E_new, r_new).astype(model.dtype))
        Y_inv = _plux(R[i].T, -R[i] @ o[i])  # (rot(R) xlt(o))⁻¹
        I_old = np.asarray(model.inertia[i], dtype)
        I = Y_inv.T @ I_old @ Y_inv  # Y* I Y⁻¹ with Y* = Y⁻ᵀ (eq. 2.66)
        I = _snap((I + I.T) / 2, (0.0,), max(1.0, float(np.abs(I).max())))
        if np.allclose(I[3:, 3:], I_old[3:, 3:], rtol=_SNAP, atol=0.0):
            I[3:, 3:] = I_old[3:, 3:]  # m·1 is the same in every frame
        inertia.append(I.astype(model.dtype))
    if _general_entries(X_tree, inertia) >= _general_entries(model.X_tree, model.inertia):
        return None
    return X_tree, inertia
