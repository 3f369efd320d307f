"""Quadratic programs and mixed LCPs, solved through a plain LCP (ArtiSynth §0.3, §0.7, §0.8).

Sign conventions (ArtiSynth §0.3, §0.7): the QP is

    minimize ½ xᵀH x + cᵀx   subject to   A x >= b   (and optionally G x = g),

with Lagrange multipliers ``z >= 0`` for the inequalities and ``λ`` (free) for the equalities,
so that stationarity reads ``H x + c = Aᵀz + Gᵀλ``.  The *mixed LCP* of ArtiSynth §0.7 is the
same problem written with ``f = -c`` and ``N = A``, ``n = b``:

    M x - Gᵀλ - Nᵀz = f,    G x = g,    0 <= z ⟂ w = N x - n >= 0.

In contact dynamics ``M`` is the mass matrix, ``x`` the new velocity, ``Gᵀλ`` the bilateral
(joint) impulse and ``Nᵀz`` the contact impulse (Sueda §1.11 eq. 1.80 as a QP).

The public functions check their arguments once and call private kernels that trust them
(``_qp_kkt_lcp``, ``_mixed_lcp_to_lcp``, ``_solve_mixed_lcp``); ``_lcp_options`` checks the options
of an LCP solver named by a string, once, and ``_lcp_kernel`` runs that solver's kernel.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validate import matrix, positive_diagonal, square_matrix, vector
from .lcp import (
    Checkable,
    LCPResult,
    _lemke,
    _lemke_options,
    _matrix_columns,
    _pivoting_options,
    _principal_pivoting,
)
from .pgs import _pgs, _pgs_options

__all__ = [
    "MixedLCPResult",
    "ReducedLCP",
    "mixed_lcp_to_lcp",
    "qp_kkt_lcp",
    "qp_primal",
    "qp_to_lcp",
    "solve_mixed_lcp",
    "solve_qp",
]

_METHODS = ("lemke", "pgs", "principal_pivoting")


def _lcp_options(method: str, n: int, options: dict, *, bounded: bool = False) -> dict:
    """Check ``options`` of the LCP solver ``method`` for problems of size ``n``.

    ``method`` is one of ``_METHODS``; ``options`` those of :func:`~spatial.solvers.lemke`,
    :func:`~spatial.solvers.pgs` or :func:`~spatial.solvers.principal_pivoting` (an unknown one
    raises ``TypeError``); ``bounded`` says the problem has bounds (Lemke then refuses a covering
    vector).  Returns the keyword arguments of :func:`_lcp_kernel`.
    """
    if method == "lemke":
        return _lemke_options(n, bounded, **options)
    if method == "pgs":
        return _pgs_options(n, **options)
    return _pivoting_options(n, **options)


def _lcp_kernel(method: str, M, q, lo=None, hi=None, **options) -> LCPResult:
    """Run the kernel of LCP solver ``method`` on checked input and ``_lcp_options`` output."""
    if method == "lemke":
        return _lemke(M, q, lo, hi, **options)
    if method == "pgs":
        return _pgs(M, q, lo, hi, **options)
    return _principal_pivoting(q, _matrix_columns(M), **options)


def get_lapack_funcs(names, arrays):
    """``scipy.linalg.get_lapack_funcs``, with scipy.linalg imported on first use (0.2 s)."""
    from scipy.linalg import get_lapack_funcs as lapack_funcs

    return lapack_funcs(names, arrays)


def _cholesky(H: np.ndarray, name: str):
    from scipy.linalg import cho_factor  # scipy.linalg on first use: importing it costs 0.2 s

    try:
        return cho_factor(H)
    except np.linalg.LinAlgError:
        raise ValueError(f"{name} must be symmetric positive definite") from None


def _qp_inputs(H, c, A, b, b_name: str = "b"):
    H = square_matrix(H, "H")
    nx = H.shape[0]
    c = vector(c, "c", nx)
    A = matrix(A, "A", cols=nx)
    if A.ndim != 2:
        raise ValueError(f"A must be a 2-D matrix, got shape {A.shape}")
    b = vector(b, b_name, A.shape[0])
    if not np.allclose(H, H.T, rtol=1e-12, atol=1e-12 * np.abs(H).max(initial=1.0)):
        raise ValueError("H must be symmetric")
    return H, c, A, b


def qp_to_lcp(H, c, A, b) -> tuple[np.ndarray, np.ndarray]:
    """The LCP equivalent to an inequality-constrained QP with positive definite ``H``.

    ``minimize ½ xᵀHx + cᵀx  s.t.  A x >= b`` is equivalent to the LCP ``w = M z + q``,
    ``0 <= z ⟂ w >= 0`` in the multipliers ``z`` of the constraints, with (ArtiSynth §0.3)

        M = A H⁻¹ Aᵀ,    q = -b - A H⁻¹ c,    and then    x = H⁻¹ (Aᵀ z - c)

    (:func:`qp_primal`).  Here ``w = A x - b`` is the constraint slack: the KKT conditions of the
    QP are exactly the complementarity conditions.  Featherstone eq. 11.43 is the special case
    that is already written in the multipliers.

    Parameters
    ----------
    H : array_like, shape (nx, nx)
        Symmetric positive definite Hessian.
    c : array_like, shape (nx,)
        Linear term.
    A : array_like, shape (m, nx)
        Constraint matrix.
    b : array_like, shape (m,)
        Constraint bounds.

    Returns
    -------
    M : numpy.ndarray, shape (m, m)
    q : numpy.ndarray, shape (m,)

    Raises
    ------
    ValueError
        For inconsistent shapes, non-finite entries, or ``H`` not symmetric positive definite.
    """
    from scipy.linalg import cho_solve

    H, c, A, b = _qp_inputs(H, c, A, b)
    factor = _cholesky(H, "H")
    HiAT = cho_solve(factor, A.T)
    return A @ HiAT, -b - A @ cho_solve(factor, c)


def qp_primal(H, c, A, z) -> np.ndarray:
    """Recover the QP minimizer from the LCP multipliers: ``x = H⁻¹ (Aᵀ z - c)`` (ArtiSynth §0.3).

    Parameters
    ----------
    H : array_like, shape (nx, nx)
        Symmetric positive definite Hessian.
    c : array_like, shape (nx,)
        Linear term.
    A : array_like, shape (m, nx)
        Constraint matrix.
    z : array_like, shape (m,)
        Multipliers, e.g. ``lemke(*qp_to_lcp(H, c, A, b)).z``.

    Returns
    -------
    numpy.ndarray, shape (nx,)

    Raises
    ------
    ValueError
        For inconsistent shapes, non-finite entries, or ``H`` not symmetric positive definite.
    """
    from scipy.linalg import cho_solve

    H, c, A, z = _qp_inputs(H, c, A, z, b_name="z")
    return cho_solve(_cholesky(H, "H"), A.T @ z - c)


def qp_kkt_lcp(H, c, A=None, b=None) -> tuple[np.ndarray, np.ndarray]:
    """The LCP of the KKT conditions of a QP over nonnegative variables (``H`` may be singular).

    For ``minimize ½ xᵀHx + cᵀx  s.t.  x >= 0,  A x >= b`` with symmetric positive
    *semidefinite* ``H`` the variables themselves are complementary to the gradient, so no
    inverse of ``H`` is needed.  With multipliers ``y >= 0`` of ``A x >= b``:

        [s; v] = [[H, -Aᵀ], [A, 0]] [x; y] + [c; -b],    0 <= [x; y] ⟂ [s; v] >= 0,

    where ``s = H x + c - Aᵀy`` is the multiplier of ``x >= 0`` and ``v = A x - b``.  The LCP
    matrix is positive semidefinite (its off-diagonal part is skew), so Lemke processes it.
    Sueda's single friction QP (eq. 1.88) and Featherstone eq. 11.43 have this form.

    Parameters
    ----------
    H : array_like, shape (nx, nx)
        Symmetric Hessian.
    c : array_like, shape (nx,)
        Linear term.
    A : array_like, shape (m, nx), optional
        Extra constraint matrix (default none).
    b : array_like, shape (m,), optional
        Extra constraint bounds (default zeros).

    Returns
    -------
    M : numpy.ndarray, shape (nx + m, nx + m)
    q : numpy.ndarray, shape (nx + m,)
        The first ``nx`` entries of the LCP solution are ``x``, the rest are ``y``.

    Raises
    ------
    ValueError
        For inconsistent shapes, non-finite entries, or a non-symmetric ``H``.
    """
    nx = np.shape(H)[-1] if np.ndim(H) else 0
    A = np.zeros((0, nx)) if A is None else A
    b = np.zeros(np.shape(A)[0]) if b is None else b
    return _qp_kkt_lcp(*_qp_inputs(H, c, A, b))


def _qp_kkt_lcp(H, c, A, b) -> tuple[np.ndarray, np.ndarray]:
    """Kernel of :func:`qp_kkt_lcp` on checked input (``A``, ``b`` given)."""
    m = A.shape[0]
    return np.block([[H, -A.T], [A, np.zeros((m, m))]]), np.concatenate([c, -b])


@dataclass
class ReducedLCP:
    """A mixed LCP reduced to a plain LCP in the unilateral multipliers (ArtiSynth §0.7–0.8).

    Attributes
    ----------
    M : numpy.ndarray, shape (p, p), or None
        The LCP matrix ``N̄ A⁻¹ N̄ᵀ`` (None when built with ``dense=False``: use :meth:`column`).
    q : numpy.ndarray, shape (p,)
        The LCP vector ``N̄ A⁻¹ b - n``.
    """

    M: np.ndarray | None
    q: np.ndarray
    _lu: tuple = field(repr=False)
    _N: np.ndarray = field(repr=False)
    _b: np.ndarray = field(repr=False)

    def _solve(self, rhs: np.ndarray) -> np.ndarray:
        return _lu_solve(self._lu, rhs)

    def _lift(self, y: np.ndarray) -> np.ndarray:
        """``N̄ᵀ y``: the unilateral impulse padded with zeros in the multiplier rows."""
        nx = self._N.shape[1]
        out = np.zeros((self._b.shape[0],) + y.shape[1:])
        out[:nx] = self._N.T @ y
        return out

    def column(self, j: int) -> np.ndarray:
        """Column ``j`` of the LCP matrix, ``N̄ A⁻¹ N̄_jᵀ``: one solve with the KKT matrix."""
        e = np.zeros(self._N.shape[0])
        e[j] = 1.0
        return self._N @ self._solve(self._lift(e))[: self._N.shape[1]]

    def recover(self, z) -> tuple[np.ndarray, np.ndarray]:
        """Back-substitute ``(x, λ) = A⁻¹ (b + N̄ᵀ z)`` for the LCP solution ``z``.

        Raises
        ------
        ValueError
            If ``z`` is not a finite vector with one entry per unilateral constraint.
        """
        return self._recover(vector(z, "z", self._N.shape[0]))

    def _recover(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        y = self._solve(self._b + self._lift(z))
        nx = self._N.shape[1]
        return y[:nx], y[nx:]


def _factor_kkt(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LU factors ``(lu, piv)`` of the KKT matrix for ``lu_solve``; ValueError if it is singular.

    Calls LAPACK ``getrf`` directly: ``scipy.linalg.lu_factor`` would only *warn* about an
    exactly zero pivot (and say nothing about a tiny one), so the singularity is judged here,
    from LAPACK's ``info`` and the relative size of the smallest pivot, and raised as an error.
    """
    (getrf,) = get_lapack_funcs(("getrf",), (A,))
    lu, piv, info = getrf(A)
    u = np.abs(np.diag(lu))
    if info > 0 or (u.size and not u.min() > 1e-13 * u.max()):
        raise ValueError(
            "the KKT matrix [[M, -G^T], [G, 0]] is singular: G needs full row rank and M must be "
            "positive definite on the null space of G"
        )
    return lu, piv


