"""Round-off and sensitivity: the experiments of Featherstone §10.1–10.2.

**A far-away origin** (§10.1, Figs. 10.1–10.2).  A planar body of unit mass and unit rotational
inertia about its centre of mass C spins at unit rate about C and feels the force
``f_C = [1, -1, 1]``.  In C coordinates the acceleration is simply ``a_C = f_C``.  Expressed at
an origin O with ``C - O = c``, the inertia ``I_O`` picks up terms of size ``|c|²`` and its
condition number grows like ``|c|⁴``; solving eq. 10.1 there and carrying the answer back to C
loses accuracy: about constant while ``|c|`` is below the radius of gyration (1), then growing
like ``|c|²`` (:func:`far_origin_error`).  Body coordinates keep every body near its own origin,
which is one reason the recursive algorithms are accurate.

**Sensitivity** (§10.2, Fig. 10.3).  A zig-zag chain of six unit links at ±75° at rest
(:func:`zigzag_chain`) needs ``τ_d = H q̈_d`` for ``q̈_d = 1``; actuators that round ``τ_d`` to
three significant figures produce accelerations up to 40 % off (:func:`sensitivity_example`),
because ``H`` has condition number 725.4.  For chains of identical links the worst case grows
like ``4 N⁴`` (Featherstone 2004), reached when the chain is straight.

**The same effect inside a dynamics algorithm** (§10.1, Table 5.1).  The basic version of the
recursive Newton–Euler algorithm works in one common coordinate system, the base's
(:func:`rnea_base_coordinates`); the package's :func:`spatial.rnea` works in body coordinates.
Move the robot far from the base origin (:func:`move_base_origin`): the torques do not change,
but every inertia in base coordinates picks up parallel-axis terms of size ``d²``, and the
base-coordinates algorithm loses digits in proportion, while the body-coordinates one does not
notice.

**Backward error** (:func:`backward_error`): how far from the given ``τ`` the forces are that
the computed ``q̈`` would actually need, relative to the sizes involved; a stable method keeps it
at a modest multiple of the unit round-off.  The normwise measure divides by ``‖H‖‖q̈‖``, which
on a long chain is dominated by the joints near the base; the componentwise measure
(:func:`componentwise_backward_error`) divides each joint's residual by that joint's own scale,
so it cannot fall below round-off merely because the chain is long.
"""

from __future__ import annotations

import numpy as np

from . import joints
from ._validate import as_array, finite_scalar, integer, positive_scalar, real
from .dynamics import crba, rnea
from .inertia import mcI
from .model import Model
from .planar import Xpln, crf
from .planar import mcI as planar_mcI
from .vectors import crm, inv_transform_inertia, xinv, xlt

__all__ = [
    "far_origin_error",
    "rnea_base_coordinates",
    "move_base_origin",
    "zigzag_chain",
    "round_significant",
    "sensitivity_example",
    "backward_error",
    "componentwise_backward_error",
]


def far_origin_error(c) -> float:
    """``‖a_C - X_CO a_O‖∞`` of §10.1's planar body solved at an origin O with ``C - O = c``.

    Eq. 10.1, ``I_O a_O = f_O - v_O ×* I_O v_O``, is formed by transforming the body's data from
    C to O coordinates (``I_O = X_COᵀ I_C X_CO``, ``v_O = X_CO⁻¹ v_C``, ``f_O = X_COᵀ f_C``),
    solved in float64 and carried back to C, where the exact answer is ``a_C = [1, -1, 1]``.

    Parameters
    ----------
    c : array_like, shape (2,)
        Position of the centre of mass relative to the origin.

    Returns
    -------
    float
        The error of Fig. 10.2.

    Raises
    ------
    ValueError
        If ``c`` is not a finite 2-vector.
    """
    c = as_array(c, "c", (2,))
    if c.ndim != 1:
        raise ValueError(f"c must have shape (2,), got {c.shape}")
    X_CO = Xpln(0.0, c)
    I_C, v_C, f_C = planar_mcI(1.0, [0.0, 0.0], 1.0), np.array([1.0, 0, 0]), np.array([1.0, -1, 1])
    I_O = X_CO.T @ I_C @ X_CO
    v_O = np.linalg.solve(X_CO, v_C)
    f_O = X_CO.T @ f_C
    a_O = np.linalg.solve(I_O, f_O - crf(v_O) @ I_O @ v_O)
    return float(np.max(np.abs(np.array([1.0, -1.0, 1.0]) - X_CO @ a_O)))


