"""Soft (compliant) contact with Coulomb friction (Featherstone §11.8).

Instead of a hard constraint, each contact gets a massless surface patch held by a spring and a
damper (Figure 11.10).  Being massless, the patch obeys a first-order equation, so contact
forces follow from positions and velocities alone and enter *any* forward-dynamics algorithm
as known external forces: no impulses, no complementarity problem.

**Normal direction** (eqs. 11.73–11.75).  Let ``p`` be the gap (``< 0``: penetration) and ``z``
the patch's displacement (``<= 0``: pushed in).  The body touches the patch when ``p <= z``;
then the patch moves with the body (``z = p``) and the force needed to keep it there is
``f_n = max(0, -K p - D ṗ)``.  If that is zero the contact is breaking and the patch relaxes
on its own, ``ż = -K z / D``, which we integrate exactly: ``z ← z e^{-K h / D}`` (the book's
trick for doing without an explicit state while out of contact).  With ``model =
"hunt-crossley"`` the normal force is instead the nonlinear, stateless
``f_n = max(0, δⁿ (K + D δ̇))`` with ``δ = -p`` (Marhefka & Orin 1999, which §11.8 cites): it
starts from zero at first touch, where the linear law jumps to ``-D ṗ``.

**Tangential direction** (eqs. 11.77–11.79).  A tangential patch displacement ``x`` with
stiffness ``K_t`` and damper ``D_t``.  The force that would stop slip is
``f_stick = -K_t x - D_t v`` (``v``: slip velocity of the body point at the contact); if it
lies in the friction cone the contact sticks (``f_t = f_stick``, ``ẋ = v``), otherwise it
slides with ``f_t`` on the cone's boundary in the direction of ``f_stick`` (in 3D the disc of
radius ``μ f_n``) and the patch relaxes, ``ẋ = -(K_t x + f_t)/D_t`` (exact update for a
constant ``f_t``).  This regularizes stick–slip: sticking is exact, not a creeping viscous
approximation.

The body dynamics is integrated by semi-implicit Euler with the contact forces as external
forces: :func:`spatial.aba` for trees, Newton–Euler for free bodies
(:meth:`~spatial.contact.Scene.acceleration`).  Stiff springs need small steps, roughly
``h < 2 sqrt(m/K)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._validate import as_scalar_array, nonnegative_scalar, positive_scalar
from ..simulation import Trajectory
from ..simulation import simulate as _simulate
from ..systems import Step, _evaluate
from .scene import Contacts, Scene
from .stepping import SceneSystem, _penetration, _step_records, _tau

__all__ = [
    "SoftContact",
    "SoftContactParams",
    "SoftStepInfo",
    "SurfaceState",
    "friction_force",
    "hunt_crossley_force",
    "normal_force",
    "simulate_soft",
    "soft_contact_forces",
    "soft_step",
]

_MODELS = ("linear", "hunt-crossley")


@dataclass(frozen=True)
class SoftContactParams:
    """Spring–damper contact parameters (Featherstone Figures 11.10–11.11).

    Parameters
    ----------
    stiffness : float
        Normal stiffness ``K`` (N/m, or N/m^n for Hunt–Crossley), > 0.
    damping : float
        Normal damping ``D`` (N s/m), >= 0.
    mu : float
        Coulomb friction coefficient, >= 0.
    tangent_stiffness : float, optional
        ``K_t`` (N/m), >= 0; default ``stiffness``.
    tangent_damping : float, optional
        ``D_t`` (N s/m); default ``damping``.  Must be > 0 when ``mu > 0``.
    model : {"linear", "hunt-crossley"}
        Normal force law.
    exponent : float
        Hunt–Crossley exponent ``n`` (1.5: Hertz contact), > 0.

    Raises
    ------
    ValueError
        For a non-positive stiffness, a negative damping or ``mu``, a zero tangential damping
        with friction, or an unknown model.
    """

    stiffness: float
    damping: float = 0.0
    mu: float = 0.0
    tangent_stiffness: float | None = None
    tangent_damping: float | None = None
    model: str = "linear"
    exponent: float = 1.5

    def __post_init__(self) -> None:
        K = positive_scalar(self.stiffness, "stiffness")
        object.__setattr__(self, "stiffness", K)
        object.__setattr__(self, "damping", nonnegative_scalar(self.damping, "damping"))
        object.__setattr__(self, "mu", nonnegative_scalar(self.mu, "friction coefficient mu"))
        Kt = K if self.tangent_stiffness is None else self.tangent_stiffness
        Dt = self.damping if self.tangent_damping is None else self.tangent_damping
        object.__setattr__(self, "tangent_stiffness", nonnegative_scalar(Kt, "tangent_stiffness"))
        object.__setattr__(self, "tangent_damping", nonnegative_scalar(Dt, "tangent_damping"))
        if self.mu > 0 and self.tangent_damping == 0:
            raise ValueError(
                "friction (mu > 0) needs tangent_damping > 0 (eq. 11.77 divides by it)"
            )
        if self.model not in _MODELS:
            raise ValueError(f"model must be 'linear' or 'hunt-crossley', got {self.model!r}")
        object.__setattr__(self, "exponent", positive_scalar(self.exponent, "exponent"))


@dataclass
class SurfaceState:
    """Displacements of the massless surface patches, one per candidate contact of a scene.

    Attributes
    ----------
    z : numpy.ndarray, shape (K,)
        Normal displacement of a free patch (<= 0: still pushed in, relaxing).
    x : numpy.ndarray, shape (K, tangent_dim)
        Tangential displacement, in the contact's tangent frame.
    attached : numpy.ndarray of bool, shape (K,)
        Patches that pushed on the body in the last step; they move with it (``z = p``), so
        the contact persists while the force stays positive.
    """

    z: np.ndarray
    x: np.ndarray
    attached: np.ndarray

    @classmethod
    def rest(cls, scene: Scene, q) -> SurfaceState:
        """All patches at rest (zero displacement) for the candidates of ``scene`` at ``q``."""
        K = len(scene.detect(q))
        return cls(np.zeros(K), np.zeros((K, scene.tangent_dim)), np.zeros(K, dtype=bool))


def normal_force(gap, gap_rate, stiffness: float, damping: float) -> np.ndarray:
    """Normal force ``max(0, -K p - D ṗ)`` of a body touching the patch (Featherstone eq. 11.74).

    This is the second case of eq. 11.74 (``p = z``); a body that does not touch its patch
    (``p > z``) gets no force.

    Parameters
    ----------
    gap : array_like, shape (...)
        Gap ``p`` of the body above the undeformed surface (negative: penetration).
    gap_rate : array_like, shape (...)
        ``ṗ``, the separation velocity.
    stiffness, damping : float
        ``K > 0`` and ``D >= 0``.

    Returns
    -------
    numpy.ndarray, shape (...)

    Raises
    ------
    ValueError
        For non-finite input or invalid coefficients.
    """
    p, pd = as_scalar_array(gap, "gap"), as_scalar_array(gap_rate, "gap_rate")
    prm = SoftContactParams(stiffness, damping)
    return np.maximum(0.0, -prm.stiffness * p - prm.damping * pd)


def hunt_crossley_force(gap, gap_rate, stiffness: float, damping: float, exponent: float = 1.5):
    """Hunt–Crossley normal force ``max(0, δⁿ (K + D δ̇))``, ``δ = max(-p, 0)`` (Marhefka & Orin).

    Parameters
    ----------
    gap, gap_rate : array_like, shape (...)
        ``p`` and ``ṗ`` as for :func:`normal_force`.
    stiffness, damping, exponent : float

    Returns
    -------
    numpy.ndarray, shape (...)

    Raises
    ------
    ValueError
        For non-finite input or invalid coefficients.
    """
    p = as_scalar_array(gap, "gap")
    pd = as_scalar_array(gap_rate, "gap_rate")
    prm = SoftContactParams(stiffness, damping, model="hunt-crossley", exponent=exponent)
    delta = np.maximum(-p, 0.0)
    return np.maximum(0.0, delta**prm.exponent * (prm.stiffness - prm.damping * pd))


def friction_force(x, slip, normal, stiffness: float, damping: float, mu: float):
    """Tangential force of the spring–damper patch with Coulomb's law (eqs. 11.78–11.79).

    ``f_stick = -K_t x - D_t v``; the contact sticks if ``|f_stick| <= μ f_n`` (then
    ``f_t = f_stick``), otherwise ``f_t = μ f_n f_stick / |f_stick|`` (the nearest point of the
    friction disc; in the plane, eq. 11.79 exactly).

    Parameters
    ----------
    x : array_like, shape (..., d)
        Tangential patch displacement.
    slip : array_like, shape (..., d)
        Tangential velocity of the body point at the contact.
    normal : array_like, shape (...)
        Normal force ``f_n >= 0``.
    stiffness, damping, mu : float
        ``K_t >= 0``, ``D_t >= 0``, ``μ >= 0``.

    Returns
    -------
    force : numpy.ndarray, shape (..., d)
    stick : numpy.ndarray of bool, shape (...)

    Raises
    ------
    ValueError
        For non-finite input, mismatched shapes or invalid coefficients.
    """
    x = as_scalar_array(x, "x")
    v = as_scalar_array(slip, "slip")
    fn = as_scalar_array(normal, "normal")
    if x.shape != v.shape or x.ndim < 1 or x.shape[:-1] != fn.shape:
        raise ValueError(
            f"x, slip must have shape (..., d) and normal (...): {x.shape}, {fn.shape}"
        )
    K, D, mu = (
        nonnegative_scalar(x, name)
        for x, name in ((stiffness, "stiffness"), (damping, "damping"), (mu, "mu"))
    )
    f_stick = -K * x - D * v
    size = np.linalg.norm(f_stick, axis=-1)
    limit = mu * fn
    stick = size <= limit
    scale = np.where(stick, 1.0, limit / np.where(size > 0, size, 1.0))
    return f_stick * scale[..., None], stick


@dataclass
class SoftStepInfo:
    """What happened in one :func:`soft_step` (same fields as the rigid ``StepInfo`` uses).

    Attributes
    ----------
    h : float
    contacts : Contacts
        The candidates carrying a force.
    normal : numpy.ndarray, shape (nc,)
    tangent : numpy.ndarray, shape (nc, tangent_dim)
    penetration : float
        Deepest penetration at the end of the step.
    f_ext : numpy.ndarray, shape (NB + 1, 6)
        The contact forces on the bodies (world coordinates) used in the step.
    impact, event, fallbacks :
        Always None, False, 0 (soft contact has no impulses, events or LCPs).
    """

    h: float
    contacts: Contacts
    normal: np.ndarray
    tangent: np.ndarray
    penetration: float
    f_ext: np.ndarray
    impact: None = None
    event: bool = False
    fallbacks: int = 0


def _contact_forces(scene: Scene, q, v, state: SurfaceState, prm: SoftContactParams, h: float):
    """Forces at ``(q, v)`` and the patch state after ``h`` (module docstring)."""
    contacts = scene.detect(q)
    if len(contacts) != len(state.z):
        raise ValueError(f"state has {len(state.z)} patches but the scene has {len(contacts)}")
    gap = contacts.gap
    finite = np.isfinite(gap)
    linear = prm.model == "linear"
    if linear:  # eq. 11.74: touching its patch (p <= z), or carried along by it (attached)
        touching = finite & (gap <= 0.0) & (state.attached | (gap <= state.z))
    else:
        touching = finite & (gap < 0.0)
    active = contacts.select(touching)
    P = scene.point_jacobians(q, active) @ v  # relative velocities of the touching points
    tangents = scene.tangents(active.normal)
    rate = np.einsum("ck,ck->c", active.normal, P)
    slip = np.einsum("cdk,ck->cd", tangents, P)
    K, D = prm.stiffness, prm.damping
    if linear:
        fn = normal_force(active.gap, rate, K, D)
    else:
        fn = hunt_crossley_force(active.gap, rate, K, D, prm.exponent)
    # patch states after the step: exact relaxation while free (and while sliding, below)
    relax = np.exp(-K * h / D) if D > 0 else 0.0
    z = state.z * relax
    attached = np.zeros_like(state.attached)
    if linear:  # a pushing patch moves with the body; a breaking one relaxes from the body
        attached[touching] = fn > 0
        z[touching] = np.where(fn > 0, active.gap, active.gap * relax)
    x, x_next = state.x[touching], np.zeros_like(state.x)
    ft = np.zeros_like(x)
    if prm.mu > 0:
        Kt, Dt = prm.tangent_stiffness, prm.tangent_damping
        ft, stick = friction_force(x, slip, fn, Kt, Dt, prm.mu)
        decay = np.exp(-Kt * h / Dt)
        x_next = state.x * decay
        if Kt > 0:
            sliding = -ft / Kt + (x + ft / Kt) * decay
        else:
            sliding = x - h * ft / Dt
        x_next[touching] = np.where(stick[:, None], x + h * slip, sliding)

    F = fn[:, None] * active.normal + np.einsum("cd,cdk->ck", ft, tangents)
    wrench = np.concatenate([np.cross(active.point, F), F], -1)  # [p × F; F], world coordinates
    f_ext = np.zeros((scene.NB + 1, 6))
    np.add.at(f_ext, active.successor, wrench)
    np.add.at(f_ext, active.predecessor, -wrench)
    f_ext[0] = 0.0
    return f_ext, active, fn, ft, SurfaceState(np.minimum(z, 0.0), x_next, attached)


def soft_contact_forces(scene: Scene, q, v, state: SurfaceState, params: SoftContactParams):
    """Contact forces of the spring–damper patches at ``(q, v)`` (Featherstone §11.8).

    Parameters
    ----------
    scene : Scene
    q, v : state
    state : SurfaceState
    params : SoftContactParams

    Returns
    -------
    f_ext : numpy.ndarray, shape (NB + 1, 6)
        Spatial forces on the bodies in world coordinates (row 0, the world, is zero): the
        contact force ``f_n n + f_t`` at each touching point, ``+`` on the successor and ``-``
        on the predecessor.
    contacts : Contacts
        The touching candidates.
    normal : numpy.ndarray, shape (nc,)
    tangent : numpy.ndarray, shape (nc, tangent_dim)

    Raises
    ------
    ValueError
        For an invalid state or parameters, or a state that does not match the scene.
    """
    q, v = scene.check_state(q, v)
    f_ext, active, fn, ft, _ = _contact_forces(scene, q, v, _state(state), _params(params), 0.0)
    return f_ext, active, fn, ft


def _state(state) -> SurfaceState:
    if not isinstance(state, SurfaceState):
        raise ValueError(f"state must be a SurfaceState, got {type(state).__name__}")
    return state


def _params(params) -> SoftContactParams:
    if not isinstance(params, SoftContactParams):
        raise ValueError(f"params must be a SoftContactParams, got {type(params).__name__}")
    return params


def _soft_step(scene: Scene, q, v, state, h, prm, tau):
    f_ext, active, fn, ft, state = _contact_forces(scene, q, v, state, prm, h)
    v = v + h * scene._acceleration(q, v, tau, f_ext)
    q = scene._integrate(q, v, h)
    return q, v, state, SoftStepInfo(h, active, fn, ft, _penetration(scene.detect(q)), f_ext)


def soft_step(
    scene: Scene, q, v, state: SurfaceState, h: float, params: SoftContactParams, tau=None
):
    """One semi-implicit Euler step with soft contact forces (module docstring).

    Parameters
    ----------
    scene : Scene
    q, v : state
    state : SurfaceState
        Patch displacements (:meth:`SurfaceState.rest` to start).
    h : float
        Step size, > 0.
    params : SoftContactParams
    tau : array_like, shape (nv,), optional
        Applied generalized forces.

    Returns
    -------
    q, v : the new state
    state : SurfaceState
    info : SoftStepInfo

    Raises
    ------
    ValueError
        For invalid input.
    """
    q, v = scene.check_state(q, v)
    return _soft_step(
        scene, q, v, _state(state), positive_scalar(h, "h"), _params(params), _tau(scene, tau)
    )


class SoftContact(SceneSystem):
    """A scene stepped with soft contact (:func:`soft_step`): a stepped system for ``sp.simulate``.

    Parameters
    ----------
    scene : Scene
    params : SoftContactParams
    state : SurfaceState, optional
        The contact patches' initial state (default: at rest at the first state simulated).

    Notes
    -----
    The patch state travels from step to step as the step's ``carry``.  Each step records
    ``penetration``, ``contacts`` (candidates carrying a force) and, for the records to match
    :class:`~spatial.contact.RigidContact`'s, ``impact`` (None), ``event`` (False) and
    ``fallbacks`` (0): soft contact has no impulses, events or complementarity problems.
    ``tau`` is a constant array or a callable ``tau(t, q, v)``, held over the step.
    """

    def __init__(self, scene: Scene, params: SoftContactParams, state: SurfaceState | None = None):
        super().__init__(scene)
        self.params = _params(params)
        self.state = None if state is None else _state(state)

    def step(self, t, q, v, h, carry=None, *, tau=None) -> Step:
        patches = carry if carry is not None else self.state
        if patches is None:
            patches = SurfaceState.rest(self.scene, q)
        tau = _tau(self.scene, _evaluate(tau, t, q, v))
        q, v, patches, info = _soft_step(self.scene, q, v, patches, h, self.params, tau)
        return Step(q, v, h, self._records(info, h), patches)

    def _records(self, info: SoftStepInfo, h: float) -> dict:
        """The records of one step of length ``h`` (a subclass may add its own)."""
        return _step_records(info)


def simulate_soft(
    scene: Scene,
    q0,
    v0,
    duration: float,
    h: float,
    params: SoftContactParams,
    tau=None,
    state: SurfaceState | None = None,
) -> Trajectory:
    """Simulate with soft contact for ``duration`` seconds (:func:`soft_step`).

    A thin wrapper of the package's one loop: ``spatial.simulate(SoftContact(scene, params,
    state), q0, v0, h, duration=duration, tau=tau)``.

    Parameters
    ----------
    scene : Scene
    q0, v0 : initial state
    duration, h : float
        Simulated time and step size (s), > 0.
    params : SoftContactParams
    tau : array_like, shape (nv,), optional
    state : SurfaceState, optional
        Initial patch state (default: at rest).

    Returns
    -------
    spatial.Trajectory
        With the records of :class:`SoftContact`, one row per state.

    Raises
    ------
    ValueError
        For invalid input.
    """
    system = SoftContact(scene, params, state)
    return _simulate(system, q0, v0, h, duration=duration, tau=tau)
