"""spatial — a verified Python companion to three texts on rigid-body dynamics.

R. Featherstone, *Rigid Body Dynamics Algorithms* (2008); S. Sueda, *Rigid Body Dynamics
Notes*; J. Lloyd, *ArtiSynth mathematical notes*.

Conventions used everywhere in the package
------------------------------------------
* **Spatial vectors** are Plücker coordinates with the angular part first: motion
  ``v = [ω; v_O]``, force ``f = [n_O; f]`` (Featherstone ch. 2, Sueda eq. 1.5).  Arrays have
  shape ``(..., 6)``; leading dimensions are batch dimensions.  ArtiSynth writes linear-first;
  code implementing ArtiSynth formulas converts explicitly.
* **Transforms:** ``X_BA`` ("B from A") maps motion coordinates from A to B,
  ``X_BA = rot(E) @ xlt(r)`` with ``E`` rotating A-coordinates into B-coordinates and ``r`` the
  position of B's origin in A (Featherstone eq. 2.24).  ``rx(θ)`` is a *coordinate* rotation (the
  transpose of the usual rotation matrix).  Force transforms are ``X* = X⁻ᵀ``.
* **Frames on SE(3)** (Sueda): ``T_AB = [[R, p], [0, 1]]`` maps point coordinates from B to A,
  and ``Ad(T_AB) == X_AB``.  Sueda writes E for this 4x4 frame; the package keeps ``E`` for
  Featherstone's 3x3 coordinate rotation.  Twists are body twists ``[ω; v]``.
* **Body numbers:** ``0`` is the fixed base/world and the bodies are ``1 … N`` (Featherstone's
  regular numbering), in :class:`Model`, :mod:`spatial.contact`, :mod:`spatial.forces` and
  :mod:`spatial.maximal` alike.
* **Joints:** ``X_J`` maps predecessor to successor coordinates; ``S``, ``v_J = S q̇`` and ``c_J``
  are in successor coordinates (Featherstone §4.4).
* **Quaternions** are scalar first ``(w, x, y, z)``.
* **Units** are SI; gravity is a model attribute (default ``[0, 0, -9.81]``).
* **Inputs** are checked once, at the public function, by the rules of ``spatial._validate``:
  array arguments are real numbers (a complex array raises ``ValueError: q must be real``
  rather than losing its imaginary part; numbers given as strings are refused too), and sizes,
  counts and indices are integers (``3.7`` or ``True`` raise, never become ``3`` or ``1``).

How the package is organised
----------------------------
In layers, bottom-up; a module imports only from the layers below its own (import-linter
contracts in ``pyproject.toml``, checked by ``make test``):

1. ``_validate`` (every input check, one rule each) and ``_batched`` (unvalidated kernels of the
   inner loops): public functions validate once, then call kernels.
2. Algebra: :mod:`~spatial.vectors`, :mod:`~spatial.planar`, :mod:`~spatial.rotations`,
   :mod:`~spatial.se3`, :mod:`~spatial.inertia`, :mod:`~spatial.checks`.
3. :mod:`~spatial.solvers` (LCP, QP, mixed LCP, KKT, friction cones; no bodies) and
   :mod:`~spatial.forces` (force models with their stiffness and damping matrices).
4. :mod:`~spatial.joints` (the one joint library) and :mod:`~spatial.model` (Table 4.3).
5. :mod:`~spatial.kinematics`, :mod:`~spatial.builders` and :mod:`~spatial.urdf` (models from
   and to URDF files).
6. :mod:`~spatial.dynamics`: Featherstone's algorithms, with the closed loops of ch. 8 in
   :mod:`spatial.dynamics.loops`; :mod:`~spatial.reduced`: Sueda's REDMAX (part 2).
   Above them, the studies of the algorithms (Featherstone ch. 10, App. A, §3.6–3.7, Table 2.4):
   :mod:`~spatial.cost`, :mod:`~spatial.compact`, :mod:`~spatial.symbolic`,
   :mod:`~spatial.accuracy`, :mod:`~spatial.constrained`, :mod:`~spatial.derivatives`.
7. :mod:`~spatial.systems`: the one system interface every formulation offers, and
   :mod:`~spatial.simulation`: the one loop, :func:`simulate`, and its :class:`Trajectory`.
   A run that diverges raises :class:`SimulationDiverged` (an interrupt
   :class:`SimulationInterrupted`), which keeps the motion so far in ``err.trajectory``.
   :mod:`~spatial.integrators` between them: the steppers the loop takes by name.
8. :mod:`~spatial.maximal` and :mod:`~spatial.contact`: formulations built on top, and
   :mod:`~spatial.attachments` (components attached to others, eliminated; ArtiSynth §0.17–0.21).
9. :mod:`~spatial.viz`, :mod:`~spatial.nb`, :mod:`~spatial.exercises`: for the notebooks.

Modules that need SciPy's linear algebra, plotting or XML (solvers, forces, maximal, contact,
viz, nb, exercises, urdf, and the ch. 10 studies) load on first use, so ``import spatial`` stays
quick.
"""

from __future__ import annotations

import importlib

