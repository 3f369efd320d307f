"""Counts of the package's own ``rnea``, ``crba``, ``aba`` and REDMAX, run on symbols, in the
style of Table 10.1 (Featherstone §10.3, §10.4's executer).

See :mod:`spatial.cost` for the overview; every name here is re-exported there.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._validate import integer
from ..builders import gu_chain
from ..dynamics.aba import _aba, _pass1, _pass2, _pass3
from ..dynamics.crba import _crba
from ..dynamics.rnea import _rnea
from ..kinematics import _forward_pass
from ..reduced import redmax as _redmax
from ..reduced.jacobian import _jacobian
from ..symbolic import angle_symbols, count_lines, symbol_array
from .tables import _F, Cost, Table10Row


@dataclass(frozen=True)
class CodeLine:
    """One line of the package's code with the operations it performed on GU(n).

    ``book`` names the line of the book's table it implements (or says why it is extra),
    ``runs`` is how often it ran and ``cost`` the total over those runs.
    """

    book: str
    source: str
    runs: int
    cost: Cost


# For each algorithm: the book's table, and its lines with the words that identify the
# package's line implementing each (matched against the source text, first match wins).
_BOOK_LINES = {
    "RNEA": (
        "Table 5.1",
        (
            ("ⁱX_λ(i) = X_J X_T(i)", ("_tree_transforms",)),
            ("[X_J, S_i, v_J, c_J] = jcalc(…): v_J = S_i q̇_i", ("_joint_motion",)),
            ("v_i = ⁱX_λ(i) v_λ(i) + v_J", ("v.append",)),
            ("v_i × (the 6x6 matrix of v_i, for the next two lines)", ("v_cross = crm_matrix",)),
            ("a_i = ⁱX_λ(i) a_λ(i) + S_i q̈_i + c_J + v_i × v_J", ("a.append", "a[i] =")),
            ("f_i = I_i a_i + v_i ×* I_i v_i", ("f.append", "I_w =", "w_cross")),
            ("τ_i = S_iᵀ f_i", ("tau[",)),
            ("f_λ(i) = f_λ(i) + λ(i)X_i* f_i", ("f[p] =",)),
        ),
    ),
    "CRBA": (
        "Table 6.2",
        (
            ("ⁱX_λ(i) = X_J X_T(i) (Table 6.2 takes it from the RNEA)", ("_tree_transforms",)),
            ("[X_J, S_i] = jcalc(…)", ("_joint_motion",)),
            ("I^c_λ(i) = I^c_λ(i) + λ(i)X_i* I^c_i ⁱX_λ(i)", ("Ic[p] =",)),
            ("F = I^c_i S_i", ("F = _times_S",)),
            ("H_ii = S_iᵀ F", ("H[..., ii, ii]",)),
            ("F = λ(j)X_j* F", ("F = factored_force_T",)),
            ("H_ij = Fᵀ S_j, H_ji = H_ijᵀ", ("H[..., jj, ii]", "H[..., ii, jj]")),
        ),
    ),
    "ABA": (
        "Table 7.1",
        (
            ("ⁱX_λ(i) = X_J X_T(i)", ("_tree_transforms",)),
            ("[X_J, S_i, v_J, c_J] = jcalc(…): v_J = S_i q̇_i", ("_joint_motion",)),
            ("v_i = ⁱX_λ(i) v_λ(i) + v_J", ("v[i] =",)),
            ("v_i × of every body (the 6x6 matrices, for the next lines)", ("crm_matrix",)),
            ("I_i v_i of every body (as rows v_iᵀ I_i, for p^A_i)", ("IV =",)),
            ("c_i = c_J + v_i × v_J", ("c = [None]", "c[i] =")),
            ("p^A_i = v_i ×* I_i v_i", ("pA = [None]", "pA[i] =")),
            ("U_i = I^A_i S_i", ("U[i] =",)),
            ("D_i = S_iᵀ U_i", ("D[i] =",)),
            ("u_i = τ_i - S_iᵀ p^A_i", ("u[i] =",)),
            ("I^a = I^A_i - U_i D_i⁻¹ U_iᵀ", ("Ia =",)),
            ("p^a = p^A_i + I^a c_i + U_i D_i⁻¹ u_i", ("pa =",)),
            ("I^A_λ(i) = I^A_λ(i) + λ(i)X_i* I^a ⁱX_λ(i)", ("IA[p] =",)),
            ("p^A_λ(i) = p^A_λ(i) + λ(i)X_i* p^a", ("pA[p] =",)),
            ("a' = ⁱX_λ(i) a_λ(i) + c_i", ("a_prime =",)),
            ("q̈_i = D_i⁻¹ (u_i - U_iᵀ a')", ("qdd_i =",)),
            ("a_i = a' + S_i q̈_i", ("a[i] =",)),
        ),
    ),
}


_DENSE = ("RNEA", "CRBA", "ABA")


def _symmetric_symbols(name: str) -> np.ndarray:
    I = symbol_array(name, (6, 6))
    return np.where(np.tri(6, dtype=bool), I, I.T)


def _run_on_symbols(algorithm: str, n: int):
    """Run the package's ``algorithm`` on GU(n) with symbolic inputs; its per-line counts."""
    model = gu_chain(n)  # with general inertias as symbols: NumPy's work on them counts too
    model.inertia = [None] + [_symmetric_symbols(f"I{i}_") for i in range(1, n + 1)]
    q, qd = angle_symbols("q", n), symbol_array("qd", (n,))
    qdd = symbol_array("qdd", (n,))
    if algorithm == "RNEA":
        return count_lines(_rnea, model, q, qd, qdd, None)[1]
    if algorithm == "CRBA":
        return count_lines(_crba, model, q, charge=[_crba, _forward_pass])[1]
    return count_lines(_aba, model, q, qd, qdd, None, charge=[_pass1, _pass2, _pass3])[1]


