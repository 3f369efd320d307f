"""Applying a Plücker transform to force vectors and inertias (Featherstone §2.8, §2.13, App. A.3).

``X = X_BA`` maps motion vectors from A to B coordinates.  The algorithms also need the three
related maps, and each is applied here to the dense 6x6 matrix, through its blocks where that
saves forming an inverse (the operations Table A.4 lists; its compact formulae and cost figures
are in :mod:`spatial.compact`):

* motion vectors back from B to A, ``X⁻¹ v``, with the transposed blocks of eq. 2.26
  (:func:`inv_motion`);
* force vectors from A to B, ``X* f`` with ``X* = X⁻ᵀ = [[E, -E r×], [0, E]]`` (eq. 2.25): its
  top-right block is the bottom-left block of ``X`` (:func:`apply_force`), and force vectors
  back from B to A, ``X⁻* f = Xᵀ f`` (:func:`inv_force`);
* inertias.  An inertia maps a motion vector to a force vector, so it changes coordinates by a
  congruence, ``I_B = X* I_A X⁻¹`` (eq. 2.66, :func:`transform_inertia`) and
  ``I_A = Xᵀ I_B X`` (:func:`inv_transform_inertia`); this preserves symmetry and definiteness.

The inertia is one of four kinds of spatial dyadic (Featherstone Table 2.5), told apart by the
spaces they map between; :func:`transform_dyadic` changes the coordinates of each kind.
"""

from __future__ import annotations

import numpy as np

from .. import _batched as _kernel
from .._validate import as_array, broadcast_batch
from .plucker import _as_plucker

__all__ = [
    "inv_motion",
    "apply_force",
    "inv_force",
    "transform_inertia",
    "inv_transform_inertia",
    "transform_dyadic",
]


def inv_motion(X, v) -> np.ndarray:
    """Apply ``X⁻¹`` to motion vectors, ``X⁻¹ v`` (Featherstone eq. 2.26; X.invApply).

    Computed from the 3x3 blocks of ``X`` (27m + 21a); Table A.4's compact formula (24m + 18a)
    is :func:`spatial.compact.inv_transform_motion`.

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
    """Apply the force transform ``X* f`` without forming ``X*`` (Featherstone eq. 2.25).

    Computed from the 3x3 blocks of ``X`` (27m + 21a); Table A.4's compact formula (24m + 18a)
    is :func:`spatial.compact.transform_force`.

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
    """Apply ``X⁻* = Xᵀ`` to force vectors, ``Xᵀ f`` (Featherstone eq. 2.25; X.invApply).

    Computed as a dense 6x6 product (36m + 30a); Table A.4's compact formula
    ``fv(Eᵀ n + r × Eᵀ f, Eᵀ f)`` (24m + 18a) is :func:`spatial.compact.inv_transform_force`.

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
    """Transform a spatial inertia from A to B coordinates, ``X* I X⁻¹`` (Featherstone eq. 2.66).

    Computed densely, ``X⁻ᵀ I X⁻¹`` with ``X⁻¹`` from the blocks of ``X`` (eq. 2.26) and two
    6x6x6 products; Table A.4's compact formulae (52m + 56a for a rigid-body inertia) are
    :func:`spatial.compact.transform_rbi` and :func:`spatial.compact.transform_abi`.

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
    """Transform a spatial inertia from B back to A coordinates, ``Xᵀ I X`` (eq. 2.66 inverted).

    Computed as two dense 6x6x6 products; the compact formula of Table A.4 is
    :func:`spatial.compact.inv_transform_rbi`.

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


#: The four kinds of spatial dyadic of Table 2.5, named "from space, to space": M motion, F force.
DYADIC_KINDS = ("MF", "FM", "MM", "FF")


def transform_dyadic(X, L, kind: str) -> np.ndarray:
    """Change the coordinates of a spatial dyadic from A to B (Featherstone Table 2.5).

    A dyadic maps vectors of one space to another, and both its input and its output change
    coordinates, each by the rule of its own space: motion vectors by ``X``, force vectors by
    ``X* = X⁻ᵀ``.  So ``ᴮL = T_to ᴬL T_from⁻¹`` and the four kinds transform as

    ========  ==========================  ===============  ===========
    ``kind``  example                     ``ᴮL``           type
    ========  ==========================  ===============  ===========
    ``"MF"``  inertia ``I`` (eq. 2.66)    ``X⁻ᵀ L X⁻¹``    congruence
    ``"FM"``  inverse inertia ``Φ``       ``X L Xᵀ``       congruence
    ``"MM"``  ``v×``                      ``X L X⁻¹``      similarity
    ``"FF"``  ``v×*``                     ``X⁻ᵀ L Xᵀ``     similarity
    ========  ==========================  ===============  ===========

    A congruence keeps symmetry and definiteness, a similarity keeps the eigenvalues.  ``X⁻¹``
    is read off the blocks of ``X`` (eq. 2.26), never inverted numerically.

    Parameters
    ----------
    X : array_like, shape (..., 6, 6)
        Motion transform ``X_BA``.
    L : array_like, shape (..., 6, 6)
        The dyadic in A coordinates.
    kind : {"MF", "FM", "MM", "FF"}
        The space it maps from, then the space it maps to: ``"MF"`` maps motion vectors to
        force vectors (an inertia), ``"FM"`` forces to motions (an inverse inertia), ``"MM"``
        motions to motions, ``"FF"`` forces to forces.

    Returns
    -------
    ndarray, shape (..., 6, 6)
        The same dyadic in B coordinates.

    Raises
    ------
    ValueError
        If ``kind`` is not one of the four, ``X`` is not a Plücker transform (see
        :func:`spatial.unplux`), ``L`` does not have the trailing shape (6, 6) or is not finite,
        or the batch shapes do not broadcast.
    """
    if kind not in DYADIC_KINDS:
        raise ValueError(
            f"kind must be one of {DYADIC_KINDS} (from space, to space; M motion, F force), "
            f"got {kind!r}"
        )
    X = _as_plucker(X)
    L = as_array(L, "L", (6, 6))
    broadcast_batch(X=(X, 2), L=(L, 2))
    to_map = X if kind[1] == "M" else _kernel.T(_kernel.xinv(X))  # X or X*
    from_inverse = _kernel.xinv(X) if kind[0] == "M" else _kernel.T(X)  # X⁻¹ or X*⁻¹ = Xᵀ
    return to_map @ L @ from_inverse
