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

Two modules: :mod:`.tables` holds the book's formulae and the CRBA counts of §10.3.1;
:mod:`.traced` counts the package's own code, run on symbols.
"""

from .tables import (
    RA,
    RX_DH,
    RX_G,
    TABLE_10_1,
    VX_DH,
    VX_G,
    Cost,
    CrbaCounts,
    Table10Row,
    crba_cost,
    crba_cost_chain,
    crba_counts,
    gu_costs,
    inertia_method_cost,
    ltdl_cost,
    method_costs,
    table_10_1_cost,
)
from .traced import LU_SOLVE, CodeLine, dense_cost, dense_lines, dense_row, redmax_cost, redmax_row

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
