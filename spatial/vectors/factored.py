"""Plücker transforms kept as ``rot(E) xlt(r)`` and applied by the book's efficient primitives.

A Plücker transform is ``X = rot(E) xlt(r)`` (Featherstone eq. 2.24, Table 2.2): a translation
by ``r`` followed by a rotation ``E``.  As one 6x6 matrix ``[[E, 0], [-E r×, E]]`` its lower-left
block ``B = -E r×`` costs nine products per use; kept as its two factors, the transform is
applied as Table A.4 applies ``plx(E, r)``:

* ``X v = [E ω; E (v_O - r×ω)]`` (:func:`factored_motion`, 24m + 18a for a general ``E`` and
  ``r``; the 6x6 product costs 27m + 21a),
* ``Xᵀ f = [Eᵀ n + r×(Eᵀ f); Eᵀ f]`` (:func:`factored_force_T`, the force transform
  ``^λX_i* f`` of the inward passes, 24m + 18a),
* ``Xᵀ A X`` of any symmetric 6x6 ``A``, an articulated-body inertia say
  (:func:`factored_congruence`): the rotation on both sides first, then the translation,
* ``Xᵀ I X`` of a rigid-body inertia in its compact form ``(m, h, Ī)`` (:func:`factored_inertia_T`,
  Table A.4's ``rbi(m, Eᵀh + m r, Eᵀ Ī E - r×(Eᵀh)× - (Eᵀh + m r)× r×)``; the two 6x6
  products ``Xᵀ I X`` cost several hundred operations and do not keep ``m`` and the ``h×``
  blocks in their exact form).

Each primitive is written with matrix products on the two factors (``rot(E)`` (..., 6, 6) and
``xlt(r)`` (..., 6, 6), often a constant of the model), so that NumPy does it in two small
products per state for numbers, and the symbolic executer (:func:`spatial.symbolic.generate`)
sees the zero blocks and unit diagonal of each factor and keeps only the book's operations.
These are unvalidated kernels for the recursive algorithms (``spatial.dynamics``): every
function accepts leading batch dimensions, broadcasts over them and trusts its arguments.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._batched import T, mTv, mv, skew_matrix, symmetric

__all__ = [
    "FactoredTransform",
    "factor_transform",
    "translation",
    "translation_of",
    "factored_motion",
    "factored_force_T",
    "factored_force_T_columns",
    "factored_inertia_T",
    "factored_congruence",
]


_H_ENTRIES = np.array([16, 5, 9])  # I[2, 4], I[0, 5], I[1, 3]: h₁, h₂, h₃ of h×
_M_ENTRIES = np.array([21, 28, 35])  # the diagonal of the m 1 block


class FactoredTransform(NamedTuple):
    """``X = rot @ xlt``: ``rot = blkdiag(E, E)`` and ``xlt = [[1, 0], [-r×, 1]]`` (Table 2.2).

    ``r`` (..., 3) is kept too (the inertia transform reads it).  ``xlt`` and ``r`` are often
    constants of the model (shape (6, 6) and (3,)) that broadcast against a batched ``rot``.
    """

    rot: np.ndarray
    xlt: np.ndarray
    r: np.ndarray

    @property
    def E(self) -> np.ndarray:
        """The rotation ``E`` (..., 3, 3): a view of ``rot``."""
        return self.rot[..., :3, :3]


def translation(r: np.ndarray) -> np.ndarray:
    """``xlt(r) = [[1, 0], [-r×, 1]]`` (..., 6, 6) with exact zeros and ones (Table 2.2)."""
    r = np.asarray(r)
    out = np.zeros(r.shape[:-1] + (6, 6), np.result_type(r, np.float64))
    out[..., range(6), range(6)] = 1.0
    out[..., 3:, :3] = -skew_matrix(r)
    return out


def factor_transform(X: np.ndarray, r: np.ndarray | None = None) -> FactoredTransform:
    """The factors of a Plücker transform ``X = [[E, 0], [B, E]]`` (..., 6, 6).

    ``rot(E)`` is ``X`` with its lower-left block set to zero.  Pass ``r`` when it is known
    (a constant of the model); otherwise it is recovered from ``-r× = Eᵀ B`` (its
    skew-symmetric part, so that ``xlt(r)`` has exact zeros on its diagonal blocks).
    """
    rot = X.copy()
    rot[..., 3:, :3] = 0.0
    if r is None:
        r = translation_of(X)
    return FactoredTransform(rot, translation(r), r)


def translation_of(X: np.ndarray) -> np.ndarray:
    """``r`` (..., 3) of a Plücker transform ``X = [[E, 0], [-E r×, E]]`` (..., 6, 6), unchecked.

    ``r`` is read from the skew-symmetric part of ``-Eᵀ B = r×`` (round-off in ``E`` and ``B``
    leaves a small symmetric part, which is dropped).
    """
    rx = -T(X[..., :3, :3]) @ X[..., 3:, :3]
    pairs = ((2, 1, 1, 2), (0, 2, 2, 0), (1, 0, 0, 1))  # r_k = ((r×)_ab - (r×)_cd) / 2
    return 0.5 * np.stack([rx[..., a, b] - rx[..., c, d] for a, b, c, d in pairs], -1)


def factored_motion(X: FactoredTransform, v: np.ndarray) -> np.ndarray:
    """``X v = rot(E) (xlt(r) v) = [E ω; E (v_O - r×ω)]``, motion vectors (..., 6) (Table A.4)."""
    return mv(X.rot, mv(X.xlt, v))


def factored_force_T(X: FactoredTransform, f: np.ndarray) -> np.ndarray:
    """``Xᵀ f = xlt(r)ᵀ (rot(E)ᵀ f) = [Eᵀ n + r×(Eᵀ f); Eᵀ f]`` for forces (..., 6) (Table A.4).

    With ``X = ^iX_λ(i)`` this is ``^λ(i)X_i* f``, the force transform of the inward passes.
    """
    return mTv(X.xlt, mTv(X.rot, f))


def _times_xlt(F: np.ndarray, xlt: np.ndarray) -> np.ndarray:
    """``F xlt(r)`` for ``F`` (..., k, 6); a constant ``xlt`` (6, 6) meets a whole batch of
    ``F`` in one matrix product (its rows stacked), not one small product per state."""
    if xlt.ndim == 2 and F.ndim > 2:
        return (F.reshape(-1, 6) @ xlt).reshape(F.shape)
    return F @ xlt


def factored_force_T_columns(X: FactoredTransform, F: np.ndarray) -> np.ndarray:
    """``Xᵀ F`` for ``F`` (..., 6, k) whose columns are forces (:func:`factored_force_T`)."""
    G = T(X.rot) @ F
    return T(_times_xlt(T(G), X.xlt))  # xltᵀ G = (Gᵀ xlt)ᵀ


def factored_inertia_T(X: FactoredTransform, I: np.ndarray) -> np.ndarray:
    """``Xᵀ I X`` of a rigid-body inertia ``I = [[Ī, h×], [-h×, m 1]]`` (..., 6, 6), compactly.

    Table A.4: with ``y = Eᵀ h``, ``Xᵀ I X = rbi(m, y + m r, Eᵀ Ī E - r×y× - (y + m r)× r×)``;
    the mass and the structure of the blocks are kept exactly (``m 1`` stays diagonal, the
    off-diagonal blocks stay skew), so only ``h`` (3 numbers) and the symmetric ``Ī`` (6)
    are computed.  The result is a 6x6 rigid-body inertia again.
    """
    E, r = X.E, X.r
    rx = T(X.xlt[..., 3:, :3])  # r× = (-r×)ᵀ
    Ibar, m = I[..., :3, :3], I[..., 3, 3]
    h = I.reshape(I.shape[:-2] + (36,))[..., _H_ENTRIES]  # h× is the upper-right block
    y = mTv(E, h)
    h_new = y + m[..., None] * r
    h_x = skew_matrix(h_new)
    Z = symmetric(T(E) @ Ibar @ E - rx @ skew_matrix(y) - h_x @ rx)
    out = np.zeros(Z.shape[:-2] + (6, 6), np.result_type(Z, h_new))
    out[..., :3, :3] = Z
    out[..., :3, 3:] = h_x
    out[..., 3:, :3] = T(h_x)  # -h× = (h×)ᵀ
    out.reshape(out.shape[:-2] + (36,))[..., _M_ENTRIES] = m[..., None]
    return out


def factored_congruence(X: FactoredTransform, A: np.ndarray) -> np.ndarray:
    """``Xᵀ A X = xlt(r)ᵀ (rot(E)ᵀ A rot(E)) xlt(r)`` of a symmetric ``A`` (..., 6, 6).

    The congruence that moves an articulated-body inertia to the parent (``^λX_i* I^a
    ^iX_λ``, Featherstone eq. 7.47).  The rotation comes first, on both sides, and gives a
    symmetric matrix again (each 3x3 block ``EᵀA_jk E``); then the translation, whose factor is
    mostly zeros and ones.  On symbols, with the symmetric halves computed once
    (:func:`spatial._batched.symmetric`), this is about a sixth fewer operations than the two
    6x6 products ``Xᵀ (A X)``.  A constant ``xlt`` (6, 6) meets a batch of ``A`` in one
    matrix product per side.
    """
    B = symmetric(T(X.rot) @ A @ X.rot)
    C = _times_xlt(B, X.xlt)  # B xlt
    return symmetric(T(_times_xlt(T(C), X.xlt)))  # xltᵀ C = (Cᵀ xlt)ᵀ
