"""Operation counts as data: Featherstone §10.3, Tables 10.1–10.2 and eqs. 10.2–10.12.

Dynamics algorithms are compared by how many floating-point multiplications (``m``, divisions
included) and additions (``a``, subtractions included) they perform, as functions of the number
``n`` of joint variables, on a standard family of systems: **GU(n)**, the unbranched chains of ``n``
revolute joints with general geometry and inertias (:func:`spatial.builders.gu_chain`).

Table 10.1 collects the published formulae; :data:`TABLE_10_1` holds every row with its source,
and :func:`table_10_1_cost` evaluates the best row of an algorithm.  Fig. 10.4 adds three of them,
RNEA + CRBA + factorize-and-solve (F&S), into the cost of the "O(n³)" inertia-matrix method and
compares it with the articulated-body algorithm (:func:`gu_costs`).

§10.3.1 derives the CRBA row itself.  In Table 10.2 only two lines compute anything: line 7 adds
a transformed composite inertia to the parent's (cost ``ra + rx``, once per body whose parent is
not the base) and line 13 carries a force up the tree (cost ``vx``, once per ancestor pair).  On a
chain this gives eq. 10.2, and with Denavit–Hartenberg frames and axial screws (App. A.4) eq. 10.3.
On a branched tree the counts become ``D₀`` and ``D₁`` of eqs. 10.4–10.5 (eq. 10.6), and since
only one child of each body can have a DH transform from its parent, eq. 10.10–10.12 split them
into DH and general parts (:func:`crba_cost`, :func:`crba_counts`).  Adding the RNEA and the
sparse ``LᵀDL`` of Table 6.6 gives the inertia-matrix method on any tree
(:func:`inertia_method_cost`), the "O(nd²)" curve of Fig. 10.5.

The book's rows count code optimized by hand.  The package's own ``rnea``, ``crba`` and ``aba``
use dense 6x6 NumPy products, zeros and all; :func:`dense_lines` runs them on symbols and
charges every operation to the line of the package's code that performed it, each line named
by the line of Table 5.1, 6.2 or 7.1 it implements, and :func:`dense_row` turns the totals into
a row in the style of Table 10.1, so the two can be read side by side (:func:`dense_cost`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ._validate import integer, integers
from .builders import branched_tree, gu_chain
from .dynamics.aba import _aba, _pass1, _pass2, _pass3
from .dynamics.crba import _crba
from .dynamics.rnea import _rnea
from .dynamics.sparse import _check_lam, operation_counts
from .kinematics import _forward_pass
from .model import Model
from .reduced import redmax as _redmax
from .reduced.jacobian import _jacobian
from .symbolic import angle_symbols, count_lines, symbol_array

__all__ = [
    "Cost",
    "Table10Row",
    "TABLE_10_1",
    "table_10_1_cost",
    "gu_costs",
    "CrbaCounts",
    "crba_counts",
    "crba_cost",
    "crba_cost_chain",
    "ltdl_cost",
    "inertia_method_cost",
    "method_costs",
    "RA",
    "RX_DH",
    "RX_G",
    "VX_DH",
    "VX_G",
    "CodeLine",
    "dense_lines",
    "dense_row",
    "dense_cost",
    "LU_SOLVE",
    "redmax_row",
    "redmax_cost",
]


@dataclass(frozen=True)
class Cost:
    """A floating-point operation count ``mul·m + add·a`` (Featherstone §10.3).

    ``mul`` counts multiplications and divisions, ``add`` additions and subtractions; both are
    integers or NumPy integer arrays (one count per value of ``n``).  A count may be negative:
    Table 10.1's formulas are for ``n`` large enough, and at ``n = 1`` some give less than zero.

    Raises
    ------
    ValueError
        If a count is not an integer (``2.5 * Cost(1, 2)`` would be half an operation).
    """

    mul: object
    add: object

    def __post_init__(self) -> None:
        for name in ("mul", "add"):
            value = getattr(self, name)
            if isinstance(value, bool | np.bool_) or not (
                isinstance(value, int | np.integer)
                or (isinstance(value, np.ndarray) and np.issubdtype(value.dtype, np.integer))
            ):
                raise ValueError(
                    f"Cost.{name} must be an integer count (or an integer array), got {value!r}"
                )

    @property
    def total(self):
        """``m + a``: every operation costed alike, as Fig. 10.4 plots them."""
        return self.mul + self.add

    def __add__(self, other: Cost) -> Cost:
        return Cost(self.mul + other.mul, self.add + other.add)

    def __rmul__(self, k) -> Cost:
        return Cost(k * self.mul, k * self.add)

    def __str__(self) -> str:
        return f"{self.mul}m + {self.add}a"


# --------------------------------------------------------------------------- Table 10.1


@dataclass(frozen=True)
class Table10Row:
    """One row of Featherstone Table 10.1: polynomial coefficients in ``n`` and the source.

    ``mul`` and ``add`` hold coefficients from the highest power down to the constant term.
    """

    algorithm: str
    mul: tuple
    add: tuple
    source: str

    def cost(self, n) -> Cost:
        """The row's cost at ``n`` joint variables (int, or an array of them)."""
        n = np.asarray(n)
        if np.any(n < 1) or not np.issubdtype(n.dtype, np.integer):
            raise ValueError(f"n must be positive integers (joint variables), got {n!r}")

        def poly(coeffs):
            values = [
                sum(Fraction(c) * int(k) ** p for p, c in enumerate(reversed(coeffs)))
                for k in n.ravel()
            ]
            assert all(v.denominator == 1 for v in values)  # each formula is integral at int n
            out = np.array([int(v) for v in values]).reshape(n.shape)
            return int(out) if out.ndim == 0 else out

        return Cost(poly(self.mul), poly(self.add))


