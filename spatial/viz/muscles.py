"""Drawings for the muscle chapter: a muscle's operating point, and an elbow with its muscles.

* :func:`operating_point` — the three curves of a Hill-type muscle (Sueda §1.9.4) with the
  operating point, its tangents and the tension split into active and passive parts; the
  drawing behind notebook 13b's widget.
* :func:`draw_arm` / :func:`animate_arm` — the elbow of :func:`spatial.builders.elbow_arm26`:
  humerus, forearm (drawn to twice its centre-of-mass distance, about where the hand is) and
  the muscle paths, thicker and more opaque with more activation.
"""

from __future__ import annotations

import numpy as np

from ..forces import sueda_curves
from .player import animation_html, frame_indices

__all__ = ["operating_point", "draw_arm", "animate_arm", "MUSCLE_COLORS"]

#: Colours of the muscles in every drawing of the arm.
MUSCLE_COLORS = {"biceps": "C3", "triceps": "C2"}


def _unit(x, name: str) -> float:
    x = float(x)
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"{name} must lie in [0, 1], got {x!r}")
    return x


def operating_point(activation=0.6, l_tilde=1.1, v_tilde=0.0, *, curves=None) -> dict:
    """Draw a muscle's operating point on its three curves; return the normalized tension.

    Four panels: ``f_L(l̃)``, ``f_P(l̃)`` and ``f_V(ṽ)`` with the operating point and a short
    tangent, and a bar splitting ``F/f_opt = a f_L f_V + f_P`` into its active and passive
    parts, labelled with the slopes ``∂(F/f_opt)/∂l̃ = a f_L' f_V + f_P'`` and
    ``∂(F/f_opt)/∂ṽ = a f_L f_V'`` (Sueda eq. 1.38).

    Parameters
    ----------
    activation : float
        ``a ∈ [0, 1]``.
    l_tilde, v_tilde : float
        Normalized fibre length and velocity (lengthening positive).
    curves : mapping, optional
        Keys ``"active_force_length"``, ``"passive_force_length"``, ``"force_velocity"``
        (default Sueda's cubics, :func:`spatial.forces.sueda_curves`).

    Returns
    -------
    dict
        ``tension``, ``active``, ``passive``, ``stiffness`` (per unit ``l̃``) and ``damping``
        (per unit ``ṽ``), all per ``f_opt``.

    Raises
    ------
    ValueError
        If ``activation`` is outside [0, 1] or a length or velocity is not finite.
    """
    import matplotlib.pyplot as plt

    a = _unit(activation, "activation")
    lt, vt = float(l_tilde), float(v_tilde)
    if not (np.isfinite(lt) and np.isfinite(vt)):
        raise ValueError(f"l_tilde and v_tilde must be finite, got {l_tilde!r}, {v_tilde!r}")
    c = sueda_curves() if curves is None else curves
    fL_c, fP_c, fV_c = (
        c[k] for k in ("active_force_length", "passive_force_length", "force_velocity")
    )
    fL, fP, fV = float(fL_c(lt)), float(fP_c(lt)), float(fV_c(vt))
    dfL, dfP, dfV = (float(k.derivative(x)) for k, x in ((fL_c, lt), (fP_c, lt), (fV_c, vt)))
    active, passive = a * fL * fV, fP
    stiffness, damping = a * dfL * fV + dfP, a * fL * dfV
    fig, axs = plt.subplots(1, 4, figsize=(13, 3.2), gridspec_kw={"width_ratios": [3, 3, 3, 1.3]})
    panels = [
        (fL_c, (0.3, 1.9), lt, fL, dfL, "$f_L(\\tilde l)$", "normalized length $\\tilde l$"),
        (fP_c, (0.3, 1.9), lt, fP, dfP, "$f_P(\\tilde l)$", "normalized length $\\tilde l$"),
        (fV_c, (-1.2, 1.2), vt, fV, dfV, "$f_V(\\tilde v)$", "normalized velocity $\\tilde v$"),
    ]
    for ax, (curve, (lo, hi), x0, y0, slope, title, xlabel) in zip(axs, panels, strict=False):
        x = np.linspace(lo, hi, 200)
        ax.plot(x, curve(x), "C0", lw=2, label="curve")
        ax.plot([x0], [y0], "o", color="C3", ms=9, label="operating point")
        dx = 0.1 * (hi - lo)
        ax.plot(
            [x0 - dx, x0 + dx], [y0 - slope * dx, y0 + slope * dx], "C3--", lw=1.2, label="tangent"
        )
        ax.set(title=f"{title} = {y0:.3f}, slope {slope:.2f}", xlabel=xlabel, ylim=(-0.05, 1.6))
        ax.set_ylabel("force / $f_{opt}$")
    axs[0].legend(loc="upper left", fontsize=7)
    axs[3].bar([0], [active], color="C1", label="active $a f_L f_V$")
    axs[3].bar([0], [passive], bottom=[active], color="C2", label="passive $f_P$")
    axs[3].set(title=f"$F/f_{{opt}}$ = {active + passive:.3f}", xticks=[], ylim=(0, 2.2))
    axs[3].set_xlabel(f"∂/∂l̃ = {stiffness:.2f}\n∂/∂ṽ = {damping:.2f}", fontsize=8)
    axs[3].legend(loc="upper right", fontsize=7)
    fig.subplots_adjust(left=0.05, right=0.98, wspace=0.35, bottom=0.25)
    return {
        "tension": active + passive,
        "active": active,
        "passive": passive,
        "stiffness": stiffness,
        "damping": damping,
    }


