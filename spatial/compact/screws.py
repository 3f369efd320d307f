"""Axial screw transforms (Featherstone App. A.4, Table A.5; §A.5's axial rotations).

An axial screw ``scrz(θ, d) = rz(θ) xlt([0, 0, d])`` turns about and slides along one coordinate
axis (the two commute).  Two of them, one about z with the joint angle and one about x with a
constant twist, take one Denavit–Hartenberg frame to the next (§10.3.1), which is why the cost
formulae of Table 10.1 are built on them.  With ``E`` an axial rotation and ``r = d·e_axis``
most products in Table A.4's formulae vanish:

* a motion or force vector costs 10m + 6a (against 24m + 18a for a general transform);
* a rigid-body inertia 16m + 15a, plus 2m + 3a each time the angle changes, to form
  ``cs, s², 2cs, 1 - 2s²`` for the rotation of a symmetric matrix about an axis (§A.5);
* an articulated-body inertia 38m + 40a (two symmetric rotations and one general one, §A.5),
  and 28m + 34a for the ``Iᵃ = Iᴬ - IᴬS(SᵀIᴬS)⁻¹SᵀIᴬ`` of a revolute joint about z, whose row
  and column 3 are zero and stay zero under a z screw (the articulated-body algorithm's case);
  the x or y screw that follows it in a Denavit–Hartenberg step costs 32m + 28a: it rotates
  first, while the zeros still spare work, and translates after (62m + 65a for the step).

The screws about x and y are the one about z in cyclically relabelled coordinates
(``(y, z, x)`` and ``(z, x, y)``), which keeps the handedness, so one set of formulae serves all
three axes.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import as_array, as_scalar_array, broadcast_batch
from ..vectors import plux, rx, ry, rz
from . import kernels as k
from .forms import ArticulatedInertia, RigidInertia, _check_abi, _check_rbi

__all__ = [
    "AxialScrew",
    "axial_screw",
    "screw_transform",
    "screw_motion",
    "screw_force",
    "screw_rbi",
    "screw_abi",
    "screw_abi_revolute_z",
    "screw_abi_revolute_xy",
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
        If ``axis`` is not one of x, y, z, or ``theta``/``d`` are not finite or do not broadcast.
    """
    if axis not in _AXES:
        raise ValueError(f"axis must be 'x', 'y' or 'z', got {axis!r}")
    theta, d = as_scalar_array(theta, "theta"), as_scalar_array(d, "d")
    broadcast_batch(theta=(theta, 0), d=(d, 0))  # the one message for shapes that do not fit
    theta, d = np.broadcast_arrays(theta, d)
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


# The rotations below also serve matrices with a zero row (and column): ``None`` stands for the
# zero elements and the arithmetic on them is skipped, so the same formulae count what such a
# matrix costs (the x and y screws of Table A.5's ``Iᵃ``).


def _times(a, b):
    return None if a is None or b is None else a * b


def _plus(a, b):
    return a if b is None else b if a is None else a + b


def _minus(a, b):
    return a if b is None else -b if a is None else a - b


def _rotate_symmetric_z(S: AxialScrew, A):
    """``lt(rz A rzᵀ)`` of a symmetric ``A`` given as a function ``A(i, j)``: 8m + 7a (§A.5).

    With row and column 0 or 1 zero (``None``) it costs 4m + 1a.
    """
    c, s = S.c, S.s
    D = _minus(A(1, 1), A(0, 0))
    alpha = _plus(_times(S.two_cs, A(1, 0)), _times(S.s2, D))
    beta = _plus(_times(S.cs, D), _times(S.one_minus_2s2, A(1, 0)))
    B = {(0, 0): _plus(A(0, 0), alpha), (1, 0): beta, (1, 1): _minus(A(1, 1), alpha)}
    B[2, 0] = _plus(_times(c, A(2, 0)), _times(s, A(2, 1)))
    B[2, 1] = _minus(_times(c, A(2, 1)), _times(s, A(2, 0)))
    B[2, 2] = A(2, 2)
    return B


