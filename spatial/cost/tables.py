"""The book's operation counts: Table 10.1's formulae, the CRBA counts of §10.3.1 (eqs. 10.2–10.12)
and the inertia-matrix method on any tree (Fig. 10.4–10.5).

See :mod:`spatial.cost` for the overview; every name here is re-exported there.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from .._validate import integer, integers
from ..builders import branched_tree
from ..dynamics.sparse import _check_lam, operation_counts
from ..model import Model


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
