"""Loop closure functions ``q = γ(y)``: the tree's variables from independent ones (§8.10–8.11).

In the explicit form (:mod:`.explicit`) a closed-loop mechanism moves in a handful of
independent coordinates ``y``, and a *loop closure function* returns the tree's configuration
``q = γ(y)`` that closes every loop.  Its derivatives are the explicit-form matrices:
``q̇ = G ẏ`` with ``G = ∂γ/∂y`` and ``q̈ = G ÿ + g`` with ``g = Ġ ẏ`` (eqs. 8.56–8.60).  Two
properties of closed loops (§8.10) shape every such function:

* **configuration ambiguity** — one ``y`` can close the loops in several ways (the two
  assemblies of a four-bar): a closure function must pick one branch;
* **singular configurations** — where the chosen ``y`` stops determining the motion (a
  four-bar's dead-centre), ``G`` becomes infinite; beyond it the mechanism cannot be assembled.
  The functions here raise a ``ValueError`` saying which, rather than return NaN or infinity.

Two kinds are provided:

1. :func:`newton_closure`, for any mechanism: starting from a guess, Gauss–Newton steps on the
   dependent variables drive the loop position errors ``δ`` (Table 8.1) to zero, and ``G``,
   ``g`` follow from ``K`` and ``k`` at the closed configuration (eq. 8.51);
2. closed forms for the book's planar examples, derived from the loop's geometry:
   :func:`four_bar_closure` (two circles meeting at the coupler–rocker pin),
   :func:`crank_slider_closure` (Figures 4.1, 4.4) and :func:`fig_8_3_closure` (the triangle of
   Figure 8.3, Example 8.2).
"""

from __future__ import annotations

import numpy as np

from ..._batched import mv as _mv
from ..._validate import as_array, as_scalar_array, positive_scalars
from ...model import Model
from .constraints import _constraints
from .explicit import LoopClosure, _check_independent, _explicit_form

__all__ = ["newton_closure", "four_bar_closure", "crank_slider_closure", "fig_8_3_closure"]


def _position_indices(model: Model, independent: tuple[int, ...]) -> list[int]:
    """Entries of ``q`` for independent velocity variables; their joints must have ``q̇ = α``."""
    rng = np.random.default_rng(0)
    out = []
    for v in independent:
        i = next(b for b in range(1, model.NB + 1) if v in range(model.nv)[model.v_index[b]])
        joint = model.joints[i]
        eye = np.eye(joint.nv)
        if joint.nq != joint.nv or not np.allclose(
            joint.q_dot(joint.random_configuration(rng), eye), eye
        ):
            raise ValueError(
                f"velocity variable {v} belongs to joint {i} ({joint!r}), whose position "
                "variables are not the integrals of its velocity variables; choose independent "
                "variables of revolute, prismatic, helical or cylindrical joints"
            )
        out.append(model.q_index[i].start + v - model.v_index[i].start)
    return out


def newton_closure(
    model: Model, independent, q_guess, tol: float = 1e-12, max_iter: int = 50
) -> LoopClosure:
    """A loop closure function for any mechanism: solve ``δ(q) = 0`` by Newton's method.

    ``γ(y)`` starts from ``q_guess`` with the independent entries set to ``y`` and moves the
    dependent velocity variables by Gauss–Newton steps ``Δ = -K_d⁺ δ`` (``K_d``: the columns of
    ``K`` of the dependent variables, the Jacobian of ``δ`` on the closed loop) until every
    loop position error is below ``tol``.  ``G`` and ``g`` then come from ``K`` and ``k`` at the
    closed configuration by eq. 8.51 (:func:`G_and_g`, with ``q̇ = G ẏ``, ``g = Ġ ẏ``).

    A mechanism can often be assembled in several ways for the same ``y`` (configuration
    ambiguity, §8.10): Newton's method converges to the assembly nearest ``q_guess``, so keep
    ``y`` in the region where that branch is the intended one.

    Parameters
    ----------
    model : Model
    independent : sequence of int
        Velocity variables chosen as independent (their joints must have ``q̇ = α``, e.g.
        revolute or prismatic).
    q_guess : array_like, shape (nq,)
        A configuration near the intended assembly.
    tol : float
        Absolute tolerance on ``|δ|`` (radians and metres).
    max_iter : int

    Returns
    -------
    LoopClosure
        Calling ``gamma`` raises ``ValueError`` if Newton's method does not converge (the loops
        cannot be closed for that ``y``, the start is too far, or ``y`` sits at a configuration
        singularity); ``jacobians`` raises ``ValueError`` at a configuration where ``y`` does
        not determine the motion (:func:`G_and_g`).

    Raises
    ------
    ValueError
        If ``independent`` or ``q_guess`` is invalid.
    """
    independent = _check_independent(independent, model.nv)
    q_index = _position_indices(model, independent)
    q_guess, _, _, _ = model.check_state(q_guess)
    if q_guess.ndim != 1:
        raise ValueError(f"q_guess must be one configuration of shape ({model.nq},)")
    dependent = [j for j in range(model.nv) if j not in independent]
    zeros = np.zeros(model.nv)

    def gamma(y):
        y = as_array(y, "y", (len(independent),))
        q = np.broadcast_to(q_guess, y.shape[:-1] + (model.nq,)).copy()
        q[..., q_index] = y
        for _ in range(max_iter):
            K, _, delta = _constraints(model, q, zeros, None)
            if np.abs(delta).max(initial=0.0) <= tol:
                return q
            step = np.zeros(q.shape[:-1] + (model.nv,))
            step[..., dependent] = -_mv(np.linalg.pinv(K[..., dependent]), delta)
            q = model.integrate(q, step, 1.0)
        raise ValueError(
            f"newton_closure: the loops did not close for y = {y.tolist()} within {max_iter} "
            f"iterations (|δ| = {np.abs(delta).max():.3g}): the mechanism cannot be assembled "
            "there, q_guess is too far from that assembly, or y is at a configuration "
            "singularity (Featherstone §8.10)"
        )

    def jacobians(y, yd):
        q = gamma(y)
        yd = as_array(yd, "yd", (len(independent),))
        K = _constraints(model, q, zeros, None)[0]
        G = _explicit_form(K, np.zeros(K.shape[:-1]), independent, 1e-9, "newton_closure")[0]
        K, k, _ = _constraints(model, q, _mv(G, yd), None)
        return q, G, _explicit_form(K, k, independent, 1e-9, "newton_closure")[1]

    return LoopClosure(gamma, jacobians, independent)


