"""A mass-spring body coupled to a REDMAX tree (Sueda §2.7, eqs. 2.84–2.92).

A deformable body is modelled as point masses (nodes) joined by springs.  A node of mass ``m``
has kinetic energy ``½ m |ẋ|²`` and potential ``-m gᵀ x`` (eq. 2.84), i.e. mass block ``m 1``
and force ``m g``.  A spring between nodes ``i`` and ``j`` with stiffness ``k`` and rest
length ``L`` stores ``½ k (l - L)²`` with ``l = |x_j - x_i|``; its force on node ``i`` is
``k (l - L) (x_j - x_i) / l`` and the opposite on ``j`` (eqs. 2.85–2.86 write the energy
with the strain ``(l - L)/L`` and a stiffness ``K = k L²``; the physics is the same).

Every node is either *free* — its world position is a coordinate of the coupled system — or
*attached* to a body ``b`` at the body-fixed point ``r``, so that it rides along:
``x = p_b + R_b r`` and, with the body twist ``φ_b`` in body coordinates,
``ẋ = R_b Γ(r) φ_b`` (eq. 2.87, ``Γ`` the material Jacobian of eq. 1.12).  Body 0 is the
world: a node attached to it is a fixed point.

The coupled coordinates are ``q_R = (q, x_free)``; the maximal ones stack the body twists,
the velocities of all nodes, in node order.  The map between them (eq. 2.89) is the block
Jacobian ``J_MR``: the body rows are ``[J_mr, 0]``, an attached node's rows are
``[R_b Γ(r) J_mr(b), 0]`` and a free node's rows pick its own velocity, ``[0, 1]``.

Its time derivative needs the product rule on *both* factors of an attached node's rows,
``d/dt(R Γ J_mr(b)) = R [ω_b] Γ J_mr(b) + R Γ J̇_mr(b)`` with ``ω_b`` the body's angular
velocity in body coordinates (``Ṙ = R [ω]``, eq. 1.9).  Eq. 2.88 gives only the first factor's
rate, ``J̇_am = R [ω] Γ``; the second term comes from ``J̇_mr`` (§2.2).

With the block-diagonal maximal mass ``M_M = diag(M_m, m_1 1, …, m_n 1)`` and force ``f_M``
(the body forces of eq. 1.21, the nodes' weights and spring forces), the equations of motion
are eq. 2.92,

    (J_MRᵀ M_M J_MR) q̈_R = J_MRᵀ (f_M - M_M J̇_MR q̇_R) + [τ; 0].

Nodes attached to the world, and the springs between them, contribute nothing but a constant
potential.  Only single (unbatched) states are supported.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._validate import integer, real, real_array
from ..kinematics import _forward_pass
from ..model import Model
from ..se3 import material_jacobian
from ..vectors import skew, unskew
from .jacobian import _jacobian, _jacobian_dot, _rows
from .maximal_terms import _apply_mass, _maximal_bias

__all__ = [
    "ParticleSystem",
    "coupled_jacobian",
    "coupled_jacobian_dot",
    "coupled_mass_matrix",
    "coupled_force",
    "coupled_forward_dynamics",
    "coupled_energy",
]


@dataclass
class ParticleSystem:
    """Point masses and springs to couple with a kinematic tree (Sueda §2.7).

    Parameters
    ----------
    masses : array_like, shape (n,)
        Node masses, > 0.
    attached : sequence of length n, optional
        Per node ``None`` (free) or ``(body, r)``: the node is fixed at point ``r`` (body
        coordinates) of body ``body`` (``1 … NB``; 0 is the world).  Default: all free.
    springs : array_like of int, shape (ns, 2), optional
        Node index pairs ``(i, j)``, ``i != j``.
    stiffness, rest_length : array_like, shape (ns,), optional
        Spring constants ``k >= 0`` (energy ``½ k (l - L)²``) and rest lengths ``L >= 0``.

    Raises
    ------
    ValueError
        For a non-positive or non-finite mass, a malformed attachment, a spring index out of
        range or joining a node to itself, or spring parameters of the wrong length or sign.
        Body numbers are checked against the model when the system is used.
    """

    masses: np.ndarray
    attached: list = field(default=None)
    springs: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=int))
    stiffness: np.ndarray = field(default_factory=lambda: np.zeros(0))
    rest_length: np.ndarray = field(default_factory=lambda: np.zeros(0))

    def __post_init__(self):
        m = np.asarray(real(self.masses, "masses"), dtype=float)
        if m.ndim != 1 or not np.all(np.isfinite(m)) or np.any(m <= 0):
            raise ValueError(f"masses must be a 1-D array of finite positive numbers, got {m}")
        n = m.size
        self.masses = m
        att = [None] * n if self.attached is None else list(self.attached)
        if len(att) != n:
            raise ValueError(f"attached must have one entry per node ({n}), got {len(att)}")
        for a, item in enumerate(att):
            if item is None:
                continue
            if not isinstance(item, tuple | list) or len(item) != 2:
                raise ValueError(f"node {a}: attachment must be (body number, finite 3-vector)")
            body, r = item
            body = integer(body, f"node {a}: attachment body", minimum=0)
            r = np.asarray(real(r, f"node {a}: attachment point"), dtype=float)
            if r.shape != (3,) or not np.all(np.isfinite(r)):
                raise ValueError(f"node {a}: attachment must be (body number, finite 3-vector)")
            att[a] = (body, r)
        self.attached = att
        s = np.asarray(self.springs)
        if s.size == 0:
            s = np.zeros((0, 2), dtype=int)
        if s.ndim != 2 or s.shape[1] != 2 or not np.issubdtype(s.dtype, np.integer):
            raise ValueError(
                f"springs must be an integer array of node pairs, shape (ns, 2), got {s.dtype} "
                f"of shape {s.shape}"
            )
        if s.size and (s.min() < 0 or s.max() >= n or np.any(s[:, 0] == s[:, 1])):
            raise ValueError(
                f"spring node indices must be distinct and in 0 … {n - 1}, got {s.tolist()}"
            )
        self.springs = s
        for name in ("stiffness", "rest_length"):
            v = np.asarray(real(getattr(self, name), name), dtype=float)
            if v.shape != (len(s),) or not np.all(np.isfinite(v)) or np.any(v < 0):
                raise ValueError(
                    f"{name} must hold {len(s)} finite non-negative numbers, got {v.tolist()}"
                )
            setattr(self, name, v)

    @property
    def free(self) -> list[int]:
        """Indices of the free nodes, in the order their positions appear in ``x``."""
        return [a for a, item in enumerate(self.attached) if item is None]


# ----------------------------------------------------------------------------- kernels


def _pose(fp, b: int):
    """Rotation ``R`` and origin ``p`` of body ``b`` in the world, from ``^bX_0``."""
    if b == 0:
        return np.eye(3), np.zeros(3)
    X = fp.X0[b]
    R = X[:3, :3].T  # ^bX_0 = [[E, 0], [-E p×, E]] with E = Rᵀ
    P = -R @ X[3:, :3]
    return R, unskew(P)


def _positions(model, ps, fp, x) -> np.ndarray:
    """World positions of all nodes, (n, 3): attached ones follow their bodies."""
    out = np.empty((ps.masses.size, 3))
    out[ps.free] = x
    for a, item in enumerate(ps.attached):
        if item is not None:
            R, p = _pose(fp, item[0])
            out[a] = p + R @ item[1]
    return out


def _coupled_jacobians(model, ps, fp, q, qd=None):
    """``J_MR`` (eq. 2.89) and, if ``qd`` is given, ``J̇_MR`` (derived above)."""
    n, nv, nb6 = ps.masses.size, model.nv, 6 * model.NB
    J_mr = _jacobian(model, fp)
    Jd_mr = None if qd is None else _jacobian_dot(model, fp, J_mr, q, qd)
    shape = (nb6 + 3 * n, nv + 3 * len(ps.free))
    J, Jd = np.zeros(shape), np.zeros(shape)
    J[:nb6, :nv] = J_mr
    if qd is not None:
        Jd[:nb6, :nv] = Jd_mr
    for col, a in enumerate(ps.free):
        J[nb6 + 3 * a : nb6 + 3 * a + 3, nv + 3 * col : nv + 3 * col + 3] = np.eye(3)
    for a, item in enumerate(ps.attached):
        if item is None or item[0] == 0:
            continue
        b, r = item
        R, _ = _pose(fp, b)
        RG, rows = R @ material_jacobian(r), slice(nb6 + 3 * a, nb6 + 3 * a + 3)
        J[rows, :nv] = RG @ J_mr[_rows(b)]
        if qd is not None:
            omega = J_mr[_rows(b)][:3] @ qd
            RwG = R @ skew(omega) @ material_jacobian(r)  # eq. 2.88
            Jd[rows, :nv] = RwG @ J_mr[_rows(b)] + RG @ Jd_mr[_rows(b)]
    return J, Jd


def _mass_blocks(model, ps, A: np.ndarray) -> np.ndarray:
    """``M_M A`` (eq. 2.91) for ``A`` with ``6 NB + 3 n`` rows."""
    nb6 = 6 * model.NB
    top = _apply_mass(model, A[:nb6]) if model.NB else A[:0]
    nodes = A[nb6:].reshape(-1, 3, A.shape[-1]) * ps.masses[:, None, None]
    return np.concatenate([top, nodes.reshape(-1, A.shape[-1])])


def _spring_terms(ps, X: np.ndarray):
    """Spring forces on every node (n, 3) and the total spring energy (eq. 2.85–2.86)."""
    f, V = np.zeros_like(X), 0.0
    for (i, j), k, L in zip(ps.springs, ps.stiffness, ps.rest_length, strict=True):
        d = X[j] - X[i]
        l = np.linalg.norm(d)
        if l == 0.0:
            raise ValueError(f"spring ({i}, {j}) has zero length: its direction is undefined")
        f_i = k * (l - L) * d / l
        f[i] += f_i
        f[j] -= f_i
        V += 0.5 * k * (l - L) ** 2
    return f, V


def _check(model: Model, ps: ParticleSystem, q, x, qd=None, xd=None, tau=None, who=None):
    """Validate the coupled state once; return it as float arrays.

    ``who`` names a function of the equations of motion, which refuses loop joints.
    """
    if not isinstance(ps, ParticleSystem):
        raise TypeError(f"particles must be a ParticleSystem, got {type(ps).__name__}")
    for a, item in enumerate(ps.attached):
        if item is not None and not 0 <= item[0] <= model.NB:
            raise ValueError(
                f"node {a} is attached to unknown body {item[0]} (the model has bodies "
                f"0 … {model.NB}, 0 being the world)"
            )
    q, qd, _, tau = model.check_state(q, qd, None, tau, tree_dynamics=who)
    if q.ndim != 1:
        raise ValueError(f"q must be a single configuration of shape ({model.nq},)")
    nf = len(ps.free)
    out = []
    for v, name in ((x, "x"), (xd, "xd")):
        if v is not None:
            v = real_array(v, name)
            if v.shape != (nf, 3) or not np.all(np.isfinite(v)):
                raise ValueError(f"{name} must be a finite array of shape ({nf}, 3), got {v.shape}")
        out.append(v)
    return q, out[0], qd, out[1], tau


def _terms(model, ps, q, x, qd, xd, tau):
    """``M_R``, ``f_R`` (eq. 2.92) and the node positions."""
    fp = _forward_pass(model, q, qd)
    J, Jd = _coupled_jacobians(model, ps, fp, q, qd)
    qdR = np.concatenate([qd, xd.ravel()])
    X = _positions(model, ps, fp, x)
    f_spring, _ = _spring_terms(ps, X)
    f_nodes = ps.masses[:, None] * model.gravity + f_spring
    f_M = np.concatenate([_maximal_bias(model, fp, None), f_nodes.ravel()])
    M_R = J.T @ _mass_blocks(model, ps, J)
    f_R = J.T @ (f_M - _mass_blocks(model, ps, (Jd @ qdR)[:, None])[:, 0])
    if tau is not None:
        f_R[: model.nv] += tau
    return M_R, f_R


# ----------------------------------------------------------------------------- public API


def coupled_jacobian(model: Model, particles: ParticleSystem, q, x) -> np.ndarray:
    """Block Jacobian ``J_MR`` from ``(q̇, ẋ_free)`` to (body twists, node velocities) (eq. 2.89).

    Rows: the ``6 NB`` body twists (as :func:`~spatial.reduced.redmax_jacobian`), then
    ``3`` per node in node order (world coordinates).  Columns: ``nv``, then ``3`` per free
    node in the order of :attr:`ParticleSystem.free`.

    Parameters
    ----------
    model : Model
    particles : ParticleSystem
    q : array_like, shape (nq,)
    x : array_like, shape (n_free, 3)
        World positions of the free nodes.

    Returns
    -------
    ndarray, shape (6 NB + 3 n, nv + 3 n_free)

    Raises
    ------
    ValueError
        If a node is attached to a body the model does not have, or a state array has the
        wrong shape or is not finite.
    """
    q, x, _, _, _ = _check(model, particles, q, x)
    return _coupled_jacobians(model, particles, _forward_pass(model, q), q)[0]


def coupled_jacobian_dot(model: Model, particles: ParticleSystem, q, x, qd, xd) -> np.ndarray:
    """``J̇_MR`` along the motion: attached rows get ``R[ω]Γ J_mr + RΓ J̇_mr`` (eqs. 2.88, 2.90).

    Parameters and errors as :func:`coupled_jacobian`, plus the velocities ``qd`` (nv,) and
    ``xd`` (n_free, 3).  (``J̇_MR`` does not depend on ``x`` or ``xd``; they are checked for
    a uniform signature.)
    """
    q, x, qd, xd, _ = _check(model, particles, q, x, qd, xd)
    return _coupled_jacobians(model, particles, _forward_pass(model, q, qd), q, qd)[1]


def coupled_mass_matrix(model: Model, particles: ParticleSystem, q, x) -> np.ndarray:
    """Coupled mass matrix ``M_R = J_MRᵀ M_M J_MR`` (Sueda eq. 2.92).

    Returns an ``(nv + 3 n_free)`` square matrix; errors as :func:`coupled_jacobian`, and a
    model with loop joints is refused as by :func:`~spatial.reduced.redmax_mass_matrix`.
    """
    q, x, _, _, _ = _check(model, particles, q, x, who="coupled_mass_matrix")
    J = _coupled_jacobians(model, particles, _forward_pass(model, q), q)[0]
    return J.T @ _mass_blocks(model, particles, J)


def coupled_force(model: Model, particles: ParticleSystem, q, x, qd, xd, tau=None) -> np.ndarray:
    """Coupled force ``f_R = J_MRᵀ (f_M - M_M J̇_MR q̇_R) + [τ; 0]`` (Sueda eq. 2.92).

    ``f_M`` holds the bodies' Coriolis wrenches and weights (eq. 1.21), the nodes' weights
    ``m g`` (eq. 2.84) and the spring forces (eq. 2.86, energy ``½ k (l - L)²``).

    Parameters
    ----------
    model : Model
    particles : ParticleSystem
    q : array_like, shape (nq,)
    x : array_like, shape (n_free, 3)
    qd : array_like, shape (nv,)
    xd : array_like, shape (n_free, 3)
    tau : array_like, shape (nv,), optional
        Joint forces (zero if omitted).

    Returns
    -------
    ndarray, shape (nv + 3 n_free,)

    Raises
    ------
    ValueError
        As :func:`coupled_jacobian`; also if a spring has zero length, or the model has loop
        joints (as :func:`~spatial.reduced.redmax_force`).
    """
    q, x, qd, xd, tau = _check(model, particles, q, x, qd, xd, tau, "coupled_force")
    return _terms(model, particles, q, x, qd, xd, tau)[1]


def coupled_forward_dynamics(model: Model, particles: ParticleSystem, q, x, qd, xd, tau=None):
    """Accelerations ``(q̈, ẍ_free)`` of the coupled system, solving ``M_R q̈_R = f_R`` (eq. 2.92).

    Parameters as :func:`coupled_force`.

    Returns
    -------
    qdd : ndarray, shape (nv,)
    xdd : ndarray, shape (n_free, 3)

    Raises
    ------
    ValueError
        As :func:`coupled_force` (loop joints included); also if ``M_R`` is singular.
    """
    q, x, qd, xd, tau = _check(model, particles, q, x, qd, xd, tau, "coupled_forward_dynamics")
    return _coupled_forward_dynamics(model, particles, q, x, qd, xd, tau)


def _coupled_forward_dynamics(model: Model, particles: ParticleSystem, q, x, qd, xd, tau):
    """:func:`coupled_forward_dynamics` of arguments already validated (internal callers)."""
    M_R, f_R = _terms(model, particles, q, x, qd, xd, tau)
    try:
        acc = np.linalg.solve(M_R, f_R)
    except np.linalg.LinAlgError:
        raise ValueError(
            "coupled_forward_dynamics: the coupled mass matrix M_R is singular "
            "(some coordinate moves no mass)"
        ) from None
    return acc[: model.nv], acc[model.nv :].reshape(-1, 3)


def coupled_energy(model: Model, particles: ParticleSystem, q, x, qd, xd):
    """Kinetic and potential energy ``(T, V)`` of the coupled system (eqs. 2.84–2.85).

    ``T`` sums ``½ φ_iᵀ I_i φ_i`` over the bodies and ``½ m |ẋ|²`` over the nodes; ``V`` sums
    the bodies' and nodes' gravitational potential ``-m gᵀ c`` and the springs' ``½ k (l - L)²``.
    Errors as :func:`coupled_force`.
    """
    q, x, qd, xd, _ = _check(model, particles, q, x, qd, xd)
    fp = _forward_pass(model, q, qd)
    J = _coupled_jacobians(model, particles, fp, q)[0]
    v = J @ np.concatenate([qd, xd.ravel()])
    T = 0.5 * v @ _mass_blocks(model, particles, v[:, None])[:, 0]
    X = _positions(model, particles, fp, x)
    _, V = _spring_terms(particles, X)
    V -= particles.masses @ (X @ model.gravity)
    for b in range(1, model.NB + 1):
        I = np.asarray(model.inertia[b], dtype=float)
        m = I[3, 3]
        if m > 0:
            h = I[:3, 3:]  # m c× (Featherstone eq. 2.63)
            c = unskew(h) / m
            R, p = _pose(fp, b)
            V -= m * model.gravity @ (p + R @ c)
    return float(T), float(V)
