"""Axial screw transforms (Featherstone App. A.4, Table A.5; §A.5's axial rotations).

An axial screw ``scrz(θ, d) = rz(θ) xlt([0, 0, d])`` turns about and slides along one coordinate
axis (the two commute).  Two of them, one about z with the joint angle and one about x with a
constant twist, take one Denavit–Hartenberg frame to the next (§10.3.1), which is why the cost
formulae of Table 10.1 are built on them.  With ``E`` an axial rotation and ``r = d·e_axis``
most products in Table A.4's formulae vanish:

* a motion or force vector costs 10m + 6a (against 24m + 18a for a general transform);
* a rigid-body inertia 16m + 15a, plus 2m + 3a each time the angle changes, to form
  ``cs, s², 2cs, 1 - 2s²`` for the rotation of a symmetric matrix about an axis (§A.5).

The screws about x and y are the one about z in cyclically relabelled coordinates
(``(y, z, x)`` and ``(z, x, y)``), which keeps the handedness, so one set of formulae serves all
three axes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import as_array, as_scalar_array
from ..vectors import plux, rx, ry, rz
from . import kernels as k
from .forms import RigidInertia, _check_rbi

__all__ = [
    "AxialScrew",
    "axial_screw",
    "screw_transform",
    "screw_motion",
    "screw_force",
    "screw_rbi",
]

_AXES = {"x": 0, "y": 1, "z": 2}


class AxialScrew(NamedTuple):
    """``scr_axis(θ, d)`` with the one-time quantities of §A.5 (Table A.5's data structure)."""

    axis: str
    c: np.ndarray
    s: np.ndarray
    d: np.ndarray
    cs: np.ndarray
    s2: np.ndarray
    two_cs: np.ndarray
    one_minus_2s2: np.ndarray


def _screw_constants(c, s):
    """``cs, s², 2cs, 1 - 2s²``: the one-time cost 2m + 3a of Table A.5."""
    cs, s2 = c * s, s * s
    return cs, s2, cs + cs, 1.0 - s2 - s2


def axial_screw(axis: str, theta, d) -> AxialScrew:
    """The screw ``scr_axis(θ, d) = r_axis(θ) xlt(d e_axis)`` (App. A.4).

    Parameters
    ----------
    axis : {"x", "y", "z"}
    theta, d : float or array_like
        Angle (rad) and translation along the axis; they broadcast.

    Raises
    ------
    ValueError
        If ``axis`` is not one of x, y, z, or ``theta``/``d`` are not finite.
    """
    if axis not in _AXES:
        raise ValueError(f"axis must be 'x', 'y' or 'z', got {axis!r}")
    theta, d = np.broadcast_arrays(as_scalar_array(theta, "theta"), as_scalar_array(d, "d"))
    c, s = np.cos(theta), np.sin(theta)
    return AxialScrew(axis, c, s, d.astype(float), *_screw_constants(c, s))


def _check_screw(S) -> AxialScrew:
    if not isinstance(S, AxialScrew):
        raise TypeError(f"expected an AxialScrew (see axial_screw), got {type(S).__name__}")
    return S


def screw_transform(S: AxialScrew) -> np.ndarray:
    """The dense 6x6 transform of an axial screw, ``plux(r_axis(θ), d e_axis)``.

    Raises
    ------
    TypeError
        If ``S`` is not an :class:`AxialScrew`.
    """
    S = _check_screw(S)
    theta = np.arctan2(S.s, S.c)
    E = {"x": rx, "y": ry, "z": rz}[S.axis](theta)
    r = np.zeros(np.shape(S.d) + (3,))
    r[..., _AXES[S.axis]] = S.d
    return plux(E, r)


def _order(axis: str) -> list[int]:
    """Global indices of the local (x', y', z') in which the screw is about z'."""
    a = _AXES[axis]
    return [(a + 1) % 3, (a + 2) % 3, a]


def _z_vector(c, s, d, top, bottom, force: bool):
    """A z screw applied to a motion (``top = ω``) or force (``top = n``) vector: 10m + 6a."""
    if force:  # X* f = fv(E (n - r × f), E f), r × f = d [-f_y, f_x, 0]
        top, bottom = bottom, top
    # u = bottom - r × top (2m + 2a)
    u = [bottom[0] + d * top[1], bottom[1] - d * top[0], bottom[2]]
    rot = lambda x: [c * x[0] + s * x[1], c * x[1] - s * x[0], x[2]]  # noqa: E731  (4m + 2a)
    if force:
        return rot(u), rot(top)
    return rot(top), rot(u)


def screw_vector_kernel(S: AxialScrew, x, force: bool):
    """Unvalidated: an axial screw applied to a motion or force vector (..., 6)."""
    p = _order(S.axis)
    top = [x[..., i] for i in p]
    bottom = [x[..., 3 + i] for i in p]
    a, b = _z_vector(S.c, S.s, S.d, top, bottom, force)
    out = [None] * 6
    for local, glob in enumerate(p):
        out[glob], out[3 + glob] = a[local], b[local]
    return k.stack(out)


def screw_motion(S: AxialScrew, v) -> np.ndarray:
    """``X v`` for an axial screw ``X``: 10m + 6a (Table A.5).

    Raises
    ------
    TypeError, ValueError
        If ``S`` is not an :class:`AxialScrew` or ``v`` not finite with shape (..., 6).
    """
    return screw_vector_kernel(_check_screw(S), as_array(v, "v", (6,)), force=False)


def screw_force(S: AxialScrew, f) -> np.ndarray:
    """``X* f`` for an axial screw ``X``: 10m + 6a (Table A.5).

    Raises
    ------
    TypeError, ValueError
        As :func:`screw_motion`.
    """
    return screw_vector_kernel(_check_screw(S), as_array(f, "f", (6,)), force=True)


def screw_rbi_kernel(S: AxialScrew, m, h, L):
    """Unvalidated: ``X* I X⁻¹`` for an axial screw, 16m + 15a (App. A.4)."""
    p = _order(S.axis)
    A = lambda i, j: k.lt_get(L, p[i], p[j])  # noqa: E731  local element (i, j) of lt(I)
    hx, hy, hz = (h[..., i] for i in p)
    d = S.d
    yz = hz - m * d  # y = h - m r (1m + 1a)
    t = (hz + yz) * d  # lt(r×h× + y×r×) (3m + 1a), added to lt(I) (4a)
    Z11, Z21, Z22 = A(0, 0) - t, A(1, 0), A(1, 1) - t
    Z31, Z32, Z33 = A(2, 0) + hx * d, A(2, 1) + hy * d, A(2, 2)
    c, s = S.c, S.s
    y = [c * hx + s * hy, c * hy - s * hx, yz]  # E y (4m + 2a)
    # lt(rz Z rzᵀ) for symmetric Z (§A.5): 8m + 7a
    D = Z22 - Z11
    alpha = S.two_cs * Z21 + S.s2 * D
    beta = S.cs * D + S.one_minus_2s2 * Z21
    B = {(0, 0): Z11 + alpha, (1, 0): beta, (1, 1): Z22 - alpha}
    B[2, 0], B[2, 1], B[2, 2] = c * Z31 + s * Z32, c * Z32 - s * Z31, Z33
    # back to global coordinates
    inv = {g: local for local, g in enumerate(p)}
    out_L = []
    for i, j in k.LT:
        a, b = inv[i], inv[j]
        out_L.append(B[max(a, b), min(a, b)])
    out_h = [None] * 3
    for local, g in enumerate(p):
        out_h[g] = y[local]
    return m, k.stack(out_h), k.stack(out_L)


def screw_rbi(S: AxialScrew, I: RigidInertia) -> RigidInertia:
    """``X* I X⁻¹`` of a compact rigid-body inertia by an axial screw: 16m + 15a (Table A.5).

    Raises
    ------
    TypeError, ValueError
        If ``S`` is not an :class:`AxialScrew` or ``I`` not a compact rigid-body inertia.
    """
    return RigidInertia(*screw_rbi_kernel(_check_screw(S), *_check_rbi(I)))