_F = Fraction
#: Every row of Featherstone Table 10.1, in the book's order (best version of each algorithm
#: first); ``source`` names the reference the book gives for the row.
TABLE_10_1 = (
    Table10Row("RNEA", (93, -108), (81, -100), "Balafoutis and Patel (1991), Alg. 5.7"),
    Table10Row("RNEA", (93, -69), (81, -66), "Balafoutis et al. (1988) Alg. 3; B&P (1991)"),
    Table10Row("RNEA", (130, -68), (101, -56), "Featherstone (1987), Table 8-6"),
    Table10Row("RNEA", (150, -48), (131, -48), "Hollerbach (1980), Newton-Euler, Table I"),
    Table10Row("CRBA", (10, 22, -32), (6, 37, -43), "Featherstone (2005) eq. 20; eq. 10.3"),
    Table10Row("CRBA", (10, 31, -41), (6, 40, -46), "Featherstone (1987), Table 8-6"),
    Table10Row("CRBA", (10, 41, -51), (6, 52, -58), "Lilly and Orin (1991); Lilly (1993)"),
    Table10Row(
        "CRBA", (11, 11, -42), (_F(11, 2), _F(65, 2), -54), "Balafoutis and Patel (1989, 1991)"
    ),
    Table10Row("CRBA", (12, 56, -27), (7, 67, -53), "Walker and Orin (1982), method 3"),
    Table10Row(
        "F&S",
        (_F(1, 6), _F(3, 2), _F(-2, 3), 0),
        (_F(1, 6), 1, _F(-7, 6), 0),
        "Table 6.6 with eq. 6.28",
    ),
    Table10Row("ABA", (224, -259), (205, -248), "McMillan et al. (1995), Table II"),
    Table10Row("ABA", (250, -222), (220, -198), "Brandl et al. (1988)"),
    Table10Row("ABA", (300, -267), (279, -259), "Featherstone (1987), Table 8-6"),
)

_ALGORITHMS = ("RNEA", "CRBA", "F&S", "ABA")


def table_10_1_cost(algorithm: str, n, version: int = 0) -> Cost:
    """Cost of ``algorithm`` on GU(n) by Table 10.1 (``version`` 0 is the book's best row).

    Parameters
    ----------
    algorithm : {"RNEA", "CRBA", "F&S", "ABA"}
    n : int or array of int
        Number of joint variables.
    version : int
        Which of the algorithm's rows, in the table's order.

    Raises
    ------
    ValueError
        If the algorithm is not in the table, the version does not exist or ``n`` is not a
        positive integer.
    """
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"algorithm must be one of {_ALGORITHMS}, got {algorithm!r}")
    rows = [row for row in TABLE_10_1 if row.algorithm == algorithm]
    version = integer(version, "version")
    if not 0 <= version < len(rows):
        raise ValueError(f"Table 10.1 has {len(rows)} rows for {algorithm}, got version {version}")
    return rows[version].cost(n)


