"""The costs of Tables A.4–A.5 and §A.5, counted by running the compact formulae on symbols.

Each kernel of :mod:`spatial.compact` is run once on inputs that are symbols
(:class:`spatial.symbolic.Expr`); the expression trees it leaves behind record every
multiplication and addition it performed, and :func:`spatial.symbolic.count_operations` counts
them (each intermediate once, sign changes free, as in the book).  :data:`BOOK` holds the figures
the book states, so the two can be set side by side (:func:`operation_counts`).

:func:`dense_operation_counts` runs the package's own dense kernels (``spatial._batched``, the
code behind :func:`spatial.rnea` and friends) the same way, on general 6x6 matrices of symbols:
what NumPy does here, every zero included, beside what the book's compact formulae need.
"""

from __future__ import annotations

import numpy as np

from .. import _batched as dense
from ..symbolic import Expr, OpCount, count_operations
from . import kernels as k
from .screws import (
    AxialScrew,
    _screw_constants,
    screw_abi_kernel,
    screw_abi_zero_row_kernel,
    screw_abi_zero_row_xy_kernel,
    screw_rbi_kernel,
    screw_vector_kernel,
)

__all__ = ["BOOK", "operation_counts", "dense_operation_counts"]

#: Costs as the book states them, ``(m, a)``: Table A.4, §A.5 and Table A.5 (recurring costs;
#: the one-time cost of an axial rotation is ``"screw constants"``).
BOOK = {
    "X v": (24, 18),
    "X⁻¹ v": (24, 18),
    "X* f": (24, 18),
    "Xᵀ f": (24, 18),
    "X₁ X₂": (33, 24),
    "X⁻¹": (9, 6),
    "I v": (24, 18),
    "I₁ + I₂": (0, 10),
    "X* I X⁻¹": (52, 56),
    "Xᵀ I X": (52, 56),
    "X* Iᴬ X⁻¹": (137, 137),
    "F G (rotations)": (24, 15),
    "E A Eᵀ (general A)": (40, 39),
    "E A Eᵀ (symmetric A)": (28, 29),
    "screw: m, f": (10, 6),
    "screw: I": (16, 15),
    "screw: Iᴬ": (38, 40),
    "screw z: Iᵃ (row 3 zero)": (28, 34),
    "screw x, y: Iᵃ (row 3 zero)": (32, 28),
    "screw constants": (2, 3),
}


def _symbols(name: str, shape: tuple) -> np.ndarray:
    out = np.empty(shape, dtype=object)
    for index in np.ndindex(*shape):
        out[index] = Expr("var", name + "".join(str(i + 1) for i in index))
    return out


def operation_counts() -> dict[str, OpCount]:
    """Count the operations of every compact formula by instrumented (symbolic) execution.

    Returns
    -------
    dict
        The keys of :data:`BOOK`, each with the :class:`~spatial.symbolic.OpCount` of the
        package's formula.
    """
    E, E2 = _symbols("E", (3, 3)), _symbols("F", (3, 3))
    r, r2, h = _symbols("r", (3,)), _symbols("q", (3,)), _symbols("h", (3,))
    v, L, M = _symbols("v", (6,)), _symbols("L", (6,)), _symbols("M", (6,))
    H, A = _symbols("H", (3, 3)), _symbols("A", (3, 3))
    m = np.array(Expr("var", "m"), dtype=object)
    rbi = (m, h, L)
    rbi2 = (np.array(Expr("var", "n"), dtype=object), r2, M)
    c, s, d = Expr("var", "c"), Expr("var", "s"), Expr("var", "d")
    constants = _screw_constants(c, s)
    consts = [Expr("var", name) for name in ("cs", "s2", "twocs", "om2s2")]
    screw = AxialScrew("z", c, s, d, *consts)
    screw_x = AxialScrew("x", c, s, d, *consts)  # a y screw costs the same (tests)
    count = count_operations
    return {
        "X v": count(k.motion(E, r, v)),
        "X⁻¹ v": count(k.inv_motion(E, r, v)),
        "X* f": count(k.force(E, r, v)),
        "Xᵀ f": count(k.inv_force(E, r, v)),
        "X₁ X₂": count(*k.compose(E, r, E2, r2)),
        "X⁻¹": count(*k.inverse(E, r)),
        "I v": count(k.rbi_motion(*rbi, v)),
        "I₁ + I₂": count(*k.rbi_add(rbi, rbi2)),
        "X* I X⁻¹": count(*k.rbi_transform(E, r, *rbi)),
        "Xᵀ I X": count(*k.rbi_inv_transform(E, r, *rbi)),
        "X* Iᴬ X⁻¹": count(*k.abi_transform(E, r, M, H, L)),
        "F G (rotations)": count(k.rotation_product(E, E2)),
        "E A Eᵀ (general A)": count(k.rotate_general(E, A)),
        "E A Eᵀ (symmetric A)": count(k.rotate_symmetric(E, L)),
        "screw: m, f": count(screw_vector_kernel(screw, v, force=False)),
        "screw: I": count(*screw_rbi_kernel(screw, m, h, L)),
        "screw: Iᴬ": count(*screw_abi_kernel(screw, M, H, L)),
        "screw z: Iᵃ (row 3 zero)": count(*screw_abi_zero_row_kernel(screw, M, H, L)),
        "screw x, y: Iᵃ (row 3 zero)": count(*screw_abi_zero_row_xy_kernel(screw_x, M, H, L)),
        "screw constants": count(*constants),
    }


def dense_operation_counts() -> dict[str, OpCount]:
    """Operations of the package's dense 6x6 kernels, counted on symbols (what NumPy does).

    ``X⁻¹`` and ``X*`` are formed by moving blocks (eqs. 2.25–2.26), which costs nothing, so the
    inertia transforms are two 6x6x6 products; ``X⁻¹ v`` and ``X* f`` use the 3x3 blocks.

    Returns
    -------
    dict
        The keys of :data:`BOOK` that the dense code implements.
    """
    X, X2 = _symbols("X", (6, 6)), _symbols("Y", (6, 6))
    I, v = _symbols("I", (6, 6)), _symbols("v", (6,))
    return {
        "X v": count_operations(dense.mv(X, v)),
        "X⁻¹ v": count_operations(dense.inv_motion(X, v)),
        "X* f": count_operations(dense.apply_force(X, v)),
        "Xᵀ f": count_operations(dense.mTv(X, v)),
        "X₁ X₂": count_operations(X @ X2),
        "I v": count_operations(dense.mv(I, v)),
        "X* I X⁻¹": count_operations(dense.T(X2) @ I @ X2),  # X2 stands for X⁻¹ (block moves)
        "Xᵀ I X": count_operations(dense.T(X) @ I @ X),
    }