def _rotate_general_z(S: AxialScrew, A):
    """``rz A rzᵀ`` of a general ``A`` given as a function ``A(i, j)``: 12m + 12a (§A.5).

    With row 0 or 1 zero (``None``) it costs 10m + 6a.
    """
    c, s = S.c, S.s
    plus, diff = _plus(A(0, 1), A(1, 0)), _minus(A(1, 1), A(0, 0))
    alpha = _plus(_times(S.cs, plus), _times(S.s2, diff))
    beta = _minus(_times(S.cs, diff), _times(S.s2, plus))
    B = {(0, 0): _plus(A(0, 0), alpha), (0, 1): _plus(A(0, 1), beta)}
    B[1, 0], B[1, 1] = _plus(A(1, 0), beta), _minus(A(1, 1), alpha)
    B[0, 2] = _plus(_times(c, A(0, 2)), _times(s, A(1, 2)))
    B[1, 2] = _minus(_times(c, A(1, 2)), _times(s, A(0, 2)))
    B[2, 0] = _plus(_times(c, A(2, 0)), _times(s, A(2, 1)))
    B[2, 1] = _minus(_times(c, A(2, 1)), _times(s, A(2, 0)))
    B[2, 2] = A(2, 2)
    return B


def _lt_to_global(B, p):
    inv = {g: local for local, g in enumerate(p)}
    out = []
    for i, j in k.LT:
        a, b = inv[i], inv[j]
        out.append(B[max(a, b), min(a, b)])
    return k.stack(out)


def screw_abi_kernel(S: AxialScrew, M, H, L):
    """Unvalidated: ``X* Iᴬ X⁻¹`` for an axial screw, 38m + 40a (App. A.4, Table A.5).

    With ``r = d e_z``: ``r×M`` has two non-zero rows and, ``M`` being symmetric, five distinct
    products (5m); ``Y = H - r×M`` (6a); ``lt(-r×Hᵀ + Y r×)`` needs
    ``(H₁₂ + Y₁₂)d, (Y₂₂ - H₁₁)d, -(H₂₁ + Y₂₁)d, H₃₂d, -H₃₁d`` (5m + 3a) and its sum with
    ``lt(I)`` 5a; then ``E M Eᵀ`` and ``E Z Eᵀ`` (8m + 7a each) and ``E Y Eᵀ`` (12m + 12a).
    """
    p = _order(S.axis)
    Mg = lambda i, j: k.lt_get(M, p[i], p[j])  # noqa: E731  local elements
    Hg = lambda i, j: H[..., p[i], p[j]]  # noqa: E731
    Ig = lambda i, j: k.lt_get(L, p[i], p[j])  # noqa: E731
    Y, Z = _translate_z(S.d, Mg, Hg, Ig)  # 10m + 17a
    M_new = _rotate_symmetric_z(S, Mg)
    Y_new = _rotate_general_z(S, lambda i, j: Y[i, j])
    Z_new = _rotate_symmetric_z(S, lambda i, j: Z[max(i, j), min(i, j)])
    return _abi_to_global(M_new, Y_new, Z_new, p)


def _translate_z(d, Mg, Hg, Ig):
    """``Y = H - r×M`` (5m + 6a) and ``Z = I - r×Hᵀ + Y r×`` (5m + 8a) for ``r = d e_z``.

    ``M``, ``H``, ``I`` are given as functions ``(i, j) -> element``; ``Y`` is returned as a
    dict of all nine elements and ``Z`` as its lower triangle.
    """
    # r × M = [[-M21 d, -M22 d, -M23 d], [M11 d, M12 d, M13 d], [0, 0, 0]]
    m21, m22, m23, m11, m13 = (Mg(1, 0) * d, Mg(1, 1) * d, Mg(1, 2) * d, Mg(0, 0) * d, Mg(0, 2) * d)
    Y = {(i, j): Hg(i, j) for i in range(3) for j in range(3)}
    Y[0, 0], Y[0, 1], Y[0, 2] = Hg(0, 0) + m21, Hg(0, 1) + m22, Hg(0, 2) + m23
    Y[1, 0], Y[1, 1], Y[1, 2] = Hg(1, 0) - m11, Hg(1, 1) - m21, Hg(1, 2) - m13
    Z = {
        (0, 0): Ig(0, 0) + (Hg(0, 1) + Y[0, 1]) * d,
        (1, 0): Ig(1, 0) + (Y[1, 1] - Hg(0, 0)) * d,
        (1, 1): Ig(1, 1) - (Hg(1, 0) + Y[1, 0]) * d,
        (2, 0): Ig(2, 0) + Hg(2, 1) * d,
        (2, 1): Ig(2, 1) - Hg(2, 0) * d,
        (2, 2): Ig(2, 2),
    }
    return Y, Z


def _abi_to_global(M_new, H_new, I_new, p):
    """Compact ``(lt(M), H, lt(I))`` in global order from local dicts (``p`` as :func:`_order`)."""
    inv = {g: local for local, g in enumerate(p)}
    H_out = np.stack(
        [k.stack([H_new[inv[i], inv[j]] for j in range(3)]) for i in range(3)], axis=-2
    )
    return _lt_to_global(M_new, p), H_out, _lt_to_global(I_new, p)


