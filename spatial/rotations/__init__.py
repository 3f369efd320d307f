"""3-D rotations: quaternions, Euler and roll-pitch-yaw angles, rotation vectors.

Every rotation matrix ``R`` here is *active*, ``v_base = R v_body`` (Sueda eq. 1.1), the
transpose of Featherstone's coordinate rotation ``E``; angular velocities are in body or base
coordinates as a ``frame`` argument says (see :mod:`.basics`).  Quaternions are arrays
``(..., 4)`` stored **scalar first**, ``q = (w, x, y, z)`` (Featherstone eq. 4.10, ArtiSynth
§0.2).

What is where:

* :mod:`.basics` — the shared conventions (active ``R`` versus coordinate ``E``, body versus
  base angular velocity);
* :mod:`.quaternions` — :func:`quat_multiply`, :func:`quat_conjugate`, :func:`quat_normalize`,
  :func:`require_unit_quaternion`, :func:`quat_to_matrix`, :func:`quat_from_matrix`,
  :func:`quat_from_axis_angle`, :func:`quat_from_rotvec`, :func:`quat_to_rotvec`,
  :func:`quat_rotate`, :func:`quat_rate`, :func:`quat_rate_to_omega` (ArtiSynth §0.2,
  Featherstone eqs. 4.10–4.13);
* :mod:`.euler` — Euler-angle sets: :func:`euler_to_matrix`, :func:`euler_S`,
  :func:`euler_S_dot` (Sueda §2.4.5–2.4.6, Featherstone eqs. 4.7–4.9);
* :mod:`.rpy` — ArtiSynth's roll-pitch-yaw angles: :func:`rpy_to_matrix`,
  :func:`matrix_to_rpy`, :func:`rpy_rate_matrix`, :func:`rpy_rates_to_omega`,
  :func:`omega_to_rpy_rates_matrix`, :func:`omega_to_rpy_rates`,
  :func:`omega_to_rpy_rates_matrix_dot` (ArtiSynth §0.4);
* :mod:`.rotvec` — exponential coordinates: :func:`rotvec_rate_matrix`, :func:`rotvec_dR`,
  :func:`rotvec_reparameterize` (Sueda §2.4.8, ArtiSynth eq. 0.45).

Every name is importable from ``spatial.rotations`` (and from ``spatial``).
"""

from .euler import euler_S, euler_S_dot, euler_to_matrix
from .quaternions import (
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
)
from .rotvec import rotvec_dR, rotvec_rate_matrix, rotvec_reparameterize
from .rpy import (
    matrix_to_rpy,
    omega_to_rpy_rates,
    omega_to_rpy_rates_matrix,
    omega_to_rpy_rates_matrix_dot,
    rpy_rate_matrix,
    rpy_rates_to_omega,
    rpy_to_matrix,
)

__all__ = [
    "quat_multiply",
    "quat_conjugate",
    "quat_normalize",
    "require_unit_quaternion",
    "quat_to_matrix",
    "quat_from_matrix",
    "quat_from_axis_angle",
    "quat_from_rotvec",
    "quat_to_rotvec",
    "quat_rotate",
    "quat_rate",
    "quat_rate_to_omega",
    "euler_to_matrix",
    "euler_S",
    "euler_S_dot",
    "rpy_to_matrix",
    "matrix_to_rpy",
    "rpy_rate_matrix",
    "rpy_rates_to_omega",
    "omega_to_rpy_rates_matrix",
    "omega_to_rpy_rates",
    "omega_to_rpy_rates_matrix_dot",
    "rotvec_rate_matrix",
    "rotvec_dR",
    "rotvec_reparameterize",
]

# Names the single module ``spatial.rotations`` imported from elsewhere: kept importable from
# here so that old code keeps working; they are documented where they are defined.
from .._validate import as_array as as_array  # noqa: E402
from .._validate import require_rotation as require_rotation  # noqa: E402
from ..se3 import exp_so3 as exp_so3  # noqa: E402
from ..vectors import rx as rx  # noqa: E402
from ..vectors import ry as ry  # noqa: E402
from ..vectors import rz as rz  # noqa: E402
from ..vectors import skew as skew  # noqa: E402
