"""Regenerate the figures of ``figures/`` from the package (``make figures``).

Every figure is computed by ``spatial`` itself, deterministically (fixed seeds, no timings), so
running this script twice gives the same pictures.  Usage::

    .venv/bin/python figures/generate.py figures/

* ``sparsity.png`` — branch-induced sparsity of ``H`` and of its ``LᵀDL`` factor for a chain,
  a binary tree and the humanoid-like tree (Featherstone §6.4–6.5);
* ``humanoid.png`` — the humanoid-like tree drawn from its model data in 3D (§4.1–4.2);
* ``pendulum_fan.png`` — 1,000 double pendulums from nearby initial states, integrated in one
  batched ``aba`` call per stage, and how far they spread (Featherstone Table 7.1);
* ``muscle_curves.png`` — the Millard-style active and passive force–length and force–velocity
  curves with their slopes (Sueda §1.9.4, eqs. 1.42, 1.44, 1.46).
"""

from __future__ import annotations

import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import builders, forces  # noqa: E402
from spatial.dynamics.sparse import ltdl  # noqa: E402

STYLE = {
    "figure.dpi": 110,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "font.size": 9,
    "legend.frameon": False,
}


def sparsity(out: Path) -> None:
    """Spy plots of H and L for three trees of similar size."""
    systems = {
        "chain (15 bodies)": builders.branched_tree(15, branching_factor=1.0),
        "binary tree (15 bodies)": builders.branched_tree(15, branching_factor=2.0),
        "humanoid-like tree": builders.humanoid(),
    }
    rng = np.random.default_rng(0)
    fig, axes = plt.subplots(2, 3, figsize=(9.0, 6.0))
    for col, (title, model) in enumerate(systems.items()):
        H = sp.crba(model, model.random_configuration(rng))
        L, _ = ltdl(H, model.expanded_parent())
        for row, (M, name) in enumerate(((H, "H"), (L, "L  (H = LᵀDL)"))):
            ax = axes[row, col]
            ax.spy(np.abs(M) > 1e-12 * np.abs(M).max(), markersize=3.5, color="C0")
            ax.set_title(f"{title}\n{name}: {np.count_nonzero(np.abs(M) > 0)} non-zeros")
            ax.grid(False)
            ax.tick_params(labelsize=7)
    fig.suptitle("Branch-induced sparsity: L has exactly the pattern of H's lower triangle")
    fig.tight_layout()
    fig.savefig(out / "sparsity.png")
    plt.close(fig)


def humanoid(out: Path) -> None:
    """The humanoid-like tree in a few poses."""
    model = builders.humanoid()
    fig = plt.figure(figsize=(8.0, 4.0))
    poses = {
        "q = 0": model.neutral_configuration(),
        "random pose": model.random_configuration(np.random.default_rng(3)) * 0.4,
    }
    for k, (title, q) in enumerate(poses.items()):
        ax = fig.add_subplot(1, 2, k + 1, projection="3d")
        sp.viz.draw_model(ax, model, q)
        ax.set_title(title)
        ax.set(xlim=(-0.6, 0.6), ylim=(-0.6, 0.6), zlim=(0.0, 1.8))
        ax.set_box_aspect((1, 1, 1.5))
    fig.tight_layout()
    fig.savefig(out / "humanoid.png")
    plt.close(fig)


def pendulum_fan(out: Path, n: int = 1000, t_final: float = 8.0, h: float = 2e-3) -> None:
    """A batched fan of double pendulums: tips after ``t_final`` and the spread over time."""
    model = builders.double_pendulum(lengths=(1.0, 1.0), masses=(1.0, 1.0))
    q = np.stack([2.0 + np.linspace(-5e-4, 5e-4, n), np.zeros(n)], -1)
    qd = np.zeros_like(q)
    zero = np.zeros(model.nv)

    def tips(q):
        return sp.viz.skeleton(model, q).coms[..., 2, :2]

    times, spread = [0.0], [tips(q).std(axis=0).sum()]
    steps = round(t_final / h)
    for k in range(1, steps + 1):  # semi-implicit Euler, one batched aba call per step
        qd = qd + h * sp.aba(model, q, qd, zero)
        q = model.integrate(q, qd, h)
        if k % 20 == 0:
            times.append(k * h)
            spread.append(tips(q).std(axis=0).sum())
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.0, 3.8))
    end = tips(q)
    ax1.scatter(end[:, 0], end[:, 1], s=2, c=np.arange(n), cmap="viridis")
    ax1.set_aspect("equal")
    ax1.set_title(f"{n} tips after {t_final:g} s (initial spread 1 mrad)")
    ax1.set_xlabel("x (m)")
    ax1.set_ylabel("y (m)")
    ax2.semilogy(times, spread)
    ax2.set_xlabel("t (s)")
    ax2.set_ylabel("spread of the tips (m)")
    ax2.set_title("nearby states diverge")
    fig.tight_layout()
    fig.savefig(out / "pendulum_fan.png")
    plt.close(fig)


def muscle_curves(out: Path) -> None:
    """The three muscle curves and their slopes."""
    curves = {
        "active force–length  f_L": (forces.active_force_length, np.linspace(0.3, 1.9, 400)),
        "passive force–length  f_P": (forces.passive_force_length, np.linspace(0.8, 1.9, 400)),
        "force–velocity  f_V": (forces.force_velocity, np.linspace(-1.2, 1.2, 400)),
    }
    fig, axes = plt.subplots(1, 3, figsize=(10.0, 3.2))
    for ax, (title, (curve, x)) in zip(axes, curves.items(), strict=True):
        ax.plot(x, curve(x), label="value")
        ax.plot(x, curve.derivative(x), "--", label="slope")
        ax.set_title(title)
        ax.set_xlabel("normalized velocity" if "velocity" in title else "normalized length")
        ax.legend()
    fig.tight_layout()
    fig.savefig(out / "muscle_curves.png")
    plt.close(fig)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    plt.rcParams.update(STYLE)
    for make in (sparsity, humanoid, pendulum_fan, muscle_curves):
        make(out)
        print(f"wrote {make.__name__}")


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent))
