"""An elbow from a published arm model: the forearm, a biceps and a triceps of OpenSim's arm26.

OpenSim's ``arm26`` model is the two-degree-of-freedom, six-muscle reduction of Holzbaur, Murray
and Delp's upper-extremity model (K. R. S. Holzbaur, W. M. Murray, S. L. Delp, "A model of the
upper extremity for simulating musculoskeletal surgery and analyzing neuromuscular control",
Ann. Biomed. Eng. 33(6):829–840, 2005), distributed with OpenSim (``arm26.osim``).  Every number
comes from that file (OpenSim 3 format, as in ``opensim-core``'s
``Applications/Forward/test/arm26.osim``; kept in ``spatial/builders/_arm26.py``, which
:mod:`.arm2` shares): segment masses, centres of mass and inertias, the
elbow's position in the humerus, the elbow's range of motion, and for two of its six muscles —
the long heads of the biceps (``BIClong``) and of the triceps (``TRIlong``) — the peak isometric
force, optimal fibre length, tendon slack length, pennation angle and path points.

What is simplified, and why:

* **The shoulder is fixed** (arm26's ``r_shoulder_elev = 0``: the humerus hangs down), so the
  humerus frame is the world frame, with its origin at the shoulder; the scapula's path points
  (arm26's ground) are moved into it by the shoulder's offset.  Axes as in arm26: ``x``
  anterior, ``y`` up, ``z`` to the right; gravity ``-9.81`` along ``y``.
* **The elbow turns about ``z``** (arm26's axis is ``(0.049, 0.037, 0.998)``, 3.5° away).
* **Two muscles of six.**  arm26's other flexors (biceps short head, brachialis) and extensors
  (lateral and medial triceps) are left out, so the flexion and extension strengths are those of
  one head each.
* **Via points, one wrap.**  A path is a chain of straight segments through its points (Sueda
  §1.9.5).  Only the last segment changes with the elbow angle; the earlier ones are fixed to
  the humerus and add a constant length.  arm26 wraps the biceps over an ellipsoid at the
  humeral head (a constant with a fixed shoulder, left out, so our biceps path is a little
  shorter than arm26's) and the triceps over a cylinder of radius 1.6 cm at the elbow, which
  keeps its moment arm from collapsing in deep flexion; that wrap is kept, as a circle in the
  ``x``–``y`` plane (the path leaves the straight line on the posterior side).  Around a
  cylinder about ``z`` the shortest path unrolls into a straight line, so its length is
  ``√(planar length² + Δz²)``.
* **Muscle model.**  arm26 uses Thelen's 2003 muscle; here the parameters drive the Millard 2012
  curves of :class:`spatial.forces.MusculotendonLaw` (rigid or elastic tendon).
* **Passive joint torque.**  arm26 clamps the elbow angle to its range; here a stiff, damped
  torque outside ``[0, 130°]`` does the same (:meth:`ElbowArm.limit_torque`, stiffness and
  damping of our choosing, not arm26's).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .. import joints as J
from .._validate import as_scalar_array, positive_scalar
from ..forces import MusculotendonLaw
from ..inertia import mcI
from ..model import Model
from ..vectors import xlt
from . import _arm26

__all__ = ["ARM26_SOURCE", "MusclePath", "ElbowArm", "elbow_arm26"]

#: Where the numbers come from (cite this, not the package).
ARM26_SOURCE = (
    "OpenSim arm26 model (arm26.osim), the reduced version of Holzbaur, Murray and Delp, "
    "Ann. Biomed. Eng. 33(6):829-840, 2005"
)


def _upper_points(muscle: _arm26.Muscle) -> np.ndarray:
    """A muscle's scapula and humerus path points in the humerus frame of a fixed shoulder."""
    scapula = [p - _arm26.SHOULDER for p in muscle.points(0)]
    return np.array(scapula + muscle.points(1))


