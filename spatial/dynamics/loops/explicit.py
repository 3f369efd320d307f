"""The explicit form of the loop constraints: ``x = G y + g`` and dynamics in ``y`` (§8.8, §8.11).

The implicit constraint ``K q̈ = k`` (:mod:`.constraints`) says which accelerations are allowed
without naming them.  The *explicit* form names them: choose ``n - r`` of the variables as
independent (``r = rank K``), call them ``y``, and write every solution as ``q̈ = G ÿ + g``
(eqs. 8.43–8.44).  Because ``K G = 0``, projecting the tree's equation of motion with ``Gᵀ``
removes the unknown loop forces and leaves the small symmetric positive-definite system
``GᵀHG ÿ = Gᵀ(τ - C + τᵃ - H g)`` (eq. 8.45).

How the book finds ``G`` and ``g`` (§8.8):

1. pick the independent variables by Gaussian elimination with *complete* pivoting — the
   largest remaining entry of ``K`` becomes the next pivot, and the pivot columns, once the
   remaining entries fall below a rank threshold, are the dependent variables
   (:func:`_complete_pivoting`);
2. split ``K = [K_d K_y]`` by dependent and independent columns; the dependent variables
   follow from the independent ones as ``x_d = -K_d⁺ K_y y + K_d⁺ k`` (eq. 8.51, where the
   pseudo-inverse of the full-column-rank ``K_d`` reads ``K₁₁⁻¹`` on the independent rows of
   ``K``; the redundant rows of an overconstrained loop do no harm);
3. so ``G`` is the identity in the independent rows and ``-K_d⁺K_y`` below, ``g`` zero and
   ``K_d⁺ k`` (:func:`G_and_g`).

A ``k`` outside the range of ``K`` has no solution: :func:`G_and_g` refuses it rather than
return a least-squares ``g`` that violates the constraints.

A *loop closure function* ``q = γ(y)`` gives ``G = ∂γ/∂y`` and ``g = Ġ ẏ`` directly
(eqs. 8.56–8.60); :class:`LoopClosure` holds one (:mod:`.closures` builds them) and
:func:`reduced_forward_dynamics` integrates eq. 8.45 in ``y``, where the loops cannot drift open.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..._batched import T as _T
from ..._batched import mv as _mv
from ..._validate import as_array, integers, positive_scalar
from ...model import Model
from ..crba import crba
from ..rnea import bias_force
from .constraints import _CONSISTENCY_TOL, _external_forces

__all__ = ["G_and_g", "LoopClosure", "reduced_forward_dynamics"]


# ----------------------------------------------------------------------------- §8.8


def _check_independent(independent, n: int, name: str = "independent") -> tuple[int, ...]:
    """``independent`` as a tuple of distinct ints in ``0 … n-1``."""
    if isinstance(independent, str | bytes) or not hasattr(independent, "__iter__"):
        raise ValueError(f"{name} must be a sequence of variable indices, got {independent!r}")
    idx = integers(independent, name)  # no int() truncation: 1.5 is not an index
    if len(set(idx)) != len(idx):
        raise ValueError(f"{name} must be distinct integer indices, got {independent!r}")
    if any(not 0 <= i < n for i in idx):
        raise ValueError(f"{name} must index the {n} velocity variables (0 … {n - 1}), got {idx}")
    return idx


def _complete_pivoting(K: np.ndarray, tol: float) -> tuple[int, ...]:
    """Independent columns of ``K`` by Gaussian elimination with complete pivoting (§8.8).

    Rows and columns are swapped so that the largest remaining entry becomes the pivot; the
    elimination stops when every remaining entry is below ``tol`` times the largest entry of
    ``K`` (the rank test).  The pivot columns form ``K₁₁``; the others are independent.
    """
    A = np.array(K, dtype=float)
    m, n = A.shape
    cols = list(range(n))
    scale = np.abs(A).max(initial=0.0)
    r = 0
    while r < min(m, n):
        sub = np.abs(A[r:, r:])
        i, j = np.unravel_index(np.argmax(sub), sub.shape)
        if sub[i, j] <= tol * scale:
            break
        A[[r, r + i]] = A[[r + i, r]]
        A[:, [r, r + j]] = A[:, [r + j, r]]
        cols[r], cols[r + j] = cols[r + j], cols[r]
        A[r + 1 :, r:] -= np.outer(A[r + 1 :, r] / A[r, r], A[r, r:])
        r += 1
    return tuple(sorted(cols[r:]))


def _independent_variables(K: np.ndarray, independent, tol: float, who: str) -> tuple[int, ...]:
    """The given independent variables, checked, or complete pivoting's choice for one ``K``."""
    if independent is None:
        if K.ndim != 2:
            raise ValueError(
                f"{who}: pass independent= for a batch of K (complete pivoting picks the "
                "independent variables of one matrix)"
            )
        return _complete_pivoting(K, tol)
    return _check_independent(independent, K.shape[-1])


