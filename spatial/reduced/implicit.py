"""Joint springs and dampers with the linearly implicit step, and hyper-reduced coordinates
(Sueda §2.5–2.6).

Joint springs and dampers (§2.5).  In reduced coordinates a spring or damper acting on the
joints is just one more generalized force added to ``f_r`` (eq. 2.73):

    τ_K = -K (q ⊖ q_rest)        (eq. 2.72),        τ_D = -D q̇        (eq. 2.74),

where ``q ⊖ q_rest`` is the velocity-variable displacement ``model.difference(q_rest, q)``
(simply ``q - q_rest`` for joints whose velocity variables are ``q̇``).

A stiff spring makes a symplectic Euler step unstable once ``h ω > 2``.  The linearly implicit Euler
step evaluates the two forces at the *end* of the step, linearized about its start.  Implicit
Euler moves the positions with the new velocity, ``q⁺ - q = h q̇⁺``, so

    τ_K⁺ ≈ τ_K + (∂τ_K/∂q)(q⁺ - q) = τ_K - h K q̇⁺,       τ_D⁺ = -D q̇⁺ (it is linear).

Putting them into the velocity update ``M_r (q̇⁺ - q̇) = h (f_r + τ_K⁺ + τ_D⁺)``, with
everything else (gravity, velocity-product terms, ``τ``, ``f_ext``) explicit, and gathering
the ``q̇⁺`` terms on the left gives

    (M_r + h D + h² K) q̇⁺ = M_r q̇ + h (f_r + τ_K),                        (eqs. 2.77–2.78)

then ``q⁺ = integrate(q, q̇⁺, h)``.  The damper's current force drops out of the right-hand
side, but the spring's current force ``τ_K`` stays there: the book's eq. 2.77 folds it into
``f_r``.  Here, as in eq. 2.78, ``K = -∂τ_K/∂q`` and ``D = -∂τ_D/∂q̇`` are positive
semidefinite, so both add mass-like terms and the matrix on the left stays positive definite.
(Eq. 2.79's ``- h² K`` reads ``K`` as ``+∂τ/∂q``, Baraff and Witkin's sign, while keeping
``+ h D``; with eq. 2.78's ``K`` the sign there must be ``+``.)  With ``K = D = 0`` the step is
one symplectic Euler step of the forward dynamics.

Hyper-reduced coordinates (§2.6).  A constant matrix ``J_rR`` ties the joint coordinates to
fewer coordinates ``y``, ``q = J_rR y`` (e.g. ``J_rR = ones((n, 1))`` makes every joint of a
chain turn by the same angle).  Then ``q̇ = J_rR ẏ``, ``J_mR = J_mr J_rR`` and, ``J_rR`` being
constant, ``J̇_mR = J̇_mr J_rR`` (eq. 2.82).  Substituting into eq. 2.80 and projecting with
``J_rRᵀ`` gives ``M_R ÿ = f_R`` with ``M_R = J_rRᵀ M_r J_rR`` and ``f_R = J_rRᵀ f_r`` (eq. 2.83):
the forces that keep ``q = J_rR y`` do no work on the motions it allows, so they drop out.
"""

from __future__ import annotations

import numpy as np

from .._validate import as_array, positive_scalar, real_array
from .._validate import broadcast_batch as _batch_shape
from ..dynamics.rnea import _check_f_ext
from ..joints import Joint
from ..kinematics import _forward_pass
from ..model import Model
from .jacobian import _jacobian, _jacobian_dot
from .redmax import _check, _force, _mass_matrix, _redmax_pass

__all__ = [
    "redmax_step",
    "hyper_reduced_forward_dynamics",
    "hyper_reduced_mass_matrix",
    "hyper_reduced_force",
    "hyper_reduced_jacobian",
    "hyper_reduced_jacobian_dot",
]


# ----------------------------------------------------------------------------- validation


def _gain_matrix(x, name: str, nv: int) -> np.ndarray:
    """``K`` or ``D`` as a symmetric positive semidefinite (nv, nv) matrix (zero if None).

    A vector of length ``nv`` is a diagonal matrix (one gain per velocity variable, eq. 2.78);
    an (nv, nv) matrix is taken as it is and must be symmetric positive semidefinite.
    """
    if x is None:
        return np.zeros((nv, nv))
    a = real_array(x, name)
    if a.shape not in ((nv,), (nv, nv)):
        raise ValueError(
            f"{name} must be a vector of {nv} gains (one per velocity variable) or an "
            f"({nv}, {nv}) matrix, got shape {a.shape}"
        )
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} contains non-finite values (nan or inf)")
    if a.ndim == 1:
        if np.any(a < 0):
            i = int(np.argmin(a))
            raise ValueError(f"{name} gains must be >= 0, got {a[i]:g} at velocity variable {i}")
        return np.diag(a)
    scale = np.abs(a).max(initial=0.0)
    asym = np.abs(a - a.T).max(initial=0.0)
    if asym > 1e-12 * (1.0 + scale):
        raise ValueError(f"{name} must be symmetric, max |{name} - {name}ᵀ| = {asym:.3g}")
    lowest = float(np.linalg.eigvalsh(a)[0]) if nv else 0.0
    if lowest < -1e-12 * (1.0 + scale):
        raise ValueError(
            f"{name} must be positive semidefinite, its smallest eigenvalue is {lowest:.3g}"
        )
    return a


