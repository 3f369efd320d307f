"""Factorizing and solving with a joint-space inertia matrix that has branch-induced sparsity.

In a kinematic tree, ``H[k, j]`` (``j < k``) can be non-zero only if velocity variable ``j`` is
an ancestor of variable ``k`` in the expanded connectivity graph (Featherstone §6.4, eq. 6.14):
its parent ``λ(k)``, grandparent ``λ(λ(k))``, and so on.  Factorizing ``H`` in the reversed
order, ``H = LᵀL`` or ``H = LᵀDL`` (rows processed from ``n`` down to 1), creates no fill-in:
``L`` has exactly the sparsity pattern of ``H``'s lower triangle, and the inner loops can walk
the ancestor chain of ``λ`` instead of sweeping whole rows (§6.5).  This module implements

* :func:`ltl`, :func:`ltdl`: the factorizations of Table 6.3;
* :func:`mul_L`, :func:`mul_Lt`, :func:`solve_L`, :func:`solve_Lt`, :func:`mul_H`: the
  products and back-substitutions of Table 6.5, and :func:`ltl_solve`, :func:`ltdl_solve`
  that chain them to solve ``H x = b``;
* :func:`sparsity_sums` and :func:`operation_counts`: the cost formulae of Table 6.6
  (eqs. 6.26–6.27);
* :func:`forward_dynamics`: the inertia-matrix method of §6.1 — ``C`` by the RNEA, ``H`` by
  the CRBA, then ``H q̈ = τ - C`` solved with the sparse ``LᵀDL`` factorization.

Indices are 0-based: ``lam[k]`` is the parent of variable ``k`` or ``-1`` at a root (the book's
``λ(k) = 0``), as :meth:`spatial.model.Model.expanded_parent` returns (Table 6.4).  Every
function takes leading batch dimensions: ``H`` of shape ``(..., n, n)`` and vectors of shape
``(..., n)``; the loops run over ``k`` and the ancestor chains in Python and act on the whole
batch at once.  Inside, the kernels keep the batch axes last (``W[k, i]`` is then one contiguous
vector over the states), and ``float32``, ``float64`` and ``longdouble`` inputs are computed in
their own precision.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_float_array
from ..model import Model
from .crba import _crba
from .rnea import _batch_shape, _check_f_ext, _rnea

__all__ = [
    "ltl",
    "ltdl",
    "mul_L",
    "mul_Lt",
    "solve_L",
    "solve_Lt",
    "mul_H",
    "ltl_solve",
    "ltdl_solve",
    "sparsity_sums",
    "operation_counts",
    "forward_dynamics",
]


# ----------------------------------------------------------------------------- input checks


def _check_lam(lam, n: int | None = None) -> np.ndarray:
    """``lam`` as an int array with ``-1 ≤ lam[k] < k`` (and length ``n`` if given)."""
    arr = np.asarray(lam)
    if arr.ndim != 1 or (arr.size > 0 and not np.issubdtype(arr.dtype, np.integer)):
        raise ValueError(f"lam must be a 1-D sequence of ints, got {lam!r}")
    arr = arr.astype(int)
    if n is not None and arr.size != n:
        raise ValueError(f"lam must have one entry per row of the matrix ({n}), got {arr.size}")
    bad = [k for k in range(arr.size) if not -1 <= arr[k] < k]
    if bad:
        k = bad[0]
        raise ValueError(
            f"lam[{k}] = {arr[k]}: every entry must satisfy -1 ≤ lam[k] < k (parents come "
            "first, -1 marks a root; Featherstone §6.5)"
        )
    return arr


def _pattern(lam: np.ndarray) -> np.ndarray:
    """Boolean (n, n): ``True`` at ``[k, j]`` if ``j == k`` or ``j`` is an ancestor of ``k``."""
    n = lam.size
    mask = np.eye(n, dtype=bool)
    for k in range(n):
        j = lam[k]
        if j != -1:
            mask[k] = mask[j]
            mask[k, k] = True
    return mask


def _ancestor_chains(lam: np.ndarray) -> list[np.ndarray]:
    """``chain[i]``: the indices ``i, λ(i), λ(λ(i)), …`` down to the root, as an int array."""
    chain: list[np.ndarray] = []
    for i in range(lam.size):
        parent = chain[lam[i]] if lam[i] != -1 else np.zeros(0, int)
        chain.append(np.concatenate([[i], parent]).astype(int))
    return chain


def _check_matrix(H, lam, name: str) -> tuple[np.ndarray, np.ndarray]:
    """``(H, lam)`` validated: square (..., n, n), finite, and zero outside the λ pattern."""
    H = np.asarray(H)
    if H.ndim < 2 or H.shape[-1] != H.shape[-2]:
        raise ValueError(f"{name} must have shape (..., n, n), got {H.shape}")
    H = as_float_array(H, name, H.shape[-2:])
    lam = _check_lam(lam, H.shape[-1])
    tol = 1e-12 * np.abs(H).max(initial=0.0)
    nonzero = np.any(np.abs(H) > tol, axis=tuple(range(H.ndim - 2)))
    offending = np.argwhere(nonzero & np.tril(~_pattern(lam)))
    if offending.size:
        k, j = offending[0]
        raise ValueError(
            f"{name}[{k}, {j}] is non-zero but {j} is not an ancestor of {k} in lam: the matrix "
            "does not have the branch-induced sparsity pattern of lam (Featherstone §6.4)"
        )
    return H, lam


def _check_symmetric(H: np.ndarray, name: str) -> None:
    scale = np.abs(H).max(initial=0.0)
    if np.abs(H - np.swapaxes(H, -1, -2)).max(initial=0.0) > 1e-10 * scale:
        raise ValueError(f"{name} must be symmetric")


def _require_positive_pivots(pivots: np.ndarray, k: int) -> None:
    if np.any(pivots <= 0.0):
        raise ValueError(
            f"H is not positive definite: pivot {k} is {pivots.min():.3g} ≤ 0 during the "
            "factorization (Featherstone Table 6.3 needs a symmetric positive-definite H)"
        )


# ----------------------------------------------------------------------------- Table 6.3


def ltl(H, lam) -> np.ndarray:
    """Sparse ``H = LᵀL`` factorization exploiting branch-induced sparsity (Table 6.3, left).

    Rows are processed from ``k = n-1`` down to ``0``; the inner loops visit only the
    ancestors ``lam[k], lam[lam[k]], …`` so the cost is ``O(n d²)`` for a tree of depth ``d``
    (Table 6.6) and ``L`` has no fill-in.

    Parameters
    ----------
    H : array_like, shape (..., n, n)
        Symmetric positive-definite matrix whose lower triangle is non-zero only at
        ``[k, j]`` with ``j`` an ancestor of ``k`` (e.g. from :func:`~spatial.dynamics.crba`).
    lam : sequence of int, length n
        Expanded parent array, 0-based with ``-1`` at roots (``Model.expanded_parent()``).

    Returns
    -------
    L : ndarray, shape (..., n, n)
        Lower-triangular with ``H = Lᵀ L`` and the sparsity pattern of ``H``.

    Raises
    ------
    ValueError
        If ``H`` is not square, finite and symmetric, has non-zeros outside the pattern of
        ``lam``, or is not positive definite; or if ``lam`` is not a valid parent array.
    """
    H, lam = _check_matrix(H, lam, "H")
    _check_symmetric(H, "H")
    L = np.tril(H)
    n = lam.size
    chain = _ancestor_chains(lam)
    for k in range(n - 1, -1, -1):
        _require_positive_pivots(L[..., k, k], k)
        L[..., k, k] = np.sqrt(L[..., k, k])
        i = lam[k]
        while i != -1:
            L[..., k, i] = L[..., k, i] / L[..., k, k]
            i = lam[i]
        i = lam[k]
        while i != -1:
            j = chain[i]  # the book's innermost loop, j = i, λ(i), …, as one vector operation
            L[..., i, j] = L[..., i, j] - L[..., k, i, None] * L[..., k, j]
            i = lam[i]
    return np.where(_pattern(lam), L, 0.0)


def ltdl(H, lam) -> tuple[np.ndarray, np.ndarray]:
    """Sparse ``H = LᵀDL`` factorization exploiting branch-induced sparsity (Table 6.3, right).

    Like :func:`ltl` but without square roots: ``L`` is unit lower-triangular and ``D``
    diagonal.  As in the book, the multiplier ``a = H_ki / H_kk`` is used for the area-3
    update of row ``i`` before it is stored in ``L[k, i]``.

    Parameters
    ----------
    H : array_like, shape (..., n, n)
        Symmetric positive-definite matrix with the branch-induced sparsity of ``lam``.
    lam : sequence of int, length n
        Expanded parent array, 0-based with ``-1`` at roots.

    Returns
    -------
    L : ndarray, shape (..., n, n)
        Unit lower-triangular (ones on the diagonal), with the sparsity pattern of ``H``.
    D : ndarray, shape (..., n)
        The diagonal of ``D``; ``H = Lᵀ diag(D) L``.

    Raises
    ------
    ValueError
        As :func:`ltl`.
    """
    H, lam = _check_matrix(H, lam, "H")
    _check_symmetric(H, "H")
    W = _ltdl(_batch_last(np.tril(H), 2), lam)
    D = np.diagonal(W).copy()  # (..., n)
    L = np.where(_pattern(lam), _batch_first(W, 2), 0.0)
    L[..., np.arange(lam.size), np.arange(lam.size)] = 1.0
    return L, D


def _ltdl(W: np.ndarray, lam: np.ndarray) -> np.ndarray:
    """Table 6.3 (right) in place on the lower triangle ``W`` (n, n, ...) of a validated ``H``.

    The batch axes come last (:func:`_batch_last`), so that each of the book's scalar
    operations ``W[k, i]`` is one contiguous vector operation over all the states.  Returns
    ``W`` holding ``L`` below the diagonal (at the pattern of ``lam``) and ``D`` on it.
    """
    chain = _ancestor_chains(lam)
    for k in range(lam.size - 1, -1, -1):
        _require_positive_pivots(W[k, k], k)
        i = lam[k]
        while i != -1:
            a = W[k, i] / W[k, k]
            j = chain[i]  # the book's innermost loop, j = i, λ(i), …, as one vector operation
            W[i, j] = W[i, j] - a * W[k, j]
            W[k, i] = a
            i = lam[i]
    return W


def _batch_last(A: np.ndarray, k: int) -> np.ndarray:
    """A contiguous copy of ``A`` (..., n[, n]) with its last ``k`` axes moved to the front."""
    return np.moveaxis(A, tuple(range(-k, 0)), tuple(range(k))).copy()


def _batch_first(A: np.ndarray, k: int) -> np.ndarray:
    """The inverse of :func:`_batch_last` (a view)."""
    return np.moveaxis(A, tuple(range(k)), tuple(range(-k, 0)))


# ----------------------------------------------------------------------------- Table 6.5


def _prepare(M, lam, x, name: str) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple]:
    M, lam = _check_matrix(M, lam, name)
    x = as_float_array(x, "x", (lam.size,))
    return M, lam, x, _batch_shape(**{name: (M, 2)}, x=(x, 1))


def mul_L(L, lam, x) -> np.ndarray:
    """``y = L x`` for a lower-triangular ``L`` with the sparsity of ``lam`` (Table 6.5).

    Parameters
    ----------
    L : array_like, shape (..., n, n)
        Lower-triangular factor (from :func:`ltl` or :func:`ltdl`).
    lam : sequence of int, length n
        Expanded parent array, 0-based with ``-1`` at roots.
    x : array_like, shape (..., n)

    Returns
    -------
    ndarray, shape (..., n)

    Raises
    ------
    ValueError
        If the shapes disagree, ``lam`` is invalid or ``L`` has entries outside its pattern.
    """
    L, lam, x, batch = _prepare(L, lam, x, "L")
    y = np.zeros(batch + (lam.size,))
    for i in range(lam.size - 1, -1, -1):
        y[..., i] = L[..., i, i] * x[..., i]
        j = lam[i]
        while j != -1:
            y[..., i] = y[..., i] + L[..., i, j] * x[..., j]
            j = lam[j]
    return y


def mul_Lt(L, lam, x) -> np.ndarray:
    """``y = Lᵀ x`` for a lower-triangular ``L`` with the sparsity of ``lam`` (Table 6.5).

    Parameters and errors as :func:`mul_L`.
    """
    L, lam, x, batch = _prepare(L, lam, x, "L")
    y = np.zeros(batch + (lam.size,))
    for i in range(lam.size):
        y[..., i] = L[..., i, i] * x[..., i]
        j = lam[i]
        while j != -1:
            y[..., j] = y[..., j] + L[..., i, j] * x[..., i]
            j = lam[j]
    return y


def solve_L(L, lam, x) -> np.ndarray:
    """``L⁻¹ x`` by forward substitution along the ancestor chains (Table 6.5, ``x = L⁻¹x``).

    Parameters
    ----------
    L : array_like, shape (..., n, n)
        Lower-triangular factor with a non-zero diagonal.
    lam : sequence of int, length n
    x : array_like, shape (..., n)

    Returns
    -------
    ndarray, shape (..., n)
        A new array; ``x`` is not modified (the book works in situ).

    Raises
    ------
    ValueError
        As :func:`mul_L`, or if a diagonal entry of ``L`` is zero.
    """
    L, lam, x, batch = _prepare(L, lam, x, "L")
    _require_nonzero_diagonal(L)
    x = _batch_last(np.broadcast_to(x, batch + (lam.size,)), 1)
    return _batch_first(_solve_L(_batch_last(L, 2), lam, x), 1)


def solve_Lt(L, lam, x) -> np.ndarray:
    """``L⁻ᵀ x`` by back substitution along the ancestor chains (Table 6.5, ``x = L⁻ᵀx``).

    Parameters, returns and errors as :func:`solve_L`.
    """
    L, lam, x, batch = _prepare(L, lam, x, "L")
    _require_nonzero_diagonal(L)
    x = _batch_last(np.broadcast_to(x, batch + (lam.size,)), 1)
    return _batch_first(_solve_Lt(_batch_last(L, 2), lam, x), 1)


def _solve_L(L: np.ndarray, lam: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Table 6.5's ``x = L⁻¹x`` in place, batch axes last: ``L`` (n, n, ...), ``x`` (n, ...)."""
    for i in range(lam.size):
        j = lam[i]
        while j != -1:
            x[i] = x[i] - L[i, j] * x[j]
            j = lam[j]
        x[i] = x[i] / L[i, i]
    return x