def _explicit_form(
    K, k, independent: tuple[int, ...], tol: float, who: str = "G_and_g", labels=None
):
    """Eq. 8.51 on validated arrays for a chosen set of independent variables: ``(G, g)``.

    ``g`` is the least-squares solution where ``k`` is slightly outside the range of ``K``
    (the forward dynamics warns about that itself; :func:`G_and_g` refuses it).  ``labels``
    numbers the columns of ``K`` in messages (a cluster's block keeps the model's numbers).

    Raises
    ------
    ValueError
        If ``K_d`` is singular (too few independent variables, or a configuration singularity)
        or the variables are not independent (``K G ≠ 0``).
    """
    m, n = K.shape[-2:]
    label = list(range(n)) if labels is None else [int(j) for j in labels]
    dependent = [j for j in range(n) if j not in independent]
    K_d, K_y = K[..., :, dependent], K[..., :, list(independent)]
    if dependent:
        U, s, Vt = np.linalg.svd(K_d, full_matrices=False)  # one SVD: rank test and K_d⁺
        if len(dependent) > m or np.any(s[..., -1] <= tol * s[..., 0]):
            raise ValueError(
                f"{who}: the dependent variables {[label[j] for j in dependent]} cannot be solved "
                "for: K restricted to them is singular. Either the independent variables "
                f"{[label[j] for j in independent]} are too few, or this is a configuration "
                "singularity (Featherstone §8.10) at which they do not determine the motion"
            )
    batch = np.broadcast_shapes(K.shape[:-2], k.shape[:-1])
    G = np.zeros(batch + (n, len(independent)))
    g = np.zeros(batch + (n,))
    G[..., list(independent), np.arange(len(independent))] = 1.0
    if dependent:
        s_inv = np.where(s > 1e-15 * s[..., :1], 1.0 / s, 0.0)  # np.linalg.pinv's cut-off
        K_d_pinv = _T(Vt) @ (s_inv[..., :, None] * _T(U))
        G[..., dependent, :] = -K_d_pinv @ K_y
        g[..., dependent] = _mv(K_d_pinv, k)
    residual = np.abs(K @ G).max(initial=0.0)
    if residual > _CONSISTENCY_TOL * max(np.abs(K).max(initial=0.0), 1e-300) * max(
        1.0, np.abs(G).max(initial=0.0)
    ):
        raise ValueError(
            f"{who}: the variables {[label[j] for j in independent]} are not independent: the "
            "constraints fix a combination of them (there are more of them than the mobility "
            "n - rank(K))"
        )
    return G, g


def _require_solution(K, k, g, consistency_tol: float, who: str) -> None:
    """``ValueError`` unless ``K g = k`` to ``consistency_tol`` (relative): ``k ∈ range(K)``."""
    residual = np.abs(_mv(K, g) - k).max(initial=0.0)
    scale = max(np.abs(k).max(initial=0.0), np.abs(K).max(initial=0.0) * np.abs(g).max(initial=0.0))
    if residual > consistency_tol * max(scale, 1e-300):
        raise ValueError(
            f"{who}: K x = k has no solution: the best (least-squares) x leaves the residual "
            f"max|K x - k| = {residual:.3g}, {residual / scale:.3g} of the size of the terms, "
            f"above consistency_tol = {consistency_tol:g}; k must lie in the range of K "
            "(redundant rows of K need matching entries of k)"
        )


def G_and_g(
    K, k, independent=None, tol: float = 1e-9, consistency_tol: float = _CONSISTENCY_TOL
) -> tuple[np.ndarray, np.ndarray, tuple]:
    """Solve ``K x = k`` in the explicit form ``x = G y + g`` with ``y`` a subset of ``x`` (§8.8).

    ``K`` (``m x n``, rank ``r``) is split into the columns of the ``n - r`` *independent*
    variables ``y`` and of the ``r`` dependent ones; with ``K_d`` of full column rank,
    ``x_d = -K_d⁺ K_y y + K_d⁺ k`` (eq. 8.51: ``-K₁₁⁻¹K₁₂`` and ``K₁₁⁻¹k₁``, rows of ``K`` that
    depend on the others being harmless).  So ``G`` has the identity in the independent rows,
    ``K G = 0`` and ``K g = k`` (eqs. 8.43–8.44).  If ``independent`` is not given it is chosen
    as the book does, by Gaussian elimination with complete pivoting and a rank test.

    Parameters
    ----------
    K : array_like, shape (..., m, n)
    k : array_like, shape (..., m)
        In the range of ``K``.  A ``k`` outside it by a relative residual of at most
        ``consistency_tol`` (round-off) is met in the least-squares sense; a larger one raises.
    independent : sequence of int, optional
        Indices of the independent variables (``n - r`` of them).  Required for a batch of
        matrices (the choice must be the same for every entry).
    tol : float
        Relative tolerance of the rank decisions.
    consistency_tol : float
        Largest accepted ``max|K g - k|`` relative to the size of the terms
        (``max(|k|, |K| |g|)``).

    Returns
    -------
    G : ndarray, shape (..., n, n - r)
    g : ndarray, shape (..., n)
        Zero in the independent rows.
    independent : tuple of int

    Raises
    ------
    ValueError
        If shapes disagree; if ``independent`` is missing for a batch; if the dependent
        variables cannot be solved for (``K_d`` loses rank: a configuration singularity,
        §8.10, or too few independent variables); if the given variables are not
        independent (the constraints restrict them: more than ``n - r`` of them); or if
        ``K x = k`` has no solution (the message gives the residual).
    """
    if np.ndim(K) < 2:
        raise ValueError(f"K must have shape (..., m, n), got {np.shape(K)}")
    m, n = np.shape(K)[-2:]
    K = as_array(K, "K", (m, n))
    k = as_array(k, "k", (m,))
    consistency_tol = positive_scalar(consistency_tol, "consistency_tol")
    independent = _independent_variables(K, independent, tol, "G_and_g")
    G, g = _explicit_form(K, k, independent, tol)
    _require_solution(K, k, g, consistency_tol, "G_and_g")
    return G, g, independent


