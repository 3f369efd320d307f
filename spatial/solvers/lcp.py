"""Linear complementarity problems and the pivoting methods: Lemke and principal pivoting.

The LCP (Featherstone eq. 11.42, ArtiSynth §0.3) asks, for ``M`` (n×n) and ``q`` (n,), for ``z``
with

    w = M z + q,    z >= 0,    w >= 0,    zᵀw = 0          (written 0 <= z ⟂ w >= 0).

The *box-bounded* LCP (BLCP, the mixed complementarity form of box friction, ArtiSynth eq. 0.6)
replaces ``z >= 0`` by ``lo <= z <= hi`` and asks for ``w_i >= 0`` where ``z_i = lo_i``,
``w_i <= 0`` where ``z_i = hi_i`` and ``w_i = 0`` in between.

Every solver returns an :class:`LCPResult`.  A solver that fails says so: ``converged`` is False
and ``message`` says why (ray termination, iteration limit, singular block, ...).  Call
:meth:`LCPResult.check` to turn a failure into an :class:`LCPError`:
``z = lemke(M, q).check().z``.

Accuracy is measured by :func:`complementarity_error`, the *natural residual*
``max_i |z_i - mid(lo_i, z_i - w_i, hi_i)|``, which for the plain LCP is ``max_i |min(z_i, w_i)|``.
It is zero exactly at a solution and catches both infeasibility (a negative ``z_i`` or ``w_i``)
and missing complementarity (both positive).  Solvers accept a result when the error is at most
``tol * max(1, max|q|)``.

Each public solver checks its arguments and then runs a private kernel (``_lemke``,
``_principal_pivoting``) that trusts them; the friction models, the QP reductions and the contact
steppers call the kernels with matrices they have already checked or built, and with options
checked once by ``_lemke_options`` or ``_pivoting_options``.  Projected Gauss–Seidel, the
iterative alternative, is in :mod:`~spatial.solvers.pgs`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .._validate import box_bounds, iteration_limit, square_matrix, tolerance, vector

__all__ = [
    "Checkable",
    "LCPError",
    "LCPResult",
    "PivotStep",
    "complementarity_error",
    "lemke",
    "principal_pivoting",
]


class LCPError(RuntimeError):
    """Raised by ``.check()`` on the result of a solver that did not converge."""


class Checkable:
    """Mixin for solver results with ``converged`` and ``message``: adds :meth:`check`."""

    converged: bool
    message: str

    def check(self):
        """Return ``self`` if the solver converged, else raise :class:`LCPError` with its message.

        Raises
        ------
        LCPError
            If ``converged`` is False.
        """
        if not self.converged:
            raise LCPError(f"{type(self).__name__}: {self.message}")
        return self


@dataclass(frozen=True)
class PivotStep:
    """One pivot of a pivoting method, recorded when the solver is called with ``trace=True``.

    Attributes
    ----------
    step : int
        Pivot number (1 for the first pivot).
    entering, leaving : str
        Variables entering and leaving the basis, named 1-based as in the LCP literature
        (``"w2"``, ``"z3"``; ``"z0"`` is Lemke's artificial variable).
    basis : tuple of str
        The basic variables after the pivot, one per row of the tableau.
    values : numpy.ndarray
        Their values after the pivot (same order as ``basis``).
    """

    step: int
    entering: str
    leaving: str
    basis: tuple[str, ...]
    values: np.ndarray


@dataclass
class LCPResult(Checkable):
    """Result of an LCP solver.

    Attributes
    ----------
    z, w : numpy.ndarray, shape (n,)
        The solution and ``w = M z + q`` (recomputed from ``z``, not read from a tableau).
    iterations : int
        Pivots (Lemke, principal pivoting) or sweeps (PGS).
    converged : bool
        True when the method terminated normally and ``complementarity_error`` is within tolerance.
    complementarity_error : float
        Natural residual of ``(z, w)``, see :func:`complementarity_error`.
    message : str
        What happened, in words.
    method : str
        ``"lemke"``, ``"principal_pivoting"`` or ``"pgs"``.
    columns_formed : int or None
        Principal pivoting: how many distinct columns of ``M`` were formed (ArtiSynth §0.8).
    residuals : numpy.ndarray or None
        PGS: the complementarity error after each sweep.
    trace : list of PivotStep or None
        Pivoting methods called with ``trace=True``: every pivot.
    """

    z: np.ndarray
    w: np.ndarray
    iterations: int
    converged: bool
    complementarity_error: float
    message: str
    method: str
    columns_formed: int | None = None
    residuals: np.ndarray | None = None
    trace: list[PivotStep] | None = field(default=None, repr=False)


def _natural_residual(z: np.ndarray, w: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> float:
    if z.size == 0:
        return 0.0
    return float(np.max(np.abs(z - np.clip(z - w, lo, hi))))


def complementarity_error(z, w, lo=None, hi=None) -> float:
    """Natural residual of a candidate LCP or box-LCP solution.

    ``max_i |z_i - mid(lo_i, z_i - w_i, hi_i)|``; with the default bounds ``lo = 0``,
    ``hi = +inf`` this is ``max_i |min(z_i, w_i)|``.  It is zero exactly when
    ``(z, w)`` solves the (box) LCP, and it is positive for a negative ``z_i`` or ``w_i``, for
    complementarity violated (both positive), and for a ``z_i`` outside its bounds.

    Parameters
    ----------
    z, w : array_like, shape (n,)
        Candidate solution and ``w = M z + q``.
    lo, hi : array_like, shape (n,) or scalar, optional
        Box bounds, default 0 and +inf (the plain LCP).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        If ``z`` and ``w`` are not finite vectors of the same length, or the bounds are invalid.
    """
    z = vector(z, "z")
    w = vector(w, "w", z.shape[0])
    lo, hi = box_bounds(lo, hi, z.shape[0])
    return _natural_residual(z, w, lo, hi)


def _result(M, q, z, lo, hi, iterations, ok, message, method, tol, **extra) -> LCPResult:
    """Assemble an :class:`LCPResult`, re-checking the error of a normally terminated method."""
    w = M @ z + q
    err = _natural_residual(z, w, lo, hi)
    limit = tol * max(1.0, float(np.max(np.abs(q), initial=0.0)))
    if ok and not err <= limit:
        ok = False
        message += (
            f", but the complementarity error {err:.3g} exceeds {limit:.3g} (ill-conditioned?)"
        )
    return LCPResult(z, w, iterations, ok, err, message, method, **extra)


# ----------------------------------------------------------------------------------------------
# Lemke's complementary pivoting method
# ----------------------------------------------------------------------------------------------


def _lexmin_row(T: np.ndarray, denom: np.ndarray, rows: np.ndarray, prefer: int | None) -> int:
    """Lexicographic minimum ratio test over ``rows`` of the tableau ``T = [x_B | B⁻¹]``.

    Compares the rows ``T[i] / denom[i]`` column by column: first the usual ratio ``x_i / a_i``,
    then the columns of ``B⁻¹``, which are linearly independent, so exactly one row survives in
    exact arithmetic.  This is the lexicographic rule that prevents cycling in degenerate
    problems (Cottle, Pang & Stone 1992, ch. 4).  ``prefer`` (the row of Lemke's ``z0``) wins any
    tie of the first ratio, so the algorithm stops as soon as it can.
    """
    for c in range(T.shape[1]):
        ratios = T[rows, c] / denom[rows]
        best = ratios.min()
        rows = rows[ratios <= best + 1e-11 * max(1.0, abs(best))]
        if c == 0 and prefer is not None and prefer in rows:
            return prefer
        if rows.size == 1:
            break
    return int(rows[0])


def _lemke_lcp(M, q, d, tol, max_iter, trace):
    """Lemke's method on ``w - M z - d z0 = q`` with a dense tableau (see :func:`lemke`)."""
    n = q.shape[0]
    d = np.ones(n) if d is None else d
    max_iter = iteration_limit(max_iter, n)  # None: the default for this size
    lo, hi = np.zeros(n), np.full(n, np.inf)
    if n == 0 or q.min() >= 0:
        return _result(M, q, np.zeros(n), lo, hi, 0, True, "q >= 0: z = 0 solves", "lemke", tol)
    A = np.hstack([np.eye(n), -M, -d[:, None]])  # columns: w_1..w_n, z_1..z_n, z0
    names = [f"w{i + 1}" for i in range(n)] + [f"z{i + 1}" for i in range(n)] + ["z0"]
    basis = list(range(n))
    T = np.hstack([q[:, None], np.eye(n)])  # tableau [x_B | B^-1]
    piv_tol = 1e-12 * max(1.0, float(np.abs(A).max()))
    steps = [] if trace else None

    def pivot(r: int, entering: int, a: np.ndarray) -> int:
        T[r] /= a[r]
        others = np.arange(n) != r
        T[others] -= np.outer(a[others], T[r])
        leaving, basis[r] = basis[r], entering
        if steps is not None:
            basis_names = tuple(names[b] for b in basis)
            step = PivotStep(
                len(steps) + 1, names[entering], names[leaving], basis_names, T[:, 0].copy()
            )
            steps.append(step)
        return leaving

    # Initial pivot: z0 enters at the level that makes every basic variable nonnegative; the
    # row with the most negative q_i / d_i leaves (lexicographically).
    a = -d
    r = _lexmin_row(T, -a, np.arange(n), None)
    leaving = pivot(r, 2 * n, a)
    it = 1
    while True:
        if leaving == 2 * n:  # z0 left the basis: the basis is complementary
            message, ok = f"solution found after {it} pivots", True
            break
        entering = leaving + n if leaving < n else leaving - n  # complement of the leaving var
        if it >= max_iter:
            message = f"iteration limit {max_iter} reached without a solution (cycling?)"
            ok = False
            break
        a = T[:, 1:] @ A[:, entering]
        rows = np.flatnonzero(a > piv_tol)
        if rows.size == 0:
            message = (
                f"ray termination after {it} pivots: no solution found ({names[entering]} can "
                "grow without bound; for copositive-plus M, e.g. positive semidefinite, this "
                "proves the LCP has no solution)"
            )
            ok = False
            break
        z0_row = basis.index(2 * n) if 2 * n in basis else None
        r = _lexmin_row(T, a, rows, z0_row)
        leaving = pivot(r, entering, a)
        it += 1
    z = np.zeros(n)
    for row, var in enumerate(basis):
        if n <= var < 2 * n:
            z[var - n] = T[row, 0]
    return _result(M, q, z, lo, hi, it, ok, message, "lemke", tol, trace=steps)


def lemke(
    M,
    q,
    *,
    lo=None,
    hi=None,
    d=None,
    tol: float = 1e-9,
    max_iter: int | None = None,
    trace: bool = False,
) -> LCPResult:
    """Solve an LCP (or a box-bounded LCP) by Lemke's complementary pivoting method.

    Lemke adds an artificial variable ``z0`` along a covering vector ``d > 0``,
    ``w = M z + q + d z0``, starts from ``z = 0`` with ``z0`` just large enough to make
    ``w >= 0``, and then walks along almost-complementary bases: each pivot brings in the
    complement of the variable that just left, with a lexicographic minimum-ratio test so
    degenerate problems cannot cycle.  It stops when ``z0`` leaves (a solution) or when the
    entering column has no positive entry (*ray termination*).  Lemke always finds the solution
    for a P-matrix (e.g. positive definite ``M``); for a copositive-plus ``M`` (e.g. positive
    semidefinite) ray termination proves that no solution exists (Cottle, Pang & Stone 1992,
    ch. 4).  Featherstone §11.5 cites this family of methods for eq. 11.42.

    With bounds, the box-bounded LCP is rewritten as a plain LCP of size ``n + p`` (``p`` the
    number of finite upper bounds): shift ``u = z - lo``, split ``w = w⁺ - w⁻`` and solve
    ``[w⁺; s] = [[M, P], [-Pᵀ, 0]] [u; w⁻] + [q + M lo; (hi - lo)_P]`` with ``s`` the distance
    to the upper bounds.  The bigger matrix is positive semidefinite when ``M`` is, so Lemke
    processes it.  A variable with only an upper bound is flipped in sign first.

    Parameters
    ----------
    M : array_like, shape (n, n)
        LCP matrix.
    q : array_like, shape (n,)
        LCP vector.
    lo, hi : array_like, shape (n,) or scalar, optional
        Box bounds (default the plain LCP, ``0`` and ``+inf``).  Every variable needs at least
        one finite bound; free variables belong in a mixed LCP (:func:`mixed_lcp_to_lcp`).
    d : array_like, shape (n,), optional
        Covering vector, entries > 0 (default all ones).
    tol : float
        Accept the result when :func:`complementarity_error` ``<= tol * max(1, max|q|)``.
    max_iter : int, optional
        Pivot limit (default ``100 (n + 1)``); reaching it is reported as possible cycling.
    trace : bool
        Record every pivot in ``result.trace`` (of the expanded LCP when bounds are given).

    Returns
    -------
    LCPResult
        ``converged`` is False on ray termination or at the pivot limit, with a message.

    Raises
    ------
    ValueError
        For a non-square or non-finite ``M``, a ``q`` of the wrong length, a non-positive
        covering vector, invalid bounds or a free variable, or a bad ``tol``/``max_iter``.
    """
    M = square_matrix(M, "M")
    n = M.shape[0]
    q = vector(q, "q", n)
    bounded = lo is not None or hi is not None
    options = _lemke_options(n, bounded, d=d, tol=tol, max_iter=max_iter, trace=trace)
    if bounded:
        lo, hi = box_bounds(lo, hi, n)
        free = np.isinf(lo) & np.isinf(hi)
        if np.any(free):
            raise ValueError(
                f"variable {int(np.argmax(free))} has no finite bound; eliminate free variables "
                "with mixed_lcp_to_lcp or use pgs"
            )
    return _lemke(M, q, lo, hi, **options)


def _lemke_options(
    n: int, bounded: bool, *, d=None, tol: float = 1e-9, max_iter=None, trace: bool = False
) -> dict:
    """Check the options of :func:`lemke` for an LCP of size ``n``; keyword arguments of
    :func:`_lemke` (``max_iter`` None: the size-dependent default)."""
    if d is not None:
        if bounded:
            raise ValueError("a covering vector d is only supported for the plain LCP (no bounds)")
        d = vector(d, "d", n)
        if np.any(d <= 0):
            raise ValueError("covering vector d must have all entries > 0")
    if max_iter is not None:
        max_iter = iteration_limit(max_iter, n)
    return dict(d=d, tol=tolerance(tol), max_iter=max_iter, trace=bool(trace))


def _lemke(M, q, lo=None, hi=None, *, d=None, tol=1e-9, max_iter=None, trace=False) -> LCPResult:
    """Kernel of :func:`lemke` on checked input: ``lo``, ``hi`` both None (the plain LCP) or
    bounds from ``box_bounds`` with a finite bound on every variable."""
    if lo is None and hi is None:
        return _lemke_lcp(M, q, d, tol, max_iter, trace)
    n = q.shape[0]
    lo = np.zeros(n) if lo is None else lo
    hi = np.full(n, np.inf) if hi is None else hi
    s = np.where(np.isinf(lo), -1.0, 1.0)  # flip variables that only have an upper bound
    Ms, qs = s[:, None] * M * s[None, :], s * q
    los, his = np.where(s > 0, lo, -hi), np.where(s > 0, hi, -lo)
    upper = np.flatnonzero(np.isfinite(his))
    P = np.eye(n)[:, upper]
    M2 = np.block([[Ms, P], [-P.T, np.zeros((upper.size, upper.size))]])
    q2 = np.concatenate([qs + Ms @ los, (his - los)[upper]])
    big = _lemke_lcp(M2, q2, None, tol, max_iter, trace)
    z = s * (los + big.z[:n])
    ok, message = big.converged, big.message
    return _result(M, q, z, lo, hi, big.iterations, ok, message, "lemke", tol, trace=big.trace)


# ----------------------------------------------------------------------------------------------
# Principal pivoting (Cottle–Dantzig), with columns of M formed on demand
# ----------------------------------------------------------------------------------------------


def principal_pivoting(
    M=None,
    q=None,
    *,
    column: Callable[[int], np.ndarray] | None = None,
    tol: float = 1e-9,
    max_iter: int | None = None,
    trace: bool = False,
) -> LCPResult:
    """Solve an LCP by the Cottle–Dantzig principal pivoting method, forming columns on demand.

    The state is the set ``α`` of indices whose ``z`` is basic (``w_α = 0``) and ``z_β = 0``
    elsewhere, so ``z_α = -M_αα⁻¹ q_α`` and ``w_β = q_β + M_βα z_α`` (the principal pivot
    transform, ArtiSynth eq. 0.4).  A *major cycle* picks the least index ``r`` with ``w_r < 0``
    and drives ``z_r`` up from 0 while keeping ``w_α = 0``; ``z_α`` and ``w_β`` move linearly.
    It stops at the first event: ``w_r`` reaches 0 (``r`` joins ``α``, the cycle ends), a
    ``z_i`` of ``α`` drops to 0 (``i`` leaves ``α``), or a nonnegative ``w_i`` drops to 0 (``i``
    joins ``α``); ties go to the least index.  Each major cycle fixes one negative ``w_r``
    without making any other variable negative.

    **Guarantee:** the method is finite for every P-matrix (all principal minors > 0, e.g.
    positive definite; Cottle, Pang & Stone 1992, ch. 4) and processes symmetric positive
    semidefinite matrices (contact Delassus matrices): it finds a solution or proves that none
    exists.  Other matrices may hit a singular principal block, reported as a failure.

    **On-demand columns (ArtiSynth §0.8).**  Every quantity above needs only the columns
    ``M[:, j]`` for ``j`` in ``α`` and the driving index ``r``.  Pass ``column(j)`` instead of
    ``M`` and column ``j`` is computed the first time it is needed and cached;
    ``result.columns_formed`` counts them.  With few active contacts among many, far fewer
    than ``n`` columns are formed.  (ArtiSynth keeps a factorization of ``M_αα`` up to date;
    here it is refactored at each pivot, which is simpler and fine for moderate ``n``.)

    Parameters
    ----------
    M : array_like, shape (n, n), optional
        LCP matrix; give either ``M`` or ``column``.
    q : array_like, shape (n,)
        LCP vector.
    column : callable, optional
        ``column(j) -> (n,)`` array, the j-th column of ``M`` (0-based).
    tol : float
        Accept the result when :func:`complementarity_error` ``<= tol * max(1, max|q|)``.
    max_iter : int, optional
        Pivot limit (default ``100 (n + 1)``).
    trace : bool
        Record every pivot in ``result.trace``.

    Returns
    -------
    LCPResult
        With ``columns_formed``.  ``converged`` is False (with a message) when the LCP has no
        solution, a principal block is singular, or the pivot limit is reached.

    Raises
    ------
    ValueError
        For bad ``M``/``q``, both or neither of ``M`` and ``column``, or a column of the wrong
        shape or with non-finite entries.
    """
    if (M is None) == (column is None):
        raise ValueError("give exactly one of M (the matrix) or column (a callback column(j))")
    if q is None:
        raise ValueError("q is required")
    if M is not None:
        M = square_matrix(M, "M")
        q = vector(q, "q", M.shape[0])
        column = _matrix_columns(M)
    else:
        q = vector(q, "q")
        column = _checked_columns(column, q.shape[0])
    return _principal_pivoting(q, column, **_pivoting_options(q.shape[0], tol, max_iter, trace))


def _matrix_columns(M: np.ndarray) -> Callable[[int], np.ndarray]:
    """``column(j)`` of a matrix that is already at hand."""
    return lambda j: M[:, j]


def _checked_columns(column: Callable, n: int) -> Callable[[int], np.ndarray]:
    """Wrap a user's ``column(j)`` so that each column it returns is checked when formed."""

    def checked(j: int) -> np.ndarray:
        c = np.asarray(column(j), dtype=float)
        if c.shape != (n,) or not np.all(np.isfinite(c)):
            raise ValueError(f"column({j}) must return a finite vector of length {n}")
        return c

    return checked


def _pivoting_options(n: int, tol: float = 1e-9, max_iter=None, trace: bool = False) -> dict:
    """Check the options of :func:`principal_pivoting`; keyword arguments of the kernel."""
    return dict(tol=tolerance(tol), max_iter=iteration_limit(max_iter, n), trace=bool(trace))


def _principal_pivoting(q, column, *, tol, max_iter, trace) -> LCPResult:
    """Kernel of :func:`principal_pivoting`: ``q`` checked, ``column(j)`` trusted."""
    n = q.shape[0]
    cols: dict[int, np.ndarray] = {}
    scale = [max(1.0, float(np.max(np.abs(q), initial=0.0)))]

    def col(j: int) -> np.ndarray:
        if j not in cols:
            c = column(j)
            cols[j] = c
            scale[0] = max(scale[0], float(np.abs(c).max(initial=0.0)))
        return cols[j]

    names = [f"w{i + 1}" for i in range(n)], [f"z{i + 1}" for i in range(n)]
    steps = [] if trace else None
    alpha: list[int] = []
    z = np.zeros(n)
    it, ok, message = 0, True, ""

    def record(entering: str, leaving: str, w: np.ndarray) -> None:
        if steps is not None:
            basis = tuple(names[1][i] if i in alpha else names[0][i] for i in range(n))
            values = np.where(np.isin(np.arange(n), alpha), z, w)
            steps.append(PivotStep(len(steps) + 1, entering, leaving, basis, values))

    def w_of(z: np.ndarray) -> np.ndarray:
        return q + sum((col(j) * z[j] for j in np.flatnonzero(z)), np.zeros(n))

    while ok:
        eps = 1e-12 * scale[0]
        w = w_of(z)
        w[alpha] = 0.0
        negative = np.flatnonzero(w < -eps)
        if negative.size == 0:
            message = f"solution found after {it} pivots"
            break
        r = int(negative[0])
        while True:  # drive z_r up until w_r reaches 0
            if it >= max_iter:
                ok, message = False, f"iteration limit {max_iter} reached (cycling?)"
                break
            eps = 1e-12 * scale[0]
            mr = col(r)
            Ma = np.column_stack([col(j) for j in alpha]) if alpha else np.zeros((n, 0))
            dz = -np.linalg.solve(Ma[alpha], mr[alpha]) if alpha else np.zeros(0)
            dw = mr + Ma @ dz  # rate of change of w per unit of z_r (0 on alpha)
            w = w_of(z)
            in_alpha = np.isin(np.arange(n), alpha)
            events = []  # (step length, index, kind)
            if dw[r] > eps:
                events.append((-w[r] / dw[r], r, "done"))
            for k, i in enumerate(alpha):
                if dz[k] < -eps:
                    events.append((max(z[i], 0.0) / -dz[k], i, "z"))
            for i in np.flatnonzero(~in_alpha & (w >= -eps) & (dw < -eps)):
                if i != r:
                    events.append((max(w[i], 0.0) / -dw[i], int(i), "w"))
            if not events:
                ok = False
                message = (
                    f"no solution: w{r + 1} < 0 cannot be raised (the LCP is infeasible for a "
                    "symmetric positive semidefinite M; otherwise M is not a P-matrix)"
                )
                break
            theta = min(e[0] for e in events)
            ties = [e for e in events if e[0] <= theta + 1e-14 * max(1.0, theta)]
            step, i, kind = next((e for e in ties if e[2] == "done"), min(ties, key=lambda e: e[1]))
            z[alpha] += step * dz
            z[r] += step
            it += 1
            if kind == "done":
                alpha.append(r)
                record(names[1][r], names[0][r], w_of(z))
                break
            if kind == "z":
                alpha.remove(i)
                z[i] = 0.0
                record(names[0][i], names[1][i], w_of(z))
                continue
            ci = col(i)  # w_i joins: needs the Schur complement of M_αα in M_(α+i)(α+i) > 0
            schur = ci[i] - (Ma[i] @ np.linalg.solve(Ma[alpha], ci[alpha]) if alpha else 0.0)
            if not schur > eps:
                ok = False
                message = (
                    f"singular principal block when adding index {i}: M is neither a P-matrix "
                    "nor symmetric positive semidefinite"
                )
                break
            alpha.append(i)
            record(names[1][i], names[0][i], w_of(z))
    z[[i for i in range(n) if i not in alpha]] = 0.0
    w = w_of(z)
    err = _natural_residual(z, w, np.zeros(n), np.full(n, np.inf))
    limit = tol * max(1.0, float(np.max(np.abs(q), initial=0.0)))
    if ok and not err <= limit:
        ok = False
        message += f", but the complementarity error {err:.3g} exceeds {limit:.3g}"
    return LCPResult(z, w, it, ok, err, message, "principal_pivoting", len(cols), trace=steps)