def screw_abi(S: AxialScrew, IA: ArticulatedInertia) -> ArticulatedInertia:
    """``X* Iᴬ X⁻¹`` of a compact articulated-body inertia by an axial screw: 38m + 40a.

    Raises
    ------
    TypeError, ValueError
        If ``S`` is not an :class:`AxialScrew` or ``IA`` not a compact articulated inertia.
    """
    return ArticulatedInertia(*screw_abi_kernel(_check_screw(S), *_check_abi(IA)))


def screw_abi_zero_row_kernel(S: AxialScrew, M, H, L):
    """Unvalidated: a z screw of ``Iᵃ`` with row and column 3 zero, 28m + 34a (Table A.5).

    The zeros are ``I₁₃ = I₂₃ = I₃₃ = 0`` and the third row of ``H``; every term that would
    multiply them is left out, and they stay zero.
    """
    c, s, d = S.c, S.s, S.d
    Mg = lambda i, j: k.lt_get(M, i, j)  # noqa: E731
    m21, m22, m23, m11, m13 = (Mg(1, 0) * d, Mg(1, 1) * d, Mg(1, 2) * d, Mg(0, 0) * d, Mg(0, 2) * d)
    Y = {(0, 0): H[..., 0, 0] + m21, (0, 1): H[..., 0, 1] + m22, (0, 2): H[..., 0, 2] + m23}
    Y[1, 0], Y[1, 1], Y[1, 2] = H[..., 1, 0] - m11, H[..., 1, 1] - m21, H[..., 1, 2] - m13
    Z11 = L[..., 0] + (H[..., 0, 1] + Y[0, 1]) * d  # lt(Z): the third row and column vanish
    Z21 = L[..., 1] + (Y[1, 1] - H[..., 0, 0]) * d
    Z22 = L[..., 2] - (H[..., 1, 0] + Y[1, 0]) * d
    M_new = _rotate_symmetric_z(S, Mg)  # 8m + 7a
    # E Y Eᵀ with the third row of Y zero (8m + 10a)
    plus, diff = Y[0, 1] + Y[1, 0], Y[1, 1] - Y[0, 0]
    alpha, beta = S.cs * plus + S.s2 * diff, S.cs * diff - S.s2 * plus
    zero = np.zeros_like(np.asarray(Z11))  # the entries that stay zero (no arithmetic)
    rows = [
        [Y[0, 0] + alpha, Y[0, 1] + beta, c * Y[0, 2] + s * Y[1, 2]],
        [Y[1, 0] + beta, Y[1, 1] - alpha, c * Y[1, 2] - s * Y[0, 2]],
        [zero, zero, zero],
    ]
    # lt(E Z Eᵀ) with the third row and column of Z zero (4m + 5a)
    D = Z22 - Z11
    a_z, b_z = S.two_cs * Z21 + S.s2 * D, S.cs * D + S.one_minus_2s2 * Z21
    I_new = k.stack([Z11 + a_z, b_z, Z22 - a_z, zero, zero, zero])
    H_new = np.stack([k.stack(row) for row in rows], axis=-2)
    return _lt_to_global(M_new, [0, 1, 2]), H_new, I_new


def screw_abi_revolute_z(S: AxialScrew, IA: ArticulatedInertia) -> ArticulatedInertia:
    """A z screw of ``Iᵃ`` whose row and column 3 are zero (revolute about z): 28m + 34a.

    Raises
    ------
    TypeError, ValueError
        If ``S`` is not an :class:`AxialScrew` about z, ``IA`` not a compact articulated
        inertia, or its row and column 3 (``I₁₃, I₂₃, I₃₃`` and the third row of ``H``) are not
        zero.
    """
    S, IA = _check_screw(S), _check_zero_row_3(_check_abi(IA))
    if S.axis != "z":
        raise ValueError(f"screw_abi_revolute_z needs a screw about z, got {S.axis!r}")
    return ArticulatedInertia(*screw_abi_zero_row_kernel(S, *IA))


def _check_zero_row_3(IA: ArticulatedInertia) -> ArticulatedInertia:
    """``IA`` if its row and column 3 (``I₁₃, I₂₃, I₃₃`` and row 3 of ``H``) are zero."""
    M, H, L = IA
    tail = np.concatenate([L[..., [3, 4, 5]], H[..., 2, :]], axis=-1)
    if np.max(np.abs(tail), initial=0.0) > 1e-12 * max(1.0, float(np.max(np.abs(L)))):
        raise ValueError("row and column 3 of the articulated inertia must be zero")
    return IA