def _branch(branch) -> float:
    if branch not in (1, -1):
        raise ValueError(f"branch must be +1 or -1 (the two assemblies), got {branch!r}")
    return float(branch)


def _wrap(angle: np.ndarray) -> np.ndarray:
    """Angles in [-π, π)."""
    return (angle + np.pi) % (2.0 * np.pi) - np.pi


def _require_assembly(h2: np.ndarray, y: np.ndarray, scale2: float, tol: float, what: str):
    """ValueError where a squared distance ``h2`` is negative (no assembly) or ~0 (singular)."""
    if np.any(h2 < -tol * scale2):
        bad = y[..., 0][h2 < -tol * scale2].ravel()[0]
        raise ValueError(f"the {what} cannot be assembled at input angle {bad:.6g} rad")
    if np.any(h2 <= tol * scale2):
        bad = y[..., 0][h2 <= tol * scale2].ravel()[0]
        raise ValueError(
            f"the {what} is at a dead-centre (singular) position at input angle {bad:.6g} rad: "
            "the input does not determine the motion there and G is infinite (Featherstone §8.10)"
        )


def four_bar_closure(
    crank: float = 0.3,
    coupler: float = 1.0,
    rocker: float = 0.8,
    ground: float = 0.9,
    branch: int = 1,
    tol: float = 1e-9,
) -> LoopClosure:
    """Closed-form loop closure of the four-bar linkage of :func:`spatial.builders.four_bar`.

    ``y = [θ₁]`` is the crank angle; ``q = [θ₁, φ₂ - θ₁, φ₃]`` with ``φ₂`` the coupler's and
    ``φ₃`` the rocker's absolute angle.  The coupler–rocker pin ``C`` is where the circle of
    radius ``coupler`` about the crank pin ``B`` meets the circle of radius ``rocker`` about
    the rocker pivot ``D = (ground, 0)``: two assemblies, ``branch = +1`` with ``C`` to the left
    of ``B → D`` and ``-1`` to the right (configuration ambiguity, §8.10).  Differentiating the
    loop equation ``l₁ e(θ₁) + l₂ e(φ₂) - l₃ e(φ₃) = l₀ e_x`` and crossing it with ``e⊥(φ₃)``
    and ``e⊥(φ₂)`` gives ``φ̇₂ = l₁ sin(θ₁ - φ₃) / (l₂ sin(φ₃ - φ₂)) θ̇₁``,
    ``φ̇₃ = l₁ sin(θ₁ - φ₂) / (l₃ sin(φ₃ - φ₂)) θ̇₁`` and, once more, the ``g`` terms.

    Parameters
    ----------
    crank, coupler, rocker, ground : float
        Link lengths ``l₁, l₂, l₃, l₀`` (> 0), as given to the builder.
    branch : {+1, -1}
    tol : float
        Relative tolerance of the assembly and dead-centre tests.

    Returns
    -------
    LoopClosure
        ``gamma`` and ``jacobians`` raise ``ValueError`` where the linkage cannot be assembled
        (``|D - B|`` outside ``[|l₂ - l₃|, l₂ + l₃]``) or is at a dead-centre (coupler and
        rocker aligned, ``sin(φ₃ - φ₂) = 0``), instead of returning NaN or infinity.

    Raises
    ------
    ValueError
        If a length is not positive or ``branch`` is not ±1.
    """
    l1, l2, l3, l0 = positive_scalars(
        (crank, coupler, rocker, ground), ("crank", "coupler", "rocker", "ground")
    )
    b = _branch(branch)
    scale2 = max(l1, l2, l3, l0) ** 2

    def angles(y):
        theta = y[..., 0]
        B = l1 * np.stack([np.cos(theta), np.sin(theta)], -1)
        w = np.array([l0, 0.0]) - B  # from the crank pin B to the rocker pivot D
        e2 = np.sum(w * w, -1)
        _require_assembly(e2, y, scale2, tol, "four-bar (crank pin on the rocker pivot)")
        e = np.sqrt(e2)
        a = (l2**2 - l3**2 + e2) / (2.0 * e)
        _require_assembly(l2**2 - a**2, y, scale2, tol, "four-bar")
        h = np.sqrt(l2**2 - a**2)
        u = w / e[..., None]
        C = B + a[..., None] * u + b * h[..., None] * np.stack([-u[..., 1], u[..., 0]], -1)
        phi2 = np.arctan2(C[..., 1] - B[..., 1], C[..., 0] - B[..., 0])
        phi3 = np.arctan2(C[..., 1], C[..., 0] - l0)
        return theta, phi2, phi3

    def gamma(y):
        theta, phi2, phi3 = angles(as_array(y, "y", (1,)))
        return np.stack([theta, _wrap(phi2 - theta), phi3], -1)

    def jacobians(y, yd):
        y, yd = as_array(y, "y", (1,)), as_array(yd, "yd", (1,))
        theta, phi2, phi3 = angles(y)
        s32 = np.sin(phi3 - phi2)
        G2 = l1 * np.sin(theta - phi3) / (l2 * s32)
        G3 = l1 * np.sin(theta - phi2) / (l3 * s32)
        w1 = yd[..., 0]
        w2, w3 = G2 * w1, G3 * w1
        a2 = (l1 * w1**2 * np.cos(theta - phi3) + l2 * w2**2 * np.cos(phi2 - phi3) - l3 * w3**2) / (
            l2 * s32
        )
        a3 = (l1 * w1**2 * np.cos(theta - phi2) + l2 * w2**2 - l3 * w3**2 * np.cos(phi3 - phi2)) / (
            l3 * s32
        )
        q = np.stack([theta, _wrap(phi2 - theta), phi3], -1)
        G = np.stack([np.ones_like(G2), G2 - 1.0, G3], -1)[..., None]
        g = np.stack([np.zeros_like(a2), a2, a3], -1)
        return q, G, g

    return LoopClosure(gamma, jacobians, (0,))


