"""Operation counts of the REDMAX products of Sueda §2.10 and §2.13, on GU(n).

Sueda's Algs. 5, 6 and 10 multiply by ``J_mr``, by ``J_mrᵀ`` and by ``M_r⁻¹`` in ``O(n)``
without forming a matrix.  Timed in Python, that claim drowns in the fixed cost of each NumPy
call; counted, it does not depend on the machine.  :func:`product_counts` runs the package's own
kernels (:mod:`spatial.reduced.products`, :mod:`spatial.reduced.inverse_inertia`) on object
arrays of symbols (:func:`~spatial.symbolic.angle_symbols`, :func:`~spatial.symbolic.symbol_array`)
and counts, with :func:`~spatial.symbolic.count_operations`, every product and sum they perform,
zeros included, as NumPy performs them on floats; sine and cosine are free, as in Featherstone
§10.3.  The dense routes form ``J_mr`` (eq. 2.14) the same way and then multiply.
"""

from __future__ import annotations

import numpy as np

from .._validate import integer
from ..builders import gu_chain
from ..kinematics import _forward_pass
from ..reduced.inverse_inertia import inverse_inertia_factor
from ..reduced.jacobian import _jacobian
from ..reduced.products import _product, _stack, _transpose_product
from .expr import OpCount, count_operations
from .trace import angle_symbols, symbol_array

__all__ = ["product_counts"]


def product_counts(n) -> dict[str, OpCount]:
    """Operations of the recursive and the dense REDMAX products on GU(n).

    Parameters
    ----------
    n : int
        Number of revolute joints of the chain GU(n) (:func:`spatial.builders.gu_chain`).

    Returns
    -------
    dict of str to OpCount
        ``"J x (Alg. 5)"``, ``"Jᵀ y (Alg. 6)"`` and ``"dense J, then J x"``,
        ``"dense J, then Jᵀ y"``: counted on symbols for ``q``, ``x`` and ``y``, the joint
        transforms included (both routes need them).  ``"M⁻¹ x (Alg. 10, solve)"``: the two
        passes per vector of Alg. 10 (lines 15–22), counted with the factor of a numeric
        configuration and a symbolic ``x``; ``"factored M, two triangular solves"``: the
        dense counterpart given a Cholesky factor of ``M_r``, forward and back substitution,
        ``n² + n`` multiplications and divisions and ``n² - n`` additions (Golub and Van Loan,
        Algs. 3.1.1–3.1.2).

    Raises
    ------
    ValueError
        If ``n`` is not a positive integer.

    Examples
    --------
    >>> from spatial.symbolic import product_counts
    >>> c = product_counts(8)
    >>> c["J x (Alg. 5)"].total < c["dense J, then J x"].total
    True
    """
    n = integer(n, "n", minimum=1)
    model = gu_chain(n)
    q, x = angle_symbols("q", n), symbol_array("x", (n,))
    y = symbol_array("y", (6 * n,))
    J = _jacobian(model, _forward_pass(model, q))
    factor = inverse_inertia_factor(model, np.full(n, 0.3))
    y_blocks = _product(model, _forward_pass(model, q), x)
    return {
        "J x (Alg. 5)": count_operations(_stack(model, y_blocks)),
        "Jᵀ y (Alg. 6)": count_operations(_transpose_product(model, _forward_pass(model, q), y)),
        "M⁻¹ x (Alg. 10, solve)": count_operations(factor._solve(x[:, None])),
        "dense J, then J x": count_operations(J @ x),
        "dense J, then Jᵀ y": count_operations(J.T @ y),
        "factored M, two triangular solves": OpCount(n * n + n, n * n - n),
    }