def gu_costs(n) -> dict[str, Cost]:
    """The curves of Fig. 10.4 on GU(n): each algorithm's best row and the O(n³) method's sum.

    Returns
    -------
    dict
        ``"RNEA"``, ``"CRBA"``, ``"F&S"``, ``"ABA"`` and ``"O(n^3)"`` (RNEA + CRBA + F&S: the
        inertia-matrix method of §6.1) as :class:`Cost`.
    """
    costs = {name: table_10_1_cost(name, n) for name in _ALGORITHMS}
    costs["O(n^3)"] = costs["RNEA"] + costs["CRBA"] + costs["F&S"]
    return costs


# --------------------------------------------------------------------------- §10.3.1–10.3.2

#: ``ra``: adding two rigid-body inertias in compact form (Table A.4), ten additions.
RA = Cost(0, 10)
#: ``rx`` for a DH transform, two axial screws with precomputed ``m·d`` (§10.3.1).
RX_DH = Cost(32, 33)
#: ``rx`` for a general transform, three axial screws (§10.3.2).
RX_G = Cost(47, 48)
#: ``vx`` for a DH transform, two axial screws of a vector (Table A.5).
VX_DH = Cost(20, 12)
#: ``vx`` for a general transform, Table A.4's ``X* f``.
VX_G = Cost(24, 18)


@dataclass(frozen=True)
class CrbaCounts:
    """How often lines 7 and 13 of Table 10.2 run (eqs. 10.4, 10.5 and 10.11)."""

    D0: int
    D1: int
    D0_dh: int
    D1_dh: int
    D0_g: int
    D1_g: int


def _parent_array(tree) -> np.ndarray:
    """The 0-based parent array (``-1`` at the base) of a Model of 1-DoF joints or an array."""
    if isinstance(tree, Model):
        if tree.nv != tree.NB:
            raise ValueError(
                f"the CRBA cost formulae of §10.3 assume one joint variable per body; this model "
                f"has {tree.NB} bodies and {tree.nv} velocity variables (pass the expanded parent "
                "array to count the variables as a chain of 1-DoF arcs)"
            )
        return np.asarray(tree.parent[1:], dtype=int) - 1
    return _check_lam(tree)


def crba_counts(tree, dh=None) -> CrbaCounts:
    """``D₀, D₁`` (eqs. 10.4–10.5) and their DH/general split (eq. 10.11) for a tree.

    Parameters
    ----------
    tree : Model or sequence of int
        A model whose joints each have one variable, or a 0-based parent array (``-1`` marks a
        child of the base, as in :func:`spatial.dynamics.operation_counts`).
    dh : collection of int, optional
        The 0-based bodies ``i`` whose transform from their parent is a Denavit–Hartenberg one
        (the set ``π^dh``).  By default the first child of every body has one and its siblings
        have general transforms, since only one child can share its parent's DH frame (§10.3.2).

    Returns
    -------
    CrbaCounts
        ``D0 = n - |μ(0)|`` (line 7 runs), ``D1 = Σ (|κ(i)| - 1)`` (line 13 runs), and the
        parts with DH and general transforms, ``D1_dh = Σ_{i ∈ π^dh} |ν(i)|``.

    Raises
    ------
    ValueError
        If ``tree`` is not a valid parent array or a model has a multi-variable joint, or
        ``dh`` holds something other than body numbers ``0 … n-1``.
    """
    lam = _parent_array(tree)
    n = lam.size
    if dh is None:
        first_children = {}
        for i in range(n):
            first_children.setdefault(int(lam[i]), i)
        dh = set(first_children.values())
    dh = set(integers(dh, "dh (0-based body numbers)", 0, n - 1))
    subtree = np.ones(n, dtype=int)  # |ν(i)|, accumulated from the leaves
    for i in range(n - 1, -1, -1):
        if lam[i] >= 0:
            subtree[lam[i]] += subtree[i]
    inner = [i for i in range(n) if lam[i] >= 0]  # π^dh ∪ π^g: bodies not on the base
    pi_dh = [i for i in inner if i in dh]
    pi_g = [i for i in inner if i not in dh]
    D0_dh, D0_g = len(pi_dh), len(pi_g)
    D1_dh, D1_g = int(subtree[pi_dh].sum()), int(subtree[pi_g].sum())
    return CrbaCounts(D0_dh + D0_g, D1_dh + D1_g, D0_dh, D1_dh, D0_g, D1_g)


