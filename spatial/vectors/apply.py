"""Applying a Plücker transform to force vectors and inertias (Featherstone §2.8, §2.13, App. A.3).

``X = X_BA`` maps motion vectors from A to B coordinates.  The algorithms also need the three
related maps, and each can be applied through the blocks of ``X`` without forming a 6x6 inverse
(the operations of Table A.4):

* motion vectors back from B to A, ``X⁻¹ v``, with the transposed blocks of eq. 2.26
  (:func:`inv_motion`);
* force vectors from A to B, ``X* f`` with ``X* = X⁻ᵀ = [[E, -E r×], [0, E]]`` (eq. 2.25): its
  top-right block is the bottom-left block of ``X`` (:func:`apply_force`), and force vectors
  back from B to A, ``X⁻* f = Xᵀ f`` (:func:`inv_force`);
* inertias.  An inertia maps a motion vector to a force vector, so it changes coordinates by a
  congruence, ``I_B = X* I_A X⁻¹`` (eq. 2.66, :func:`transform_inertia`) and
  ``I_A = Xᵀ I_B X`` (:func:`inv_transform_inertia`); this preserves symmetry and definiteness.
"""

from __future__ import annotations

import numpy as np

from .. import _batched as _kernel
from .._validate import as_array, broadcast_batch
from .plucker import _as_plucker

__all__ = ["inv_motion", "apply_force", "inv_force", "transform_inertia", "inv_transform_inertia"]


def inv_motion(X, v) -> np.ndarray:
    """Apply ``X⁻¹`` to motion vectors, ``X⁻¹ v`` (Featherstone Table A.4, X.invApply).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
    v : array_like, shape (..., 6)

    Returns
    -------
    ndarray, shape (..., 6)

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`spatial.unplux`), or another input does not
        have the documented trailing shape or is not finite, or the batch shapes of the arguments do
        not broadcast (the message names each).
    """
    X = _as_plucker(X)
    v = as_array(v, "v", (6,))
    broadcast_batch(X=(X, 2), v=(v, 1))
    return _kernel.inv_motion(X, v)


def apply_force(X, f) -> np.ndarray:
    """Apply the force transform ``X* f`` without forming ``X*`` (Featherstone Table A.4).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    f : array_like, shape (..., 6)
        Force vectors in A coordinates.

    Returns
    -------
    ndarray, shape (..., 6)
        Force vectors in B coordinates.

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`spatial.unplux`), or another input does not
        have the documented trailing shape or is not finite, or the batch shapes of the arguments do
        not broadcast (the message names each).
    """
    X = _as_plucker(X)
    f = as_array(f, "f", (6,))
    broadcast_batch(X=(X, 2), f=(f, 1))
    # X* = [[E, -E r×], [0, E]]: its top-right block is the bottom-left block B of X (eq. 2.25)
    return _kernel.apply_force(X, f)


def inv_force(X, f) -> np.ndarray:
    """Apply ``X⁻* = Xᵀ`` to force vectors, ``Xᵀ f`` (Featherstone Table A.4, X.invApply).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    f : array_like, shape (..., 6)
        Force vectors in B coordinates.

    Returns
    -------
    ndarray, shape (..., 6)
        Force vectors in A coordinates.

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`spatial.unplux`), or another input does not
        have the documented trailing shape or is not finite, or the batch shapes of the arguments do
        not broadcast (the message names each).
    """
    X = _as_plucker(X)
    f = as_array(f, "f", (6,))
    broadcast_batch(X=(X, 2), f=(f, 1))
    return _kernel.mTv(X, f)


def transform_inertia(X, I) -> np.ndarray:
    """Transform a spatial inertia from A to B coordinates, ``X* I X⁻¹`` (Table A.4).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    I : array_like, shape (..., 6, 6)
        Spatial (rigid-body or articulated-body) inertia in A coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        The same inertia in B coordinates.

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`spatial.unplux`), or another input does not
        have the documented trailing shape or is not finite, or the batch shapes of the arguments do
        not broadcast (the message names each).
    """
    X = _as_plucker(X)
    I = as_array(I, "I", (6, 6))
    broadcast_batch(X=(X, 2), I=(I, 2))
    return _kernel.transform_inertia(X, I)


def inv_transform_inertia(X, I) -> np.ndarray:
    """Transform a spatial inertia from B back to A coordinates, ``Xᵀ I X`` (Table A.4).

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    I : array_like, shape (..., 6, 6)
        Spatial inertia in B coordinates.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        The same inertia in A coordinates.

    Raises
    ------
    ValueError
        If ``X`` is not a Plücker transform (see :func:`spatial.unplux`), or another input does not
        have the documented trailing shape or is not finite, or the batch shapes of the arguments do
        not broadcast (the message names each).
    """
    X = _as_plucker(X)
    I = as_array(I, "I", (6, 6))
    broadcast_batch(X=(X, 2), I=(I, 2))
    return _kernel.T(X) @ I @ X