@dataclass(frozen=True)
class MusclePath:
    """One muscle of the arm: its arm26 parameters and its path.

    Attributes
    ----------
    name : str
    f_opt, l_opt, tendon_slack_length, pennation_angle, v_max : float
        Peak isometric force (N), optimal fibre length (m), tendon slack length (m), pennation
        at the optimal fibre length (rad), maximum contraction velocity (optimal lengths/s).
    upper_points : ndarray, shape (k, 3)
        Path points fixed to the humerus (world) frame, in order from the origin.
    insertion : ndarray, shape (3,)
        The last path point, in forearm coordinates (origin at the elbow).
    wrap : tuple or None
        ``(centre (2,), radius)`` of a cylinder about ``z`` fixed to the humerus that the last
        segment wraps around on its posterior side, or ``None``.
    """

    name: str
    f_opt: float
    l_opt: float
    tendon_slack_length: float
    pennation_angle: float
    upper_points: np.ndarray
    insertion: np.ndarray
    wrap: tuple | None = None
    v_max: float = 10.0

    def law(self, activation: float = 1.0, **kwargs) -> MusculotendonLaw:
        """The muscle's tension law with these parameters (Millard curves by default).

        ``kwargs`` go to :class:`spatial.forces.MusculotendonLaw` (``tendon="elastic"``,
        ``curves=``).

        Raises
        ------
        ValueError
            As :class:`~spatial.forces.MusculotendonLaw` (e.g. an activation outside [0, 1]).
        """
        return MusculotendonLaw(
            f_opt=self.f_opt,
            l_opt=self.l_opt,
            v_max=self.v_max,
            tendon_slack_length=self.tendon_slack_length,
            pennation_angle=self.pennation_angle,
            activation=activation,
            **kwargs,
        )

    @property
    def fixed_length(self) -> float:
        """Length of the segments between the humerus-fixed points (m)."""
        return float(np.linalg.norm(np.diff(self.upper_points, axis=0), axis=1).sum())


def _rot_z(theta):
    c, s = np.cos(theta), np.sin(theta)
    zero, one = np.zeros_like(c), np.ones_like(c)
    return np.stack(
        [np.stack([c, -s, zero], -1), np.stack([s, c, zero], -1), np.stack([zero, zero, one], -1)],
        -2,
    )


def _wrapped(A, B, dB, centre, radius):
    """Planar length of the shortest path from ``A`` to ``B`` (..., 2) that passes the circle
    on the side reached by turning counter-clockwise from ``A``, its rate for ``B`` moving with
    ``dB``, and the tangent points (both ``B`` where the straight segment is clear)."""
    a, b = A - centre, B - centre
    la, lb = np.linalg.norm(a, axis=-1), np.linalg.norm(b, axis=-1)
    beta_a, beta_b = np.arccos(radius / la), np.arccos(radius / lb)
    phi_a = np.arctan2(a[..., 1], a[..., 0]) + beta_a  # where the path meets the circle
    phi_b = np.arctan2(b[..., 1], b[..., 0]) - beta_b  # where it leaves it
    arc = np.mod(phi_b - phi_a + np.pi, 2 * np.pi) - np.pi
    on = arc > 0
    leave = centre + radius * np.stack([np.cos(phi_b), np.sin(phi_b)], -1)
    meet = centre + radius * np.stack([np.cos(phi_a), np.sin(phi_a)], -1)
    straight = B - A
    ls = np.linalg.norm(straight, axis=-1)
    t_out = (B - leave) / np.sqrt(lb * lb - radius * radius)[..., None]
    length = np.where(on, np.sqrt(la * la - radius**2) + np.sqrt(lb * lb - radius**2), ls)
    length = length + np.where(on, radius * arc, 0.0)
    rate = np.where(on, (t_out * dB).sum(-1), (straight * dB).sum(-1) / ls)
    meet, leave = np.where(on[..., None], meet, B), np.where(on[..., None], leave, B)
    return length, rate, meet, leave


@dataclass(frozen=True)
class PathState:
    """A muscle path at an elbow angle: ``length`` (m), ``moment_arm = dl/dθ`` (m; negative
    for a flexor, whose path shortens as the elbow flexes) and the world ``points`` of the path
    (the wrap's tangent points included where it wraps), shape (..., k, 3)."""

    length: np.ndarray
    moment_arm: np.ndarray
    points: np.ndarray