def _solve_Lt(L: np.ndarray, lam: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Table 6.5's ``x = L⁻ᵀx`` in place, batch axes last: ``L`` (n, n, ...), ``x`` (n, ...)."""
    for i in range(lam.size - 1, -1, -1):
        x[i] = x[i] / L[i, i]
        j = lam[i]
        while j != -1:
            x[j] = x[j] - L[i, j] * x[i]
            j = lam[j]
    return x


def _require_nonzero_diagonal(L: np.ndarray) -> None:
    if np.any(np.diagonal(L, axis1=-2, axis2=-1) == 0.0):
        raise ValueError("L has a zero on its diagonal: it is singular")


def mul_H(H, lam, x) -> np.ndarray:
    """``y = H x`` touching only the non-zeros of a matrix with branch-induced sparsity.

    Table 6.5 (``y = Hx``): the diagonal first, then each stored ``H[i, j]`` (``j`` an
    ancestor of ``i``) is used twice, for ``y_i`` and, by symmetry, for ``y_j``.  Only the
    lower triangle of ``H`` is read.

    Parameters
    ----------
    H : array_like, shape (..., n, n)
        Symmetric, with the sparsity of ``lam``.
    lam : sequence of int, length n
    x : array_like, shape (..., n)

    Returns
    -------
    ndarray, shape (..., n)

    Raises
    ------
    ValueError
        If the shapes disagree, ``lam`` is invalid, or ``H`` is not symmetric or has entries
        outside the pattern of ``lam``.
    """
    H, lam, x, batch = _prepare(H, lam, x, "H")
    _check_symmetric(H, "H")
    y = np.zeros(batch + (lam.size,))
    for i in range(lam.size):
        y[..., i] = H[..., i, i] * x[..., i]
    for i in range(lam.size - 1, -1, -1):
        j = lam[i]
        while j != -1:
            y[..., i] = y[..., i] + H[..., i, j] * x[..., j]
            y[..., j] = y[..., j] + H[..., i, j] * x[..., i]
            j = lam[j]
    return y


def ltl_solve(L, lam, b) -> np.ndarray:
    """Solve ``H x = b`` from ``H = LᵀL``: ``x = L⁻¹ (L⁻ᵀ b)`` (Table 6.5, Table 6.6 row 2).

    Parameters
    ----------
    L : array_like, shape (..., n, n)
        Factor from :func:`ltl`.
    lam : sequence of int, length n
    b : array_like, shape (..., n)

    Returns
    -------
    ndarray, shape (..., n)

    Raises
    ------
    ValueError
        As :func:`solve_L`.
    """
    return solve_L(L, lam, solve_Lt(L, lam, b))


def ltdl_solve(L, D, lam, b) -> np.ndarray:
    """Solve ``H x = b`` from ``H = LᵀDL``: ``x = L⁻¹ D⁻¹ L⁻ᵀ b`` (Table 6.5, Table 6.6 row 2).

    Parameters
    ----------
    L : array_like, shape (..., n, n)
        Unit lower-triangular factor from :func:`ltdl`.
    D : array_like, shape (..., n)
        Its diagonal factor.
    lam : sequence of int, length n
    b : array_like, shape (..., n)

    Returns
    -------
    ndarray, shape (..., n)

    Raises
    ------
    ValueError
        As :func:`solve_L`, or if ``D`` has the wrong shape or a zero entry.
    """
    D = as_float_array(D, "D", (np.shape(L)[-1],))
    if np.any(D == 0.0):
        raise ValueError("D has a zero entry: H is singular")
    return solve_L(L, lam, solve_Lt(L, lam, b) / D)


# ----------------------------------------------------------------------------- Table 6.6


def sparsity_sums(lam) -> tuple[int, int]:
    """``D₁ = Σ (d_k - 1)`` and ``D₂ = Σ d_k (d_k - 1)/2`` of Featherstone eqs. 6.26–6.27.

    ``d_k`` is the depth of variable ``k`` in the expanded tree (the number of arcs from it
    to the base).  ``D₁`` counts the non-zeros below the diagonal of ``H`` (and of ``L``),
    ``D₂`` the area-3 updates of the factorization; without branches they reach their
    maxima ``(n² - n)/2`` and ``(n³ - n)/6`` (eq. 6.28).

    Parameters
    ----------
    lam : sequence of int, length n
        Expanded parent array, 0-based with ``-1`` at roots.

    Returns
    -------
    D1, D2 : int

    Raises
    ------
    ValueError
        If ``lam`` is not a valid parent array.
    """
    lam = _check_lam(lam)
    depth = np.zeros(lam.size, dtype=int)
    for k in range(lam.size):
        depth[k] = 1 if lam[k] == -1 else depth[lam[k]] + 1
    return int(np.sum(depth - 1)), int(np.sum(depth * (depth - 1) // 2))


def operation_counts(lam) -> dict[str, dict[str, int]]:
    """Floating-point operation counts of the sparse algorithms, from Featherstone Table 6.6.

    Parameters
    ----------
    lam : sequence of int, length n
        Expanded parent array, 0-based with ``-1`` at roots.  Pass ``np.arange(n) - 1``
        for a dense matrix (no branch-induced zeros).

    Returns
    -------
    dict
        For each of ``"ltl"``, ``"ltdl"`` (factorizations), ``"ltl_solve"``,
        ``"ltdl_solve"`` (back-substitution), ``"mul_L"``/``"mul_Lt"``,
        ``"solve_L"``/``"solve_Lt"`` for a general ``L`` (from ``ltl``; a unit ``L`` from
        ``ltdl`` saves the ``n`` multiplications or divisions) and ``"mul_H"``: a dict of
        counts of ``"mul"``, ``"add"``, ``"div"`` and ``"sqrt"``.

    Raises
    ------
    ValueError
        If ``lam`` is not a valid parent array.
    """
    n = _check_lam(lam).size
    D1, D2 = sparsity_sums(lam)

    def ops(mul=0, add=0, div=0, sqrt=0):
        return {"mul": mul, "add": add, "div": div, "sqrt": sqrt}

    return {
        "ltl": ops(mul=D2, add=D2, div=D1, sqrt=n),
        "ltdl": ops(mul=D2, add=D2, div=D1),
        "ltl_solve": ops(mul=2 * D1, add=2 * D1, div=2 * n),
        "ltdl_solve": ops(mul=2 * D1, add=2 * D1, div=n),
        "mul_L": ops(mul=n + D1, add=D1),
        "mul_Lt": ops(mul=n + D1, add=D1),
        "solve_L": ops(mul=D1, add=D1, div=n),
        "solve_Lt": ops(mul=D1, add=D1, div=n),
        "mul_H": ops(mul=n + 2 * D1, add=2 * D1),
    }


# ----------------------------------------------------------------------------- §6.1


def forward_dynamics(model: Model, q, qd, tau, f_ext=None) -> np.ndarray:
    """Forward dynamics by the inertia-matrix method: solve ``H q̈ = τ - C`` (Featherstone §6.1).

    The three steps of §6.1: ``C = ID(q, q̇, 0, f^x)`` by the RNEA (eq. 6.2,
    :func:`~spatial.dynamics.bias_force`), ``H`` by the CRBA (Table 6.2,
    :func:`~spatial.dynamics.crba`), and the solve by the sparse ``LᵀDL`` factorization of
    Table 6.3 with the back-substitutions of Table 6.5, using the model's expanded parent array
    (Table 6.4).  Cost ``O(n d²)``; the result equals the articulated-body algorithm's.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd, tau : array_like, shape (..., nv)
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces on the bodies in base coordinates (row 0 must be zero).

    Returns
    -------
    ndarray, shape (..., nv)
        The joint accelerations ``q̈`` (``α̇``).

    Raises
    ------
    ValueError
        If a state array or ``f_ext`` is invalid, the batch shapes do not broadcast, or ``H`` is
        not positive definite (a massless subtree).  If the model has loop joints
        (:meth:`~spatial.Model.check_tree`): use
        :func:`~spatial.dynamics.loops.loop_forward_dynamics` for the closed loops, or pass
        ``model.spanning_tree()`` for the open tree's answer.
    """
    q, qd, _, tau = model.check_state(q, qd, None, tau, tree_dynamics="forward_dynamics")
    f_ext = _check_f_ext(model, f_ext)
    batch = _batch_shape(q=(q, 1), qd=(qd, 1), tau=(tau, 1), f_ext=(f_ext, 2))
    C = _rnea(model, q, qd, np.zeros(qd.shape), f_ext)[0]
    H = _crba(model, q)
    lam = model.expanded_parent()
    # Tables 6.3 and 6.5 on the kernels, batch axes last: x = L⁻¹ D⁻¹ L⁻ᵀ (τ - C)
    W = _ltdl(_batch_last(np.broadcast_to(H, batch + H.shape[-2:]), 2), lam)
    diagonal = np.arange(model.nv)
    D = W[diagonal, diagonal].copy()
    W[diagonal, diagonal] = 1.0  # L is unit lower-triangular
    x = _solve_Lt(W, lam, _batch_last(np.broadcast_to(tau - C, batch + (model.nv,)), 1)) / D
    return _batch_first(_solve_L(W, lam, x), 1)