from . import builders, joints, planar, reduced, simulation, systems
from .checks import CheckResult, check_directional, check_jacobian, fd_jacobian
from .dynamics import (
    aba,
    articulated_inertia,
    bias_force,
    centroidal_momentum,
    coriolis_matrix,
    crba,
    floating_aba,
    floating_inverse_dynamics,
    forward_dynamics,
    hybrid_dynamics,
    inertia_product,
    loop_constraints,
    loop_forward_dynamics,
    loop_inverse_dynamics,
    rnea,
    rnea_3d,
)
from .inertia import (
    composite_inertia,
    cuboid_inertia,
    cylinder_inertia,
    ellipsoid_inertia,
    inertia_factor,
    inertia_inverse,
    inertia_params,
    mcI,
    point_mass_inertia,
    principal_axes,
    sphere_inertia,
    validate_inertia,
)
from .kinematics import (
    body_accelerations,
    body_jacobian,
    body_poses,
    body_velocities,
    center_of_mass,
    forward_kinematics,
    jdot_qdot,
    kinetic_energy,
    momentum,
    point_jacobian,
    potential_energy,
)
from .model import Model
from .rotations import (
    euler_S,
    euler_S_dot,
    euler_to_matrix,
    matrix_to_rpy,
    omega_to_rpy_rates,
    omega_to_rpy_rates_matrix,
    omega_to_rpy_rates_matrix_dot,
    quat_conjugate,
    quat_from_axis_angle,
    quat_from_matrix,
    quat_from_rotvec,
    quat_multiply,
    quat_normalize,
    quat_rate,
    quat_rate_to_omega,
    quat_rotate,
    quat_to_matrix,
    quat_to_rotvec,
    require_unit_quaternion,
    rotvec_dR,
    rotvec_rate_matrix,
    rotvec_reparameterize,
    rpy_rate_matrix,
    rpy_rates_to_omega,
    rpy_to_matrix,
)
from .se3 import (
    Ad,
    Ad_dot,
    ad,
    bracket,
    exp_se3,
    exp_so3,
    frame,
    frame_inverse,
    log_se3,
    log_so3,
    material_jacobian,
    unbracket,
)
from .simulation import SimulationDiverged, SimulationInterrupted, Trajectory, simulate
from .vectors import (
    XtoV,
    apply_force,
    crf,
    crm,
    cross_force,
    cross_motion,
    inv_force,
    inv_motion,
    inv_transform_inertia,
    pluho,
    plux,
    point_acceleration,
    point_force,
    point_velocity,
    rot,
    rotx,
    roty,
    rotz,
    rx,
    ry,
    rz,
    skew,
    swap_linear_angular,
    transform_dyadic,
    transform_inertia,
    transform_point,
    unplux,
    unskew,
    xinv,
    xlt,
    xstar,
)

__version__ = "0.1.0"

# Subpackages that pull in heavy or optional dependencies (scipy.linalg, matplotlib, ipywidgets)
# are loaded on first attribute access, so that ``import spatial`` stays light (PEP 562).
_LAZY = {"solvers", "forces", "maximal", "contact", "nb", "viz", "exercises", "urdf"}
_LAZY |= {"accuracy", "constrained", "cost", "compact", "derivatives", "symbolic"}
_LAZY |= {"attachments"}


def __getattr__(name: str):
    if name in _LAZY:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'spatial' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | _LAZY)


__all__ = [
    "Ad",
    "Ad_dot",
    "CheckResult",
    "Model",
    "SimulationDiverged",
    "SimulationInterrupted",
    "Trajectory",
    "XtoV",
    "aba",
    "ad",
    "apply_force",
    "articulated_inertia",
    "bias_force",
    "body_accelerations",
    "body_jacobian",
    "body_poses",
    "body_velocities",
    "bracket",
    "builders",
    "center_of_mass",
    "centroidal_momentum",
    "check_directional",
    "check_jacobian",
    "composite_inertia",
    "coriolis_matrix",
    "crba",
    "crf",
    "crm",
    "cross_force",
    "cross_motion",
    "cuboid_inertia",
    "cylinder_inertia",
    "ellipsoid_inertia",
    "euler_S",
    "euler_S_dot",
    "euler_to_matrix",
    "exp_se3",
    "exp_so3",
    "fd_jacobian",
    "floating_aba",
    "floating_inverse_dynamics",
    "forward_dynamics",
    "forward_kinematics",
    "frame",
    "frame_inverse",
    "hybrid_dynamics",
    "inertia_factor",
    "inertia_inverse",
    "inertia_params",
    "inertia_product",
    "inv_force",
    "inv_motion",
    "inv_transform_inertia",
    "jdot_qdot",
    "joints",
    "kinetic_energy",
    "log_se3",
    "log_so3",
    "loop_constraints",
    "loop_forward_dynamics",
    "loop_inverse_dynamics",
    "material_jacobian",
    "matrix_to_rpy",
    "maximal",
    "mcI",
    "momentum",
    "omega_to_rpy_rates",
    "omega_to_rpy_rates_matrix",
    "omega_to_rpy_rates_matrix_dot",
    "planar",
    "pluho",
    "plux",
    "point_acceleration",
    "point_force",
    "point_jacobian",
    "point_mass_inertia",
    "point_velocity",
    "potential_energy",
    "principal_axes",
    "quat_conjugate",
    "quat_from_axis_angle",
    "quat_from_matrix",
    "quat_from_rotvec",
    "quat_multiply",
    "quat_normalize",
    "quat_rate",
    "quat_rate_to_omega",
    "quat_rotate",
    "quat_to_matrix",
    "quat_to_rotvec",
    "require_unit_quaternion",
    "reduced",
    "rnea",
    "rnea_3d",
    "rot",
    "rotvec_dR",
    "rotvec_rate_matrix",
    "rotvec_reparameterize",
    "rotx",
    "roty",
    "rotz",
    "rpy_rate_matrix",
    "rpy_rates_to_omega",
    "rpy_to_matrix",
    "rx",
    "ry",
    "rz",
    "simulate",
    "simulation",
    "skew",
    "solvers",
    "sphere_inertia",
    "systems",
    "swap_linear_angular",
    "transform_dyadic",
    "transform_inertia",
    "transform_point",
    "unbracket",
    "unplux",
    "unskew",
    "validate_inertia",
    "xinv",
    "xlt",
    "xstar",
]