def _book_line(algorithm: str, source: str) -> str:
    table, lines = _BOOK_LINES[algorithm]
    for text, keys in lines:
        if any(key in source for key in keys):
            return f"{table}: {text}"
    return f"not in {table}"


def dense_lines(algorithm: str, n: int) -> list[CodeLine]:
    """The package's own ``rnea``/``crba``/``aba`` on GU(n), counted line by line.

    Each algorithm is run on symbols (:func:`spatial.symbolic.count_lines`): every product and
    sum its dense NumPy kernels perform is counted, zeros included (a 6x6 matrix times a
    6-vector is ``36m + 30a`` whatever the matrix holds), and charged to the line of the
    package's code that performed it; sine and cosine are free, as in Table 10.1.

    Parameters
    ----------
    algorithm : {"RNEA", "CRBA", "ABA"}
    n : int
        Number of joints of the GU(n) chain (:func:`spatial.builders.gu_chain`).

    Returns
    -------
    list of CodeLine
        The lines that compute something, each with the line of Table 5.1, 6.2 or 7.1 it
        implements; their costs add up to :func:`dense_cost`.

    Raises
    ------
    ValueError
        If the algorithm is not one of the three or ``n`` is not a positive integer.
    """
    if algorithm not in _DENSE:
        raise ValueError(f"algorithm must be one of {_DENSE}, got {algorithm!r}")
    lines = _run_on_symbols(algorithm, integer(n, "n", minimum=1))
    return [
        CodeLine(_book_line(algorithm, x.source), x.source, x.hits, Cost(x.ops.mul, x.ops.add))
        for x in lines
    ]


def dense_cost(algorithm: str, n) -> Cost:
    """Total operations of the package's ``algorithm`` on GU(n) (int or array of int).

    The count is a polynomial in ``n`` (linear for the RNEA and ABA, quadratic for the CRBA);
    it is fitted exactly to the counts of :func:`dense_lines` at ``n = 1, 2, 3`` and returned
    as :func:`dense_row` evaluates it.

    Raises
    ------
    ValueError
        As for :func:`dense_lines`.

    Examples
    --------
    On GU(7) the package's RNEA performs about eight and a half times the operations of Table 10.1's
    best row:

    >>> from spatial import cost
    >>> str(cost.dense_cost("RNEA", 7)), str(cost.table_10_1_cost("RNEA", 7))
    ('4572m + 4037a', '543m + 467a')
    """
    return dense_row(algorithm).cost(n)


_ROWS: dict = {}


def dense_row(algorithm: str) -> Table10Row:
    """The package's code as a row in the style of Table 10.1: cost polynomials in ``n``.

    Raises
    ------
    ValueError
        If the algorithm is not "RNEA", "CRBA" or "ABA".
    """
    if algorithm not in _ROWS:
        counts = [_total(dense_lines(algorithm, n)) for n in (1, 2, 3)]
        _ROWS[algorithm] = Table10Row(
            algorithm,
            _quadratic([c.mul for c in counts]),
            _quadratic([c.add for c in counts]),
            "this package's code, counted on symbols (spatial.cost.dense_lines)",
        )
    return _ROWS[algorithm]


def _total(lines) -> Cost:
    return sum((line.cost for line in lines), Cost(0, 0))