def crank_slider_closure(
    crank: float = 0.3, rod: float = 1.0, offset: float = 0.0, branch: int = 1, tol: float = 1e-9
) -> LoopClosure:
    """Closed-form loop closure of the crank-slider of :func:`spatial.builders.crank_slider`.

    ``y = [θ]`` is the crank angle; ``q = [θ, φ - θ, x]`` with ``φ`` the connecting rod's
    absolute angle and ``x`` the slider's position along its guide (the line ``y = offset``).
    With ``w = offset - r sin θ`` and ``s = sqrt(l² - w²)``: ``x = r cos θ + b s`` and
    ``φ = atan2(w, b s)``, ``b = branch`` (``+1``: slider on the +x side of the crank pin).
    Differentiating: ``ẋ = (-r sin θ + b w r cos θ / s) θ̇`` and ``φ̇ = -b r cos θ / s θ̇``.

    Parameters
    ----------
    crank, rod : float
        Crank radius ``r`` and rod length ``l`` (> 0).
    offset : float
        Height ``e`` of the slider's guide above the crank pivot.
    branch : {+1, -1}
    tol : float

    Returns
    -------
    LoopClosure
        ``gamma``/``jacobians`` raise ``ValueError`` where the rod cannot reach the guide or
        stands perpendicular to it (``s = 0``, a dead-centre of the crank input).

    Raises
    ------
    ValueError
        If a length is not positive, ``offset`` is not finite or ``branch`` is not ±1.
    """
    r, l = positive_scalars((crank, rod), ("crank", "rod"))
    e = float(as_scalar_array(offset, "offset"))
    b = _branch(branch)
    scale2 = max(r, l, abs(e)) ** 2

    def parts(y):
        theta = y[..., 0]
        w = e - r * np.sin(theta)
        _require_assembly(l**2 - w**2, y, scale2, tol, "crank-slider")
        s = np.sqrt(l**2 - w**2)
        phi = np.arctan2(w, b * s)
        return theta, w, s, phi

    def gamma(y):
        theta, _, s, phi = parts(as_array(y, "y", (1,)))
        return np.stack([theta, _wrap(phi - theta), r * np.cos(theta) + b * s], -1)

    def jacobians(y, yd):
        y, yd = as_array(y, "y", (1,)), as_array(yd, "yd", (1,))
        theta, w, s, phi = parts(y)
        c, sn = np.cos(theta), np.sin(theta)
        dw, ddw = -r * c, r * sn
        ds = -w * dw / s
        dds = -(dw**2 + w * ddw) / s - (w * dw) ** 2 / s**3
        dphi = -b * r * c / s
        ddphi = b * r * (sn * s + c * ds) / s**2
        w2 = yd[..., 0] ** 2
        q = np.stack([theta, _wrap(phi - theta), r * c + b * s], -1)
        G = np.stack([np.ones_like(s), dphi - 1.0, -r * sn + b * ds], -1)[..., None]
        g = np.stack([np.zeros_like(s), ddphi * w2, (-r * c + b * dds) * w2], -1)
        return q, G, g

    return LoopClosure(gamma, jacobians, (0,))