def _mixed_inputs(M, G, N, f, g, n):
    M = square_matrix(M, "M")
    nx = M.shape[0]
    G, g = _equality_inputs(G, g, nx)
    N = matrix(N, "N", cols=nx)
    if N.ndim != 2:
        raise ValueError("G and N must be 2-D matrices")
    f = vector(f, "f", nx)
    n = vector(n, "n", N.shape[0])
    return M, G, N, f, g, n


def _equality_inputs(G, g, nx: int) -> tuple[np.ndarray, np.ndarray]:
    """Check the bilateral constraints ``G x = g`` (None: none; ``g`` None: zeros)."""
    G = np.zeros((0, nx)) if G is None else matrix(G, "G", cols=nx)
    if G.ndim != 2:
        raise ValueError("G and N must be 2-D matrices")
    g = np.zeros(G.shape[0]) if g is None else vector(g, "g", G.shape[0])
    return G, g


def mixed_lcp_to_lcp(M, G, N, f, g, n, *, dense: bool = True) -> ReducedLCP:
    """Reduce a mixed LCP (bilateral + unilateral constraints) to a plain LCP (ArtiSynth §0.7).

    The mixed LCP ``M x - Gᵀλ - Nᵀz = f``, ``G x = g``, ``0 <= z ⟂ w = N x - n >= 0`` is
    written with the KKT matrix ``A = [[M, -Gᵀ], [G, 0]]``, ``y = (x, λ)``, ``b = (f, g)`` and
    ``N̄ = [N, 0]`` as ``A y = b + N̄ᵀ z``.  Eliminating ``y`` (a Schur complement) leaves

        w = N̄ A⁻¹ N̄ᵀ z + (N̄ A⁻¹ b - n),    0 <= z ⟂ w >= 0,

    a plain LCP whose matrix equals ``N M⁻¹ P_f Nᵀ`` (symmetric positive semidefinite for
    positive definite ``M``; :func:`~spatial.solvers.force_projection`).  ``A`` is factored once;
    the vector ``q`` costs one solve and each column of the LCP matrix one more, so the matrix
    can be formed on demand (ArtiSynth §0.8; pass ``reduced.column`` to
    :func:`principal_pivoting`).

    Parameters
    ----------
    M : array_like, shape (nx, nx)
        Mass (Hessian) matrix.
    G : array_like, shape (m, nx), or None
        Bilateral constraint matrix (None: no bilateral constraints).
    N : array_like, shape (p, nx)
        Unilateral constraint matrix.
    f : array_like, shape (nx,)
        Applied (generalized) impulse / force.
    g : array_like, shape (m,), or None
        Bilateral right-hand side (default zeros).
    n : array_like, shape (p,)
        Unilateral bounds (``N x >= n``).
    dense : bool
        Form the whole LCP matrix now (``p`` solves); False leaves ``M`` None.

    Returns
    -------
    ReducedLCP
        ``.M``, ``.q``, ``.column(j)`` and ``.recover(z) -> (x, λ)``.

    Raises
    ------
    ValueError
        For inconsistent shapes, non-finite entries, or a singular KKT matrix (``G`` without
        full row rank, or ``M`` not positive definite on the null space of ``G``).
    """
    return _mixed_lcp_to_lcp(*_mixed_inputs(M, G, N, f, g, n), dense=dense)


