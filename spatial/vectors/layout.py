"""Converting between angular-first and linear-first layouts (ArtiSynth notes §0.1, §0.19).

The package stores spatial vectors angular part first, ``[ω; v]``, as Featherstone and Sueda do.
The ArtiSynth notes write them linear part first, ``[v; ω]``, and accordingly put the mass block
``m·1`` at the top-left of the spatial inertia.  The two layouts differ by the permutation that
swaps the two 3-D halves; code that implements an ArtiSynth formula converts at its boundary
with :func:`swap_linear_angular`, never silently.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, real_array

__all__ = ["swap_linear_angular"]


def swap_linear_angular(x) -> np.ndarray:
    """Convert between angular-first and linear-first layouts of spatial quantities.

    The package stores spatial vectors as ``[ω; v]`` (Featherstone, Sueda); the ArtiSynth notes
    write ``[v; ω]`` and put ``m·1`` in the top-left block of the spatial inertia (ArtiSynth
    §0.1, §0.19).  Code implementing ArtiSynth formulas calls this at its boundary.  The
    permutation swaps the two 3-blocks, so it is its own inverse.

    Parameters
    ----------
    x : array_like, shape (..., 6) or (..., 6, 6)
        A spatial vector (permuted as ``P x``) or a 6x6 matrix (permuted as ``P x Pᵀ``).
        A ``(6, 6)`` input is always treated as a matrix.

    Returns
    -------
    ndarray, same shape as ``x``

    Raises
    ------
    ValueError
        If ``x`` has neither shape (..., 6) nor (..., 6, 6), or is not finite.
    """
    a = real_array(x, "x")
    perm = [3, 4, 5, 0, 1, 2]
    if a.ndim >= 2 and a.shape[-2:] == (6, 6):
        a = as_array(a, "x", (6, 6))
        return a[..., perm, :][..., :, perm]
    if a.ndim >= 1 and a.shape[-1] == 6:
        return as_array(a, "x", (6,))[..., perm]
    raise ValueError(f"x must have shape (..., 6) or (..., 6, 6), got {a.shape}")