@dataclass(frozen=True)
class ElbowArm:
    """A fixed humerus and a forearm on a hinge, with arm26's biceps and triceps long heads.

    Built by :func:`elbow_arm26` (see the module docstring for the sources and simplifications).
    The elbow angle ``θ`` is 0 with the arm straight and grows with flexion, to
    ``flexion_range[1]`` = 130°.
    """

    upper_mass: float
    upper_com: np.ndarray
    upper_inertia: np.ndarray
    forearm_mass: float
    forearm_com: np.ndarray
    forearm_inertia: np.ndarray
    elbow: np.ndarray
    flexion_range: tuple
    muscles: dict = field(default_factory=dict)
    g: float = 9.81

    def model(self) -> Model:
        """The forearm as a one-joint tree: ``Revolute("z")`` at the elbow, gravity ``-g y``.

        ``sp.rnea(model, [θ], [0], [0])`` is the torque that holds the forearm still against
        gravity, ``-`` :meth:`gravity_torque`.
        """
        model = Model(gravity=[0.0, -self.g, 0.0])
        inertia = mcI(self.forearm_mass, self.forearm_com, self.forearm_inertia)
        model.add_body(0, J.Revolute("z"), xlt(self.elbow), inertia, name="forearm")
        return model

    def upper_inertia_6(self) -> np.ndarray:
        """The humerus' spatial inertia about the shoulder (the world origin), 6x6."""
        return mcI(self.upper_mass, self.upper_com, self.upper_inertia)

    def forearm_frame(self, theta) -> np.ndarray:
        """The forearm's 4x4 frame in the world at elbow angle(s) ``theta`` (..., 4, 4)."""
        theta = as_scalar_array(theta, "theta")
        T = np.zeros(theta.shape + (4, 4))
        T[..., :3, :3], T[..., :3, 3], T[..., 3, 3] = _rot_z(theta), self.elbow, 1.0
        return T

    def _muscle(self, name: str) -> MusclePath:
        if name not in self.muscles:
            raise ValueError(f"muscle must be one of {sorted(self.muscles)}, got {name!r}")
        return self.muscles[name]

    def path(self, name: str, theta) -> PathState:
        """Length, moment arm ``dl/dθ`` and points of muscle ``name`` at angle(s) ``theta``.

        Raises
        ------
        ValueError
            For an unknown muscle or a non-finite angle.
        """
        m = self._muscle(name)
        theta = as_scalar_array(theta, "theta")
        R = _rot_z(theta)
        r = R @ m.insertion
        B = self.elbow + r
        dB = np.stack([-r[..., 1], r[..., 0], np.zeros_like(theta)], -1)  # ẑ × r
        A = m.upper_points[-1]
        upper = np.broadcast_to(m.upper_points, theta.shape + m.upper_points.shape)
        dz = B[..., 2] - A[2]
        if m.wrap is None:
            d = B[..., :2] - A[:2]
            planar = np.linalg.norm(d, axis=-1)
            rate = (d * dB[..., :2]).sum(-1) / planar
            points = np.concatenate([upper, B[..., None, :]], -2)
        else:
            centre, radius = m.wrap
            planar, rate, meet, leave = _wrapped(A[:2], B[..., :2], dB[..., :2], centre, radius)
            z = np.stack([A[2] + 0 * dz, B[..., 2]], -1)  # the tangent points' z, for drawing
            tangents = np.concatenate([np.stack([meet, leave], -2), z[..., None]], -1)
            points = np.concatenate([upper, tangents, B[..., None, :]], -2)
        last = np.sqrt(planar * planar + dz * dz)
        return PathState(m.fixed_length + last, planar * rate / last, points)

    def muscle_torques(self, theta, omega, activations, **law_options) -> dict:
        """Each muscle's torque about the elbow, ``-F dl/dθ`` (N m), at one state.

        ``F`` is the muscle's tension at path length ``l(θ)`` and rate ``l̇ = (dl/dθ) ω``.

        Parameters
        ----------
        theta, omega : float
            Elbow angle (rad) and rate (rad/s).
        activations : mapping
            Activation in [0, 1] per muscle name (missing muscles are inactive).
        **law_options
            Passed to :meth:`MusclePath.law` (``tendon=``, ``curves=``).

        Raises
        ------
        ValueError
            For an unknown muscle name or an activation outside [0, 1].
        """
        for name in activations:
            self._muscle(name)
        out = {}
        for name, m in self.muscles.items():
            p = self.path(name, theta)
            law = m.law(float(activations.get(name, 0.0)), **law_options)
            F = law(p.length, p.moment_arm * omega)[0]
            out[name] = float(-F * p.moment_arm)
        return out

    def gravity_torque(self, theta) -> np.ndarray:
        """Torque of the forearm's weight about the elbow (N m; negative: it extends)."""
        theta = as_scalar_array(theta, "theta")
        com = (_rot_z(theta) @ self.forearm_com)[..., 0]
        return -self.forearm_mass * self.g * com

    def limit_torque(self, theta, omega, stiffness: float = 500.0, damping: float = 5.0):
        """A stiff, damped torque that keeps ``θ`` in :attr:`flexion_range` (N m).

        ``k`` times the distance past a limit, pushing back, plus ``-d ω`` while past it.
        Not arm26's: arm26 clamps the coordinate instead.

        Raises
        ------
        ValueError
            If ``stiffness`` or ``damping`` is not positive.
        """
        k, d = positive_scalar(stiffness, "stiffness"), positive_scalar(damping, "damping")
        theta, omega = as_scalar_array(theta, "theta"), as_scalar_array(omega, "omega")
        lo, hi = self.flexion_range
        below, above = np.maximum(lo - theta, 0.0), np.maximum(theta - hi, 0.0)
        return k * (below - above) - d * omega * ((below > 0) | (above > 0))


