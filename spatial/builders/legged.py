"""A legged robot: a quadruped shaped like the Solo-12 of example-robot-data.

:func:`quadruped` stands in for ``solo12.urdf`` when that file is not installed
(:func:`spatial.nb.robot`): the same body and joint names, joint axes, leg offsets and masses to
within a few per cent, and a massless frame ``<leg>_FOOT`` at the tip of each lower leg, which
:func:`spatial.urdf.load_urdf` merges into the lower leg as Solo-12's fixed foot links are.
"""

from __future__ import annotations

import numpy as np

from .. import joints as J
from .._validate import positive_scalar
from ..inertia import cuboid_inertia, sphere_inertia
from ..model import Model
from ..vectors import xlt
from .parts import _rod

__all__ = ["quadruped"]

#: legs in Solo-12's order: name, side of the hip along x (front +1) and y (left +1)
LEGS = (("FL", 1.0, 1.0), ("FR", 1.0, -1.0), ("HL", -1.0, 1.0), ("HR", -1.0, -1.0))


def quadruped(floating: bool = False, leg: float = 0.16, g: float = 9.81) -> Model:
    """A 12-joint quadruped with Solo-12's names, axes and proportions (2.5 kg, 0.16 m legs).

    Body 1 is the trunk (``base_link``, a 1.16 kg box 0.39 x 0.18 x 0.05 m), joined to the
    world by a :class:`~spatial.joints.Fixed` joint or, with ``floating=True``, a
    :class:`~spatial.joints.Free` joint.  Each leg ``FL``, ``FR``, ``HL``, ``HR`` (front/hind,
    left/right) has a hip abduction joint about x (``<leg>_SHOULDER``, at ``(±0.1946, ±0.0875,
    0)``), a hip flexion joint about y (``<leg>_UPPER_LEG``) and a knee about y
    (``<leg>_LOWER_LEG``, ``leg`` below the hip), then a massless frame ``<leg>_FOOT``, fixed
    ``leg`` below the knee.  At ``q = 0`` the legs hang straight down; gravity ``-g`` along z.

    Parameters
    ----------
    floating : bool
        A Free joint for the trunk instead of a Fixed one.
    leg : float
        Length of the upper and of the lower leg (m), > 0.
    g : float
        Gravitational acceleration (m/s²).

    Returns
    -------
    Model
        17 bodies (``NB = 17``, the four feet included); 12 DoF fixed, 18 floating.

    Raises
    ------
    ValueError
        If ``leg`` is not positive.
    """
    leg = positive_scalar(leg, "leg")
    model = Model(gravity=[0.0, 0.0, -g])
    trunk = cuboid_inertia(1.16, 0.39, 0.18, 0.05)
    model.add_body(0, J.Free() if floating else J.Fixed(), np.eye(6), trunk, name="base_link")
    for name, sx, sy in LEGS:
        hip = model.add_body(
            1,
            J.Revolute("x"),
            xlt([0.1946 * sx, 0.0875 * sy, 0.0]),
            sphere_inertia(0.149, 0.03),
            name=f"{name}_SHOULDER",
        )
        upper = model.add_body(
            hip,
            J.Revolute("y"),
            xlt([0.0, 0.014 * sy, 0.0]),
            _rod(0.149, leg, "-z"),
            name=f"{name}_UPPER_LEG",
        )
        lower = model.add_body(
            upper,
            J.Revolute("y"),
            xlt([0.0, 0.0374 * sy, -leg]),
            _rod(0.038, leg, "-z"),
            name=f"{name}_LOWER_LEG",
        )
        foot = np.zeros((6, 6))  # a frame, no mass: the contact point of the leg
        model.add_body(lower, J.Fixed(), xlt([0.0, 0.008 * sy, -leg]), foot, name=f"{name}_FOOT")
    return model