def _rest_configuration(model: Model, rest) -> np.ndarray:
    """The spring's rest configuration, (..., nq): the neutral one if None, else checked."""
    if rest is None:
        return model.neutral_configuration()
    rest = as_array(rest, "rest", (model.nq,))
    for i in range(1, model.NB + 1):
        model.joints[i].check_q(rest[..., model.q_index[i]], f"rest of joint {i}")
    return rest


def _check_hyper(model: Model, J_rR) -> np.ndarray:
    """``J_rR`` as a finite (nv, nR) matrix on a model whose ``q`` is linear in ``q̇``."""
    for i in range(1, model.NB + 1):
        joint = model.joints[i]
        if joint.nq != joint.nv or type(joint).q_dot is not Joint.q_dot:
            raise ValueError(
                f"hyper-reduced coordinates need q̇ as the velocity variables of every joint "
                f"(q = J_rR y); joint {i} ({joint!r}) has nq = {joint.nq}, nv = {joint.nv} or "
                "other velocity variables"
            )
    a = real_array(J_rR, "J_rR")
    if a.ndim != 2 or a.shape[0] != model.nv or a.shape[1] < 1:
        raise ValueError(
            f"J_rR must be a constant matrix of shape (nv, nR) = ({model.nv}, nR) with nR >= 1, "
            f"got shape {a.shape}"
        )
    if not np.all(np.isfinite(a)):
        raise ValueError("J_rR contains non-finite values (nan or inf)")
    return a


def _hyper_state(model: Model, J_rR, y, yd=None):
    """Check ``J_rR``, ``y`` and ``ẏ``; return them with ``q = J_rR y`` and ``q̇ = J_rR ẏ``."""
    J_rR = _check_hyper(model, J_rR)
    nR = J_rR.shape[1]
    y = as_array(y, "y", (nR,))
    q = y @ J_rR.T
    model.check_state(q)
    if yd is None:
        return J_rR, y, None, q, None
    yd = as_array(yd, "yd", (nR,))
    _batch_shape(y=(y, 1), yd=(yd, 1))
    return J_rR, y, yd, q, yd @ J_rR.T


def _solve(A: np.ndarray, b: np.ndarray, who: str) -> np.ndarray:
    """``A⁻¹ b`` for batched ``A`` (..., n, n), ``b`` (..., n); a clear error if singular."""
    A, b = np.broadcast_arrays(A, b[..., None])
    try:
        return np.linalg.solve(A, b)[..., 0]
    except np.linalg.LinAlgError:
        raise ValueError(
            f"{who}: the mass matrix is singular (a coordinate moves no mass), so the motion "
            "is undefined"
        ) from None


# ----------------------------------------------------------------------------- kernels


def _displacement(model: Model, rest: np.ndarray, q: np.ndarray) -> np.ndarray:
    """``q ⊖ q_rest`` in velocity variables, (..., nv): ``model.difference`` without re-checks."""
    out = np.zeros(np.broadcast_shapes(rest.shape[:-1], q.shape[:-1]) + (model.nv,))
    for i in range(1, model.NB + 1):
        qi = model.q_index[i]
        out[..., model.v_index[i]] = model.joints[i].difference(rest[..., qi], q[..., qi])
    return out


def _integrate(model: Model, q: np.ndarray, v: np.ndarray, h: float) -> np.ndarray:
    """``model.integrate(q, v, h)`` without re-checks."""
    out = np.zeros(np.broadcast_shapes(q.shape[:-1], v.shape[:-1]) + (model.nq,))
    for i in range(1, model.NB + 1):
        qi = model.q_index[i]
        out[..., qi] = model.joints[i].integrate(q[..., qi], v[..., model.v_index[i]], h)
    return out


# ----------------------------------------------------------------------------- public API