def _mixed_lcp_to_lcp(M, G, N, f, g, n, *, dense: bool = True) -> ReducedLCP:
    """Kernel of :func:`mixed_lcp_to_lcp` on checked input (``G``, ``g`` given, maybe empty)."""
    nx, m = M.shape[0], G.shape[0]
    lu = _factor_kkt(np.block([[M, -G.T], [G, np.zeros((m, m))]]))
    b = np.concatenate([f, g])
    reduced = ReducedLCP(None, np.zeros(0), lu, N, b)
    reduced.q = N @ _lu_solve(lu, b)[:nx] - n
    if dense:
        reduced.M = N @ _lu_solve(lu, reduced._lift(np.eye(N.shape[0])))[:nx]
    return reduced


def _lu_solve(lu: tuple, rhs: np.ndarray) -> np.ndarray:
    """``A⁻¹ rhs`` from ``lu = _factor_kkt(A)``, one right-hand side (column) at a time.

    LAPACK's ``getrs`` with several right-hand sides runs in OpenBLAS's thread pool, whose
    threads a busy machine may keep waiting for milliseconds per call even for a 6x6 system
    (a contact step solves one such system per step: ~5 ms against ~0.15 ms column by column
    on the 2-core course machine); one right-hand side is solved on the calling thread.
    """
    (getrs,) = get_lapack_funcs(("getrs",), (lu[0],))
    if rhs.ndim == 1:
        return getrs(lu[0], lu[1], rhs)[0]
    out = np.empty(rhs.shape, np.result_type(lu[0], rhs))
    for k in range(rhs.shape[1]):
        out[:, k] = getrs(lu[0], lu[1], rhs[:, k])[0]
    return out


