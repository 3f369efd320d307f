"""Gears: joint variables tied together by gear pairs, and motor rotors (Featherstone §9.6).

A gear pair makes one joint variable a function of another (``q_2 = ρ q_1`` for a pair with
ratio ``ρ``).  Like a kinematic loop, the constraint is handled by choosing independent
variables ``y`` and writing ``q = γ(y)``; with ``G = ∂γ/∂y`` and ``g = Ġ ẏ`` the equation of
motion of the geared tree is (eq. 9.26, the loop-closure technique of §8.11)

    ``Gᵀ H G ÿ + Gᵀ (C + H g) = Gᵀ τ``.

For ordinary (linear) gears ``G`` is constant and ``g = 0``: :func:`gear_matrix` builds it,
:func:`geared_forward_dynamics` solves eq. 9.26 for ``ÿ`` and :func:`geared_inverse_dynamics`
returns the generalized force ``Gᵀ τ`` that produces a given ``ÿ``.

Modelling a motor's rotor as its own body, geared to the joint it drives, is the exact
method (Figure 9.2: :func:`spatial.builders.geared_arm`).  Robotics often uses a cheaper
approximation instead (Example 9.5): drop the rotor bodies and add the *reflected* rotor
inertia ``ρ² I_rotor`` to the diagonal element ``H_ii`` of the joint it drives —
:func:`reflected_inertia`, :func:`crba_with_rotors` — or, in the articulated-body algorithm,
to ``D_i = S_iᵀ U_i + I^rot_i`` (eq. 9.28) — :func:`aba_with_rotors`.  The approximation keeps
the large ``ρ²`` terms and drops the ``ρ``-proportional coupling (``ρ₂ H₁₄`` in eq. 9.27) and
the rotors' gyroscopic effects.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._validate import as_array, as_scalar_array, real_array
from ..model import Model
from .crba import crba
from .hybrid import hybrid_dynamics
from .rnea import bias_force, rnea

__all__ = [
    "gear_matrix",
    "geared_forward_dynamics",
    "geared_inverse_dynamics",
    "reflected_inertia",
    "crba_with_rotors",
    "aba_with_rotors",
]


def gear_matrix(n: int, gears: Mapping) -> np.ndarray:
    """The matrix ``G = ∂γ/∂y`` of linear gear constraints ``q_k = ρ q_j`` (Featherstone §9.6).

    Every variable that is not driven by a gear is an independent variable; ``y`` lists them
    in their order in ``q``.  Column ``m`` of ``G`` holds a 1 at the ``m``-th independent
    variable and ``ρ`` at each variable geared to it.

    Parameters
    ----------
    n : int
        Number of joint variables (``model.nv``).
    gears : mapping ``{k: (j, ρ)}``
        Variable ``k`` (0-based) is driven by independent variable ``j`` with ratio ``ρ``:
        ``q_k = ρ q_j``.  For Figure 9.2, ``{1: (0, ρ₁), 3: (2, ρ₂)}``.

    Returns
    -------
    G : ndarray, shape (n, n - len(gears))

    Raises
    ------
    ValueError
        If an index is out of range, a driven variable drives another one, or a ratio is
        not a finite number.

    Examples
    --------
    >>> from spatial.dynamics import gear_matrix
    >>> gear_matrix(4, {1: (0, 50.0), 3: (2, 30.0)})
    array([[ 1.,  0.],
           [50.,  0.],
           [ 0.,  1.],
           [ 0., 30.]])
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive int, got {n!r}")
    if not isinstance(gears, Mapping):
        raise ValueError(f"gears must be a mapping {{k: (j, ratio)}}, got {gears!r}")
    independent = [k for k in range(n) if k not in gears]
    column = {k: m for m, k in enumerate(independent)}
    G = np.zeros((n, len(independent)))
    G[independent, range(len(independent))] = 1.0
    for k, spec in gears.items():
        if not (isinstance(spec, tuple) and len(spec) == 2):
            raise ValueError(f"gears[{k!r}] must be a pair (j, ratio), got {spec!r}")
        j, ratio = spec
        if not (0 <= k < n and 0 <= j < n):
            raise ValueError(f"gears[{k}] = ({j}, …): variable indices must be in 0 … {n - 1}")
        if j not in column:
            raise ValueError(
                f"gear {k} is driven by variable {j}, which is itself driven by a gear; "
                "drive it from an independent variable"
            )
        G[k, column[j]] = float(as_scalar_array(ratio, f"ratio of gear {k}"))
    return G


