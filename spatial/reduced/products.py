"""Products with ``J_mr``, ``J̇_mr`` and ``J_mrᵀ`` in ``O(n)`` without forming them (Sueda §2.10).

Forming ``J_mr`` costs ``O(n²)`` (it has that many nonzero blocks, eq. 2.14), but the recursive
structure that fills it also gives its products with a vector in one pass over the tree.

``y = J x`` (Alg. 5).  Row block ``i`` of ``J`` is its parent's row carried one frame outwards
plus the joint's own column, ``J(i, ·) = ^iX_λ(i) J(λ(i), ·) + S_i e_i`` (eq. 2.11).  Multiplying
by ``x`` gives the same recursion on 6-vectors, ``y_i = ^iX_λ(i) y_λ(i) + S_i x_i``, run from
the root to the leaves (eq. 2.109): it is the velocity pass of Featherstone's eq. 5.7 with ``x``
in place of ``q̇``.

``z = J̇ x`` (Alg. 5, line 6).  Differentiating the recursion row by row,
``J̇(i, ·) = d/dt(^iX_λ(i)) J(λ(i), ·) + ^iX_λ(i) J̇(λ(i), ·) + Ṡ_i e_i``, so
``z_i = ^iX_λ(i) z_λ(i) + d/dt(^iX_λ(i)) y_λ(i) + Ṡ_i x_i``, with
``d/dt(^iX_λ(i)) = -(v_J ×) ^iX_λ(i)`` and ``v_J = S_i q̇_i`` (see :mod:`.jacobian`).  Here
``y`` is the ``J x`` of the same pass: the ``Ad`` with a dot in Alg. 5 multiplies the parent's
``y``, not its ``z``.

``x = Jᵀ y`` (Alg. 6).  ``Jᵀ`` is block upper triangular: column block ``a`` of ``J`` collects
the rows of ``a``'s whole subtree, ``J(i, a) = ^iX_a S_a``.  Its transpose therefore gathers
from the leaves to the root: a body's force-like accumulator ``ŷ_i = y_i + Σ_c ^cX_iᵀ ŷ_c``
(sum over the children ``c``) is exactly the ``α`` of Alg. 6, and the joint's entry is
``x_i = S_iᵀ ŷ_i``.  This is the backward pass of the RNEA (Featherstone eq. 5.10–5.11) with
``y`` in place of the body forces.  The expanded equations 2.110–2.112 in the text multiply the
accumulators by ``S_cᵀ`` instead of by the transform ``^cX_iᵀ``: that sends a joint-space
quantity of size ``n_c`` where a 6-vector is needed (the sizes do not even agree unless every
joint has six freedoms); Alg. 6 carries the 6-vector with the transform, as here.

Every product here costs ``O(NB)`` 6×6 operations, against ``O(NB²)`` for forming ``J`` and
multiplying; the results equal the dense products to rounding error.
"""

from __future__ import annotations

import numpy as np

from .._batched import T, crm_matrix
from .._batched import mv as _mv
from .._validate import as_array
from .._validate import broadcast_batch as _batch_shape
from ..kinematics import _forward_pass
from ..model import Model
from .jacobian import _motion_subspace_dot, _rows

__all__ = ["jacobian_product", "jacobian_dot_product", "jacobian_transpose_product"]


# ----------------------------------------------------------------------------- kernels


def _product(model: Model, fp, x: np.ndarray) -> list:
    """Alg. 5 lines 2 and 5: the per-body blocks ``y_i`` of ``J x`` (list indexed 1 … NB)."""
    y = [None] * (model.NB + 1)
    for i in range(1, model.NB + 1):
        p = model.parent[i]
        y[i] = _mv(fp.S[i], x[..., model.v_index[i]])  # y(i) = S_i x(i)
        if p != 0:
            y[i] = y[i] + _mv(fp.Xup[i], y[p])  # y(i) += ^iX_λ(i) y(λ(i))
    return y


def _dot_product(model: Model, fp, q, qd, x: np.ndarray, y: list) -> list:
    """Alg. 5 lines 3 and 6: the blocks ``z_i`` of ``J̇ x``, given the blocks ``y`` of ``J x``."""
    z = [None] * (model.NB + 1)
    for i in range(1, model.NB + 1):
        p = model.parent[i]
        q_i, qd_i = q[..., model.q_index[i]], qd[..., model.v_index[i]]
        S_dot = _motion_subspace_dot(model.joints[i], q_i, qd_i)
        z[i] = _mv(S_dot, x[..., model.v_index[i]])  # z(i) = Ṡ_i x(i)
        if p != 0:
            v_J = _mv(fp.S[i], qd_i)
            X_dot = -crm_matrix(v_J) @ fp.Xup[i]  # d/dt ^iX_λ(i)
            z[i] = z[i] + _mv(fp.Xup[i], z[p]) + _mv(X_dot, y[p])
    return z


