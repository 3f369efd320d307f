"""Matrix-level solvers: complementarity, quadratic programs, KKT systems and friction cones.

Everything here takes matrices and vectors and knows nothing about bodies, joints or shapes:
the contact code (:mod:`spatial.contact`, Featherstone ch. 11) and the maximal-coordinate
simulator (:mod:`spatial.maximal`, Sueda part 1) build a mass matrix, constraint rows or a
Delassus matrix and hand them to the functions below.  The package sits just above the
algebra: it imports only :mod:`spatial._validate`, :mod:`spatial._batched` and the algebra
modules.  Notebook 17 (complementarity) is its chapter.  Read the modules in this order:

:mod:`~spatial.solvers.lcp` states the linear complementarity problem ``0 <= z ⟂ Mz + q >= 0``
(ArtiSynth §0.3, Featherstone eq. 11.42), its box-bounded form, the result type
:class:`LCPResult` with :func:`complementarity_error` (the natural residual) and
:class:`LCPError`, and the two pivoting methods: :func:`lemke` (complementary pivoting with a
lexicographic ratio test, also for box bounds) and :func:`principal_pivoting` (Cottle–Dantzig,
with the columns of ``M`` formed only when needed, ArtiSynth §0.8).

:mod:`~spatial.solvers.pgs` is the iterative alternative, projected Gauss–Seidel:
:func:`pgs_sweep` and :func:`pgs` with relaxation, for plain and box-bounded LCPs (ArtiSynth
§0.15).

:mod:`~spatial.solvers.qp` connects quadratic programs with LCPs (ArtiSynth §0.3, §0.7–0.8):
:func:`qp_to_lcp` / :func:`qp_primal` for a strictly convex QP, :func:`qp_kkt_lcp` for a QP over
nonnegative variables, :func:`mixed_lcp_to_lcp` and :func:`solve_mixed_lcp` for bilateral plus
unilateral constraints, and :func:`solve_qp`.

:mod:`~spatial.solvers.kkt` solves equality-constrained systems (ArtiSynth §0.5–0.6, §0.15):
:func:`kkt_matrix`, :func:`solve_kkt` by the Schur complement, the projections
:func:`force_projection` and :func:`velocity_projection`, the Delassus matrix :func:`delassus`
``J M⁻¹ Jᵀ``, and :func:`kkt_gauss_seidel`, Gauss–Seidel on ``N M⁻¹ Nᵀ`` one constraint at a
time without forming it.

:mod:`~spatial.solvers.friction` poses contact with Coulomb friction in contact space
(ArtiSynth §0.10, §0.16; Sueda §1.13): :func:`tangent_basis` of a contact normal, the polyhedral
cone (:func:`polyhedral_directions`, :func:`friction_E`), and four friction models returning a
:class:`FrictionResult`: :func:`box_friction`, :func:`polyhedral_friction` (Anitescu–Stewart),
:func:`pyramid_friction` (Sueda's QP, eq. 1.88) and :func:`gauss_seidel_friction`; plus
:func:`friction_cone_violation` to measure how far impulses leave a cone.

:mod:`~spatial.solvers.disc` holds :func:`disc_qp`, the exact minimizer of a quadratic over a
disc: one contact's friction step in Gauss–Seidel with Coulomb's disc.

:mod:`~spatial.solvers.impulses` picks a friction model by name: :func:`solve_impulses` (with
:data:`FRICTION_MODELS` and :func:`friction_cone_of`) returns the contact impulses of one
velocity-level step.

Every public function checks its arguments once and calls a private kernel that trusts them;
callers inside the package (the friction models, the QP reductions, the contact steppers and
impact solvers) call the kernels, so a matrix they have already checked or built is not
checked again.
"""

from .disc import disc_qp
from .friction import (
    FrictionResult,
    box_friction,
    friction_cone_violation,
    friction_E,
    gauss_seidel_friction,
    polyhedral_directions,
    polyhedral_friction,
    pyramid_friction,
    tangent_basis,
)
from .impulses import FRICTION_MODELS, friction_cone_of, solve_impulses
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
    Checkable,
    LCPError,
    LCPResult,
    PivotStep,
    complementarity_error,
    lemke,
    principal_pivoting,
)
from .pgs import pgs, pgs_sweep
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
    "FRICTION_MODELS",
    "Checkable",
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
    "disc_qp",
    "force_projection",
    "friction_E",
    "friction_cone_of",
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
    "solve_impulses",
    "solve_kkt",
    "solve_mixed_lcp",
    "solve_qp",
    "tangent_basis",
    "velocity_projection",
]