def _arm_lines(arm, theta, names):
    """Humerus and forearm polylines (2, 3) each and the named muscles' paths at one angle."""
    T = arm.forearm_frame(theta)
    hand = T[:3, :3] @ (2.0 * arm.forearm_com) + T[:3, 3]
    humerus = np.stack([np.zeros(3), arm.elbow])
    forearm = np.stack([arm.elbow, hand])
    return humerus, forearm, {name: arm.path(name, theta).points for name in names}


def _width(a: float) -> float:
    return 1.0 + 5.0 * a


def draw_arm(ax, arm, theta, activations=None, *, alpha: float = 1.0, legend: bool = True):
    """Draw the elbow arm at angle ``theta`` in the x–y plane (x anterior, y up).

    The humerus (grey, shoulder at the origin) and forearm (blue) as thick lines, the elbow as
    an open circle, each muscle's path (via points and wrap) in its :data:`MUSCLE_COLORS`
    colour, its width growing with the activation, and the triceps' wrapping cylinder as a
    dotted circle.  ``activations`` maps the muscles to draw to values in [0, 1] (default:
    every muscle of the arm at 0.3); muscles not named are not drawn.

    Returns
    -------
    dict
        The artists: ``"humerus"``, ``"forearm"`` and one per muscle.

    Raises
    ------
    ValueError
        For an activation outside [0, 1] or an invalid angle.
    """
    acts = {name: 0.3 for name in arm.muscles} if activations is None else dict(activations)
    for name, a in acts.items():
        _unit(a, f"activations[{name!r}]")
    humerus, forearm, paths = _arm_lines(arm, float(theta), acts)
    art = {}
    (art["humerus"],) = ax.plot(
        *humerus[:, :2].T,
        color="0.55",
        lw=7,
        alpha=alpha,
        solid_capstyle="round",
        label="humerus (fixed)" if legend else None,
    )
    (art["forearm"],) = ax.plot(
        *forearm[:, :2].T,
        color="C0",
        lw=6,
        alpha=alpha,
        solid_capstyle="round",
        label="forearm" if legend else None,
    )
    ax.plot(*arm.elbow[:2], "o", ms=8, mfc="white", mec="k", alpha=alpha)
    for name, pts in paths.items():
        a = acts.get(name, 0.0)
        (art[name],) = ax.plot(
            *pts[:, :2].T,
            color=MUSCLE_COLORS.get(name, "C4"),
            lw=_width(a),
            alpha=alpha,
            label=f"{name}" if legend else None,
        )
        wrap = arm.muscles[name].wrap
        if wrap is not None:
            centre, r = wrap
            phi = np.linspace(0, 2 * np.pi, 60)
            ax.plot(
                centre[0] + r * np.cos(phi),
                centre[1] + r * np.sin(phi),
                ":",
                color=MUSCLE_COLORS.get(name, "C4"),
                lw=0.8,
                alpha=alpha,
            )
    ax.set_aspect("equal")
    ax.set(xlabel="x, anterior (m)", ylabel="y, up (m)")
    return art


def animate_arm(
    arm,
    times,
    theta,
    activations: dict,
    *,
    max_frames: int = 60,
    interval: int = 60,
    title: str = "",
):
    """Animate the elbow arm: angle ``theta`` and muscle ``activations`` over ``times``.

    Parameters
    ----------
    arm : ElbowArm
    times : array_like, shape (n,)
    theta : array_like, shape (n,)
        Elbow angle (rad) at each time.
    activations : dict of str to array_like, shape (n,)
        The muscles to draw, each with its activation at each time (sets the drawn width).
    max_frames, interval : int
        At most this many evenly spaced frames; milliseconds between frames.
    title : str
        Prefix of the title, which shows the time and the angle.

    Returns
    -------
    IPython.display.HTML
        The offline player (:func:`spatial.viz.animation_html`); the figure is closed.

    Raises
    ------
    ValueError
        If the arrays do not all have the length of ``times`` or ``max_frames < 1``.
    """
    import matplotlib.pyplot as plt
    from matplotlib.animation import FuncAnimation

    times, theta = np.asarray(times, dtype=float), np.asarray(theta, dtype=float)
    acts = {k: np.asarray(v, dtype=float) for k, v in activations.items()}
    n = len(times)
    if theta.shape != (n,) or any(v.shape != (n,) for v in acts.values()):
        raise ValueError("theta and every activation must have the shape of times, (n,)")
    shown = frame_indices(n, max_frames)
    fig, ax = plt.subplots(figsize=(4.2, 4.6), dpi=70)
    art = draw_arm(ax, arm, theta[0], {k: v[0] for k, v in acts.items()})
    ax.set(xlim=(-0.15, 0.40), ylim=(-0.55, 0.08))
    ax.legend(loc="lower left", fontsize=7)

    def show(k: int):
        t = shown[k]
        humerus, forearm, paths = _arm_lines(arm, theta[t], acts)
        art["forearm"].set_data(*forearm[:, :2].T)
        for name, pts in paths.items():
            art[name].set_data(*pts[:, :2].T)
            art[name].set_linewidth(_width(float(acts[name][t])) if name in acts else 1.0)
        ax.set_title(f"{title}  t = {times[t]:.2f} s, θ = {np.degrees(theta[t]):.0f}°".strip())
        return list(art.values())

    animation = FuncAnimation(fig, show, frames=len(shown), interval=interval)
    html = animation_html(animation)
    plt.close(fig)
    return html
