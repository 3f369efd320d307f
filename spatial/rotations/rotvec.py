"""Exponential coordinates (rotation vectors) and their rates (Sueda §2.4.8, ArtiSynth §0.22.1).

A rotation vector ``r = φ u`` stands for the turn by ``φ = |r|`` about the unit axis ``u``, i.e.
``R = exp([r])`` (Rodrigues' formula, :func:`spatial.exp_so3`).  Three numbers and no unit-norm
constraint make it a convenient set of joint coordinates, at the price of singular spheres
``|r| = 2π n`` where the map from ``ṙ`` to ``ω`` loses rank.  This module collects what a joint
or a spring in these coordinates needs:

* the rate map ``ṙ = U ω`` of ArtiSynth eq. 0.45 (Grassia 1998), :func:`rotvec_rate_matrix`;
* the partial derivatives ``∂R/∂rᵢ`` of Sueda eq. 2.43 (Gallego and Yezzi), whose body-frame
  versions are the columns of the spherical joint's ``S`` (eq. 2.44), :func:`rotvec_dR`;
* the switch to the equivalent vector with ``|r| ≤ π`` that Sueda §2.4.8 recommends as ``|r|``
  approaches ``2π``, together with the matching rate, :func:`rotvec_reparameterize`.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array
from ..se3 import _so3_left_jacobian, _so3_left_jacobian_inverse, exp_so3
from ..vectors import skew
from .basics import _frame_arg

__all__ = ["rotvec_rate_matrix", "rotvec_dR", "rotvec_reparameterize"]


def _rotvec_away_from_2pi(r: np.ndarray, tol: float = 1e-8) -> np.ndarray:
    """Check that no ``|r|`` lies on a singular sphere ``|r| = 2π n``, ``n ≥ 1``."""
    theta = np.linalg.norm(r, axis=-1)
    n = np.round(theta / (2 * np.pi))
    if np.any((n >= 1) & (np.abs(theta - 2 * np.pi * n) < tol)):
        raise ValueError(
            "r lies on a singular sphere |r| = 2πn of the exponential map; "
            "reparameterize it with rotvec_reparameterize"
        )
    return theta


def rotvec_rate_matrix(r, frame: str = "base") -> np.ndarray:
    """Matrix ``U`` with ``ṙ = U ω`` for the rotation vector ``r`` of ``R = exp([r])``.

    ArtiSynth eq. 0.45 (Grassia 1998):
    ``U = ½ (φ cot(φ/2) 1 + (2 - φ cot(φ/2)) u uᵀ - φ [u])`` with ``r = φ u``, for ``ω`` in
    base coordinates (``Ṙ = [ω] R``).  It equals ``1 - ½[r] + ((1 - (φ/2)cot(φ/2))/φ²)[r]²``,
    which is how it is evaluated (Taylor series for small ``φ``; ``U = 1`` at ``r = 0``).
    For ``ω`` in body coordinates (``Ṙ = R [ω]``) the matrix is ``Uᵀ``.  ``U`` is singular on
    the spheres ``|r| = 2π n``; see :func:`rotvec_reparameterize`.

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector.
    frame : {"base", "body"}
        Coordinates of ``ω``.

    Returns
    -------
    ndarray, shape (..., 3, 3)

    Raises
    ------
    ValueError
        If ``frame`` is invalid, ``r`` is not a finite (..., 3) array, or ``|r|`` is within
        1e-8 of ``2π n`` (``n ≥ 1``).
    """
    frame = _frame_arg(frame)
    r = as_array(r, "r", (3,))
    _rotvec_away_from_2pi(r)
    U = _so3_left_jacobian_inverse(r)
    return U if frame == "base" else np.swapaxes(U, -1, -2)


def rotvec_dR(r) -> np.ndarray:
    """Derivatives ``∂R/∂rᵢ`` of ``R = exp([r])`` (Gallego and Yezzi; Sueda eq. 2.43).

    Sueda eq. 2.43 writes ``∂R/∂rᵢ = [(rᵢ r + [r](1 - R) eᵢ) / rᵀr] R``.  Expanding ``R`` by
    Rodrigues' formula shows that the vector in the bracket is column ``i`` of
    ``V = 1 + ((1 - cos φ)/φ²)[r] + ((φ - sin φ)/φ³)[r]²`` (``φ = |r|``), so this function
    evaluates ``∂R/∂rᵢ = [V eᵢ] R``: the same value, without dividing by ``rᵀr``, and with the
    limit ``[eᵢ]`` at ``r = 0`` built in.  It stays accurate near ``|r| = 2π`` (where ``R`` is
    the identity and the columns of ``V`` lose rank, so the joint's ``S`` is singular there;
    Sueda §2.4.8 then reparameterizes, :func:`rotvec_reparameterize`).  The body-frame joint
    columns are ``Sᵢ = unskew(Rᵀ ∂R/∂rᵢ)`` (Sueda eq. 2.44), i.e. ``S = Vᵀ``.

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector (exponential coordinates).

    Returns
    -------
    ndarray, shape (..., 3, 3, 3)
        ``out[..., i, :, :] = ∂R/∂rᵢ``.

    Raises
    ------
    ValueError
        If ``r`` is not a finite (..., 3) array.
    """
    r = as_array(r, "r", (3,))
    V = _so3_left_jacobian(r)
    return skew(np.swapaxes(V, -1, -2)) @ exp_so3(r)[..., None, :, :]


def rotvec_reparameterize(r, r_dot=None):
    """Equivalent rotation vector with ``|r| ≤ π`` (Sueda §2.4.8, after Grassia 1998).

    The exponential map is singular on the spheres ``|r| = 2π n``.  Sueda §2.4.8 replaces ``r``
    by ``(1 - 2π/|r|) r`` when ``|r|`` nears ``2π``: the same rotation, about the reversed
    axis, by ``2π - |r|``.  This function applies that shift by the nearest multiple of ``2π``,
    so the result always has ``|r| ≤ π`` (vectors with ``|r| ≤ π`` are returned unchanged).
    Given the rate ``ṙ``, it also returns the rate of the new vector for the same angular
    velocity, ``ṙ' = U_body(r') S(r) ṙ`` with ``S(r) = V(r)ᵀ`` (Sueda's
    ``q̇ = S⁻¹ S_prev q̇_prev``).

    Parameters
    ----------
    r : array_like, shape (..., 3)
        Rotation vector.
    r_dot : array_like, shape (..., 3), optional
        Its time derivative.

    Returns
    -------
    ndarray, shape (..., 3)
        The reparameterized vector, or the tuple ``(r', ṙ')`` when ``r_dot`` is given.

    Raises
    ------
    ValueError
        If an input is not a finite (..., 3) array.
    """
    r = as_array(r, "r", (3,))
    theta = np.linalg.norm(r, axis=-1, keepdims=True)
    shift = 2 * np.pi * np.round(theta / (2 * np.pi))
    scale = np.where(theta > np.pi, 1.0 - shift / np.where(theta > np.pi, theta, 1.0), 1.0)
    r_new = scale * r
    if r_dot is None:
        return r_new
    r_dot = as_array(r_dot, "r_dot", (3,))
    omega_body = (np.swapaxes(_so3_left_jacobian(r), -1, -2) @ r_dot[..., None])[..., 0]
    return r_new, (rotvec_rate_matrix(r_new, "body") @ omega_body[..., None])[..., 0]