def rnea_base_coordinates(model: Model, q, qd, qdd) -> np.ndarray:
    """Inverse dynamics by the basic RNEA of Table 5.1, every vector in base coordinates.

    With ``⁰X_i`` the transform from body ``i`` to base coordinates, ``S_i``, ``v_J`` and
    ``c_J`` are carried to the base (``⁰S_i = ⁰X_i S_i``) and so is each inertia
    (``⁰I_i = ⁰X_i* I_i ⁱX_0``); then ``v_i = v_λ(i) + ⁰S_i q̇_i``,
    ``a_i = a_λ(i) + ⁰X_i (S_i q̈_i + c_J) + v_i × ⁰v_J`` (the derivative of ``⁰X_i`` brings the
    ``v_i ×`` term), ``f_i = I_i a_i + v_i ×* I_i v_i`` and ``τ_i = ⁰S_iᵀ Σ_{j ∈ ν(i)} f_j``.  It
    gives the same ``τ`` as :func:`spatial.rnea`; it is here as the teaching contrast of §10.1.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd, qdd : array_like, shape (nv,)

    Returns
    -------
    ndarray, shape (nv,)

    Raises
    ------
    ValueError
        If the state does not fit the model, or is batched (this version takes one state);
        if the model has loop joints (as :func:`spatial.rnea`).
    """
    q, qd, qdd, _ = model.check_state(q, qd, qdd, tree_dynamics="rnea_base_coordinates")
    if q.ndim != 1:
        raise ValueError(f"rnea_base_coordinates takes one state, got q of shape {q.shape}")
    n = model.NB
    X_i0 = [np.eye(6)] + [None] * n  # ⁱX_0
    v, a = [np.zeros(6)] + [None] * n, [-model.a_grav] + [None] * n
    S0, f = [None] * (n + 1), [np.zeros(6) for _ in range(n + 1)]
    for i in range(1, n + 1):
        p = model.parent[i]
        X_J, S, v_J, c_J = model.joints[i].jcalc(q[model.q_index[i]], qd[model.v_index[i]])
        X_i0[i] = X_J @ model.X_tree[i] @ X_i0[p]
        X_0i = xinv(X_i0[i])
        S0[i] = X_0i @ S
        vJ0 = X_0i @ v_J
        v[i] = v[p] + vJ0
        a[i] = a[p] + X_0i @ (S @ qdd[model.v_index[i]] + c_J) + crm(v[i]) @ vJ0
        I0 = inv_transform_inertia(X_i0[i], model.inertia[i])
        f[i] = I0 @ a[i] - crm(v[i]).T @ (I0 @ v[i])
    tau = np.zeros(model.nv)
    for i in range(n, 0, -1):
        tau[model.v_index[i]] = S0[i].T @ f[i]
        f[model.parent[i]] = f[model.parent[i]] + f[i]  # all forces share one coordinate system
    return tau


def move_base_origin(model: Model, d) -> Model:
    """A copy of ``model`` whose base coordinate origin is moved by ``-d``: the tree sits at ``d``.

    Every child of the base gets ``X_T ← X_T · xlt(d)``; gravity is uniform, so the physics and
    the joint torques are unchanged.

    Raises
    ------
    ValueError
        If ``d`` is not a finite 3-vector.
    """
    d = as_array(d, "d", (3,))
    if d.ndim != 1:
        raise ValueError(f"d must have shape (3,), got {d.shape}")
    moved = Model(gravity=np.asarray(model.gravity, dtype=float))
    for i in range(1, model.NB + 1):
        X_tree = model.X_tree[i] @ xlt(d) if model.parent[i] == 0 else model.X_tree[i]
        moved.add_body(model.parent[i], model.joints[i], X_tree, model.inertia[i], model.names[i])
    return moved


def zigzag_chain(n: int = 6, angle_deg: float = 75.0) -> tuple[Model, np.ndarray]:
    """§10.2's planar chain of ``n`` unit links and its zig-zag configuration (Fig. 10.3).

    Each link has unit length and mass, its centre of mass half way along and rotational inertia
    ``1/12`` about it (a thin rod); the joints turn about z and the joint angles alternate
    ``+angle, -angle, …``.  No gravity (the robot is at rest with only joint forces).

    Returns
    -------
    model : Model
    q : ndarray, shape (n,)

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer or the angle is not finite.
    """
    n = integer(n, "n", minimum=1)
    angle_deg = finite_scalar(angle_deg, "angle_deg")
    model = Model(gravity=[0.0, 0.0, 0.0])
    rod = mcI(1.0, [0.5, 0.0, 0.0], np.diag([1e-6, 1 / 12, 1 / 12]))  # the x inertia is idle
    for i in range(1, n + 1):
        X_tree = np.eye(6) if i == 1 else xlt([1.0, 0.0, 0.0])
        model.add_body(i - 1, joints.Revolute("z"), X_tree, rod, name=f"link{i}")
    q = np.deg2rad(angle_deg) * (-1.0) ** np.arange(n)
    return model, q