def fig_8_3_closure(l1: float = 1.0, l2: float = 0.5, tol: float = 1e-9) -> LoopClosure:
    """Closed-form loop closure of Featherstone's Figure 8.3 mechanism.

    The mechanism is :func:`spatial.builders.planar_loop_fig_8_3`.

    A two-link arm (joints 1 and 4) driven by a linear actuator (cylinder on joint 2, piston on
    the prismatic joint 3) closing a triangle with sides ``l₁`` (base, arm pivot to cylinder
    pivot), ``l₂`` (arm pivot to the piston's pin on the arm) and ``d`` (the actuator's length).
    ``y = [q₁, q₄]`` and ``γ(y) = [y₁, θ₂, d, y₂]`` with ``d² = l₁² + l₂² - 2 l₁ l₂ cos y₁``
    (``d > 0``) and ``θ₂ = atan2(l₂ sin y₁, l₂ cos y₁ - l₁)``; ``G`` and ``g`` have the entries
    ``u₁ … u₄`` printed in the figure.

    Parameters
    ----------
    l1, l2 : float
        Triangle sides (> 0).
    tol : float

    Returns
    -------
    LoopClosure
        ``gamma``/``jacobians`` raise ``ValueError`` where ``d = 0`` (only possible if
        ``l₁ = l₂``, at ``y₁ = 0``), where the actuator's direction is undefined.

    Raises
    ------
    ValueError
        If a length is not positive.
    """
    l1, l2 = positive_scalars((l1, l2), ("l1", "l2"))
    scale2 = max(l1, l2) ** 2

    def parts(y):
        y1 = y[..., 0]
        d2 = l1**2 + l2**2 - 2.0 * l1 * l2 * np.cos(y1)
        if np.any(d2 <= tol * scale2):
            raise ValueError(
                f"Figure 8.3 mechanism: the actuator length d is 0 at y1 = "
                f"{y1[d2 <= tol * scale2].ravel()[0]:.6g}: its direction is undefined (l1 = l2)"
            )
        d = np.sqrt(d2)
        theta2 = np.arctan2(l2 * np.sin(y1), l2 * np.cos(y1) - l1)
        return y1, d, theta2

    def gamma(y):
        y = as_array(y, "y", (2,))
        y1, d, theta2 = parts(y)
        return np.stack([y1, theta2, d, y[..., 1]], -1)

    def jacobians(y, yd):
        y, yd = as_array(y, "y", (2,)), as_array(yd, "yd", (2,))
        y1, d, theta2 = parts(y)
        u1 = (l2**2 - l1 * l2 * np.cos(y1)) / d**2
        u2 = l1 * l2 * np.sin(y1) / d
        w2 = yd[..., 0] ** 2
        u3 = (l1**2 - l2**2) * l1 * l2 * np.sin(y1) / d**4 * w2
        u4 = (l1 * l2 * np.cos(y1) - u2**2) / d * w2
        one, zero = np.ones_like(u1), np.zeros_like(u1)
        q = np.stack([y1, theta2, d, y[..., 1]], -1)
        G = np.stack(
            [
                np.stack([one, zero], -1),
                np.stack([u1, zero], -1),
                np.stack([u2, zero], -1),
                np.stack([zero, one], -1),
            ],
            -2,
        )
        g = np.stack([np.zeros_like(u3), u3, u4, np.zeros_like(u3)], -1)
        return q, G, g

    return LoopClosure(gamma, jacobians, (0, 3))
