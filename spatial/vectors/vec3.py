"""3-D vectors: the cross-product matrix ``a×`` (Featherstone §2.8, eq. 2.23, Table 2.1).

Every spatial quantity in the package is a pair of 3-D vectors, and the one 3-D operation the
spatial formulas keep needing is the cross product written as a matrix.  For a 3-vector ``a``,
``a×`` is the skew-symmetric 3x3 matrix with ``(a×) b = a × b`` (eq. 2.23 gives its entries).
Two of the properties collected in Table 2.1 shape the code:

* ``a×`` is antisymmetric, ``(a×)ᵀ = -a×``, so the vector can be read back from either triangle:
  :func:`unskew` averages the two, which also absorbs round-off in a nearly skew input;
* ``a×`` is linear in ``a``, ``a× = a₁ (e₁×) + a₂ (e₂×) + a₃ (e₃×)``, so :func:`skew` builds a
  whole batch of them with one small matrix product against a constant basis.
"""

from __future__ import annotations

import numpy as np

from .._batched import skew_matrix
from .._validate import as_array

__all__ = ["skew", "unskew"]


def skew(v: np.ndarray) -> np.ndarray:
    """Return the 3x3 cross-product matrix ``v×`` of a 3D vector (Featherstone eq. 2.23).

    Parameters
    ----------
    v : array_like, shape (..., 3)

    Returns
    -------
    ndarray, shape (..., 3, 3)
        ``skew(v) @ u == np.cross(v, u)``.

    Raises
    ------
    ValueError
        If ``v`` is not of shape (..., 3) or is not finite.
    """
    return skew_matrix(as_array(v, "v", (3,)))


def unskew(S: np.ndarray) -> np.ndarray:
    """Return the 3D vector of a cross-product matrix; the inverse of :func:`skew`.

    Only the skew-symmetric part of ``S`` is used, ``(S - Sᵀ)/2``, so a slightly
    non-skew input (round-off) gives the nearest vector.

    Parameters
    ----------
    S : array_like, shape (..., 3, 3)

    Returns
    -------
    ndarray, shape (..., 3)

    Raises
    ------
    ValueError
        If an input does not have the documented trailing shape or is not finite.
    """
    return _unskew(as_array(S, "S", (3, 3)))


def _unskew(S: np.ndarray) -> np.ndarray:
    """:func:`unskew` of a float array already validated (internal callers)."""
    return 0.5 * np.stack(
        [S[..., 2, 1] - S[..., 1, 2], S[..., 0, 2] - S[..., 2, 0], S[..., 1, 0] - S[..., 0, 1]],
        -1,
    )
