"""Compact spatial quantities and their arithmetic (Featherstone App. A.3, Tables A.3–A.4).

A 6x6 Plücker transform has only 12 independent numbers, ``(E, r)``; a rigid-body inertia 10,
``(m, h, lt(I))``; an articulated-body inertia 21, ``(lt(M), H, lt(I))``.  Working on these
instead of 6x6 matrices turns ``Xᵀ I X`` from two 6x6x6 products (432m + 360a) into 52m + 56a.
This module converts between the dense and the compact forms and applies the operations of
Table A.4 to the compact ones; :mod:`spatial.compact.counts` checks the costs of Table A.4 by
running the same code on symbols.

Every function validates its arguments once and then calls the unvalidated formulae of
:mod:`spatial.compact.kernels`; leading batch dimensions broadcast.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._validate import as_array, require_rotation
from ..vectors import plux, skew, unplux
from . import kernels as k

__all__ = [
    "Transform",
    "RigidInertia",
    "ArticulatedInertia",
    "compact_transform",
    "dense_transform",
    "compact_rbi",
    "dense_rbi",
    "compact_abi",
    "dense_abi",
    "transform_motion",
    "inv_transform_motion",
    "transform_force",
    "inv_transform_force",
    "compose",
    "inverse",
    "rbi_times_motion",
    "rbi_sum",
    "transform_rbi",
    "inv_transform_rbi",
    "transform_abi",
]


class Transform(NamedTuple):
    """``plx(E, r)``: the Plücker transform ``[[E, 0], [-E r×, E]]`` (Table A.3)."""

    E: np.ndarray
    r: np.ndarray


class RigidInertia(NamedTuple):
    """``rbi(m, h, lt(I))``: ``[[I, h×], [-h×, m·1]]``, ``I`` about the origin (Table A.3)."""

    m: np.ndarray
    h: np.ndarray
    I: np.ndarray


class ArticulatedInertia(NamedTuple):
    """``abi(lt(M), H, lt(I))``: ``[[I, H], [Hᵀ, M]]`` (Table A.3)."""

    M: np.ndarray
    H: np.ndarray
    I: np.ndarray


def _lt(A: np.ndarray) -> np.ndarray:
    return np.stack([A[..., i, j] for i, j in k.LT], axis=-1)


def _from_lt(L: np.ndarray) -> np.ndarray:
    return np.stack([np.stack([k.lt_get(L, i, j) for j in range(3)], -1) for i in range(3)], -2)


def _symmetric(A: np.ndarray, name: str, tol: float = 1e-10) -> None:
    scale = max(1.0, float(np.max(np.abs(A), initial=0.0)))
    if np.max(np.abs(A - np.swapaxes(A, -1, -2)), initial=0.0) > tol * scale:
        raise ValueError(f"{name} is not symmetric")


def _check_transform(T) -> Transform:
    if not isinstance(T, Transform):
        raise TypeError(f"expected a compact Transform(E, r), got {type(T).__name__}")
    E = as_array(T.E, "E", (3, 3))
    require_rotation(E, "E")
    return Transform(E, as_array(T.r, "r", (3,)))


def _check_rbi(I) -> RigidInertia:
    if not isinstance(I, RigidInertia):
        raise TypeError(f"expected a compact RigidInertia(m, h, I), got {type(I).__name__}")
    m = np.asarray(I.m, dtype=float)
    if not np.all(np.isfinite(m)) or np.any(m <= 0):
        raise ValueError(f"the mass m must be positive and finite, got {I.m!r}")
    return RigidInertia(m, as_array(I.h, "h", (3,)), as_array(I.I, "I", (6,)))


def _check_abi(I) -> ArticulatedInertia:
    if not isinstance(I, ArticulatedInertia):
        raise TypeError(f"expected a compact ArticulatedInertia(M, H, I), got {type(I).__name__}")
    return ArticulatedInertia(
        as_array(I.M, "M", (6,)), as_array(I.H, "H", (3, 3)), as_array(I.I, "I", (6,))
    )


# --------------------------------------------------------------------------- conversions


def compact_transform(X) -> Transform:
    """``(E, r)`` of a dense Plücker transform ``X = plux(E, r)`` (Table A.3).

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`spatial.unplux`).
    """
    return Transform(*unplux(X))


def dense_transform(T: Transform) -> np.ndarray:
    """The 6x6 matrix of a compact transform.

    Raises
    ------
    TypeError, ValueError
        If ``T`` is not a :class:`Transform` of a rotation and a finite 3-vector.
    """
    T = _check_transform(T)
    return plux(T.E, T.r)


def compact_rbi(I) -> RigidInertia:
    """``rbi(m, h, lt(I))`` of a dense rigid-body inertia (Table A.3).

    Raises
    ------
    ValueError
        If ``I`` is not a symmetric (..., 6, 6) matrix of the form ``[[I, h×], [-h×, m·1]]``
        with ``m > 0``.
    """
    I6 = as_array(I, "I", (6, 6))
    _symmetric(I6, "I")
    m = I6[..., 3, 3]
    lower = I6[..., 3:, 3:]
    scale = max(1.0, float(np.max(np.abs(I6))))
    if np.any(m <= 0) or np.max(np.abs(lower - m[..., None, None] * np.eye(3))) > 1e-10 * scale:
        raise ValueError("I is not a rigid-body inertia: its lower-right block must be m·1, m > 0")
    C = I6[..., :3, 3:]
    if np.max(np.abs(C + np.swapaxes(C, -1, -2))) > 1e-10 * scale:
        raise ValueError("I is not a rigid-body inertia: its upper-right block must be skew (h×)")
    h = np.stack([C[..., 2, 1], C[..., 0, 2], C[..., 1, 0]], axis=-1)
    return RigidInertia(m.copy(), h, _lt(I6[..., :3, :3]))


def dense_rbi(I: RigidInertia) -> np.ndarray:
    """The 6x6 matrix ``[[I, h×], [-h×, m·1]]`` of a compact rigid-body inertia.

    Raises
    ------
    TypeError, ValueError
        If ``I`` is not a :class:`RigidInertia` with ``m > 0`` and finite entries.
    """
    m, h, L = _check_rbi(I)
    top = np.concatenate([_from_lt(L), skew(h)], axis=-1)
    bottom = np.concatenate([-skew(h), m[..., None, None] * np.eye(3)], axis=-1)
    return np.concatenate([top, bottom], axis=-2)


def compact_abi(IA) -> ArticulatedInertia:
    """``abi(lt(M), H, lt(I))`` of a dense (symmetric) articulated-body inertia (Table A.3).

    Raises
    ------
    ValueError
        If ``IA`` is not a finite symmetric (..., 6, 6) matrix.
    """
    A = as_array(IA, "IA", (6, 6))
    _symmetric(A, "IA")
    return ArticulatedInertia(_lt(A[..., 3:, 3:]), A[..., :3, 3:].copy(), _lt(A[..., :3, :3]))


def dense_abi(IA: ArticulatedInertia) -> np.ndarray:
    """The 6x6 matrix ``[[I, H], [Hᵀ, M]]`` of a compact articulated-body inertia.

    Raises
    ------
    TypeError, ValueError
        If ``IA`` is not an :class:`ArticulatedInertia` with finite entries.
    """
    M, H, L = _check_abi(IA)
    top = np.concatenate([_from_lt(L), H], axis=-1)
    bottom = np.concatenate([np.swapaxes(H, -1, -2), _from_lt(M)], axis=-1)
    return np.concatenate([top, bottom], axis=-2)


# --------------------------------------------------------------------------- Table A.4


def transform_motion(T: Transform, v) -> np.ndarray:
    """``X v`` for motion vectors ``v`` (..., 6): ``mv(E ω, E (v - r × ω))``, 24m + 18a.

    Raises
    ------
    TypeError, ValueError
        If ``T`` is not a compact transform or ``v`` not finite with shape (..., 6).
    """
    T = _check_transform(T)
    return k.motion(T.E, T.r, as_array(v, "v", (6,)))


def inv_transform_motion(T: Transform, v) -> np.ndarray:
    """``X⁻¹ v``: ``mv(Eᵀ ω, Eᵀ v + r × Eᵀ ω)``, 24m + 18a (X.invApply).

    Raises
    ------
    TypeError, ValueError
        As :func:`transform_motion`.
    """
    T = _check_transform(T)
    return k.inv_motion(T.E, T.r, as_array(v, "v", (6,)))


def transform_force(T: Transform, f) -> np.ndarray:
    """``X* f`` for force vectors ``f`` (..., 6): ``fv(E (n - r × f), E f)``, 24m + 18a.

    Raises
    ------
    TypeError, ValueError
        As :func:`transform_motion`.
    """
    T = _check_transform(T)
    return k.force(T.E, T.r, as_array(f, "f", (6,)))


def inv_transform_force(T: Transform, f) -> np.ndarray:
    """``Xᵀ f``: ``fv(Eᵀ n + r × Eᵀ f, Eᵀ f)``, 24m + 18a (X.invApply).

    Raises
    ------
    TypeError, ValueError
        As :func:`transform_motion`.
    """
    T = _check_transform(T)
    return k.inv_force(T.E, T.r, as_array(f, "f", (6,)))


def compose(T1: Transform, T2: Transform) -> Transform:
    """``X₁ X₂ = plx(E₁ E₂, r₂ + E₂ᵀ r₁)``, 33m + 24a with §A.5's rotation product.

    Raises
    ------
    TypeError, ValueError
        If either argument is not a compact transform.
    """
    T1, T2 = _check_transform(T1), _check_transform(T2)
    return Transform(*k.compose(T1.E, T1.r, T2.E, T2.r))


def inverse(T: Transform) -> Transform:
    """``X⁻¹ = plx(Eᵀ, -E r)``, 9m + 6a.

    Raises
    ------
    TypeError, ValueError
        If ``T`` is not a compact transform.
    """
    T = _check_transform(T)
    return Transform(*k.inverse(T.E, T.r))


def rbi_times_motion(I: RigidInertia, v) -> np.ndarray:
    """``I v = fv(I ω + h × v, m v - h × ω)``, 24m + 18a.

    Raises
    ------
    TypeError, ValueError
        If ``I`` is not a compact rigid-body inertia or ``v`` not finite with shape (..., 6).
    """
    I = _check_rbi(I)
    return k.rbi_motion(*I, as_array(v, "v", (6,)))


def rbi_sum(I1: RigidInertia, I2: RigidInertia) -> RigidInertia:
    """``I₁ + I₂``, 10a (the ``ra`` of eq. 10.2).

    Raises
    ------
    TypeError, ValueError
        If either argument is not a compact rigid-body inertia.
    """
    return RigidInertia(*k.rbi_add(_check_rbi(I1), _check_rbi(I2)))


def transform_rbi(T: Transform, I: RigidInertia) -> RigidInertia:
    """``X* I X⁻¹ = rbi(m, E(h - m r), lt(E Z Eᵀ))``, 52m + 56a (the ``rx`` of eq. 10.2).

    Raises
    ------
    TypeError, ValueError
        If the arguments are not a compact transform and a compact rigid-body inertia.
    """
    T, I = _check_transform(T), _check_rbi(I)
    return RigidInertia(*k.rbi_transform(T.E, T.r, *I))


def inv_transform_rbi(T: Transform, I: RigidInertia) -> RigidInertia:
    """``Xᵀ I X``, 52m + 56a (X.invApply of an inertia).

    Raises
    ------
    TypeError, ValueError
        As :func:`transform_rbi`.
    """
    T, I = _check_transform(T), _check_rbi(I)
    return RigidInertia(*k.rbi_inv_transform(T.E, T.r, *I))


def transform_abi(T: Transform, IA: ArticulatedInertia) -> ArticulatedInertia:
    """``X* Iᴬ X⁻¹`` on compact articulated-body inertias (Table A.4; 135m + 139a here).

    Raises
    ------
    TypeError, ValueError
        If the arguments are not a compact transform and a compact articulated-body inertia.
    """
    T, IA = _check_transform(T), _check_abi(IA)
    return ArticulatedInertia(*k.abi_transform(T.E, T.r, *IA))
