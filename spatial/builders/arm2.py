"""A planar two-joint arm (shoulder elevation and elbow) driven by four muscles, three of arm26.

Segment numbers are arm26's (``arm26.osim``, the reduction of Holzbaur, Murray and Delp, Ann.
Biomed. Eng. 33(6):829-840, 2005): the humerus (``r_humerus``: 1.864572 kg, centre of mass
0.180496 m below the shoulder, ``I_zz`` 0.013193 kg m²) hinged at arm26's shoulder, the forearm
(``r_ulna_radius_hand``: 1.534315 kg, centre of mass 0.181479 m below the elbow, ``I_zz``
0.020062 kg m²) hinged at arm26's elbow (0.0061, -0.2904) in the humerus.  The muscles are the
long head of the biceps (``BIClong``) and of the triceps (``TRIlong``), which cross both joints,
and the brachialis (``BRA``), which crosses the elbow only; a path is a chain of straight
segments through via points fixed to the scapula (the world), the humerus or the forearm
(ArtiSynth §0.18 on point attachments; Sueda §1.9.5).

What is simplified, and why:

* **Planar.**  Both joints turn about ``z`` (arm26's elbow axis is 3.5° away), the path points'
  ``z`` is dropped, and the shoulder is a hinge (arm26's ``r_shoulder_elev``).  Axes as arm26:
  ``x`` anterior, ``y`` up, gravity ``-9.81`` along ``y``; the world origin is the shoulder.
* **No wrapping.**  arm26 wraps the biceps over the humeral head and the triceps over a
  cylinder at the elbow; here the paths are straight between via points, so the triceps' elbow
  moment arm shrinks in deep flexion (the elbow is kept below 120°).
* **Three muscles of arm26's six** (their numbers, with the segments', in
  ``spatial/builders/_arm26.py``) (no short head of the biceps, no lateral or medial
  triceps), **plus an anterior deltoid** (``DELT1``), which arm26 does not have.  Of the three
  arm26 muscles only ``BIClong`` flexes the shoulder, and it flexes the elbow about twice as
  hard; the only elbow extensor, ``TRIlong``, extends the shoulder harder than the elbow.  So
  ``BIClong``, ``TRIlong`` and ``BRA`` alone cannot hold the hand at the target pose of project
  P2 ((0.3, 1.5) rad): even ``BIClong`` at full activation gives less shoulder torque than
  gravity and the joint stiffness ask for there, while over-flexing the elbow (check with
  :meth:`TwoJointArm.static_torque`).  (arm26's lateral and medial triceps cross the elbow only
  and would not help the shoulder either.)  ``DELT1``'s force, optimal
  fibre length, tendon slack length and pennation are those listed for ``DELT1`` in Holzbaur et
  al. 2005 (1142.6 N, 0.0976 m, 0.093 m, 0.384 rad); its two path points are OUR choice
  (origin 3 cm anterior and 6 cm above the shoulder, insertion 12 cm down the humerus), giving a
  shoulder moment arm of about 2.3 cm.
* **Muscle model.**  arm26 uses Thelen 2003; here its parameters drive the Millard curves
  (Millard, Uchida, Seth and Delp, J. Biomech. Eng. 2013; OpenSim names them "Millard2012")
  of :class:`spatial.forces.MusculotendonLaw` (rigid or elastic tendon, the elastic one at its
  fibre–tendon equilibrium), with first-order activation dynamics
  (:func:`spatial.forces.activation_rate`).
* **Joints.**  A viscous damping of 0.5 N m s per joint and stiff limits (our choice) stand in
  for arm26's clamped coordinates and the passive tissue it leaves out.
* **The hand** is a point 0.35 m below the elbow on the forearm's axis (our choice).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import as_scalar_array, positive_scalar
from ..forces import MusculotendonLaw, millard2012_curves
from ..forces.musculotendon import _tau
from . import _arm26

__all__ = ["ArmMuscle", "TwoJointArm", "two_joint_arm26", "moment_arms_from_points"]


def _rot(theta):
    c, s = np.cos(theta), np.sin(theta)
    return np.array([[c, -s], [s, c]])


@dataclass(frozen=True)
class ArmMuscle:
    """One muscle: arm26 parameters and via points ``(segment, point)`` from origin to insertion.

    ``segment`` is 0 for the scapula (world, shoulder at the origin), 1 for the humerus
    (coordinates at the shoulder) and 2 for the forearm (coordinates at the elbow).
    """

    name: str
    f_opt: float
    l_opt: float
    tendon_slack_length: float
    pennation_angle: float
    segments: tuple
    points: np.ndarray

    def law(self, activation: float, tendon: str = "rigid") -> MusculotendonLaw:
        """The muscle's :class:`~spatial.forces.MusculotendonLaw` at ``activation``.

        Raises
        ------
        ValueError
            For an activation outside [0, 1] or an unknown tendon kind.
        """
        return MusculotendonLaw(
            f_opt=self.f_opt,
            l_opt=self.l_opt,
            v_max=10.0,
            tendon_slack_length=self.tendon_slack_length,
            pennation_angle=self.pennation_angle,
            activation=activation,
            tendon=tendon,
        )


def moment_arms_from_points(points, segments, joints) -> np.ndarray:
    """Moment arms ``r_j = -∂l/∂q_j`` of a via-point path, from its geometry.

    Point ``P`` on segment ``s`` moves with joint ``j`` (at ``J_j``) if ``s > j``, at
    ``∂P/∂q_j = ẑ × (P - J_j)``; the length of a segment ``P_a P_b`` changes at
    ``e · (∂P_b/∂q_j - ∂P_a/∂q_j)`` with ``e`` the unit vector from ``P_a`` to ``P_b``.

    Parameters
    ----------
    points : array_like, shape (k, 2)
        World positions of the path points, origin to insertion.
    segments : sequence of int, length k
        0 (world), 1 (humerus) or 2 (forearm) per point.
    joints : array_like, shape (2, 2)
        World positions of the shoulder and the elbow.

    Returns
    -------
    ndarray, shape (2,)
        Positive where tension turns the joint in the positive (flexing) sense.

    Raises
    ------
    ValueError
        On mismatched shapes.
    """
    P = np.asarray(points, dtype=float)
    seg = np.asarray(segments)
    Jp = np.asarray(joints, dtype=float)
    if P.ndim != 2 or P.shape[1] != 2 or seg.shape != (P.shape[0],) or Jp.shape != (2, 2):
        raise ValueError("points must be (k, 2), segments (k,), joints (2, 2)")
    e = np.diff(P, axis=0)
    e /= np.linalg.norm(e, axis=1)[:, None]
    r = np.zeros(2)
    for j in range(2):
        d = P - Jp[j]
        v = np.stack([-d[:, 1], d[:, 0]], 1) * (seg > j)[:, None]
        r[j] = -np.sum(e * np.diff(v, axis=0))
    return r


@dataclass(frozen=True)
class TwoJointArm:
    """The planar arm; ``q = (shoulder elevation, elbow flexion)`` in rad, 0 hanging straight.

    Built by :func:`two_joint_arm26` (module docstring: sources and simplifications).
    """

    masses: tuple
    coms: tuple
    inertias: tuple
    elbow: np.ndarray
    hand: np.ndarray
    muscles: tuple
    limits: tuple = ((-0.5, 2.6), (0.0, 2.1))
    damping: float = 0.5
    stiffness: float = 5.0
    g: float = 9.81

    @property
    def names(self) -> list:
        """The muscles' names, in order."""
        return [m.name for m in self.muscles]

    def _q(self, q) -> np.ndarray:
        q = as_scalar_array(q, "q")
        if q.shape != (2,):
            raise ValueError(f"q must hold 2 joint angles, got shape {q.shape}")
        return q

    def joints(self, q) -> np.ndarray:
        """World positions of the shoulder and the elbow, (2, 2)."""
        q = self._q(q)
        return np.array([[0.0, 0.0], _rot(q[0]) @ self.elbow])

    def hand_position(self, q) -> np.ndarray:
        """World position of the hand point (m)."""
        q = self._q(q)
        return _rot(q[0]) @ self.elbow + _rot(q[0] + q[1]) @ self.hand

    def path_points(self, name: str, q) -> np.ndarray:
        """World points of muscle ``name``'s path at ``q``, (k, 2).

        Raises
        ------
        ValueError
            For an unknown muscle.
        """
        q, m = self._q(q), self._muscle(name)
        frames = [(np.eye(2), np.zeros(2)), (_rot(q[0]), np.zeros(2))]
        frames.append((_rot(q[0] + q[1]), _rot(q[0]) @ self.elbow))
        return np.array(
            [frames[s][0] @ p + frames[s][1] for s, p in zip(m.segments, m.points, strict=True)]
        )

    def _muscle(self, name):
        for m in self.muscles:
            if m.name == name:
                return m
        raise ValueError(f"muscle must be one of {self.names}, got {name!r}")

    def length(self, name: str, q) -> float:
        """Path length of muscle ``name`` at ``q`` (m)."""
        return float(np.linalg.norm(np.diff(self.path_points(name, q), axis=0), axis=1).sum())

    def moment_arms(self, name: str, q) -> np.ndarray:
        """``r = -∂l/∂q`` of muscle ``name`` at ``q`` (m), shape (2,)."""
        m = self._muscle(name)
        return moment_arms_from_points(self.path_points(name, q), m.segments, self.joints(q))

    def mass_matrix_and_bias(self, q, qd) -> tuple:
        """``M(q)`` and ``C(q, q̇) q̇ - τ_gravity`` of the two-link planar chain (closed form)."""
        q, qd = self._q(q), as_scalar_array(qd, "qd")
        (m1, m2), (c1, c2), (i1, i2) = self.masses, self.coms, self.inertias
        e = self.elbow
        c2w = _rot(q[1]) @ c2  # forearm com from the elbow, in humerus axes
        a = e @ c2w
        b = e[0] * c2w[1] - e[1] * c2w[0]  # e × c2w
        M22 = i2 + m2 * c2 @ c2
        M12 = M22 + m2 * a
        M11 = i1 + m1 * c1 @ c1 + M22 + m2 * (e @ e + 2 * a)
        M = np.array([[M11, M12], [M12, M22]])
        h = m2 * b  # ∂M12/∂q2 = -h
        cor = np.array([-h * (2 * qd[0] * qd[1] + qd[1] ** 2), h * qd[0] ** 2])
        com1 = _rot(q[0]) @ c1
        com2 = _rot(q[0]) @ (e + c2w)
        grav = self.g * np.array([m1 * com1[0] + m2 * com2[0], m2 * (com2 - _rot(q[0]) @ e)[0]])
        return M, cor + grav

    def muscle_state(self, q, qd, activations, tendon: str = "rigid", states=True) -> dict:
        """Per muscle: ``force`` (N), ``moment_arms`` (2,), ``fiber_length``, ``tendon_strain``.

        ``tendon_strain`` is ``(l_T - l_s)/l_s``; for a rigid tendon it is 0.  With
        ``states=False`` only ``force`` and ``moment_arms`` are computed (faster).

        Raises
        ------
        ValueError
            For activations not one per muscle or outside [0, 1].
        """
        q, qd = self._q(q), as_scalar_array(qd, "qd")
        act = as_scalar_array(activations, "activations")
        if act.shape != (len(self.muscles),):
            raise ValueError(f"activations must hold {len(self.muscles)} numbers")
        out = {}
        for m, a in zip(self.muscles, act, strict=True):
            r = self.moment_arms(m.name, q)
            law, l = m.law(float(a), tendon), self.length(m.name, q)
            F = float(law(l, -r @ qd)[0])
            out[m.name] = {"force": F, "moment_arms": r}
            if not states:
                continue
            eq = law.equilibrium(l)
            strain = (float(eq["tendon_length"]) - m.tendon_slack_length) / m.tendon_slack_length
            out[m.name]["fiber_length"] = float(eq["fiber_length"])
            out[m.name]["tendon_strain"] = strain
        return out

    def rigid_forces(self, q, qd, activations) -> tuple:
        """Rigid-tendon tensions of all muscles at once and their moment arms, (m,), (m, 2).

        The same formula as :class:`~spatial.forces.MusculotendonLaw` with a rigid tendon,
        ``F = f_opt (a f_L f_V + f_P) cos α``, with each Millard curve evaluated once for all
        the muscles (the curves are normalized, so the muscles share them).  ``activations``
        holds one number per muscle.
        """
        q, qd = self._q(q), as_scalar_array(qd, "qd")
        a = np.asarray(activations, dtype=float)
        r = np.array([self.moment_arms(m.name, q) for m in self.muscles])
        l = np.array([self.length(m.name, q) for m in self.muscles])
        p = self._params
        x = l - p[2]
        lm = np.sqrt(x * x + p[3] ** 2)
        cos = x / lm
        c = _CURVES
        vt = -(r @ qd) * cos / (p[1] * 10.0)
        fm = a * c["active_force_length"](lm / p[1]) * c["force_velocity"](vt)
        fm = fm + c["passive_force_length"](lm / p[1])
        return p[0] * fm * cos, r

    @property
    def _params(self) -> np.ndarray:
        return np.array(
            [[m.f_opt, m.l_opt, m.tendon_slack_length, m.l_opt * np.sin(m.pennation_angle)]
             for m in self.muscles]
        ).T  # fmt: skip

    def passive_torque(self, q, qd) -> np.ndarray:
        """Passive joint torque (N m): ``-k q - d q̇`` and stiff limits (1000 N m/rad past one).

        ``k`` = :attr:`stiffness` stands in for the joints' passive tissue (our choice: without
        it no constant excitation holds a raised arm still, see :meth:`static_stiffness`).
        """
        q, qd = self._q(q), as_scalar_array(qd, "qd")
        lo, hi = np.array(self.limits).T
        limits = 1000.0 * (np.maximum(lo - q, 0) - np.maximum(q - hi, 0))
        return limits - self.stiffness * q - self.damping * qd

    def static_torque(self, q, activations, tendon: str = "rigid") -> np.ndarray:
        """Net joint torque at rest at ``q``: muscles + gravity + passive (N m); 0 = balance.

        ``tendon="elastic"`` takes each muscle's force at its fibre–tendon equilibrium (slower).

        Raises
        ------
        ValueError
            For activations not one per muscle or outside [0, 1], or an unknown ``tendon``.
        """
        _check_tendon(tendon)
        if tendon == "rigid":
            F, r = self.rigid_forces(q, [0.0, 0.0], activations)
            muscles = F @ r
        else:
            st = self.muscle_state(q, [0.0, 0.0], activations, tendon, states=False).values()
            muscles = sum(s["force"] * s["moment_arms"] for s in st)
        gravity = -self.mass_matrix_and_bias(q, [0.0, 0.0])[1]
        return muscles + gravity + self.passive_torque(q, [0, 0])

    def static_stiffness(self, q, activations, eps: float = 1e-6, tendon="rigid") -> np.ndarray:
        """``∂(static torque)/∂q`` (2x2, N m/rad) by central differences; the pose is a stable
        balance when the symmetric part is negative definite.

        Raises
        ------
        ValueError
            As :meth:`static_torque`.
        """
        q = self._q(q)
        torque = lambda x: self.static_torque(x, activations, tendon)  # noqa: E731
        cols = [(torque(q + eps * d) - torque(q - eps * d)) / (2 * eps) for d in np.eye(2)]
        return np.array(cols).T

    def static_excitations(self, q, cocontraction: float = 0.0) -> np.ndarray:
        """Constant activations in [0, 1] that hold the arm still at ``q`` (rigid tendons).

        At rest the torque is linear in the activations, ``τ(a) = τ0 + A a``; this solves
        ``A a = -τ0`` by bounded least squares, with a small pull of every activation towards
        ``cocontraction`` to pick one of the many solutions.

        Raises
        ------
        ValueError
            If ``cocontraction`` is outside [0, 1].
        """
        from scipy.optimize import lsq_linear

        c = float(_unit(np.full(len(self.muscles), cocontraction))[0])
        n = len(self.muscles)
        tau0 = self.static_torque(q, np.zeros(n))
        A = np.array([self.static_torque(q, e) - tau0 for e in np.eye(n)]).T
        w = 1e-4
        res = lsq_linear(np.vstack([A, w * np.eye(n)]), np.r_[-tau0, w * c * np.ones(n)], (0, 1))
        return res.x

    def accelerations(self, q, qd, activations, tendon: str = "rigid") -> np.ndarray:
        """``q̈`` from muscles, gravity and passive torques (forward dynamics)."""
        tau = self.passive_torque(q, qd)
        for s in self.muscle_state(q, qd, activations, tendon, states=False).values():
            tau = tau + s["force"] * s["moment_arms"]
        M, bias = self.mass_matrix_and_bias(q, qd)
        return np.linalg.solve(M, tau - bias)

    def simulate(self, excitation, q0, duration: float, dt: float = 2e-3, tendon="rigid"):
        """Excitations → activations → muscle forces → joint torques → motion.

        Semi-implicit Euler for the arm, the linearly implicit step of
        :func:`spatial.forces.integrate_activation` for the activations; the arm starts at
        rest with activations equal to the first excitations.

        Parameters
        ----------
        excitation : callable or array_like
            ``u(t)`` returning one number in [0, 1] per muscle (order of
            :attr:`names`), or those numbers held constant.
        q0 : array_like, shape (2,)
        duration, dt : float
            Horizon and step (s), > 0.
        tendon : {"rigid", "elastic"}

        Returns
        -------
        dict
            ``t``, ``q``, ``qd``, ``u``, ``a``, ``hand``, ``force`` at every step (per muscle
            in columns), and ``fiber_length``, ``tendon_strain`` at times ``t_states`` (every
            10 steps, and the last; :meth:`muscle_state` gives them at any other step).

        Raises
        ------
        ValueError
            For a bad horizon, step, start, excitation or tendon.
        """
        T, h = positive_scalar(duration, "duration"), positive_scalar(dt, "dt")
        _check_tendon(tendon)
        u_of = excitation if callable(excitation) else (lambda t, u=excitation: u)
        q, qd = self._q(q0).copy(), np.zeros(2)
        n = int(round(T / h))
        a = _unit(u_of(0.0))
        rec = {k: [] for k in ("t", "q", "qd", "u", "a", "hand", "force")}
        rec.update(fiber_length=[], tendon_strain=[], t_states=[])
        for k in range(n + 1):
            t, u = k * h, _unit(u_of(k * h))
            if k % 10 == 0 or k == n:  # the muscles' fibre and tendon every 10 steps
                st = self.muscle_state(q, qd, a, tendon)
                rec["t_states"].append(t)
                rec["fiber_length"].append([s["fiber_length"] for s in st.values()])
                rec["tendon_strain"].append([s["tendon_strain"] for s in st.values()])
            if tendon == "rigid":
                F, r = self.rigid_forces(q, qd, a)
            else:
                st = self.muscle_state(q, qd, a, tendon, states=False)
                F = np.array([s["force"] for s in st.values()])
                r = np.array([s["moment_arms"] for s in st.values()])
            for key, val in (("t", t), ("q", q.copy()), ("qd", qd.copy()), ("u", u), ("a", a)):
                rec[key].append(val)
            rec["hand"].append(self.hand_position(q))
            rec["force"].append(F)
            if k == n:
                break
            M, bias = self.mass_matrix_and_bias(q, qd)
            qd = qd + h * np.linalg.solve(M, self.passive_torque(q, qd) + F @ r - bias)
            q = q + h * qd
            tau_a = _tau(u, a, 0.010, 0.040)  # OpenSim's time constants (activation_rate)
            a = (a + h * u / tau_a) / (1 + h / tau_a)
        return {k: np.array(v) for k, v in rec.items()}


