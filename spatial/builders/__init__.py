"""Ready-made kinematic trees: random test systems, benchmark families and named mechanisms.

What is where:

* :mod:`.trees` — random trees for tests, :func:`random_tree` (any mix of joint types,
  :data:`JOINT_CODES`), :func:`random_transform`, :func:`random_inertia`, and the benchmark
  families of Featherstone §10.3, :func:`gu_chain` (GU(n)) and :func:`branched_tree`;
* :mod:`.dh` — geometry from Denavit–Hartenberg parameters (§4.3): :func:`dh_transforms`,
  :func:`from_dh`;
* :mod:`.mechanisms` — named mechanisms: :func:`simple_pendulum`, :func:`double_pendulum`,
  :func:`planar_chain`, :func:`cart_pole`, :func:`arm7`, :func:`humanoid`, :func:`geared_arm`;
* :mod:`.closed_loops` — mechanisms with loop joints (ch. 8): :func:`four_bar`,
  :func:`crank_slider`, :func:`planar_loop_fig_8_3`, :func:`ladder`, and Jansen's walking leg
  :func:`jansen_leg` with its joint positions in closed form, :func:`jansen_points`;
* :mod:`.legged` — :func:`quadruped`, a 12-joint quadruped with Solo-12's names and proportions
  (the stand-in for ``solo12.urdf``);
* :mod:`.operations` — :func:`floating_base` (§4.1, §9.4) and :func:`renumber` (§4.1.2);
* :mod:`.parts` — the link inertias (rods, bars, bobs) the builders share;
* :mod:`.arm` — :func:`elbow_arm26`, the elbow of OpenSim's arm26 model (Holzbaur et al. 2005)
  with its biceps and triceps long heads (:class:`ElbowArm`).

Conventions: planar mechanisms move in the x-y plane about z with gravity ``-g`` along y;
spatial mechanisms have gravity ``-g`` along z.  Every builder returns a new
:class:`~spatial.model.Model`.  Importing this package loads no more than the model layer
(no ``scipy.sparse``); see ``tests/test_package_layout.py``.
"""

from .arm import ElbowArm, elbow_arm26
from .closed_loops import (
    JANSEN_LENGTHS,
    crank_slider,
    four_bar,
    jansen_leg,
    jansen_points,
    ladder,
    planar_loop_fig_8_3,
)
from .dh import dh_transforms, from_dh
from .legged import quadruped
from .mechanisms import (
    arm7,
    cart_pole,
    double_pendulum,
    geared_arm,
    humanoid,
    planar_chain,
    simple_pendulum,
)
from .operations import floating_base, renumber
from .trees import (
    JOINT_CODES,
    branched_tree,
    gu_chain,
    random_inertia,
    random_transform,
    random_tree,
)

__all__ = [
    "JOINT_CODES",
    "random_transform",
    "random_inertia",
    "random_tree",
    "gu_chain",
    "branched_tree",
    "dh_transforms",
    "from_dh",
    "simple_pendulum",
    "double_pendulum",
    "planar_chain",
    "cart_pole",
    "arm7",
    "quadruped",
    "humanoid",
    "four_bar",
    "crank_slider",
    "planar_loop_fig_8_3",
    "ladder",
    "JANSEN_LENGTHS",
    "jansen_points",
    "jansen_leg",
    "floating_base",
    "renumber",
    "geared_arm",
    "ElbowArm",
    "elbow_arm26",
]

# Names the single module ``spatial.builders`` imported from elsewhere: kept importable from
# here so that old code keeps working; they are documented where they are defined.
from .._validate import as_scalar_array as as_scalar_array  # noqa: E402
from .._validate import positive_scalars as positive_scalars  # noqa: E402
from ..inertia import cuboid_inertia as cuboid_inertia  # noqa: E402
from ..inertia import cylinder_inertia as cylinder_inertia  # noqa: E402
from ..inertia import mcI as mcI  # noqa: E402
from ..inertia import point_mass_inertia as point_mass_inertia  # noqa: E402
from ..inertia import sphere_inertia as sphere_inertia  # noqa: E402
from ..model import Model as Model  # noqa: E402
from ..rotations import quat_normalize as quat_normalize  # noqa: E402
from ..rotations import quat_to_matrix as quat_to_matrix  # noqa: E402
from ..se3 import frame as frame  # noqa: E402
from ..vectors import inv_transform_inertia as inv_transform_inertia  # noqa: E402
from ..vectors import plux as plux  # noqa: E402
from ..vectors import rotx as rotx  # noqa: E402
from ..vectors import rotz as rotz  # noqa: E402
from ..vectors import rx as rx  # noqa: E402
from ..vectors import xlt as xlt  # noqa: E402
