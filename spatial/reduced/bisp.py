"""BISP: joint friction by bilateral staggered projections (Sueda §2.11, Alg. 8,
eqs. 2.115–2.120).

BISP (Alg. 8).  In reduced coordinates the joints are never violated, so the "contact" QP of
the joints is replaced by the reduced solve, and only their reaction forces are needed: the
maximal force ``f_α = M_m φ̇ - f_m`` that the joints must exert for the bodies to move with the
reduced accelerations (eq. 2.117), distributed joint by joint from the leaves — a body's share
is the force of its own joint minus those of its children's joints carried to its frame
(Alg. 8 lines 11–13, :func:`joint_reaction_forces`; these are Featherstone's RNEA joint forces).
Each frictional joint then turns its reaction wrench ``F_j`` into impulses on its implicit
contact normals by the small regularized solve of eq. 2.118,
``α_j = h (N_j M_j⁻¹ N_jᵀ + εI)⁻¹ N_j M_j⁻¹ F_j`` (``M_j`` the body's inertia; ``α`` may have
either sign: the joint cannot open), and the friction QP bounds each of the joint's friction
impulses by ``μ_j ‖α_j‖`` (the Euclidean norm of the joint's contact impulses).  The text
bounds friction contact by contact; for a pin whose two radial normals turn with the body,
that bound ``μ r (|α₁| + |α₂|)`` varies with the angle between 1 and √2 times ``μ r |F|``
(4/π on average): a wheel of the tests, spun at 10 rad/s, keeps 9.627 rad/s after 0.4 s instead
of the analytic 9.706.  The norm gives the Coulomb torque ``μ r |F|`` at every angle.
Eq. 2.117 writes the velocity-product term as ``- M_m J_mr q̇`` where the reduced force of
eq. 2.18 has ``- M_m J̇_mr q̇``; the accelerations here include ``J̇_mr q̇``.
:func:`revolute_friction` gives the model of a pin of radius ``r``: two radial normals through
the axle and one friction torque ``≤ μ r ‖α‖``.

External constraints (§2.11.1).  Loop closures and couplings (bilateral) and frictional
contacts with the environment (unilateral) join every velocity solve, which becomes the QP of
eqs. 2.119–2.120; their own maximal forces are removed from the bodies' forces before the
distribution to the joints, the contacts' normal impulses join the staggering, and their
friction rows join the friction QP with the joints' (as in staggered projections).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .._batched import T
from .._validate import (
    as_array,
    as_scalar_array,
    friction_coefficients,
    integer,
    positive_scalar,
)
from ..kinematics import _forward_pass
from ..model import Model
from .constrained import _require_independent, _solve
from .constraints import (
    JointConstraint,
    PointConstraint,
    PointContact,
    _check_items,
    _check_state,
    _hinge_directions,
    _maximal,
    _stack,
)
from .jacobian import _jacobian, _rows
from .maximal_terms import _apply_mass, _maximal_bias
from .products import _dot_product, _product
from .redmax import _mass_matrix
from .staggered import (
    StaggeredResult,
    _check_common,
    _friction,
    _not_converged,
    _tangent_rows,
)

__all__ = ["JointFriction", "revolute_friction", "joint_reaction_forces", "bisp_step"]


@dataclass(frozen=True)
class JointFriction:
    """Implicit contacts of one joint for BISP (Sueda §2.11): in the joint's body frame,
    ``normals`` (k, 6) are the wrench directions of its contact normals and ``tangents`` (m, 6)
    the motion directions along which its friction acts, each ``|b| ≤ mu ‖α‖``."""

    joint: int
    mu: float
    normals: np.ndarray = field(repr=False)
    tangents: np.ndarray = field(repr=False)


def revolute_friction(joint: int, mu: float, radius: float, axis=(0.0, 0.0, 1.0)) -> JointFriction:
    """A pin of radius ``radius`` about ``axis`` (body coordinates, through the body origin).

    Two contact normals carry the radial force through the axle (the two directions of
    eq. 2.94 perpendicular to the axis); the friction force at the pin's surface resists
    rotation about the axis with a torque ``≤ μ r ‖α‖``, i.e. Coulomb's ``μ r |F_radial|``.

    Raises
    ------
    ValueError
        If ``mu < 0``, ``radius ≤ 0`` or the axis is zero.
    """
    mu = friction_coefficients(mu, 1)[0]
    joint = integer(joint, "joint", minimum=1)
    radius = positive_scalar(radius, "radius")
    a = as_array(axis, "axis", (3,))
    if np.linalg.norm(a) < 1e-12:
        raise ValueError("axis must be nonzero")
    a = a / np.linalg.norm(a)
    normals = np.hstack([np.zeros((2, 3)), _hinge_directions(a)])  # pure forces at the axle
    tangents = np.concatenate([radius * a, np.zeros(3)])[None]
    return JointFriction(joint, float(mu), normals, tangents)


# ----------------------------------------------------------------------------- kernels


def _reactions(model: Model, fp, J, q, qd, qdd, f_ext, f_other=None) -> np.ndarray:
    """Eq. 2.117's ``f_α = M_m φ̇ - f_m``, distributed to the joints (Alg. 8 lines 11–13).

    ``f_other`` (6 NB,) is a maximal force from outside the tree's joints (loop closures,
    eq. 2.119), removed before the distribution.
    """
    x = _product(model, fp, qd)
    acc = J @ qdd + np.concatenate(_dot_product(model, fp, q, qd, qd, x)[1:])  # φ̇
    f_alpha = _apply_mass(model, acc[:, None])[:, 0] - _maximal_bias(model, fp, f_ext)
    if f_other is not None:
        f_alpha = f_alpha - f_other
    F = np.array([f_alpha[_rows(i)] for i in range(1, model.NB + 1)])
    for i in range(model.NB, 0, -1):  # a body's share = its joint's force - its children's
        p = model.parent[i]
        if p != 0:
            F[p - 1] += T(fp.Xup[i]) @ F[i - 1]
    return F


class _External:
    """External constraints of BISP (§2.11.1, eqs. 2.119–2.120) at one validated state.

    Bilateral rows ``Ḡ v = -γ C / h`` (loop closures, couplings) and, optionally, frictional
    contacts ``C v ≥ -c`` with the environment, with their maximal rows ``G_m``, ``C_m`` (zero
    rows for reduced constraints, whose forces act as joint forces) and the contacts' tangent
    rows ``Tc`` (``owner[k]`` the contact of tangent row ``k``).
    """

    def __init__(self, model, fp, J, q, qd, h, factor, constraints, contacts, gamma, solver):
        items = _check_items(model, constraints, (PointConstraint, JointConstraint), "constraints")
        contacts = _check_items(model, contacts, (PointContact,), "contacts")
        rows, cont = _stack(model, fp, q, qd, items), _stack(model, fp, q, qd, contacts)
        _require_independent(rows.G)
        self.G, self.g = rows.G, -gamma * rows.error / h
        self.C = cont.G
        self.c = -np.maximum(cont.error, 0.0) / h - gamma * np.minimum(cont.error, 0.0) / h
        phi = np.concatenate(_product(model, fp, qd)[1:])
        zero = np.zeros((0, 6 * model.NB))
        self.G_m = np.vstack(
            [
                _maximal(model, fp, phi, item)[0]
                if isinstance(item, PointConstraint)
                else np.zeros((len(item.rows), 6 * model.NB))
                for item in items
            ]
            + [zero]
        )
        self.C_m = np.vstack([_maximal(model, fp, phi, ct)[0] for ct in contacts] + [zero])
        self.Tc, self.owner = _tangent_rows(model, fp, q, qd, contacts, self.C)
        self.factor, self.solver = factor, solver
        self.M = _mass_matrix(model, J) if len(contacts) else None
        self.MiGT = factor._solve(self.G.T)
        self.W = self.G @ self.MiGT

    def project(self, v, free=True):
        """The velocity closest to ``v`` (M_r norm) on the bilateral rows: ``(v_c, λ)``;
        ``free=False`` uses ``Ḡ v_c = 0`` and accepts a matrix of columns."""
        if not len(self.G):
            return v, np.zeros(0)
        lam = np.linalg.solve(self.W, self.G @ v - (self.g if free else 0.0))
        return v - self.MiGT @ lam, lam

    def solve(self, v):
        """With the contacts too (a QP through an LCP): ``(v_c, λ, μ)``."""
        if self.M is None:
            return (*self.project(v), np.zeros(0))
        method, options = self.solver
        return _solve(self.M, self.M @ v, self.G, self.g, self.C, self.c, method, options)

    def force(self, lam, mu, h):
        """The maximal force of the external constraints, ``(-G_mᵀ λ + C_mᵀ μ) / h``."""
        return (self.C_m.T @ mu - self.G_m.T @ lam) / h


# ----------------------------------------------------------------------------- public API


def joint_reaction_forces(model: Model, q, qd, qdd, f_ext=None) -> np.ndarray:
    """The wrench each joint exerts on its body, from the maximal equations (Alg. 8, eq. 2.117).

    ``f_α = M_m (J_mr q̈ + J̇_mr q̇) - f_m`` is the total joint force on each body; from the
    leaves to the root, a joint's force is its body's share plus its children's joint forces
    carried into its frame.  Equal to :func:`spatial.joint_forces` (Featherstone's RNEA,
    eqs. 5.9–5.11).

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd, qdd : array_like, shape (nv,)
    f_ext : array_like, shape (NB + 1, 6), optional

    Returns
    -------
    ndarray, shape (NB, 6)
        Row ``i - 1``: joint ``i``'s wrench on body ``i`` in body ``i``'s coordinates.

    Raises
    ------
    ValueError
        For invalid state arrays; for a model with loop joints (as
        :func:`~spatial.reduced.redmax_force`).
    """
    q, qd, _, f_ext = _check_state(model, q, qd, None, f_ext, "joint_reaction_forces")
    qdd = as_array(qdd, "qdd", (model.nv,))
    fp = _forward_pass(model, q, qd)
    return _reactions(model, fp, _jacobian(model, fp), q, qd, qdd, f_ext)


def bisp_step(
    model: Model,
    q,
    qd,
    h,
    frictions,
    tau=None,
    constraints=(),
    *,
    contacts=(),
    mu_contacts=0.0,
    f_ext=None,
    stabilization: float = 0.0,
    regularization: float = 1e-12,
    tol: float = 1e-10,
    max_iter: int = 100,
    method: str = "lemke",
    solver_options: dict | None = None,
) -> tuple[np.ndarray, StaggeredResult]:
    """One velocity step with joint friction by bilateral staggered projections (Sueda Alg. 8).

    Alternates (1) the reduced solve with the current friction impulse, its joint reaction
    forces (:func:`joint_reaction_forces`) and the local solves of eq. 2.118 for each joint's
    contact impulses ``α``, and (2) the friction QP over all frictional joints, until ``α``
    stops changing; then ``q̇⁺ = q̇ + h M_r⁻¹ f_r + M_r⁻¹ p_β``.  With every ``μ = 0`` this is a
    plain symplectic REDMAX step.

    External bilateral constraints (§2.11.1, eqs. 2.119–2.120), e.g. a loop closure, enter every
    velocity solve (``Ḡ q̇ = -γ C / h``, solved through the Delassus matrix with ``O(n)``
    inverse-inertia products; with external contacts too, a QP), the friction QP then sees the
    constrained inverse inertia, and the constraints' own maximal force
    ``(C_mᵀ μ - G_mᵀ λ) / h`` is removed from the bodies' forces before they are distributed to
    the joints.  With no joint friction and only contacts, the step is
    :func:`~spatial.reduced.staggered_step`'s.

    Parameters
    ----------
    model, q, qd, h, tau, f_ext, tol, max_iter, method, solver_options
        As :func:`staggered_step`.
    frictions : sequence of JointFriction
        At most one per joint.
    constraints : sequence of PointConstraint, JointConstraint
        External bilateral constraints (loop closures, couplings).
    contacts : sequence of PointContact
        External frictional contacts with the environment, handled as in
        :func:`~spatial.reduced.staggered_step` (their normal impulses join the staggering).
    mu_contacts : float or array_like, shape (len(contacts),)
        Their friction coefficients, ≥ 0.
    stabilization : float
        ``γ ∈ [0, 1]`` for their position errors, as :func:`~spatial.reduced.constrained_step`.
    regularization : float
        ``ε`` of eq. 2.118, relative to the size of ``N_j M_j⁻¹ N_jᵀ``.

    Returns
    -------
    q_next : ndarray, shape (nq,)
    result : StaggeredResult
        ``alpha`` stacks the joints' contact impulses (signed), then the normal impulses of the
        external contacts; ``beta`` the friction impulses (joint tangent rows, then contact
        tangent rows).

    Raises
    ------
    ValueError, TypeError
        For invalid input (negative ``mu``, a joint out of range or given twice, wrong shapes,
        a body with a singular inertia); for a model with loop joints, as
        :func:`~spatial.reduced.constrained_forward_dynamics`.
    spatial.solvers.LCPError
        If the friction QP or the staggering does not converge.
    """
    h, q, qd, tau, f_ext, fp, J, factor, v_unc = _check_common(
        model, q, qd, h, tau, f_ext, tol, max_iter, method, "bisp_step"
    )
    frictions = tuple(frictions)
    seen = set()
    local = []
    for fr in frictions:
        if not isinstance(fr, JointFriction):
            raise TypeError(f"frictions must be JointFriction instances, got {fr!r}")
        joint = integer(fr.joint, "JointFriction joint")
        if not 1 <= joint <= model.NB or joint in seen:
            raise ValueError(f"joint {joint} is out of 1 … NB = {model.NB} or given twice")
        friction_coefficients(fr.mu, 1, f"mu of joint {joint}")
        Nj = as_scalar_array(fr.normals, f"normals of joint {joint}")
        Tj = as_scalar_array(fr.tangents, f"tangents of joint {joint}")
        if Nj.ndim != 2 or Tj.ndim != 2 or Nj.shape[1] != 6 or Tj.shape[1] != 6:
            raise ValueError("JointFriction normals and tangents must have shapes (k, 6), (m, 6)")
        seen.add(fr.joint)
        Mi_inv = np.linalg.inv(model.inertia[fr.joint])
        W = Nj @ Mi_inv @ Nj.T
        eps = regularization * max(1.0, np.trace(W))
        solve = np.linalg.solve(W + eps * np.eye(len(Nj)), Nj @ Mi_inv)  # eq. 2.118 without h
        row = np.zeros((len(Tj), model.nv))
        row[:, model.v_index[fr.joint]] = Tj @ fp.S[fr.joint]  # tangent motion of the joint
        local.append((fr.joint, fr.mu, solve, row))
    if not 0.0 <= float(stabilization) <= 1.0:
        raise ValueError(f"stabilization γ must be in [0, 1], got {stabilization!r}")
    mu_c = friction_coefficients(mu_contacts, len(tuple(contacts)), "mu_contacts")
    ext = _External(
        model,
        fp,
        J,
        q,
        qd,
        h,
        factor,
        constraints,
        contacts,
        stabilization,
        (method, solver_options),
    )
    Tr = np.vstack([r for *_, r in local] + [ext.Tc, np.zeros((0, model.nv))])
    A_T = Tr @ ext.project(factor._solve(Tr.T), free=False)[0]  # T P Tᵀ, P the constrained M⁻¹
    p_beta, alpha0, b = np.zeros(model.nv), None, np.zeros(len(Tr))
    for it in range(1, max_iter + 1):  # noqa: B007 (reported in the result)
        v_con, lam, mu_n = ext.solve(v_unc + factor._solve(p_beta[:, None])[:, 0])
        qdd = (v_con - qd) / h
        F = _reactions(model, fp, J, q, qd, qdd, f_ext, ext.force(lam, mu_n, h))
        alpha_j = [h * (s @ F[j - 1]) for j, _, s, _ in local]
        alpha = np.concatenate(alpha_j + [mu_n, np.zeros(0)])
        if alpha0 is not None and np.abs(alpha - alpha0).max(initial=0.0) <= tol * (
            1.0 + np.abs(alpha).max(initial=0.0)
        ):
            break
        alpha0 = alpha
        bound = np.concatenate(
            [
                np.full(len(r), m * np.linalg.norm(a))
                for a, (_, m, _, r) in zip(alpha_j, local, strict=True)
            ]
            + [mu_c[ext.owner] * mu_n[ext.owner], np.zeros(0)]
        )
        # the friction-free velocity after the normal impulses, on the bilateral rows
        v_n, _ = ext.project(v_unc + factor._solve((ext.C.T @ mu_n)[:, None])[:, 0])
        b = _friction(method, A_T, Tr @ v_n, bound, solver_options)
        p_beta = Tr.T @ b
    else:
        _not_converged("BISP", max_iter, float(np.abs(alpha - alpha0).max(initial=0.0)))
    v = ext.solve(v_unc + factor._solve(p_beta[:, None])[:, 0])[0]
    return model._per_joint("integrate", q, v, h), StaggeredResult(v, alpha, b, it)