def round_significant(x, digits: int = 3) -> np.ndarray:
    """Each entry of ``x`` rounded to ``digits`` significant figures (§10.2's actuators).

    Raises
    ------
    ValueError
        If ``digits`` is not a positive integer or ``x`` is not finite.
    """
    digits = integer(digits, "digits", minimum=1)
    x = np.asarray(real(x, "x"), dtype=float)
    if not np.all(np.isfinite(x)):
        raise ValueError("x must be finite")
    out = np.zeros_like(x)
    nz = x != 0
    exponent = np.floor(np.log10(np.abs(x[nz])))
    scale = 10.0 ** (digits - 1 - exponent)
    out[nz] = np.round(x[nz] * scale) / scale
    return out


def sensitivity_example(n: int = 6, angle_deg: float = 75.0, digits: int = 3) -> dict:
    """§10.2: the forces for ``q̈_d = 1``, rounded, and the accelerations they really cause.

    Returns
    -------
    dict
        ``"H"``, ``"tau_d" = H q̈_d``, ``"tau_a"`` (rounded to ``digits`` significant figures),
        ``"qdd_a" = H⁻¹ τ_a``, ``"cond"`` (2-norm condition number of ``H``) and
        ``"amplification"``: the largest relative error in ``q̈`` over the largest in ``τ``.

    Raises
    ------
    ValueError
        As :func:`zigzag_chain` and :func:`round_significant`.
    """
    model, q = zigzag_chain(n, angle_deg)
    H = crba(model, q)
    qdd_d = np.ones(model.nv)
    tau_d = H @ qdd_d
    tau_a = round_significant(tau_d, digits)
    qdd_a = np.linalg.solve(H, tau_a)
    error_tau = np.max(np.abs(tau_a - tau_d) / np.abs(tau_d))
    error_qdd = np.max(np.abs(qdd_a - qdd_d) / np.abs(qdd_d))
    return {
        "H": H,
        "tau_d": tau_d,
        "tau_a": tau_a,
        "qdd_a": qdd_a,
        "cond": float(np.linalg.cond(H)),
        "amplification": float(error_qdd / error_tau),
    }


def backward_error(model: Model, q, qd, tau, qdd) -> float:
    """Normwise backward error of a forward-dynamics answer, ``‖τ - ID(q̈)‖ / (‖H‖‖q̈‖ + ‖τ - C‖)``.

    ``ID`` is the RNEA (Table 5.1), ``C = ID(q, q̇, 0)`` and ``H`` the joint-space inertia matrix
    (2-norms); the residual is evaluated in float64, so values near the unit round-off
    (``2.2e-16``) mean "as accurate as the arithmetic allows".

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd, tau, qdd : array_like, shape (nv,)

    Raises
    ------
    ValueError
        If an argument does not fit the model (see :func:`spatial.rnea`) or is a batch (this
        is one number for one state), or the model has loop joints.
    """
    model.check_tree("backward_error")
    tau = as_array(tau, "tau", (model.nv,))
    for value, name in ((q, "q"), (qd, "qd"), (tau, "tau"), (qdd, "qdd")):
        if np.ndim(value) != 1:
            raise ValueError(f"{name} must be one state (1-D), got shape {np.shape(value)}")
    residual = tau - rnea(model, q, qd, qdd)
    C = rnea(model, q, qd, np.zeros(model.nv))
    H = crba(model, q)
    scale = np.linalg.norm(H, 2) * np.linalg.norm(qdd) + np.linalg.norm(tau - C)
    return float(np.linalg.norm(residual) / positive_scalar(scale, "scale"))


def componentwise_backward_error(model: Model, q, qd, tau, qdd) -> float:
    """Componentwise backward error of a forward-dynamics answer (Oettli–Prager form).

    ``max_i |τ - ID(q̈)|_i / (|H| |q̈| + |τ - C|)_i``: each joint's residual relative to the
    sizes that enter that joint's row of ``H q̈ + C = τ`` (absolute values taken entry by
    entry).  Unlike :func:`backward_error`, whose denominator ``‖H‖‖q̈‖`` is set by the largest
    rows (on a chain, the joints near the base, which carry the whole chain), it stays at round-off
    level for every joint of a backward-stable answer however long the chain.

    Parameters
    ----------
    model : Model
    q : array_like, shape (nq,)
    qd, tau, qdd : array_like, shape (nv,)

    Raises
    ------
    ValueError
        If an argument does not fit the model (see :func:`spatial.rnea`), or a row's scale is
        zero (a joint with no inertia and no force).
    """
    tau = as_array(tau, "tau", (model.nv,))
    residual = tau - rnea(model, q, qd, qdd)
    C = rnea(model, q, qd, np.zeros(model.nv))
    scale = np.abs(crba(model, q)) @ np.abs(qdd) + np.abs(tau - C)
    if np.any(scale <= 0):
        raise ValueError("componentwise backward error: a row of H q̈ + C = τ has zero scale")
    return float(np.max(np.abs(residual) / scale))