def crba_cost_chain(n: int, ra: Cost = RA, rx: Cost = RX_DH, vx: Cost = VX_DH) -> Cost:
    """Eq. 10.2: ``(n - 1)(ra + rx) + n(n - 1)/2 · vx``, the CRBA on an unbranched chain.

    With the default DH/axial-screw costs this is eq. 10.3 (Table 10.1's best CRBA row).

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer.
    TypeError
        If ``ra``, ``rx`` or ``vx`` is not a :class:`Cost`.

    Examples
    --------
    >>> from spatial import cost
    >>> str(cost.crba_cost_chain(7)), str(cost.table_10_1_cost("CRBA", 7))
    ('612m + 510a', '612m + 510a')
    """
    n = integer(n, "n", minimum=1)
    for value, name in ((ra, "ra"), (rx, "rx"), (vx, "vx")):
        if not isinstance(value, Cost):
            raise TypeError(f"{name} must be a Cost, got {type(value).__name__} {value!r}")
    return (n - 1) * (ra + rx) + (n * (n - 1) // 2) * vx


def crba_cost(tree, dh=None) -> Cost:
    """Eq. 10.12: the CRBA's cost on a tree of revolute joints, from its connectivity.

    ``D₀·ra + D₀^dh·rx^dh + D₀^g·rx^g + D₁^dh·vx^dh + D₁^g·vx^g`` (eq. 10.10) with the costs of
    App. A.3–A.4: ``ra = 10a``, ``rx^dh = 32m + 33a``, ``rx^g = 47m + 48a``,
    ``vx^dh = 20m + 12a``, ``vx^g = 24m + 18a``.

    Parameters
    ----------
    tree, dh
        As for :func:`crba_counts`.

    Raises
    ------
    ValueError
        As for :func:`crba_counts`.
    """
    c = crba_counts(tree, dh)
    return c.D0 * RA + c.D0_dh * RX_DH + c.D0_g * RX_G + c.D1_dh * VX_DH + c.D1_g * VX_G


def ltdl_cost(tree) -> Cost:
    """Factorize ``H = LᵀDL`` and back-substitute (Tables 6.3, 6.5), counted by Table 6.6.

    Divisions count as multiplications, as in Table 10.1; on a chain this is the F&S row.

    Raises
    ------
    ValueError
        As for :func:`crba_counts`.
    """
    counts = operation_counts(_parent_array(tree))
    mul = sum(counts[k]["mul"] + counts[k]["div"] for k in ("ltdl", "ltdl_solve"))
    add = sum(counts[k]["add"] for k in ("ltdl", "ltdl_solve"))
    return Cost(mul, add)


def inertia_method_cost(tree, dh=None) -> Cost:
    """RNEA (Table 10.1's best row) + CRBA (eq. 10.12) + sparse ``LᵀDL`` (Table 6.6).

    The "O(nd²)" algorithm of Fig. 10.5 on any tree of revolute joints; on a chain it equals
    ``gu_costs(n)["O(n^3)"]``.

    Raises
    ------
    ValueError
        As for :func:`crba_counts`.
    """
    n = _parent_array(tree).size
    return table_10_1_cost("RNEA", n) + crba_cost(tree, dh) + ltdl_cost(tree)


def method_costs(n: int, branching_factor: float = 1.0) -> dict[str, Cost]:
    """The costs that decide between the tree algorithms, on an ``n``-body tree of revolute joints.

    Inverse dynamics is the RNEA; forward dynamics is either the articulated-body algorithm or
    the inertia-matrix method of §6.1 (RNEA for the bias force, CRBA for ``H``, sparse
    ``LᵀDL`` and a solve).  The tree is ``branched_tree(n, branching_factor)`` (§10.3.2:
    ``1`` is the chain GU(n), ``2`` the binary tree).  The RNEA and ABA rows are Table 10.1's
    best, which depend on ``n`` only: a branch changes no body's own work.  The CRBA and the
    factorization are counted from the tree's connectivity (eq. 10.12, Table 6.6), so on a
    chain the sum is :func:`gu_costs`' ``"O(n^3)"``.

    Parameters
    ----------
    n : int
        Number of bodies (= joint variables), ≥ 2 (Table 10.1's rows are negative at ``n = 1``).
    branching_factor : float
        ``≥ 1``, as for :func:`spatial.builders.branched_tree`.

    Returns
    -------
    dict
        ``"RNEA"``, ``"ABA"``, ``"CRBA"``, ``"LᵀDL"`` (factorize and solve) and
        ``"CRBA + LᵀDL"`` (the whole inertia-matrix method, the RNEA included) as :class:`Cost`.

    Raises
    ------
    ValueError
        If ``n`` is not an integer ≥ 2 or ``branching_factor < 1``.

    Examples
    --------
    On a chain of 8 bodies the two forward-dynamics methods cost about the same, at 40 the
    inertia-matrix method costs 3.6 times as much; on a binary tree of 40 bodies it is back
    within a few per cent of the ABA:

    >>> from spatial import cost
    >>> chain, tree = cost.method_costs(8), cost.method_costs(40, branching_factor=2)
    >>> chain["CRBA + LᵀDL"].total, chain["ABA"].total
    (2921, 2925)
    >>> cost.method_costs(40)["CRBA + LᵀDL"].total, tree["CRBA + LᵀDL"].total, tree["ABA"].total
    (59897, 16912, 16653)
    """
    if isinstance(n, bool) or int(n) != n or n < 2:
        raise ValueError(f"n must be an integer ≥ 2 (bodies of the tree), got {n!r}")
    tree = branched_tree(int(n), branching_factor=branching_factor)
    costs = {
        "RNEA": table_10_1_cost("RNEA", int(n)),
        "ABA": table_10_1_cost("ABA", int(n)),
        "CRBA": crba_cost(tree),
        "LᵀDL": ltdl_cost(tree),
    }
    costs["CRBA + LᵀDL"] = costs["RNEA"] + costs["CRBA"] + costs["LᵀDL"]
    return costs


# --------------------------------------------------------------------------- the package's code
# The book's rows are for code optimized by hand (§10.3.1: DH frames, S = e_3, axial screws,
# compact inertias).  The package's algorithms use dense 6x6 NumPy products instead; what those
# cost is counted by running them on symbols (spatial.symbolic.trace), line by line.


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
            ("v_i × (the 6x6 matrix of v_i, for the next two lines)", ("crm_matrix",)),
            ("a_i = ⁱX_λ(i) a_λ(i) + S_i q̈_i + c_J + v_i × v_J", ("a.append", "a[i] =")),
            ("f_i = I_i a_i + v_i ×* I_i v_i", ("f.append",)),
            ("τ_i = S_iᵀ f_i", ("tau[",)),
            ("f_λ(i) = f_λ(i) + λ(i)X_i* f_i", ("f[p] =",)),
        ),
    ),
    "CRBA": (
        "Table 6.2",
        (
            ("ⁱX_λ(i) = X_J X_T(i) (Table 6.2 takes it from the RNEA)", ("_tree_transforms",)),
            ("ⁱX_0 = ⁱX_λ(i) λ(i)X_0 (not needed by the CRBA)", ("X0.append",)),
            ("[X_J, S_i] = jcalc(…)", ("_joint_motion",)),
            ("I^c_λ(i) = I^c_λ(i) + λ(i)X_i* I^c_i ⁱX_λ(i)", ("Ic[p] =",)),
            ("F = I^c_i S_i", ("F = _times_S",)),
            ("H_ii = S_iᵀ F", ("H[..., ii, ii]",)),
            ("F = λ(j)X_j* F", ("F = _T(",)),
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
    On GU(7) the package's RNEA performs about seven times the operations of Table 10.1's
    best row:

    >>> from spatial import cost
    >>> str(cost.dense_cost("RNEA", 7)), str(cost.table_10_1_cost("RNEA", 7))
    ('3906m + 3479a', '543m + 467a')
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
