"""Differentiating spatial-vector expressions (Featherstone §2.10, Table 2.4, eqs. 2.36–2.37).

Spatial vectors are differentiated like any vectors, so the product rules of Table 2.4 hold for
every product the algebra has: the scalar product of a motion and a force vector, the two cross
products, scaling, matrix–vector products and dyads; and the derivative of a cross *operator*
is the operator of the derivative, ``d(u×)/dx = (du/dx)×``.  Each function below takes the
factors and their derivatives and returns the derivative of the product.

Coordinates that move are the one trap (eqs. 2.36–2.37): in a frame A moving with velocity
``v_A``, the coordinate vector of ``ṁ`` is the componentwise derivative of ``ᴬm`` plus
``v_A × ᴬm`` (``v_A ×* ᴬf`` for a force), :func:`derivative_in_moving_coordinates`.
"""

from __future__ import annotations

import numpy as np

from ._validate import as_array, as_scalar_array
from .vectors import crf, crm

__all__ = [
    "d_scalar_product",
    "d_cross_motion",
    "d_cross_force",
    "d_cross_operator",
    "d_scaled",
    "d_matrix_vector",
    "d_dyad",
    "derivative_in_moving_coordinates",
]


def _pair(u, du, name: str, n: int = 6):
    return as_array(u, name, (n,)), as_array(du, "d" + name, (n,))


def d_scalar_product(m, dm, f, df) -> np.ndarray:
    """``d(m·f)/dx = dm·f + m·df`` for a motion and a force vector (Table 2.4).

    Raises
    ------
    ValueError
        If an argument is not finite with shape (..., 6).
    """
    (m, dm), (f, df) = _pair(m, dm, "m"), _pair(f, df, "f")
    return np.sum(dm * f, axis=-1) + np.sum(m * df, axis=-1)


def d_cross_motion(u, du, v, dv) -> np.ndarray:
    """``d(u × v)/dx = du × v + u × dv`` for motion vectors (Table 2.4, eq. 2.33).

    Raises
    ------
    ValueError
        If an argument is not finite with shape (..., 6).
    """
    (u, du), (v, dv) = _pair(u, du, "u"), _pair(v, dv, "v")
    return (crm(du) @ v[..., None])[..., 0] + (crm(u) @ dv[..., None])[..., 0]


def d_cross_force(u, du, f, df) -> np.ndarray:
    """``d(u ×* f)/dx = du ×* f + u ×* df`` (Table 2.4, eq. 2.34).

    Raises
    ------
    ValueError
        If an argument is not finite with shape (..., 6).
    """
    (u, du), (f, df) = _pair(u, du, "u"), _pair(f, df, "f")
    return (crf(du) @ f[..., None])[..., 0] + (crf(u) @ df[..., None])[..., 0]


def d_cross_operator(du, force: bool = False) -> np.ndarray:
    """``d(u×)/dx = (du/dx)×`` (or ``×*`` with ``force=True``), a 6x6 matrix (Table 2.4).

    Raises
    ------
    ValueError
        If ``du`` is not finite with shape (..., 6).
    """
    du = as_array(du, "du", (6,))
    return crf(du) if force else crm(du)


def d_scaled(lam, dlam, v, dv) -> np.ndarray:
    """``d(λ v)/dx = dλ v + λ dv`` for a scalar ``λ`` (Table 2.4).

    Raises
    ------
    ValueError
        If the scalars are not finite or a vector is not finite with shape (..., 6).
    """
    lam, dlam = as_scalar_array(lam, "lam"), as_scalar_array(dlam, "dlam")
    v, dv = _pair(v, dv, "v")
    return dlam[..., None] * v + lam[..., None] * dv


def d_matrix_vector(L, dL, v, dv) -> np.ndarray:
    """``d(L v)/dx = dL v + L dv`` for a 6x6 matrix ``L`` (Table 2.4).

    Raises
    ------
    ValueError
        If an argument is not finite with the documented shape.
    """
    L, dL = as_array(L, "L", (6, 6)), as_array(dL, "dL", (6, 6))
    v, dv = _pair(v, dv, "v")
    return (dL @ v[..., None])[..., 0] + (L @ dv[..., None])[..., 0]


def d_dyad(u, du, v, dv) -> np.ndarray:
    """``d(u v·)/dx = du v· + u dv·``: the dyad ``u vᵀ`` differentiated (Table 2.4).

    Raises
    ------
    ValueError
        If an argument is not finite with shape (..., 6).
    """
    (u, du), (v, dv) = _pair(u, du, "u"), _pair(v, dv, "v")
    return du[..., :, None] * v[..., None, :] + u[..., :, None] * dv[..., None, :]


def derivative_in_moving_coordinates(x_ring, v_A, x, force: bool = False) -> np.ndarray:
    """``ᴬẋ = ᴬx̊ + ᴬv_A × ᴬx`` (eq. 2.36), or ``×*`` for a force vector (eq. 2.37).

    Parameters
    ----------
    x_ring : array_like, shape (..., 6)
        Componentwise derivative of the coordinate vector ``ᴬx``.
    v_A : array_like, shape (..., 6)
        Velocity of frame A, in A coordinates.
    x : array_like, shape (..., 6)
        The coordinate vector ``ᴬx``.
    force : bool
        ``x`` is a force vector.

    Raises
    ------
    ValueError
        If an argument is not finite with shape (..., 6).
    """
    x_ring, v_A, x = (as_array(a, n, (6,)) for a, n in ((x_ring, "x_ring"), (v_A, "v_A"), (x, "x")))
    op = crf(v_A) if force else crm(v_A)
    return x_ring + (op @ x[..., None])[..., 0]