def elbow_arm26(g: float = 9.81) -> ElbowArm:
    """The elbow of OpenSim's arm26 with the long heads of the biceps and the triceps.

    Numbers from ``arm26.osim`` (:data:`ARM26_SOURCE`); see the module docstring for what is
    simplified.  ``muscles`` holds ``"biceps"`` (``BIClong``: 624.3 N, ``l_opt`` 0.1157 m,
    tendon slack 0.2723 m, no pennation, path over the humeral head and down the front of the
    humerus to the radius) and ``"triceps"`` (``TRIlong``: 798.52 N, ``l_opt`` 0.134 m, tendon
    slack 0.143 m, pennation 0.2094 rad, from the scapula down the back of the humerus, around
    the elbow to the olecranon).

    Raises
    ------
    ValueError
        If ``g`` is not positive.
    """
    g = positive_scalar(g, "g")
    muscles = {}
    for name, m in (("biceps", _arm26.BICLONG), ("triceps", _arm26.TRILONG)):
        (insertion,) = m.points(2)
        muscles[name] = MusclePath(
            name,
            f_opt=m.f_opt,
            l_opt=m.l_opt,
            tendon_slack_length=m.tendon_slack_length,
            pennation_angle=m.pennation_angle,
            upper_points=_upper_points(m),
            insertion=insertion,
            wrap=None if name == "biceps" else (np.array(_arm26.TRI_WRAP[0]), _arm26.TRI_WRAP[1]),
        )
    upper, forearm = _arm26.HUMERUS, _arm26.FOREARM
    return ElbowArm(
        upper_mass=upper.mass,
        upper_com=np.array(upper.com),
        upper_inertia=np.diag(upper.inertia),
        forearm_mass=forearm.mass,
        forearm_com=np.array(forearm.com),
        forearm_inertia=np.diag(forearm.inertia),
        elbow=_arm26.ELBOW.copy(),
        flexion_range=_arm26.ELBOW_RANGE,
        muscles=muscles,
        g=g,
    )
