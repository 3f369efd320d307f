"""Contact solvers: LCPs, QPs, KKT systems and friction (Featherstone §11.4–11.5; ArtiSynth §0.3,
§0.5–0.8, §0.10, §0.15–0.16; Sueda §1.11–1.13).

A subpackage, imported explicitly (``import spatial.contact``); ``import spatial`` does not load it.

* :mod:`~spatial.contact.lcp` — ``lemke``, ``principal_pivoting`` (columns on demand), ``pgs``;
* :mod:`~spatial.contact.qp` — QP ↔ LCP, mixed LCP → LCP;
* :mod:`~spatial.contact.kkt` — KKT solve, projections ``P_f`` and ``P_v``, Gauss–Seidel;
* :mod:`~spatial.contact.friction` — box, polyhedral (Anitescu–Stewart), pyramid QP and
  Gauss–Seidel friction in contact space.
"""

from .friction import (
    FrictionResult,
    box_friction,
    friction_cone_violation,
    friction_E,
    gauss_seidel_friction,
    polyhedral_directions,
    polyhedral_friction,
    pyramid_friction,
)
from .kkt import (
    GaussSeidelResult,
    delassus,
    force_projection,
    kkt_gauss_seidel,
    kkt_matrix,
    solve_kkt,
    velocity_projection,
)
from .lcp import (
    LCPError,
    LCPResult,
    PivotStep,
    complementarity_error,
    lemke,
    pgs,
    pgs_sweep,
    principal_pivoting,
)
from .qp import (
    MixedLCPResult,
    ReducedLCP,
    mixed_lcp_to_lcp,
    qp_kkt_lcp,
    qp_primal,
    qp_to_lcp,
    solve_mixed_lcp,
    solve_qp,
)

__all__ = [
    "FrictionResult",
    "GaussSeidelResult",
    "LCPError",
    "LCPResult",
    "MixedLCPResult",
    "PivotStep",
    "ReducedLCP",
    "box_friction",
    "complementarity_error",
    "delassus",
    "force_projection",
    "friction_E",
    "friction_cone_violation",
    "gauss_seidel_friction",
    "kkt_gauss_seidel",
    "kkt_matrix",
    "lemke",
    "mixed_lcp_to_lcp",
    "pgs",
    "pgs_sweep",
    "polyhedral_directions",
    "polyhedral_friction",
    "principal_pivoting",
    "pyramid_friction",
    "qp_kkt_lcp",
    "qp_primal",
    "qp_to_lcp",
    "solve_kkt",
    "solve_mixed_lcp",
    "solve_qp",
    "velocity_projection",
]