@dataclass
class MixedLCPResult(Checkable):
    """Solution of a mixed LCP or QP solved through an LCP.

    Attributes
    ----------
    x : numpy.ndarray, shape (nx,)
        Primal variables (QP minimizer; new velocities in a contact step).
    lam : numpy.ndarray, shape (m,)
        Bilateral multipliers ``λ``.
    z : numpy.ndarray, shape (p,)
        Unilateral multipliers (``>= 0``).
    w : numpy.ndarray, shape (p,)
        Unilateral slacks ``N x - n`` (``>= 0``, complementary to ``z``).
    converged : bool
    message : str
    lcp : LCPResult
        The result of the LCP solver on the reduced problem.
    """

    x: np.ndarray
    lam: np.ndarray
    z: np.ndarray
    w: np.ndarray
    converged: bool
    message: str
    lcp: LCPResult


def solve_mixed_lcp(
    M, G, N, f, g, n, *, method: str = "lemke", on_demand: bool = False, **options
) -> MixedLCPResult:
    """Solve a mixed LCP by reduction to a plain LCP (ArtiSynth §0.7) and back-substitution.

    Parameters
    ----------
    M, G, N, f, g, n :
        As for :func:`mixed_lcp_to_lcp`.
    method : {"lemke", "principal_pivoting", "pgs"}
        LCP solver for the reduced problem.
    on_demand : bool
        Only with ``principal_pivoting``: form columns of the LCP matrix as the pivoting needs
        them (ArtiSynth §0.8); ``result.lcp.columns_formed`` counts them.
    **options
        Passed to the LCP solver (``tol``, ``max_iter``, ...).

    Returns
    -------
    MixedLCPResult

    Raises
    ------
    ValueError
        As for :func:`mixed_lcp_to_lcp`, for an unknown ``method``, or ``on_demand`` with a
        method other than principal pivoting.
    """
    _check_method(method, on_demand)
    M, G, N, f, g, n = _mixed_inputs(M, G, N, f, g, n)
    return _solve_mixed_lcp(M, G, N, f, g, n, method, on_demand, options)


