"""Null-space reduction of a KKT system with attachments (ArtiSynth notes §0.17–0.18, §0.20–0.21).

The problem.  A system of components with mass matrix ``M`` and forces ``f`` obeys bilateral
constraint rows ``C x = γ`` and attachments ``x_k = Σ_j G_kj x_j + g_k``
(:mod:`spatial.attachments.graph`).  ``x`` is a velocity (a velocity-level step) or an
acceleration (forward dynamics); the algebra is the same.  Written as one KKT system, in the sign
convention of :func:`spatial.solvers.solve_kkt`,

    M x = f + Cᵀλ + Aᵀμ,      C x = γ,      A x = g,

where row block ``k`` of ``A`` is ``+1`` on component ``k`` and ``-G_kj`` on its masters.  So
``μ_k`` is the force that the attachment applies to the attached component, and each master
``j`` receives ``-G_kjᵀ μ_k`` (notes eq. 0.19, with their ``G`` equal to minus ours).

The reduction (§0.17).  Since ``x = Pᵀ x_α + (offsets)`` with the attached rows determined, the
attached unknowns and ``μ`` can be eliminated: with ``T = [1; G]``,

    M' = Tᵀ M T = M_αα + M_αβ G + Gᵀ M_βα + Gᵀ M_ββ G                    (eq. 0.21)
    C' = C T    = C_α + C_β G                                          (eq. 0.22)
    f' = f_α + Gᵀ f_β - (M_αβ + Gᵀ M_ββ) g                              (eq. 0.23)
    γ' = γ - C_β g                                                     (eq. 0.24)

and ``M' x_α = f' + C'ᵀλ``, ``C' x_α = γ'`` is an ordinary KKT system in the active unknowns.
The notes write the reduction as ``P M Pᵀ`` with ``P = [[1, Gᵀ], [0, 0]]`` (their
``-G_βαᵀ``), and as a product of one matrix ``P_k`` per attachment: ``P_k`` is the identity with
row ``k`` cleared and ``G_kjᵀ`` placed in column ``k`` of each master's rows.  Applying
``P_k`` once, ``M ← P_k M P_kᵀ``, ``f ← P_k (f - M e_k g_k)``, ``C ← C P_kᵀ``,
``γ ← γ - C e_k g_k``, is eqs. 0.27–0.35 for one attachment; :func:`reduce` does exactly that in
the elimination order of :class:`~spatial.attachments.Attachments`, with block row and column
operations instead of the ``n x n`` matrices (which :func:`projector` and
:func:`reduction_matrix` build for reading and testing).  For attachments to unattached masters
the ``P_k`` commute (§0.17); along a chain they do not, which is why §0.18 fixes an order.

Recovery.  After the reduced solve the attached velocities come back masters first (the
elimination order reversed, §0.18): ``x_k = Σ_j G_kj x_j + g_k``.  The attachment forces come
back in the elimination order, since the force on ``k`` must also carry what the components
attached to ``k`` pull on it: from row ``k`` of the full system,
``μ_k = (M x)_k - f_k - (Cᵀλ)_k + Σ_{i attached to k} G_ikᵀ μ_i``.

Prescribed components (§0.21).  Components whose ``x_ρ`` is given (a body driven along a path)
stay in the reduced system as known unknowns: their columns move to the right-hand side and their
rows give the force ``F_ρ`` that must be added to make them move so.  :func:`solve` returns it.
The notes print the ``g_β`` terms of ``f'_α``, ``f'_ρ`` and of the force with the wrong sign (see
notebook 18).

One-dimensional constraints (§0.20).  A single row ``c`` on an attached component becomes, after
the reduction, a row ``c'`` on its masters, and projecting a velocity onto it needs only the
scalar ``c' M'⁻¹ c'ᵀ``, the inverse inertia the constraint sees (:func:`project_constraint`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validate import integer, real, vector
from ..solvers.kkt import _solve_kkt
from .graph import Attachments

__all__ = [
    "Reduced",
    "AttachedSolution",
    "projector",
    "reduction_matrix",
    "kkt_rows",
    "reduce",
    "expand",
    "attachment_forces",
    "solve",
    "project_constraint",
]


@dataclass
class Reduced:
    """The reduced system ``M' x_α = f' + C'ᵀλ``, ``C' x_α = γ'`` over the active components.

    Attributes
    ----------
    M : ndarray (n_α, n_α)
    f : ndarray (n_α,)
    C : ndarray (m, n_α)
    gamma : ndarray (m,)
    """

    M: np.ndarray
    f: np.ndarray
    C: np.ndarray
    gamma: np.ndarray


@dataclass
class AttachedSolution:
    """A KKT solve with attachments.

    Attributes
    ----------
    x : ndarray (n,)
        All velocities (or accelerations), attached ones recovered.
    lam : ndarray (m,)
        Multipliers of the constraint rows ``C``.
    mu : list of ndarray
        ``μ_k``, the force each attachment applies to its component, in the order of
        ``Attachments.attachments``.
    prescribed_force : dict
        For each prescribed component ``ρ``, the force ``F_ρ`` to add to ``f_ρ`` so that it moves
        as prescribed (ArtiSynth §0.21).
    reduced : Reduced
    """

    x: np.ndarray
    lam: np.ndarray
    mu: list
    prescribed_force: dict = field(default_factory=dict)
    reduced: Reduced | None = None


# --------------------------------------------------------------------------- checked input


def _check_system(att: Attachments, M, f=None, C=None, gamma=None):
    if not isinstance(att, Attachments):
        raise ValueError(f"expected an Attachments object, got {type(att).__name__}")
    n = att.n
    M = np.array(real(M, "M"), dtype=float)
    if M.shape != (n, n) or not np.all(np.isfinite(M)):
        raise ValueError(f"M must be a finite ({n}, {n}) matrix, got shape {M.shape}")
    f = np.zeros(n) if f is None else np.array(real(f, "f"), dtype=float)
    if f.shape != (n,) or not np.all(np.isfinite(f)):
        raise ValueError(f"f must be a finite vector of length {n}, got shape {f.shape}")
    C = np.zeros((0, n)) if C is None else np.array(real(C, "C"), dtype=float)
    if C.ndim == 1 and C.shape == (n,):  # one row
        C = C[None]
    if C.ndim != 2 or C.shape[1] != n or not np.all(np.isfinite(C)):
        raise ValueError(f"C must be a finite (m, {n}) matrix (or one row of {n}), got {C.shape}")
    gamma = np.zeros(len(C)) if gamma is None else np.array(real(gamma, "gamma"), dtype=float)
    if gamma.shape != (len(C),) or not np.all(np.isfinite(gamma)):
        raise ValueError(f"gamma must be a finite vector of length {len(C)}, got {gamma.shape}")
    return M, f, C, gamma


def _active_columns(att: Attachments) -> np.ndarray:
    return np.concatenate([np.arange(att.n)[att.slices[i]] for i in att.active]).astype(int)


# --------------------------------------------------------------------------- kernels


def _eliminate(att: Attachments, M, f, C, gamma):
    """Eqs. 0.27–0.35 attachment by attachment, in place on full-size copies."""
    for i in att.order:
        a = att.attachments[i]
        k = att.slices[a.component]
        if a.offset is not None:  # the offset first, with the unreduced column k
            f -= M[:, k] @ a.offset
            gamma -= C[:, k] @ a.offset
        for j, G in zip(a.masters, a.blocks, strict=True):  # rows: P_k M and P_k f
            s = att.slices[j]
            M[s, :] += G.T @ M[k, :]
            f[s] += G.T @ f[k]
        for j, G in zip(a.masters, a.blocks, strict=True):  # columns: (P_k M) P_kᵀ and C P_kᵀ
            s = att.slices[j]
            M[:, s] += M[:, k] @ G
            C[:, s] += C[:, k] @ G
        M[k, :], M[:, k], f[k], C[:, k] = 0.0, 0.0, 0.0, 0.0
    cols = _active_columns(att)
    return Reduced(M[np.ix_(cols, cols)], f[cols], C[:, cols], gamma)


def _reduce(att, M, f, C, gamma) -> Reduced:
    return _eliminate(att, M.copy(), f.copy(), C.copy(), gamma.copy())


def _expand(att: Attachments, x_active: np.ndarray) -> np.ndarray:
    x = np.zeros(att.n)
    x[_active_columns(att)] = x_active
    for i in reversed(att.order):  # masters first (§0.18)
        a = att.attachments[i]
        xk = np.zeros(att.sizes[a.component]) if a.offset is None else a.offset.copy()
        for j, G in zip(a.masters, a.blocks, strict=True):
            xk += G @ x[att.slices[j]]
        x[att.slices[a.component]] = xk
    return x


def _forces(att: Attachments, M, f, C, lam, x) -> list:
    residual = M @ x - f - C.T @ lam
    mu: list = [None] * len(att.attachments)
    for i in att.order:  # components attached to k come first
        a = att.attachments[i]
        mu[i] = residual[att.slices[a.component]].copy()
        for j, G in zip(a.masters, a.blocks, strict=True):
            # the master j receives -Gᵀ μ: it appears in j's row of the residual
            residual[att.slices[j]] += G.T @ mu[i]
    return mu


def _solve_reduced(red: Reduced, idx_free, idx_fixed, x_fixed):
    """§0.21: the prescribed unknowns moved to the right-hand side, then an ordinary solve."""
    Maa = red.M[np.ix_(idx_free, idx_free)]
    rhs = red.f[idx_free] - red.M[np.ix_(idx_free, idx_fixed)] @ x_fixed
    Ca = red.C[:, idx_free]
    gam = red.gamma - red.C[:, idx_fixed] @ x_fixed
    if len(Ca):
        xa, lam = _solve_kkt(Maa, Ca, rhs, gam)
    else:
        xa, lam = np.linalg.solve(Maa, rhs), np.zeros(0)
    return xa, lam


# --------------------------------------------------------------------------- public


def projector(att: Attachments, i: int) -> np.ndarray:
    """``P_k`` of attachment ``i`` (ArtiSynth §0.17): ``P_k M P_kᵀ`` eliminates it alone.

    The identity with row block ``k`` cleared and ``G_kjᵀ`` in column block ``k`` of each master
    ``j``'s rows (the notes' ``-G_kαᵀ`` with their sign of ``G``).

    Parameters
    ----------
    att : Attachments
    i : int
        Position of the attachment in ``att.attachments``.

    Returns
    -------
    ndarray (n, n)

    Raises
    ------
    ValueError
        If ``i`` is not an attachment's position.
    """
    if not isinstance(att, Attachments):
        raise ValueError(f"expected an Attachments object, got {type(att).__name__}")
    return _projector(att, integer(i, "i (an attachment position)", 0, len(att.attachments) - 1))


def _projector(att: Attachments, i: int) -> np.ndarray:
    a = att.attachments[i]
    P = np.eye(att.n)
    k = att.slices[a.component]
    P[k, k] = 0.0
    for j, G in zip(a.masters, a.blocks, strict=True):
        P[att.slices[j], k] = G.T
    return P


def kkt_rows(att: Attachments) -> tuple[np.ndarray, np.ndarray]:
    """The attachments as KKT constraint rows ``A x = g`` (the system :func:`reduce` avoids).

    Row block ``k`` is ``+1`` on component ``k`` and ``-G_kj`` on each master ``j``, its
    right-hand side the offset ``g_k`` (zero without one), in the sign convention of
    :func:`spatial.solvers.solve_kkt`: its multipliers are the attachment forces ``μ``.

    Parameters
    ----------
    att : Attachments

    Returns
    -------
    A : ndarray (m, n)
        One row block per attachment, in the order of ``att.attachments``.
    g : ndarray (m,)

    Raises
    ------
    TypeError
        If ``att`` is not an :class:`~spatial.attachments.Attachments`.
    """
    if not isinstance(att, Attachments):
        raise TypeError(f"att must be an Attachments, got {type(att).__name__}")
    rows, rhs = [], []
    for a in att.attachments:
        block = np.zeros((att.sizes[a.component], att.n))
        block[:, att.slices[a.component]] = np.eye(att.sizes[a.component])
        for j, G in zip(a.masters, a.blocks, strict=True):
            block[:, att.slices[j]] -= G
        rows.append(block)
        rhs.append(np.zeros(len(block)) if a.offset is None else np.asarray(a.offset, float))
    if not rows:
        return np.zeros((0, att.n)), np.zeros(0)
    return np.vstack(rows), np.concatenate(rhs)


def reduction_matrix(att: Attachments) -> np.ndarray:
    """``P = P_{k_last} ⋯ P_{k_first}`` (elimination order): ``P M Pᵀ`` is ``M'`` padded with 0.

    Parameters
    ----------
    att : Attachments

    Returns
    -------
    ndarray (n, n)
        The rows and columns of attached components of ``P M Pᵀ`` are zero; the active ones hold
        the reduced mass matrix (ArtiSynth §0.17, the ``P M Pᵀ`` form).
    """
    if not isinstance(att, Attachments):
        raise ValueError(f"expected an Attachments object, got {type(att).__name__}")
    P = np.eye(att.n)
    for i in att.order:
        P = _projector(att, i) @ P
    return P


def reduce(att: Attachments, M, f=None, C=None, gamma=None) -> Reduced:
    """The reduced system ``M'``, ``f'``, ``C'``, ``γ'`` (ArtiSynth eqs. 0.21–0.24, 0.27–0.35).

    Parameters
    ----------
    att : Attachments
        The attachments, with their offsets ``g_k``.
    M : array_like (n, n)
    f : array_like (n,), optional
    C : array_like (m, n), optional
        Constraint rows on any components, attached ones included (§0.20).
    gamma : array_like (m,), optional

    Returns
    -------
    Reduced
        Over the active components, stacked in ``att.active`` order.

    Raises
    ------
    ValueError
        If an array has the wrong shape, is complex or is not finite.
    """
    return _reduce(att, *_check_system(att, M, f, C, gamma))


def expand(att: Attachments, x_active) -> np.ndarray:
    """All velocities from the active ones, attached ones recovered masters first (§0.18).

    Parameters
    ----------
    att : Attachments
    x_active : array_like (n_α,)

    Returns
    -------
    ndarray (n,)

    Raises
    ------
    ValueError
        If ``x_active`` is complex, not finite or not of length ``n_α``.
    """
    x_active = np.array(real(x_active, "x_active"), dtype=float)
    if x_active.shape != (att.n_active,) or not np.all(np.isfinite(x_active)):
        raise ValueError(f"x_active must be finite of length {att.n_active}")
    return _expand(att, x_active)


def attachment_forces(att: Attachments, M, f, x, C=None, lam=None) -> list:
    """``μ_k``, the force every attachment applies to its component, from a solved state.

    Parameters
    ----------
    att : Attachments
    M, f : the full system
    x : array_like (n,)
        All velocities (accelerations) of the solution.
    C, lam : optional
        The constraint rows and their multipliers.

    Returns
    -------
    list of ndarray
        In the order of ``att.attachments``.

    Raises
    ------
    ValueError
        If an array is complex, not finite or of the wrong shape.
    """
    M, f, C, _ = _check_system(att, M, f, C, None)
    x = vector(x, "x", att.n)
    lam = np.zeros(len(C)) if lam is None else vector(lam, "lam", len(C))
    return _forces(att, M, f, C, lam, x)


def solve(att: Attachments, M, f, C=None, gamma=None, prescribed=None) -> AttachedSolution:
    """Solve ``M x = f + Cᵀλ + Aᵀμ``, ``C x = γ``, attachments, by null-space reduction.

    Parameters
    ----------
    att : Attachments
    M : array_like (n, n)
        Symmetric positive definite (at least on the attachments' null space).
    f : array_like (n,)
    C : array_like (m, n), optional
        Bilateral constraint rows with full row rank after the reduction.
    gamma : array_like (m,), optional
    prescribed : mapping {component: array_like (n_ρ,)}, optional
        Active components whose ``x_ρ`` is given (ArtiSynth §0.21).

    Returns
    -------
    AttachedSolution
        ``x``, ``λ``, the attachment forces ``μ`` and the force each prescribed component needs.

    Raises
    ------
    ValueError
        For bad shapes, a prescribed component that is attached or does not exist, or a
        singular reduced system.
    """
    M, f, C, gamma = _check_system(att, M, f, C, gamma)
    prescribed = dict(prescribed or {})
    for r, xr in list(prescribed.items()):
        if r not in att.active_slices:
            what = "is attached" if 0 <= r < len(att.sizes) else "does not exist"
            raise ValueError(f"prescribed component {r} {what}: only active components can be")
        xr = np.array(real(xr, f"prescribed value of component {r}"), dtype=float)
        if xr.shape != (att.sizes[r],) or not np.all(np.isfinite(xr)):
            raise ValueError(f"prescribed value of component {r} must be finite ({att.sizes[r]},)")
        prescribed[r] = xr
    red = _reduce(att, M, f, C, gamma)
    fixed = [i for i in att.active if i in prescribed]
    idx = np.arange(att.n_active)
    idx_fixed = np.concatenate([idx[att.active_slices[r]] for r in fixed] + [[]]).astype(int)
    idx_free = np.setdiff1d(idx, idx_fixed)
    x_fixed = np.concatenate([prescribed[r] for r in fixed] + [[]])
    try:
        xa_free, lam = _solve_reduced(red, idx_free, idx_fixed, x_fixed)
    except np.linalg.LinAlgError as err:
        raise ValueError(f"the reduced system is singular: {err}") from err
    xa = np.zeros(att.n_active)
    xa[idx_free], xa[idx_fixed] = xa_free, x_fixed
    # §0.21: the rows of the prescribed components give the force they need
    need = red.M[idx_fixed] @ xa - red.f[idx_fixed] - red.C[:, idx_fixed].T @ lam
    forces = {r: need[np.searchsorted(idx_fixed, idx[att.active_slices[r]])] for r in fixed}
    x = _expand(att, xa)
    f_total = f.copy()
    for r, F in forces.items():
        f_total[att.slices[r]] += F
    mu = _forces(att, M, f_total, C, lam, x)
    return AttachedSolution(x, lam, mu, forces, red)


def project_constraint(att: Attachments, M, row, gamma: float, v0) -> tuple[np.ndarray, float]:
    """Project a velocity onto one constraint row acting on any component (ArtiSynth §0.20).

    The row ``c`` (length ``n``) is reduced through the attachments to ``c'`` on the active
    components, and the active velocity is corrected along ``M'⁻¹c'ᵀ``:
    ``v = v0 + M'⁻¹c'ᵀ (γ - c' v0) / (c' M'⁻¹ c'ᵀ)``; the attached velocities are recovered.

    Parameters
    ----------
    att : Attachments (with zero offsets: a velocity-level problem)
    M : array_like (n, n)
    row : array_like (n,)
    gamma : float
    v0 : array_like (n_α,)
        Active velocities before the projection.

    Returns
    -------
    v : ndarray (n,)
        All velocities after the projection.
    w : float
        ``c' M'⁻¹ c'ᵀ``, the inverse inertia seen by the constraint.

    Raises
    ------
    ValueError
        For bad shapes, or a row that the reduction maps to zero.
    """
    row = vector(row, "row", att.n)
    M, _, C, g = _check_system(att, M, None, row[None], [gamma])
    v0 = vector(v0, "v0", att.n_active)
    red = _reduce(att, M, np.zeros(att.n), C, g)
    c = red.C[0]
    Mic = np.linalg.solve(red.M, c)
    w = float(c @ Mic)
    if w <= 0.0:
        raise ValueError("the constraint row acts on nothing after the reduction (c' = 0)")
    v = v0 + Mic * (red.gamma[0] - c @ v0) / w
    return _expand(att, v), w
