"""Unit quaternions as rotations (ArtiSynth notes §0.2, Featherstone §4.5 eqs. 4.10–4.13).

A quaternion is stored **scalar first**, ``q = (w, x, y, z) = (s, v)``, as an array ``(..., 4)``
(Featherstone eq. 4.10, ArtiSynth §0.2; :class:`scipy.spatial.transform.Rotation` is scalar
last).  The walk through the notes:

* **Algebra.** Quaternions multiply as ``p q = (p_s q_s - p_v·q_v, p_s q_v + q_s p_v + p_v × q_v)``
  (:func:`quat_multiply`); the conjugate ``q* = (s, -v)`` (:func:`quat_conjugate`) inverts a
  unit quaternion.
* **Rotation.** A unit quaternion ``(cos(θ/2), sin(θ/2) u)`` turns vectors by ``θ`` about the
  unit axis ``u`` (:func:`quat_from_axis_angle`, :func:`quat_from_rotvec`): ``R v`` is the vector
  part of ``q (0, v) q*`` (:func:`quat_rotate`, :func:`quat_to_matrix`).  ``q`` and ``-q`` give
  the same ``R``; :func:`quat_from_matrix` and :func:`quat_to_rotvec` pick a representative.
  Featherstone's eq. 4.12 is the transpose of this ``R``.
* **Rates.** A rotating quaternion obeys ``q̇ = ½ q (0, ω)`` with ``ω`` in body coordinates, or
  ``q̇ = ½ (0, ω) q`` with ``ω`` in base coordinates (ArtiSynth eq. 0.1, Featherstone
  eq. 4.13): :func:`quat_rate` and its inverse :func:`quat_rate_to_omega`.  Integration lets
  ``|q|`` drift from 1, so integrators renormalize (:func:`quat_normalize`), and functions that
  need a unit quaternion check it (:func:`require_unit_quaternion`).
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, require_rotation
from ..se3 import _sinc
from .basics import _frame_arg

__all__ = [
    "quat_multiply",
    "quat_conjugate",
    "quat_normalize",
    "require_unit_quaternion",
    "quat_to_matrix",
    "quat_from_matrix",
    "quat_from_axis_angle",
    "quat_from_rotvec",
    "quat_to_rotvec",
    "quat_rotate",
    "quat_rate",
    "quat_rate_to_omega",
]


def quat_multiply(p, q) -> np.ndarray:
    """Quaternion product ``p q`` (ArtiSynth §0.2); quaternions are scalar first ``(w, x, y, z)``.

    ``p q = (p_s q_s - p_v · q_v,  p_s q_v + q_s p_v + p_v × q_v)``.  For unit quaternions,
    ``quat_to_matrix(p q) == quat_to_matrix(p) @ quat_to_matrix(q)``: rotate by ``q`` first,
    then by ``p``.

    Parameters
    ----------
    p, q : array_like, shape (..., 4)
        Quaternions ``(w, x, y, z)``; batch dimensions broadcast.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If an input is not of shape (..., 4) or is not finite.
    """
    return _quat_multiply(as_array(p, "p", (4,)), as_array(q, "q", (4,)))


def _quat_multiply(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """:func:`quat_multiply` of float arrays already validated (internal callers)."""
    ps, pv = p[..., :1], p[..., 1:]
    qs, qv = q[..., :1], q[..., 1:]
    scalar = ps * qs - np.sum(pv * qv, axis=-1, keepdims=True)
    vector = ps * qv + qs * pv + np.cross(pv, qv)
    return np.concatenate([np.broadcast_to(scalar, vector.shape[:-1] + (1,)), vector], -1)


def quat_conjugate(q) -> np.ndarray:
    """Conjugate ``q* = (w, -x, -y, -z)`` of a scalar-first quaternion; the inverse of a unit one.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Quaternion ``(w, x, y, z)``.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``q`` is not of shape (..., 4) or is not finite.
    """
    q = as_array(q, "q", (4,))
    return q * np.array([1.0, -1.0, -1.0, -1.0])


def quat_normalize(q) -> np.ndarray:
    """Scale a scalar-first quaternion ``(w, x, y, z)`` to unit length (Featherstone eq. 4.11).

    Integrating ``q̇`` lets the norm drift; Featherstone §4.5 recommends renormalizing after
    every step.

    Parameters
    ----------
    q : array_like, shape (..., 4)

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``q`` is not a finite (..., 4) array or some quaternion is zero (norm below 1e-12).
    """
    q = as_array(q, "q", (4,))
    n = np.linalg.norm(q, axis=-1, keepdims=True)
    if np.any(n < 1e-12):
        raise ValueError("q contains a zero quaternion, which cannot be normalized")
    return q / n


def require_unit_quaternion(q, name: str = "q", tol: float = 1e-6) -> np.ndarray:
    """Return ``q`` as an array after checking that it is a unit scalar-first quaternion.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Quaternion ``(w, x, y, z)``.
    name : str
        Name used in the error message.
    tol : float
        Allowed deviation ``| |q| - 1 |``.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``q`` has the wrong shape, is not finite, or its norm differs from 1 by more than
        ``tol`` (the message gives the worst norm).
    """
    q = as_array(q, name, (4,))
    n = np.linalg.norm(q, axis=-1)
    err = np.abs(n - 1.0)
    if np.any(err > tol):
        worst = n.flat[np.argmax(err)]
        raise ValueError(
            f"{name} is not a unit quaternion: norm {worst:.6g} (tolerance {tol:g}); "
            "use quat_normalize"
        )
    return q


def quat_to_matrix(q) -> np.ndarray:
    """Active rotation matrix ``R`` of a unit quaternion, ``R v = q (0, v) q*`` (ArtiSynth §0.2).

    Quaternions are scalar first ``(w, x, y, z)``.  ``R`` maps rotated (body) coordinates to
    base coordinates; Featherstone's eq. 4.12 is its transpose ``E = Rᵀ``.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``q`` is not a unit quaternion (tolerance 1e-6).
    """
    return _quat_matrix(require_unit_quaternion(q))


def _quat_matrix(q: np.ndarray) -> np.ndarray:
    """Unvalidated kernel of :func:`quat_to_matrix` (also on symbols, object arrays)."""
    if q.shape == (4,) and q.dtype == np.float64:
        # one quaternion (a joint inside a simulation's step): the same IEEE operations on
        # Python floats, without ten array calls
        w, x, y, z = q.tolist()
        return np.array(
            [
                [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
            ]
        )
    w, x, y, z = (q[..., i] for i in range(4))
    return np.stack(
        [
            np.stack([1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)], -1),
            np.stack([2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)], -1),
            np.stack([2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)], -1),
        ],
        -2,
    )


def quat_from_matrix(R) -> np.ndarray:
    """Unit quaternion ``(w, x, y, z)``, scalar first with ``w ≥ 0``, of an active rotation matrix.

    Shepperd's method: the symmetric matrix ``K = 4 q qᵀ`` is built from sums and differences
    of entries of ``R``; the column of ``K`` with the largest diagonal entry is divided by
    ``2 sqrt(K_kk)``, so no division by a small number ever happens.  The sign is then chosen
    to make ``w ≥ 0`` (``q`` and ``-q`` are the same rotation).

    Parameters
    ----------
    R : array_like, shape (..., 3, 3)
        Rotation matrix (body → base).

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``R`` is not a rotation matrix.
    """
    R = as_array(R, "R", (3, 3))
    require_rotation(R, "R")
    r = lambda i, j: R[..., i, j]
    tr = r(0, 0) + r(1, 1) + r(2, 2)
    a, b, c = r(2, 1) - r(1, 2), r(0, 2) - r(2, 0), r(1, 0) - r(0, 1)
    d, e, f = r(0, 1) + r(1, 0), r(0, 2) + r(2, 0), r(1, 2) + r(2, 1)
    K = np.stack(
        [
            np.stack([1 + tr, a, b, c], -1),
            np.stack([a, 1 + 2 * r(0, 0) - tr, d, e], -1),
            np.stack([b, d, 1 + 2 * r(1, 1) - tr, f], -1),
            np.stack([c, e, f, 1 + 2 * r(2, 2) - tr], -1),
        ],
        -2,
    )
    k = np.argmax(np.diagonal(K, axis1=-2, axis2=-1), axis=-1)[..., None, None]
    col = np.take_along_axis(K, k, axis=-1)[..., 0]
    Kkk = np.take_along_axis(col, k[..., 0], axis=-1)
    q = col / (2.0 * np.sqrt(Kkk))
    return np.where(q[..., :1] < 0.0, -q, q)


def quat_from_axis_angle(axis, angle) -> np.ndarray:
    """Unit quaternion ``(cos(θ/2), sin(θ/2) u)``, scalar first (Featherstone eq. 4.10).

    Parameters
    ----------
    axis : array_like, shape (..., 3)
        Rotation axis; normalized here.
    angle : float or array_like, shape (...)
        Rotation angle ``θ`` in radians (right-hand rule about ``axis``).

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``axis`` is zero or not a finite 3-vector, or ``angle`` is not finite.
    """
    axis = as_array(axis, "axis", (3,))
    angle = as_array(angle, "angle", ())
    n = np.linalg.norm(axis, axis=-1, keepdims=True)
    if np.any(n < 1e-12):
        raise ValueError("axis must be nonzero")
    half = 0.5 * angle[..., None]
    vector = np.sin(half) * axis / n
    return np.concatenate([np.broadcast_to(np.cos(half), vector.shape[:-1] + (1,)), vector], -1)


def quat_from_rotvec(r) -> np.ndarray:
    """Unit quaternion ``(cos(θ/2), sin(θ/2) r/θ)`` of a rotation vector ``r``, ``θ = |r|``.

    Quaternions are scalar first ``(w, x, y, z)``.  ``sin(θ/2)/θ`` is evaluated by its Taylor
    series for small ``θ``, so ``r = 0`` is fine.

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector (axis times angle); ``quat_to_matrix(quat_from_rotvec(r)) == exp_so3(r)``.

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``r`` is not a finite (..., 3) array.
    """
    return _quat_from_rotvec(as_array(r, "r", (3,)))


def _quat_from_rotvec(r: np.ndarray) -> np.ndarray:
    """:func:`quat_from_rotvec` of a float array already validated (internal callers)."""
    half = 0.5 * np.linalg.norm(r, axis=-1, keepdims=True)
    return np.concatenate([np.cos(half), 0.5 * _sinc(half) * r], -1)


def quat_to_rotvec(q) -> np.ndarray:
    """Rotation vector ``r`` with ``|r| ≤ π`` of a unit quaternion (scalar first ``(w, x, y, z)``).

    ``q`` is first replaced by ``-q`` if ``w < 0`` (same rotation); then
    ``r = 2 atan2(|v|, w) v / |v|``, with the factor ``2 atan2(|v|, w)/|v|`` replaced by its
    series ``(2/w)(1 - |v|²/(3w²))`` when ``|v| < 1e-8``.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``q`` is not a unit quaternion (tolerance 1e-6).
    """
    q = require_unit_quaternion(q)
    q = np.where(q[..., :1] < 0.0, -q, q)
    w, v = q[..., 0], q[..., 1:]
    s = np.linalg.norm(v, axis=-1)
    small = s < 1e-8
    s_safe = np.where(small, 1.0, s)
    w_safe = np.where(small, w, 1.0)
    factor = np.where(
        small, (2.0 / w_safe) * (1.0 - (s / w_safe) ** 2 / 3.0), 2.0 * np.arctan2(s, w) / s_safe
    )
    return factor[..., None] * v


def quat_rotate(q, v) -> np.ndarray:
    """Rotate vectors by a unit quaternion, ``q (0, v) q* = R v`` (ArtiSynth §0.2).

    Quaternions are scalar first ``(w, x, y, z)``.  Maps rotated (body) coordinates to base
    coordinates.  Computed as ``v + w t + u × t`` with ``t = 2 u × v`` (``u`` the vector part).

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.
    v : array_like, shape (..., 3)
        Vectors in rotated coordinates.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``q`` is not a unit quaternion or ``v`` is not a finite (..., 3) array.
    """
    q = require_unit_quaternion(q)
    v = as_array(v, "v", (3,))
    w, u = q[..., :1], q[..., 1:]
    t = 2.0 * np.cross(u, v)
    return v + w * t + np.cross(u, t)


def quat_rate(q, omega, frame: str = "body") -> np.ndarray:
    """Time derivative ``q̇`` of a quaternion (scalar first ``(w, x, y, z)``) rotating at ``ω``.

    * ``frame="body"``: ``ω`` in rotated (body) coordinates, ``q̇ = ½ q (0, ω)``
      (ArtiSynth §0.2; Featherstone eq. 4.13, the velocity variables of a spherical joint).
    * ``frame="base"``: ``ω`` in base coordinates, ``q̇ = ½ (0, ω) q`` (ArtiSynth eq. 0.1).

    The map is linear in ``q``; ``q`` is not required to be exactly unit here, so this can be
    used inside an integrator before renormalization.

    Parameters
    ----------
    q : array_like, shape (..., 4)
    omega : array_like, shape (..., 3)
        Angular velocity in the coordinates named by ``frame``.
    frame : {"body", "base"}

    Returns
    -------
    ndarray, shape (..., 4)

    Raises
    ------
    ValueError
        If ``frame`` is not ``"body"`` or ``"base"``, or an input has the wrong shape or is not
        finite.
    """
    frame = _frame_arg(frame)
    q = as_array(q, "q", (4,))
    omega = as_array(omega, "omega", (3,))
    w = np.concatenate([np.zeros(omega.shape[:-1] + (1,)), omega], -1)
    return 0.5 * (quat_multiply(q, w) if frame == "body" else quat_multiply(w, q))


def quat_rate_to_omega(q, qdot, frame: str = "body") -> np.ndarray:
    """Angular velocity from a unit quaternion (scalar first ``(w, x, y, z)``) and its rate.

    The inverse of :func:`quat_rate`: ``ω = 2 vec(q* q̇)`` (body) or ``ω = 2 vec(q̇ q*)``
    (base).  The scalar part of ``2 q* q̇``, ``2 q·q̇``, vanishes for a rate that keeps ``|q|``
    constant and is discarded, so a ``q̇`` with a component along ``q`` is projected.

    Parameters
    ----------
    q : array_like, shape (..., 4)
        Unit quaternion.
    qdot : array_like, shape (..., 4)
        Its time derivative.
    frame : {"body", "base"}
        Coordinates of the returned ``ω``.

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If ``frame`` is invalid, ``q`` is not a unit quaternion, or ``qdot`` is not a finite
        (..., 4) array.
    """
    frame = _frame_arg(frame)
    q = require_unit_quaternion(q)
    qdot = as_array(qdot, "qdot", (4,))
    qc = quat_conjugate(q)
    prod = quat_multiply(qc, qdot) if frame == "body" else quat_multiply(qdot, qc)
    return 2.0 * prod[..., 1:]