def _check_gears(model: Model, G) -> np.ndarray:
    if model.nq != model.nv:
        raise ValueError(
            "gear constraints q = G y need position variables that are integrals of the "
            f"velocity variables (nq == nv), got nq = {model.nq}, nv = {model.nv}"
        )
    G = real_array(G, "G")
    if G.ndim != 2 or G.shape[0] != model.nv or G.shape[1] > model.nv:
        raise ValueError(f"G must have shape (nv, n_y) = ({model.nv}, ≤ {model.nv}), got {G.shape}")
    return as_array(G, "G", G.shape)


def geared_forward_dynamics(model: Model, G, y, yd, tau, f_ext=None) -> np.ndarray:
    """Accelerations ``ÿ`` of a tree with linear gears, from eq. 9.26 (``g = 0``).

    ``q = G y``, ``q̇ = G ẏ``; ``H`` by the CRBA and ``C`` by the RNEA of the ungeared tree;
    then ``(Gᵀ H G) ÿ = Gᵀ (τ - C)``.  The motors' torques act at their own joints (the rotor
    bearings), so ``τ`` is the joint-space force of the ungeared tree.

    Parameters
    ----------
    model : Model
        The tree without the gear constraints (``nq == nv``).
    G : array_like, shape (nv, n_y)
        From :func:`gear_matrix`.
    y, yd : array_like, shape (..., n_y)
        Independent positions and velocities.
    tau : array_like, shape (..., nv)
        Joint forces of the ungeared tree (e.g. motor torques at the rotor joints).
    f_ext : array_like, shape (..., NB + 1, 6), optional
        External forces in base coordinates.

    Returns
    -------
    ndarray, shape (..., n_y)

    Raises
    ------
    ValueError
        If the model has ``nq != nv``, ``G`` or an array has the wrong shape; if the model
        has loop joints, as :func:`~spatial.dynamics.aba`.
    """
    model.check_tree("geared_forward_dynamics")
    G = _check_gears(model, G)
    y = as_array(y, "y", (G.shape[1],))
    yd = as_array(yd, "yd", (G.shape[1],))
    q, qd = y @ G.T, yd @ G.T
    H = crba(model, q)
    C = bias_force(model, q, qd, f_ext)
    tau = as_array(tau, "tau", (model.nv,))
    rhs = ((tau - C) @ G)[..., None]
    return np.linalg.solve(G.T @ H @ G, rhs)[..., 0]


def geared_inverse_dynamics(model: Model, G, y, yd, ydd, f_ext=None) -> np.ndarray:
    """Generalized force ``Gᵀ τ`` on the independent variables that produces ``ÿ`` (eq. 9.26).

    ``Gᵀ rnea(G y, G ẏ, G ÿ)``.  For Figure 9.2 the shoulder and elbow joints are unactuated
    and the motors drive the rotors, so entry ``m`` is ``ρ_m`` times the torque of motor
    ``m``.  (Splitting ``Gᵀτ`` among several actuators in general is the loop inverse
    dynamics of §8.12.)

    Parameters
    ----------
    model : Model
        The tree without the gear constraints (``nq == nv``).
    G : array_like, shape (nv, n_y)
    y, yd, ydd : array_like, shape (..., n_y)
    f_ext : array_like, shape (..., NB + 1, 6), optional

    Returns
    -------
    ndarray, shape (..., n_y)

    Raises
    ------
    ValueError
        If the model has ``nq != nv``, ``G`` or an array has the wrong shape; if the model
        has loop joints, as :func:`~spatial.dynamics.rnea`.
    """
    model.check_tree("geared_inverse_dynamics")
    G = _check_gears(model, G)
    y, yd, ydd = (
        as_array(x, name, (G.shape[1],)) for x, name in ((y, "y"), (yd, "yd"), (ydd, "ydd"))
    )
    return rnea(model, y @ G.T, yd @ G.T, ydd @ G.T, f_ext) @ G