# The x and y screws do not keep the zeros (§A.4), so they rotate first, while the zeros still
# save work, and translate afterwards: with ``r`` along the screw axis, ``E r = r`` and hence
# ``E (r×) Eᵀ = r×``, so translating the rotated matrices gives the same result.  In local
# coordinates the zero row is local 1 for an x screw (local axes y, z, x) and local 0 for a y
# screw (z, x, y); ``None`` stands for its elements, which the rotations above skip.


def screw_abi_zero_row_xy_kernel(S: AxialScrew, M, H, L):
    """Unvalidated: an x or y screw of ``Iᵃ`` with row and column 3 zero, 32m + 28a (Table A.5).

    ``M' = E M Eᵀ`` (8m + 7a), ``H' = E H Eᵀ`` with the zero row (10m + 6a),
    ``Y = H' - r×M'`` (5m + 6a), ``I' = E I Eᵀ`` with the zero row and column (4m + 1a) and
    ``I' - r×H'ᵀ + Y r×`` (5m + 8a).  The zero elements of ``H`` and ``I`` are not read.
    """
    p = _order(S.axis)
    Mg = lambda i, j: k.lt_get(M, p[i], p[j])  # noqa: E731  local elements
    Hg = lambda i, j: None if p[i] == 2 else H[..., p[i], p[j]]  # noqa: E731  row 3 is zero
    Ig = lambda i, j: None if 2 in (p[i], p[j]) else k.lt_get(L, p[i], p[j])  # noqa: E731
    M_rot = _rotate_symmetric_z(S, Mg)
    H_rot = _rotate_general_z(S, Hg)
    I_rot = _rotate_symmetric_z(S, Ig)
    Y, Z = _translate_z(
        S.d,
        lambda i, j: M_rot[max(i, j), min(i, j)],
        lambda i, j: H_rot[i, j],
        lambda i, j: I_rot[max(i, j), min(i, j)],
    )
    return _abi_to_global(M_rot, Y, Z, p)


def screw_abi_revolute_xy(S: AxialScrew, IA: ArticulatedInertia) -> ArticulatedInertia:
    """An x or y screw of ``Iᵃ`` whose row and column 3 are zero: 32m + 28a (Table A.5).

    The second screw of a Denavit–Hartenberg step in the articulated-body algorithm (after
    :func:`screw_abi_revolute_z`, which keeps the zeros); the result has no zeros in general.

    Raises
    ------
    TypeError, ValueError
        If ``S`` is not an :class:`AxialScrew` about x or y, ``IA`` not a compact articulated
        inertia, or its row and column 3 are not zero.
    """
    S, IA = _check_screw(S), _check_zero_row_3(_check_abi(IA))
    if S.axis == "z":
        raise ValueError(
            "screw_abi_revolute_xy needs a screw about x or y, got 'z' (see screw_abi_revolute_z)"
        )
    return ArticulatedInertia(*screw_abi_zero_row_xy_kernel(S, *IA))


def screw_rbi_kernel(S: AxialScrew, m, h, L):
    """Unvalidated: ``X* I X⁻¹`` for an axial screw, 16m + 15a (App. A.4)."""
    p = _order(S.axis)
    A = lambda i, j: k.lt_get(L, p[i], p[j])  # noqa: E731  local element (i, j) of lt(I)
    hx, hy, hz = (h[..., i] for i in p)
    d = S.d
    yz = hz - m * d  # y = h - m r (1m + 1a)
    t = (hz + yz) * d  # lt(r×h× + y×r×) (3m + 1a), added to lt(I) (4a)
    Z = {(0, 0): A(0, 0) - t, (1, 0): A(1, 0), (1, 1): A(1, 1) - t}
    Z[2, 0], Z[2, 1], Z[2, 2] = A(2, 0) + hx * d, A(2, 1) + hy * d, A(2, 2)
    c, s = S.c, S.s
    y = [c * hx + s * hy, c * hy - s * hx, yz]  # E y (4m + 2a)
    B = _rotate_symmetric_z(S, lambda i, j: Z[max(i, j), min(i, j)])  # 8m + 7a
    out_h = [None] * 3
    for local, g in enumerate(p):
        out_h[g] = y[local]
    return m, k.stack(out_h), _lt_to_global(B, p)


def screw_rbi(S: AxialScrew, I: RigidInertia) -> RigidInertia:
    """``X* I X⁻¹`` of a compact rigid-body inertia by an axial screw: 16m + 15a (Table A.5).

    Raises
    ------
    TypeError, ValueError
        If ``S`` is not an :class:`AxialScrew` or ``I`` not a compact rigid-body inertia.
    """
    return RigidInertia(*screw_rbi_kernel(_check_screw(S), *_check_rbi(I)))