def _quadratic(y) -> tuple:
    """Coefficients (a, b, c) of the quadratic through (1, y₀), (2, y₁), (3, y₂)."""
    y0, y1, y2 = (Fraction(v) for v in y)
    a = (y2 - 2 * y1 + y0) / 2
    b = y1 - y0 - 3 * a
    return a, b, y0 - a - b


# --------------------------------------------------------------------------- REDMAX (Sueda §2.3)

#: Solving ``A x = b`` for one right-hand side by Gaussian elimination (LU with partial
#: pivoting, the method of NumPy's ``solve``): ``n³/3 + n² - n/3`` multiplications and
#: divisions, ``n³/3 + n²/2 - 5n/6`` additions (factorization, forward and back substitution).
LU_SOLVE = Table10Row(
    "LU solve",
    (_F(1, 3), 1, _F(-1, 3), 0),
    (_F(1, 3), _F(1, 2), _F(-5, 6), 0),
    "Gaussian elimination, e.g. Golub and Van Loan, Alg. 3.4.1 with 3.1.1-3.1.2",
)


def _redmax_terms(model, q, qd, tau):
    """What ``redmax_forward_dynamics`` computes before its solve: ``M_r`` and ``f_r``."""
    fp = _redmax._redmax_pass(model, q, qd)
    J = _jacobian(model, fp)
    return _redmax._mass_matrix(model, J), _redmax._force(model, fp, J, q, qd, tau, None)


def _cubic(y) -> tuple:
    """Coefficients (a, b, c, d) of the cubic through (1, y₀), …, (4, y₃)."""
    n = np.arange(1, 5)
    A = [[Fraction(int(k)) ** p for p in (3, 2, 1, 0)] for k in n]
    rows = [list(r) + [Fraction(v)] for r, v in zip(A, y, strict=True)]
    for i in range(4):  # Gauss-Jordan in exact arithmetic
        rows[i] = [x / rows[i][i] for x in rows[i]]
        for j in range(4):
            if j != i:
                rows[j] = [a - rows[j][i] * b for a, b in zip(rows[j], rows[i], strict=True)]
    return tuple(r[4] for r in rows)


def _redmax_traced(n: int) -> Cost:
    """The package's REDMAX on GU(n) up to the solve, counted on symbols."""
    model = gu_chain(n)
    model.inertia = [None] + [_symmetric_symbols(f"I{i}_") for i in range(1, n + 1)]
    q, qd, tau = angle_symbols("q", n), symbol_array("qd", (n,)), symbol_array("tau", (n,))
    lines = count_lines(_redmax_terms, model, q, qd, tau)[1]
    return sum((Cost(x.ops.mul, x.ops.add) for x in lines), Cost(0, 0))


_REDMAX_ROW: list = []


def redmax_row() -> Table10Row:
    """REDMAX forward dynamics as the package computes it, in the style of Table 10.1.

    ``spatial.reduced.redmax_forward_dynamics`` forms the dense ``J_mr`` (``6n x n``), the
    product ``M_r = J_mrᵀ (M_m J_mr)`` and ``f_r``, and solves ``M_r q̈ = f_r`` (Sueda eq.
    2.18).  Everything before the solve is run on symbols on GU(n) for ``n = 1 … 4``
    (:func:`spatial.symbolic.count_lines`, zeros included, as NumPy multiplies them), and the
    cubic through those counts is exact (a fifth ``n`` checks it in the tests); the solve adds
    :data:`LU_SOLVE`.  The leading term, ``6n³`` multiplications, is the product
    ``J_mrᵀ (M_m J_mr)`` of an ``n x 6n`` and a ``6n x n`` matrix.

    Returns
    -------
    Table10Row
    """
    if not _REDMAX_ROW:
        traced = [_redmax_traced(n) for n in (1, 2, 3, 4)]
        mul = [a + b for a, b in zip(_cubic([c.mul for c in traced]), LU_SOLVE.mul, strict=True)]
        add = [a + b for a, b in zip(_cubic([c.add for c in traced]), LU_SOLVE.add, strict=True)]
        source = "this package's REDMAX, counted on symbols, plus an LU solve"
        _REDMAX_ROW.append(Table10Row("REDMAX", tuple(mul), tuple(add), source))
    return _REDMAX_ROW[0]


def redmax_cost(n) -> Cost:
    """Operations of the package's REDMAX forward dynamics on GU(n) (int or array of int).

    See :func:`redmax_row`; compare :func:`dense_cost` ``("ABA", n)`` for the package's ABA,
    linear in ``n``.

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer (or an array of them).

    Examples
    --------
    >>> from spatial import cost
    >>> c = cost.redmax_cost(64)
    >>> c.mul > 6 * 64**3
    True
    """
    return redmax_row().cost(n)