def reflected_inertia(rotor_inertia, gear_ratio) -> np.ndarray:
    """Rotor inertia as seen at the joint it drives through a gear: ``ρ² I_rotor`` (Ex. 9.5).

    A rotor turning ``ρ`` times faster than the joint stores ``½ I_rotor (ρ q̇)²`` of kinetic
    energy, which is the energy of an inertia ``ρ² I_rotor`` turning with the joint.

    Parameters
    ----------
    rotor_inertia : float or array_like
        Moment of inertia of the rotor (and its gear wheel) about its spin axis, ≥ 0.
    gear_ratio : float or array_like
        Step-down ratio ``ρ`` (rotor speed / joint speed); broadcasts with ``rotor_inertia``.

    Returns
    -------
    ndarray
        ``ρ² I_rotor``.

    Raises
    ------
    ValueError
        If an input is not finite or an inertia is negative.
    """
    I_r = as_scalar_array(rotor_inertia, "rotor_inertia")
    rho = as_scalar_array(gear_ratio, "gear_ratio")
    if np.any(I_r < 0):
        raise ValueError(f"rotor_inertia must be ≥ 0, got {rotor_inertia!r}")
    return rho**2 * I_r


def crba_with_rotors(model: Model, q, rotor_inertia) -> np.ndarray:
    """Joint-space inertia with reflected rotor inertias on the diagonal (Example 9.5).

    ``H + diag(I^rot)`` with ``H`` from :func:`~spatial.dynamics.crba`.

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    rotor_inertia : array_like, shape (nv,)
        ``I^rot_i`` per velocity variable (e.g. :func:`reflected_inertia`; 0 where no motor).

    Returns
    -------
    ndarray, shape (..., nv, nv)

    Raises
    ------
    ValueError
        If ``q`` is invalid or ``rotor_inertia`` is not a non-negative (nv,) array; if the
        model has loop joints, as :func:`~spatial.dynamics.crba`.
    """
    model.check_tree("crba_with_rotors")
    rotor = as_array(rotor_inertia, "rotor_inertia", (model.nv,))
    if rotor.shape != (model.nv,) or np.any(rotor < 0):
        raise ValueError(f"rotor_inertia must be a non-negative array of shape ({model.nv},)")
    return crba(model, q) + np.diag(rotor)


def aba_with_rotors(model: Model, q, qd, tau, rotor_inertia, f_ext=None) -> np.ndarray:
    """Articulated-body forward dynamics with reflected rotor inertias (eq. 9.28).

    Table 7.1 with ``D_i = S_iᵀ U_i + I^rot_i``: the joint's own rotor inertia resists its
    acceleration before the articulated inertia of the subtree does.  Equal to solving
    ``(H + diag(I^rot)) q̈ = τ - C``.  (Runs the articulated hybrid-dynamics code of
    :func:`~spatial.dynamics.hybrid_dynamics` with every joint force-driven.)

    Parameters
    ----------
    model : Model
    q : array_like, shape (..., nq)
    qd, tau : array_like, shape (..., nv)
    rotor_inertia : array_like, shape (nv,)
        ``I^rot_i`` per velocity variable, ≥ 0.
    f_ext : array_like, shape (..., NB + 1, 6), optional

    Returns
    -------
    ndarray, shape (..., nv)

    Raises
    ------
    ValueError
        As :func:`~spatial.dynamics.aba` (loop joints included), or if ``rotor_inertia`` is
        invalid.
    """
    model.check_tree("aba_with_rotors")
    force_driven = np.zeros(model.NB, bool)
    return hybrid_dynamics(
        model, q, qd, None, tau, force_driven, f_ext, "articulated", rotor_inertia
    )[0]