def _check_tendon(tendon) -> None:
    if tendon not in ("rigid", "elastic"):
        raise ValueError(f"tendon must be 'rigid' or 'elastic', got {tendon!r}")


def _unit(u) -> np.ndarray:
    u = as_scalar_array(u, "excitation")
    if u.shape != (4,) or np.any((u < 0) | (u > 1)):
        raise ValueError(f"excitation must be 4 numbers in [0, 1], got {u!r}")
    return u


_CURVES = millard2012_curves()


def _planar(name: str, muscle: _arm26.Muscle) -> ArmMuscle:
    """An arm26 muscle in the plane: its points' (x, y), the scapula's moved to the shoulder."""
    shoulder = _arm26.SHOULDER[:2]
    points = [np.array(p[:2]) - (shoulder if s == 0 else 0.0) for s, p in muscle.path]
    segments = tuple(s for s, _ in muscle.path)
    return ArmMuscle(
        name,
        muscle.f_opt,
        muscle.l_opt,
        muscle.tendon_slack_length,
        muscle.pennation_angle,
        segments,
        np.array(points),
    )


def two_joint_arm26(g: float = 9.81) -> TwoJointArm:
    """arm26's humerus and forearm with BIClong, TRIlong, BRA and a DELT1 (planar; see the module).

    Path points are arm26's (x, y) in its segments, the scapula's moved to the shoulder.

    Raises
    ------
    ValueError
        If ``g`` is not positive.
    """
    g = positive_scalar(g, "g")
    muscles = [
        _planar(name, m)
        for name, m in (
            ("BIClong", _arm26.BICLONG),
            ("TRIlong", _arm26.TRILONG),
            ("BRA", _arm26.BRA),
        )
    ]
    deltoid = ArmMuscle(
        "DELT1", 1142.6, 0.0976, 0.093, 0.384, (0, 1),
        np.array([[0.03, 0.06], [0.01, -0.12]]),
    )  # fmt: skip
    upper, forearm = _arm26.HUMERUS, _arm26.FOREARM
    return TwoJointArm(
        masses=(upper.mass, forearm.mass),
        coms=(np.array(upper.com[:2]), np.array(forearm.com[:2])),
        inertias=(upper.inertia[2], forearm.inertia[2]),
        elbow=_arm26.ELBOW[:2].copy(),
        hand=np.array([0.0, -0.35]),
        muscles=(*muscles, deltoid),
        g=g,
    )