def redmax_step(
    model: Model,
    q,
    qd,
    h,
    tau=None,
    stiffness=None,
    damping=None,
    rest=None,
    f_ext=None,
) -> tuple[np.ndarray, np.ndarray]:
    """One linearly implicit Euler step with joint springs and dampers (Sueda eqs. 2.72–2.78).

    Solves ``(M_r + h D + h² K) q̇⁺ = M_r q̇ + h (f_r + τ_K)`` with ``τ_K = -K (q ⊖ q_rest)``
    (eq. 2.72) and the damper ``τ_D = -D q̇⁺`` taken fully implicitly (eq. 2.76), then moves
    ``q⁺ = integrate(q, q̇⁺, h)``.  ``f_r`` (gravity, velocity-product terms, ``τ``, ``f_ext``,
    eq. 2.18) is explicit.  The spring's linearization uses ``∂(q ⊖ q_rest)/∂t = q̇``, exact for
    joints whose velocity variables are ``q̇`` and first order in the displacement for
    quaternion joints.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd : array_like, shape (..., nv)
    h : float
        Time step, > 0.
    tau : array_like, shape (..., nv), optional
        Joint forces (zero if omitted).
    stiffness, damping : array_like, shape (nv,) or (nv, nv), optional
        ``K = -∂τ_K/∂q`` and ``D = -∂τ_D/∂q̇`` (eq. 2.78): a vector is the diagonal (one gain per
        velocity variable), a matrix must be symmetric positive semidefinite.  Zero if omitted.
    rest : array_like, shape (..., nq), optional
        Rest configuration of the springs (the neutral configuration if omitted).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External force on each body in base coordinates; row 0 (the base) must be zero.

    Returns
    -------
    q_next : ndarray, shape (..., nq)
    qd_next : ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        If ``h`` is not a number > 0; ``stiffness`` or ``damping`` has the wrong shape, a
        negative gain, or is not symmetric positive semidefinite; ``rest`` is not a valid
        configuration; a state array is invalid or the model has loop joints (as
        :func:`~spatial.reduced.redmax_force`); or the step's matrix is singular.

    Examples
    --------
    A spring pendulum without gravity, released 0.1 rad from rest, swings back towards it:

    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import simple_pendulum
    >>> model = simple_pendulum(g=0.0)
    >>> q, qd = sp.reduced.redmax_step(model, [0.1], [0.0], 0.01, stiffness=[4.0])
    >>> bool(qd[0] < 0.0 and q[0] < 0.1)
    True
    """
    h = positive_scalar(h, "h")
    K = _gain_matrix(stiffness, "stiffness", model.nv)
    D = _gain_matrix(damping, "damping", model.nv)
    rest = _rest_configuration(model, rest)
    q, qd, tau, f_ext, fp, J = _check(model, q, qd, tau, f_ext, "redmax_step")
    _batch_shape(q=(q, 1), qd=(qd, 1), tau=(tau, 1), f_ext=(f_ext, 2), rest=(rest, 1))
    M_r = _mass_matrix(model, J)
    f_r = _force(model, fp, J, q, qd, tau, f_ext)
    tau_K = -_displacement(model, rest, q) @ K.T  # eq. 2.72
    A = M_r + h * D + h * h * K  # eq. 2.77
    b = (M_r @ qd[..., None])[..., 0] + h * (f_r + tau_K)
    qd_next = _solve(A, b, "redmax_step")
    return _integrate(model, q, qd_next, h), qd_next


def hyper_reduced_jacobian(model: Model, J_rR, y) -> np.ndarray:
    """``J_mR = J_mr J_rR`` with ``φ = J_mR ẏ`` (Sueda eq. 2.82).

    Parameters
    ----------
    model : Model
        Every joint's velocity variables must be ``q̇`` (``q = J_rR y`` is linear).
    J_rR : array_like, shape (nv, nR)
        The constant map ``q = J_rR y`` from hyper-reduced to joint coordinates.
    y : array_like, shape (..., nR)

    Returns
    -------
    J_mR : ndarray, shape (..., 6 NB, nR)

    Raises
    ------
    ValueError
        If ``J_rR`` is not a finite (nv, nR) matrix, a joint's velocity variables are not
        ``q̇``, ``y`` has the wrong shape, or ``q = J_rR y`` is not a valid configuration.
    """
    J_rR, _, _, q, _ = _hyper_state(model, J_rR, y)
    return _jacobian(model, _forward_pass(model, q)) @ J_rR


def hyper_reduced_jacobian_dot(model: Model, J_rR, y, yd) -> np.ndarray:
    """``J̇_mR = J̇_mr J_rR``, as ``J_rR`` is constant (Sueda eq. 2.82 with ``J̇_rR = 0``).

    ``model``, ``J_rR`` and ``y`` are as in :func:`hyper_reduced_jacobian`; ``yd`` (shape
    ``(..., nR)``) is ``ẏ``.  Returns an array of shape (..., 6 NB, nR).

    Raises
    ------
    ValueError
        As :func:`hyper_reduced_jacobian`; also if ``yd`` is invalid or the batch shapes do
        not broadcast.
    NotImplementedError
        As :func:`~spatial.reduced.redmax_jacobian_dot`.
    """
    J_rR, _, _, q, qd = _hyper_state(model, J_rR, y, yd)
    fp = _forward_pass(model, q, qd)
    return _jacobian_dot(model, fp, _jacobian(model, fp), q, qd) @ J_rR


