"""The numbers of OpenSim's arm26 model that :mod:`.arm` and :mod:`.arm2` share, in one place.

Every value is read from ``arm26.osim`` (the OpenSim 3 file distributed with opensim-core, e.g.
``Applications/Analyze/tests/resources/arm26.osim``), the two-degree-of-freedom, six-muscle
reduction of Holzbaur, Murray and Delp, Ann. Biomed. Eng. 33(6):829–840, 2005.  Axes as arm26:
``x`` anterior, ``y`` up, ``z`` to the right; lengths in m, masses in kg, inertias in kg m².

A muscle's path is a list of ``(segment, point)`` from origin to insertion, the point in its
segment's arm26 coordinates: segment 0 is ``ground`` (the scapula), 1 ``r_humerus`` (origin at
the shoulder) and 2 ``r_ulna_radius_hand`` (origin at the elbow).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: ``r_shoulder``'s location in ``ground`` and ``r_elbow``'s in ``r_humerus``.
SHOULDER = np.array([-0.017545, -0.007, 0.17])
ELBOW = np.array([0.0061, -0.2904, -0.0123])
#: ``r_elbow_flex``'s range (rad).
ELBOW_RANGE = (0.0, 2.26892803)


@dataclass(frozen=True)
class Segment:
    """One arm26 body: mass, centre of mass and the diagonal of its inertia about it."""

    mass: float
    com: tuple
    inertia: tuple


HUMERUS = Segment(1.864572, (0.0, -0.180496, 0.0), (0.01481, 0.004551, 0.013193))
FOREARM = Segment(1.534315, (0.0, -0.181479, 0.0), (0.019281, 0.001571, 0.020062))


@dataclass(frozen=True)
class Muscle:
    """One arm26 muscle: Thelen parameters and its path points ``(segment, (x, y, z))``."""

    f_opt: float
    l_opt: float
    tendon_slack_length: float
    pennation_angle: float
    path: tuple

    def points(self, segment: int) -> list[np.ndarray]:
        """The path points on ``segment``, in order."""
        return [np.array(p) for s, p in self.path if s == segment]


BICLONG = Muscle(
    624.3,
    0.1157,
    0.2723,
    0.0,
    (
        (0, (-0.039235, 0.00347, 0.14795)),
        (0, (-0.028945, 0.01391, 0.15639)),
        (1, (0.02131, 0.01793, 0.01028)),
        (1, (0.02378, -0.00511, 0.01201)),
        (1, (0.01345, -0.02827, 0.00136)),
        (1, (0.01068, -0.07736, -0.00165)),
        (1, (0.01703, -0.12125, 0.00024)),
        (1, (0.0228, -0.1754, -0.0063)),
        (2, (0.00751, -0.04839, 0.02179)),
    ),
)
TRILONG = Muscle(
    798.52,
    0.134,
    0.143,
    0.20943951,
    (
        (0, (-0.05365, -0.01373, 0.14723)),
        (1, (-0.02714, -0.11441, -0.00664)),
        (1, (-0.03184, -0.22637, -0.01217)),
        (1, (-0.01743, -0.26757, -0.01208)),
        (2, (-0.0219, 0.01046, -0.00078)),
    ),
)
BRA = Muscle(
    987.26,
    0.0858,
    0.0535,
    0.0,
    ((1, (0.0068, -0.1739, -0.0036)), (2, (-0.0032, -0.0239, 0.0009))),
)
#: arm26's ``TRI`` wrapping cylinder on the humerus: centre (x, y) and radius.
TRI_WRAP = ((0.0028, -0.2919), 0.016)