# ----------------------------------------------------------------------------- eq. 8.45


@dataclass(frozen=True)
class LoopClosure:
    """A loop closure function ``q = γ(y)`` and its derivatives (Featherstone §8.11).

    ``y`` is a vector of independent position variables, here a subset of ``q``: the entries
    whose velocity variables are ``independent``.  Differentiating ``q = γ(y)`` gives
    ``q̇ = G ẏ`` with ``G = ∂γ/∂y`` and ``q̈ = G ÿ + g`` with ``g = Ġ ẏ`` (eqs. 8.56–8.60).
    Integrating ``y`` instead of ``q`` keeps every loop closed: no stabilization is needed.

    Attributes
    ----------
    gamma : callable
        ``gamma(y)``: ``y`` of shape (..., ny) → ``q`` of shape (..., nq).
    jacobians : callable
        ``jacobians(y, yd)`` → ``(q, G, g)`` with shapes (..., nq), (..., nv, ny), (..., nv).
    independent : tuple of int
        The velocity variables that ``ẏ`` equals (``G[independent] = 1``).
    """

    gamma: Callable[[np.ndarray], np.ndarray]
    jacobians: Callable[[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray]]
    independent: tuple[int, ...]

    @property
    def ny(self) -> int:
        """Number of independent variables (the mobility ``n - r``)."""
        return len(self.independent)


def _independent_accelerations(H, G, g, tau_p) -> np.ndarray:
    """``ÿ`` of eq. 8.45: ``GᵀHG ÿ = Gᵀ(τ' - H g)``, batched (``τ' = τ - C + τᵃ``)."""
    rhs = _mv(_T(G), tau_p - _mv(H, g))
    return np.linalg.solve(_T(G) @ H @ G, rhs[..., None])[..., 0]


def _reduced(model: Model, q, G, g, yd, tau, tau_loop, f_ext) -> np.ndarray:
    """Eq. 8.45 at ``q = γ(y)``: ``ÿ = (GᵀHG)⁻¹ Gᵀ (τ - C + τᵃ - H g)``."""
    qd = _mv(G, yd)
    q, qd, _, tau = model.check_state(q, qd, None, np.zeros(model.nv) if tau is None else tau)
    tree = model.spanning_tree()  # H and C of the spanning tree (§8.1)
    H = crba(tree, q)
    C = bias_force(tree, q, qd, _external_forces(model, q, tau_loop, f_ext))
    return _independent_accelerations(H, G, g, tau - C)


def reduced_forward_dynamics(
    model: Model, closure: LoopClosure, y, yd, tau=None, tau_loop=None, f_ext=None
) -> np.ndarray:
    """Forward dynamics in independent coordinates: ``GᵀHG ÿ = Gᵀ(τ - C + τᵃ - H g)`` (eq. 8.45).

    With ``q = γ(y)``, ``q̇ = G ẏ`` and ``q̈ = G ÿ + g`` (eqs. 8.56–8.60), premultiplying the
    tree's equation of motion by ``Gᵀ`` removes the loop forces (``Gᵀ Kᵀ = 0``) and leaves the
    symmetric positive-definite system of eq. 8.46 (cf. eq. 3.20).

    Parameters
    ----------
    model : Model
    closure : LoopClosure
        E.g. :func:`four_bar_closure` or :func:`newton_closure`.
    y, yd : array_like, shape (..., ny)
    tau : array_like, shape (..., nv), optional
        Tree-joint forces.
    tau_loop, f_ext : optional
        As :func:`loop_forward_dynamics`.

    Returns
    -------
    ndarray, shape (..., ny)
        ``ÿ``; ``q̈ = G ÿ + g``.

    Raises
    ------
    ValueError
        If an input is invalid or the closure fails (no assembly, singular configuration).
    """
    if not isinstance(closure, LoopClosure):
        raise ValueError(f"closure must be a LoopClosure, got {closure!r}")
    q, G, g = closure.jacobians(y, yd)
    return _reduced(model, q, G, g, as_array(yd, "yd", (closure.ny,)), tau, tau_loop, f_ext)
