"""Properties of closed-loop systems: mobility, overconstraint and loop clusters (§8.9–8.10).

**Mobility (§8.10).**  A tree with ``n`` joint variables can move in ``n`` ways; loops take
away ``r = rank K`` of them, so the mobility is ``n - r`` (eq. 8.52).  ``r`` depends on the
configuration: where it drops the mechanism gains freedoms (variable mobility).  Constraints
beyond the rank are *redundant* — ``n^c - r`` of them, ``3`` for every planar loop closed by a
pin — and leave the matching loop forces undetermined (overconstraint).  :func:`mobility`
counts them at a configuration.

**Loop clusters (§8.9).**  Row block ``l`` of ``K`` is non-zero only in the columns of the tree
joints on loop ``l``'s path (eq. 8.20).  Two loops whose paths share a joint with a freedom —
a column of ``K``; a welded joint has none — are *coupled*; a *minimal cluster* is a set of
loops closed under coupling that cannot be split further.  So:

1. :func:`loop_clusters` groups the loops by shared path joints (Figure 8.1);
2. :func:`cluster_blocks` turns each cluster into its rows of ``K`` (its loops' constraints) and
   its columns (the velocity variables of its joints).  Outside these blocks ``K`` is zero; a
   column in no block belongs to a joint on no loop, free of every constraint.  Numbering each
   cluster's joints consecutively would make ``K`` visibly block-diagonal — with gaps for the
   free joints — and ``G`` block-diagonal without gaps;
3. :func:`G_and_g_by_cluster` therefore solves ``K x = k`` block by block, as the section
   suggests: each cluster's ``K_c x_c = k_c`` by §8.8's method (:func:`G_and_g`), the free
   variables independent with an identity block.  It replaces one elimination on the whole
   ``n^c x n`` matrix by several small ones;
   ``loop_forward_dynamics(..., method="clusters")`` uses it for eq. 8.45.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..._validate import as_array, positive_scalar
from ...model import Model
from .constraints import _CONSISTENCY_TOL, _constraints, _loop_path, _loop_rows, _n_constraints
from .explicit import _check_independent, _explicit_form, _independent_variables, _require_solution

__all__ = ["Mobility", "mobility", "loop_clusters", "cluster_blocks", "G_and_g_by_cluster"]


# ----------------------------------------------------------------------------- rank


def _rank(M: np.ndarray, tol: float) -> np.ndarray:
    """Numerical rank of each matrix of a batch: singular values above ``tol`` times the largest."""
    s = np.linalg.svd(M, compute_uv=False)
    if s.shape[-1] == 0:
        return np.zeros(s.shape[:-1], dtype=int)
    return (s > tol * s[..., :1]).sum(-1)


def _uniform_rank(M: np.ndarray, tol: float, what: str) -> int:
    """The numerical rank of ``M``, which must be the same over the whole batch."""
    ranks = np.unique(_rank(M, tol))
    if ranks.size > 1:
        raise ValueError(
            f"the rank of {what} differs across the batch ({ranks.tolist()}): some states are at "
            "a configuration singularity (Featherstone §8.10); solve them separately"
        )
    return int(ranks[0]) if ranks.size else 0


# ----------------------------------------------------------------------------- §8.9–8.10


# ----------------------------------------------------------------------------- §8.9–8.10


class Mobility(NamedTuple):
    """Counts of §8.10 for a closed-loop system at a configuration."""

    n: int  #: tree degrees of freedom
    nc: int  #: loop constraints n^c
    rank: np.ndarray  #: r = rank(K)
    mobility: np.ndarray  #: n - r (eq. 8.52)
    redundant: np.ndarray  #: n^c - r redundant constraints (overconstraint, eq. 8.55)


def mobility(model: Model, q, tol: float = 1e-9) -> Mobility:
    """Mobility, rank of the loop constraints and overconstraint at ``q`` (§8.10).

    ``mobility = n - r`` with ``r = rank(K)`` (eq. 8.52), which can change with the
    configuration (variable mobility); ``n^c - r > 0`` constraints are redundant
    (overconstraint: every planar loop closed by a revolute joint has 3).

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    tol : float
        Relative tolerance on the singular values of ``K``.

    Returns
    -------
    Mobility
        ``rank``, ``mobility`` and ``redundant`` have the batch shape of ``q``.

    Raises
    ------
    ValueError
        If ``q`` is invalid.
    """
    q, _, _, _ = model.check_state(q)
    K = _constraints(model, q, np.zeros(model.nv), None)[0]
    r = _rank(K, tol)
    nc = _n_constraints(model)
    return Mobility(model.nv, nc, r, model.nv - r, nc - r)


def loop_clusters(model: Model) -> list[tuple[list[int], list[int]]]:
    """Minimal loop clusters: loops coupled through shared tree joints (§8.9, Figure 8.1).

    Two loops are coupled if their paths share a tree joint with a freedom, i.e. a column of
    ``K`` (a joint without freedom, like ``Fixed``, has no column and couples nothing); a
    minimal cluster is a set of loops closed under coupling.  Numbering the tree joints of each
    cluster consecutively makes ``K`` and ``G`` block-diagonal, one block per cluster.

    Parameters
    ----------
    model : Model

    Returns
    -------
    list of (loops, joints)
        For each cluster, its loop numbers and the tree joints (body numbers) with freedoms on
        its paths, both sorted; clusters in order of their first loop.
    """
    clusters: list[tuple[set, set]] = []
    for l in range(model.NL):
        loops, joints = {l}, {i for i, _ in _loop_path(model, l) if model.joints[i].nv > 0}
        for other in [c for c in clusters if c[1] & joints]:
            clusters.remove(other)
            loops |= other[0]
            joints |= other[1]
        clusters.append((loops, joints))
    return sorted(((sorted(a), sorted(b)) for a, b in clusters), key=lambda c: c[0][0])


def cluster_blocks(model: Model) -> list[tuple[np.ndarray, np.ndarray]]:
    """The block of ``K`` that belongs to each minimal loop cluster (§8.9, Figure 8.1).

    Parameters
    ----------
    model : Model

    Returns
    -------
    list of (rows, columns)
        One pair of int arrays per cluster of :func:`loop_clusters`, in the same order: the
        rows of ``K`` and ``k`` of the cluster's loops and the columns (velocity variables) of
        the tree joints on their paths, both ascending.  ``K[rows][:, columns]`` is the block;
        every other entry of those rows and columns is zero.
    """
    rows_of = _loop_rows(model)
    blocks = []
    for loops, joints in loop_clusters(model):
        rows = np.concatenate([np.arange(rows_of[l].start, rows_of[l].stop) for l in loops])
        cols = np.concatenate([np.arange(model.nv)[model.v_index[i]] for i in joints] + [[]])
        blocks.append((rows, np.sort(cols).astype(int)))
    return blocks


def _explicit_form_by_cluster(model: Model, K, k, independent, tol: float, who: str):
    """Eq. 8.51 one cluster at a time on validated arrays: ``(G, g, independent)``.

    Variables on no loop are independent (an identity block of ``G``).  ``independent``
    (global variable numbers, or None for complete pivoting within each block) fixes the order
    of ``G``'s columns; complete pivoting's choice is returned in ascending order.
    """
    n = K.shape[-1]
    blocks = cluster_blocks(model)
    on_loops = {int(j) for _, cols in blocks for j in cols}
    free = [j for j in range(n) if j not in on_loops]
    given = None if independent is None else set(independent)
    if given is not None and not given.issuperset(free):
        raise ValueError(
            f"{who}: the dependent variables {sorted(set(free) - given)} cannot be solved for: "
            "they belong to joints on no loop, whose columns of K are zero, so they must be "
            "independent"
        )
    chosen, parts = list(free), []
    for rows, cols in blocks:
        K_c, k_c = K[..., rows[:, None], cols], k[..., rows]
        if given is None:
            local = _independent_variables(K_c, None, tol, who)
        else:
            local = tuple(i for i, j in enumerate(cols) if j in given)
        G_c, g_c = _explicit_form(K_c, k_c, local, tol, who, labels=cols)
        parts.append((cols, [int(cols[i]) for i in local], G_c, g_c))
        chosen += parts[-1][1]
    order = tuple(sorted(chosen)) if given is None else tuple(independent)
    column = {j: c for c, j in enumerate(order)}
    batch = np.broadcast_shapes(K.shape[:-2], k.shape[:-1])
    G = np.zeros(batch + (n, len(order)))
    g = np.zeros(batch + (n,))
    G[..., free, [column[j] for j in free]] = 1.0
    for cols, ind, G_c, g_c in parts:
        G[..., cols[:, None], np.array([column[j] for j in ind], dtype=int)] = G_c
        g[..., cols] = g_c
    return G, g, order


def G_and_g_by_cluster(
    model: Model,
    K,
    k,
    independent=None,
    tol: float = 1e-9,
    consistency_tol: float = _CONSISTENCY_TOL,
) -> tuple[np.ndarray, np.ndarray, tuple]:
    """:func:`G_and_g` block by block over the model's loop clusters (§8.9).

    ``K`` of the model's loops is zero outside the blocks of :func:`cluster_blocks`, so the
    solutions of ``K x = k`` are those of each cluster's ``K_c x_c = k_c`` side by side, with
    the variables of joints on no loop left free.  Each block gets §8.8's treatment on its own
    (complete pivoting within the block, then eq. 8.51), and ``G`` is assembled from the
    blocks' ``G_c`` and identity entries for the free variables.  ``G`` spans the same space as
    :func:`G_and_g`'s and, for the same ``independent``, is the same matrix.

    Parameters
    ----------
    model : Model
        The model whose loops ``K`` and ``k`` describe (:func:`loop_constraints`).
    K : array_like, shape (..., n^c, nv)
    k : array_like, shape (..., n^c)
    independent : sequence of int, optional
        The independent velocity variables; it must include every variable on no loop.
        Required for a batch.  By default complete pivoting picks them within each block.
    tol, consistency_tol : float
        As :func:`G_and_g`.

    Returns
    -------
    G : ndarray, shape (..., nv, nv - r)
    g : ndarray, shape (..., nv)
    independent : tuple of int
        Ascending when chosen by complete pivoting; the columns of ``G`` follow it.

    Raises
    ------
    ValueError
        As :func:`G_and_g`, naming the model's variables; also if ``K`` or ``k`` does not have
        the model's shape, or ``independent`` leaves out a variable on no loop.
    """
    nc, n = _n_constraints(model), model.nv
    K = as_array(K, "K", (nc, n))
    k = as_array(k, "k", (nc,))
    consistency_tol = positive_scalar(consistency_tol, "consistency_tol")
    if independent is not None:
        independent = _check_independent(independent, n)
    G, g, independent = _explicit_form_by_cluster(
        model, K, k, independent, tol, "G_and_g_by_cluster"
    )
    _require_solution(K, k, g, consistency_tol, "G_and_g_by_cluster")
    return G, g, independent
