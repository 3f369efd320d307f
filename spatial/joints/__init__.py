"""The joint library: one definition per joint type, read by every formulation.

Every joint implements the interface of :class:`Joint` (Featherstone §4.4): the joint transform
``X_J``, the motion subspace ``S``, the velocity-product term ``c_J`` and the constraint-force
subspace ``T``, all in successor coordinates, plus ``q_dot``/``integrate``/``difference`` where
the position variables are not integrals of the velocity variables.  What is where:

* :mod:`.base` — :class:`Joint` (the interface and its ``jcalc``), :class:`Fixed` (no motion,
  Sueda §2.4.1), :func:`axis_vector`, and the private helpers the joint modules share;
* :mod:`.axial` — one-axis joints of Table 4.1: :class:`Revolute`, :class:`Prismatic`,
  :class:`Helical`, :class:`Cylindrical`;
* :mod:`.multi_dof` — :class:`Planar` (Table 4.1, Example 4.5) and :class:`SphericalYPR`
  (eqs. 4.7–4.9);
* :mod:`.quaternion` — :class:`Spherical` and :class:`Free` with unit-quaternion positions (§4.5);
* :mod:`.rack_pinion` — :class:`RackPinion` (Example 4.6);
* :mod:`.reversed` — :class:`Reversed`, any joint with opposite polarity (Table 4.2).

Sueda's joint zoo (§2.4), converted from his 4x4 frames ``Q(q)`` and body Jacobians
``[S] = Q⁻¹ ∂Q/∂q`` to Featherstone's ``X_J = `` the Plücker form of ``Q⁻¹`` and ``S`` in F_s:

* :mod:`.euler_angles` — :class:`Universal` (§2.4.6) and :class:`SphericalEuler`, a ball joint
  in any of the 12 Euler sequences (§2.4.5; ``"ZYX"`` is :class:`SphericalYPR`);
* :mod:`.translational` — :class:`PlanarTranslation` (§2.4.3) and :class:`Translational`
  (§2.4.4);
* :mod:`.exponential` — :class:`SphericalExp`, a ball joint in exponential coordinates with
  :meth:`SphericalExp.reparameterize` (§2.4.8);
* :mod:`.composite` — :class:`Composite`, two joints in series (§2.4.9), and the free joints
  :func:`free_2d` (§2.4.10) and :func:`free_3d` (§2.4.11) built from it;
* :mod:`.spline` — :class:`SplineCurve`, a body moving along a cumulative cubic B-spline of
  frames (§2.4.12, Alg. 3), and :class:`SplineSurface`, over a tensor-product spline surface of
  frames (§2.4.13, Alg. 4).

Adding a joint (e.g. from Sueda's joint zoo, §2.4): write a subclass of :class:`Joint` in a new
module of this package (or next to its relatives), implement at least ``transform`` and
``motion_subspace`` (and ``bias``, ``q_dot``, ``integrate``, ``difference``, ``check_q`` when they
differ from the defaults), import it here and add it to ``__all__``.  Every formulation then
reads it; ``tests/test_joints.py`` checks ``S`` and ``c_J`` of each joint against finite
differences of ``X_J``.
"""

from .axial import Cylindrical, Helical, Prismatic, Revolute
from .base import Fixed, Joint, axis_vector
from .composite import Composite, free_2d, free_3d
from .euler_angles import SphericalEuler, Universal
from .exponential import SphericalExp
from .multi_dof import Planar, SphericalYPR
from .quaternion import Free, Spherical
from .rack_pinion import RackPinion
from .reversed import Reversed
from .spline import SplineCurve, SplineSurface
from .translational import PlanarTranslation, Translational

__all__ = [
    "Joint",
    "Revolute",
    "Prismatic",
    "Fixed",
    "Helical",
    "Cylindrical",
    "Planar",
    "SphericalYPR",
    "Spherical",
    "Free",
    "RackPinion",
    "Reversed",
    "Universal",
    "SphericalEuler",
    "PlanarTranslation",
    "Translational",
    "SphericalExp",
    "Composite",
    "free_2d",
    "free_3d",
    "SplineCurve",
    "SplineSurface",
    "axis_vector",
]

# Names the single module ``spatial.joints`` imported from elsewhere: kept importable from
# here so that old code keeps working; they are documented where they are defined.
from .._validate import as_array as as_array  # noqa: E402
from ..rotations import quat_conjugate as quat_conjugate  # noqa: E402
from ..rotations import quat_from_rotvec as quat_from_rotvec  # noqa: E402
from ..rotations import quat_multiply as quat_multiply  # noqa: E402
from ..rotations import quat_normalize as quat_normalize  # noqa: E402
from ..rotations import quat_rate as quat_rate  # noqa: E402
from ..rotations import quat_to_matrix as quat_to_matrix  # noqa: E402
from ..rotations import quat_to_rotvec as quat_to_rotvec  # noqa: E402
from ..rotations import require_unit_quaternion as require_unit_quaternion  # noqa: E402
from ..vectors import inv_motion as inv_motion  # noqa: E402
from ..vectors import rx as rx  # noqa: E402
from ..vectors import ry as ry  # noqa: E402
from ..vectors import rz as rz  # noqa: E402
from ..vectors import skew as skew  # noqa: E402
from ..vectors import xinv as xinv  # noqa: E402