def hyper_reduced_mass_matrix(model: Model, J_rR, y) -> np.ndarray:
    """``M_R = J_mRᵀ M_m J_mR = J_rRᵀ M_r J_rR`` (Sueda eq. 2.83), shape (..., nR, nR).

    The arguments and errors are those of :func:`hyper_reduced_jacobian`; a model with loop
    joints is refused as by :func:`~spatial.reduced.redmax_mass_matrix`.
    """
    model.check_tree("hyper_reduced_mass_matrix")
    J_rR, _, _, q, _ = _hyper_state(model, J_rR, y)
    M_r = _mass_matrix(model, _jacobian(model, _forward_pass(model, q)))
    return J_rR.T @ M_r @ J_rR


def hyper_reduced_force(model: Model, J_rR, y, yd, tau=None, f_ext=None) -> np.ndarray:
    """``f_R = J_mRᵀ (f_m - M_m J̇_mR ẏ) + τ_R = J_rRᵀ f_r + τ_R`` (Sueda eq. 2.83).

    ``model``, ``J_rR``, ``y`` and ``yd`` are as in :func:`hyper_reduced_jacobian_dot`;
    ``tau`` (shape ``(..., nR)``, zero if omitted) is the generalized force ``τ_R`` on ``y``
    itself (joint forces ``τ`` act on ``y`` as ``J_rRᵀ τ``); ``f_ext`` is as in
    :func:`~spatial.reduced.redmax_force`.  Returns an array of shape (..., nR).

    Raises
    ------
    ValueError
        As :func:`hyper_reduced_jacobian_dot`; also if ``tau`` or ``f_ext`` is invalid, or
        the model has loop joints (as :func:`~spatial.reduced.redmax_force`).
    """
    return _hyper_terms(model, J_rR, y, yd, tau, f_ext, "hyper_reduced_force")[1]


def hyper_reduced_forward_dynamics(model: Model, J_rR, y, yd, tau=None, f_ext=None) -> np.ndarray:
    """Forward dynamics ``ÿ = M_R⁻¹ f_R`` in hyper-reduced coordinates (Sueda eqs. 2.80–2.83).

    Assumes ``q = J_rR y`` with a constant ``J_rR`` (so ``q̇ = J_rR ẏ``, ``J̇_rR = 0``); the
    joints then move with ``q̈ = J_rR ÿ``.  The arguments are those of
    :func:`hyper_reduced_force`; returns ``ÿ`` of shape (..., nR).

    Raises
    ------
    ValueError
        As :func:`hyper_reduced_force` (loop joints included); also if ``M_R`` is singular
        (``J_rR`` has dependent columns, or a column moves no mass).

    Examples
    --------
    Locking the elbow of a double pendulum (``J_rR = [1; 0]``) leaves masses ``m`` at ``l``
    and ``2l`` on one rod: released horizontally it starts with ``ÿ = -3 m g l / 5 m l²``.

    >>> import numpy as np, spatial as sp
    >>> from spatial.builders import double_pendulum
    >>> ydd = sp.reduced.hyper_reduced_forward_dynamics(
    ...     double_pendulum(), [[1.0], [0.0]], [np.pi / 2], [0.0])
    >>> bool(np.isclose(ydd[0], -3 * 9.81 / 5))
    True
    """
    M_R, f_R = _hyper_terms(model, J_rR, y, yd, tau, f_ext, "hyper_reduced_forward_dynamics")
    return _solve(M_R, f_R, "hyper_reduced_forward_dynamics")


def _hyper_terms(model: Model, J_rR, y, yd, tau, f_ext, who: str):
    """Validate once (for ``who``); return ``M_R`` and ``f_R`` (eq. 2.83) from the kernels."""
    model.check_tree(who)
    J_rR, y, yd, q, qd = _hyper_state(model, J_rR, y, yd)
    if tau is not None:
        tau = as_array(tau, "tau", (J_rR.shape[1],))
    f_ext = _check_f_ext(model, f_ext)
    _batch_shape(y=(y, 1), yd=(yd, 1), tau=(tau, 1), f_ext=(f_ext, 2))
    fp = _redmax_pass(model, q, qd)
    J = _jacobian(model, fp)
    M_R = J_rR.T @ _mass_matrix(model, J) @ J_rR
    f_R = _force(model, fp, J, q, qd, None, f_ext) @ J_rR
    return M_R, (f_R if tau is None else f_R + tau)