def _check_method(method: str, on_demand: bool) -> None:
    if method not in _METHODS:
        raise ValueError(f"method must be one of {sorted(_METHODS)}, got {method!r}")
    if on_demand and method != "principal_pivoting":
        raise ValueError("on_demand=True needs method='principal_pivoting'")


def _solve_mixed_lcp(M, G, N, f, g, n, method, on_demand, options) -> MixedLCPResult:
    """Kernel of :func:`solve_mixed_lcp`: matrices checked, ``method`` known, ``options`` not yet
    (they are checked here, once, for the size of the reduced LCP)."""
    if on_demand:
        opts = _pivoting_options(N.shape[0], **options)
        reduced = _mixed_lcp_to_lcp(M, G, N, f, g, n, dense=False)
        lcp = _principal_pivoting(reduced.q, reduced.column, **opts)
    else:
        opts = _lcp_options(method, N.shape[0], options)
        reduced = _mixed_lcp_to_lcp(M, G, N, f, g, n)
        if method == "pgs":  # a constraint row that the impulses cannot move
            positive_diagonal(reduced.M, "N M^-1 N^T", "projected Gauss-Seidel")
        lcp = _lcp_kernel(method, reduced.M, reduced.q, **opts)
    x, lam = reduced._recover(lcp.z)
    return MixedLCPResult(x, lam, lcp.z, N @ x - n, lcp.converged, lcp.message, lcp)


def solve_qp(H, c, A, b, G=None, g=None, *, method: str = "lemke", **options) -> MixedLCPResult:
    """Minimize ``½ xᵀHx + cᵀx`` s.t. ``A x >= b`` (and ``G x = g``) through an LCP.

    The QP is the mixed LCP of :func:`solve_mixed_lcp` with ``f = -c``, ``N = A``, ``n = b``
    (ArtiSynth §0.3, §0.7); without equalities the reduced LCP is exactly :func:`qp_to_lcp`'s.
    For a contact step this is Sueda's QP eq. 1.79/1.80 with ``H`` the mass matrix,
    ``c = -f̃``, ``A = C`` (contact normals) and ``b = 0``, or ``b = -γ φ`` with velocity-level
    Baumgarte stabilization of the gaps ``φ`` (Sueda eq. 1.82).

    Parameters
    ----------
    H : array_like, shape (nx, nx)
        Symmetric positive definite Hessian.
    c : array_like, shape (nx,)
        Linear term.
    A : array_like, shape (p, nx)
        Inequality constraint matrix.
    b : array_like, shape (p,)
        Inequality bounds.
    G : array_like, shape (m, nx), optional
        Equality constraint matrix.
    g : array_like, shape (m,), optional
        Equality right-hand side (default zeros).
    method : str
        LCP solver, as for :func:`solve_mixed_lcp`.
    **options
        Passed on to :func:`solve_mixed_lcp`.

    Returns
    -------
    MixedLCPResult
        ``x`` the minimizer, ``z`` the inequality multipliers, ``lam`` the equality multipliers.

    Raises
    ------
    ValueError
        As for :func:`mixed_lcp_to_lcp`.
    """
    on_demand = options.pop("on_demand", False)
    _check_method(method, on_demand)
    H, c, A, b = _qp_inputs(H, c, A, b)
    _cholesky(H, "H")
    G, g = _equality_inputs(G, g, H.shape[0])
    return _solve_mixed_lcp(H, G, A, -c, g, b, method, on_demand, options)