def _transpose_product(model: Model, fp, y: np.ndarray) -> np.ndarray:
    """Alg. 6: ``x = Jᵀ y`` by one pass from the leaves to the root, (..., nv)."""
    acc = [y[..., _rows(i)] for i in range(1, model.NB + 1)]
    acc.insert(0, None)
    batch = np.broadcast_shapes(y.shape[:-1], fp.X0[0].shape[:-2])
    x = np.zeros(batch + (model.nv,), dtype=np.result_type(y.dtype, float))  # object: symbols
    for i in range(model.NB, 0, -1):
        x[..., model.v_index[i]] = _mv(T(fp.S[i]), acc[i])  # S_iᵀ ŷ_i
        p = model.parent[i]
        if p != 0:  # α_i = ^iX_λ(i)ᵀ ŷ_i, added to the parent's accumulator
            acc[p] = acc[p] + _mv(T(fp.Xup[i]), acc[i])
    return x


def _stack(model: Model, blocks: list) -> np.ndarray:
    """Per-body 6-vectors (list 1 … NB) as one stacked maximal vector (..., 6 NB)."""
    batch = np.broadcast_shapes(*(b.shape[:-1] for b in blocks[1:]))
    return np.concatenate([np.broadcast_to(b, batch + (6,)) for b in blocks[1:]], axis=-1)


# ----------------------------------------------------------------------------- public API


def jacobian_product(model: Model, q, x) -> np.ndarray:
    """``y = J_mr x`` in ``O(NB)`` without forming ``J_mr`` (Sueda §2.10, Alg. 5, eq. 2.109).

    ``y_i = ^iX_λ(i) y_λ(i) + S_i x_i`` from the root to the leaves.  With ``x = q̇`` this is
    the stacked body twists ``φ`` (eq. 2.1).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    x : array_like, shape (..., nv)

    Returns
    -------
    y : ndarray, shape (..., 6 NB)
        Body ``i`` owns entries ``6(i-1) : 6i``, in body ``i``'s coordinates.

    Raises
    ------
    ValueError
        If ``q`` or ``x`` has the wrong shape, is not finite, ``q`` is not a valid
        configuration, or the batch shapes do not broadcast.

    Examples
    --------
    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> model = simple_pendulum()
    >>> y = sp.reduced.jacobian_product(model, [0.3], [2.0])
    >>> bool(np.allclose(y, sp.reduced.redmax_jacobian(model, [0.3]) @ [2.0]))
    True
    """
    q, _, _, _ = model.check_state(q)
    x = as_array(x, "x", (model.nv,))
    _batch_shape(q=(q, 1), x=(x, 1))
    return _stack(model, _product(model, _forward_pass(model, q), x))


def jacobian_dot_product(model: Model, q, qd, x) -> np.ndarray:
    """``z = J̇_mr x`` along the motion ``(q, q̇)`` in ``O(NB)`` (Sueda §2.10, Alg. 5).

    ``z_i = ^iX_λ(i) z_λ(i) + d/dt(^iX_λ(i)) y_λ(i) + Ṡ_i x_i`` with ``y = J_mr x`` from the same
    pass and ``d/dt(^iX_λ(i)) = -(S_i q̇_i ×) ^iX_λ(i)``.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    x : array_like, shape (..., nv)

    Returns
    -------
    z : ndarray, shape (..., 6 NB)

    Raises
    ------
    ValueError
        As :func:`jacobian_product`, also for ``qd``.
    NotImplementedError
        As :func:`~spatial.reduced.redmax_jacobian_dot` (a joint whose ``Ṡ`` cannot be formed).
    """
    q, qd, _, _ = model.check_state(q, qd)
    x = as_array(x, "x", (model.nv,))
    _batch_shape(q=(q, 1), qd=(qd, 1), x=(x, 1))
    fp = _forward_pass(model, q, qd)
    y = _product(model, fp, x)
    return _stack(model, _dot_product(model, fp, q, qd, x, y))


def jacobian_transpose_product(model: Model, q, y) -> np.ndarray:
    """``x = J_mrᵀ y`` in ``O(NB)`` without forming ``J_mr`` (Sueda §2.10, Alg. 6).

    From the leaves to the root, ``ŷ_i = y_i + Σ_c ^cX_iᵀ ŷ_c`` and ``x_i = S_iᵀ ŷ_i``.  With
    ``y`` the stacked body wrenches in body coordinates, ``x`` is the generalized force they
    produce.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    y : array_like, shape (..., 6 NB)

    Returns
    -------
    x : ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        If ``q`` or ``y`` has the wrong shape, is not finite, ``q`` is not a valid
        configuration, or the batch shapes do not broadcast.
    """
    q, _, _, _ = model.check_state(q)
    y = as_array(y, "y", (6 * model.NB,))
    _batch_shape(q=(q, 1), y=(y, 1))
    return _transpose_product(model, _forward_pass(model, q), y)
