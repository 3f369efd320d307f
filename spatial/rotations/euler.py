"""Euler angles: three turns about body-fixed axes (Sueda §2.4.5–2.4.6, Featherstone §4.5).

Any orientation can be reached by turning the body three times, each time about one of its own
(current) axes.  With the axis sequence ``seq = "abc"`` and angles ``(q₁, q₂, q₃)``, the body is
turned by ``q₁`` about ``a``, then by ``q₂`` about the new ``b``, then by ``q₃`` about the newest
``c``, so ``R = R_a(q₁) R_b(q₂) R_c(q₃)`` (:func:`euler_to_matrix`; Sueda eq. 2.31 for ``"XZX"``,
eq. 2.36 for ``"XYZ"``; ``"ZYX"`` is Featherstone's yaw-pitch-roll, eq. 4.7, and ArtiSynth's
roll-pitch-yaw of :mod:`.rpy`).

Differentiating ``R`` gives the body angular velocity as ``ω = S(q) q̇``; column ``i`` of ``S``
is the ``i``-th turning axis seen from the body (:func:`euler_S`, Sueda eqs. 2.30 and 2.34,
Featherstone eq. 4.8).  Its derivative ``Ṡ`` supplies the velocity-product term ``Ṡ q̇`` of a
spherical joint (:func:`euler_S_dot`, Sueda eq. 2.35, Featherstone eq. 4.9).  Every set of three
angles has a singularity: ``S`` loses rank where the first and third axes line up.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array
from ..vectors.plucker import _COORDINATE_ROTATIONS

__all__ = ["euler_to_matrix", "euler_S", "euler_S_dot"]


_AXIS_INDEX = {"X": 0, "Y": 1, "Z": 2}
_COORDINATE_ROTATION = _COORDINATE_ROTATIONS  # rx, ry, rz without validation: kernels here


def _euler_seq(seq: str) -> str:
    if (
        not isinstance(seq, str)
        or len(seq) != 3
        or any(c not in _AXIS_INDEX for c in seq)
        or seq[0] == seq[1]
        or seq[1] == seq[2]
    ):
        raise ValueError(
            f"seq must be three axis letters from 'XYZ' with no two consecutive equal "
            f"(e.g. 'XZX', 'XYZ', 'ZYX'), got {seq!r}"
        )
    return seq


def euler_to_matrix(angles, seq: str) -> np.ndarray:
    """Active rotation ``R = R_a(q₁) R_b(q₂) R_c(q₃)`` of intrinsic Euler angles (Sueda §2.4.5).

    The body is turned by ``q₁`` about axis ``a``, then by ``q₂`` about the *new* axis ``b``, then
    by ``q₃`` about the newest axis ``c``, where ``seq = "abc"``; e.g. ``"XZX"`` gives Sueda
    eq. 2.31, ``"XYZ"`` eq. 2.36, and ``"ZYX"`` the roll-pitch-yaw matrix of ArtiSynth §0.4.
    Each factor is the transpose of the coordinate rotation of :func:`spatial.rx` etc.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
        ``(q₁, q₂, q₃)`` in radians.
    seq : str
        Three axis letters from ``"XYZ"``, no two consecutive equal.

    Returns
    -------
    ndarray, shape (..., 3, 3)
        Body → base rotation.

    Raises
    ------
    ValueError
        If ``seq`` is invalid or ``angles`` is not a finite (..., 3) array.
    """
    return np.swapaxes(_euler_E(as_array(angles, "angles", (3,)), _euler_seq(seq)), -1, -2)


def _euler_E(q: np.ndarray, seq: str) -> np.ndarray:
    """Unvalidated kernel: the coordinate rotation ``E = Rᵀ = E₃ E₂ E₁`` (..., 3, 3)."""
    E = [_COORDINATE_ROTATION[c](q[..., i]) for i, c in enumerate(seq)]
    return E[2] @ E[1] @ E[0]


def euler_S(angles, seq: str) -> np.ndarray:
    """Map ``q̇ ↦ ω`` from Euler-angle rates to body angular velocity (Sueda eqs. 2.30, 2.34).

    Column ``i`` is ``unskew(Rᵀ ∂R/∂qᵢ)``: the i-th rotation axis expressed in body coordinates,
    ``S = [R₃ᵀR₂ᵀ a,  R₃ᵀ b,  c]`` for ``seq = "abc"``.  This is the angular block of the 6x3
    motion subspace of a spherical joint (the linear block is zero); ``"ZYX"`` gives
    Featherstone eq. 4.8.  Singular where the first and third axes align.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
    seq : str
        Three axis letters from ``"XYZ"``, no two consecutive equal.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``seq`` is invalid or ``angles`` is not a finite (..., 3) array.
    """
    return _euler_S(as_array(angles, "angles", (3,)), _euler_seq(seq))


def _euler_S(q: np.ndarray, seq: str) -> np.ndarray:
    """Unvalidated kernel of :func:`euler_S`."""
    axes = np.eye(3)[[_AXIS_INDEX[c] for c in seq]]
    E2 = _COORDINATE_ROTATION[seq[1]](q[..., 1])
    E3 = _COORDINATE_ROTATION[seq[2]](q[..., 2])
    S3 = np.broadcast_to(axes[2], q.shape)
    S2 = E3 @ axes[1]
    S1 = (E3 @ E2) @ axes[0]
    return np.stack([S1, S2, S3], -1)


def euler_S_dot(angles, rates, seq: str) -> np.ndarray:
    """Time derivative ``Ṡ`` of :func:`euler_S` (Sueda eq. 2.35, Featherstone eq. 4.9).

    Differentiating the columns gives ``Ṡ₁ = S₁ × (q̇₂ S₂ + q̇₃ S₃)``, ``Ṡ₂ = S₂ × (q̇₃ S₃)``,
    ``Ṡ₃ = 0``; the velocity-product term of the joint is ``Ṡ q̇``.

    Parameters
    ----------
    angles : array_like, shape (..., 3)
    rates : array_like, shape (..., 3)
        ``q̇``.
    seq : str

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``seq`` is invalid or an input is not a finite (..., 3) array.
    """
    S = euler_S(angles, seq)
    return _euler_S_dot(S, as_array(rates, "rates", (3,)))


def _euler_S_dot(S: np.ndarray, qd: np.ndarray) -> np.ndarray:
    """Unvalidated kernel of :func:`euler_S_dot` from ``S = euler_S(q)`` and ``q̇``."""
    S1, S2, S3 = S[..., 0], S[..., 1], S[..., 2]
    dS1 = np.cross(S1, qd[..., 1:2] * S2 + qd[..., 2:3] * S3)
    dS2 = np.cross(S2, qd[..., 2:3] * S3)
    return np.stack(np.broadcast_arrays(dS1, dS2, np.zeros_like(dS2)), -1)
