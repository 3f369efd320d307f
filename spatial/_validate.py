"""Input checks shared by the public functions (raised at the boundary, never deep inside)."""

from __future__ import annotations

import operator

import numpy as np

__all__ = [
    "real",
    "real_array",
    "as_array",
    "as_float_array",
    "as_scalar_array",
    "finite_scalar",
    "positive_array",
    "positive_scalar",
    "positive_scalars",
    "require_rotation",
]


def real(x, name: str) -> np.ndarray:
    """``np.asarray(x)``, refused if it is complex (every array argument of the package is real).

    NumPy would turn a complex array into a float one by dropping the imaginary parts, with no
    more than a ``ComplexWarning``; every converter below calls this first so that no public
    function computes on the real part of a complex input.  Object arrays (the symbols that
    :mod:`spatial.symbolic` runs the algorithms on) are not complex and pass.

    Strings are refused too: NumPy would parse ``"75"`` as 75.0, so a number passed as text
    would pass unnoticed.

    Raises
    ------
    ValueError
        ``"{name} must be real, got a complex array"`` (or ``"... a complex number"``), or
        ``"{name} must be a number, got a string ..."``.
    """
    a = np.asarray(x)
    if np.iscomplexobj(a):
        what = "a complex number" if a.ndim == 0 else "a complex array"
        raise ValueError(f"{name} must be real, got {what}")
    if a.dtype.kind in "US":
        raise ValueError(f"{name} must be a number (or an array of numbers), got a string {x!r}")
    return a


def real_array(x, name: str) -> np.ndarray:
    """``x`` as a float array, complex refused (:func:`real`); no shape or finiteness check.

    For the conversions that check the shape themselves: ``np.asarray(x, dtype=float)`` would
    drop the imaginary parts of a complex ``x``.

    Raises
    ------
    ValueError
        If ``x`` is complex.
    """
    return real(x, name).astype(float, copy=False)


def as_array(x, name: str, tail: tuple[int, ...]) -> np.ndarray:
    """Return ``x`` as a float array whose trailing dimensions are ``tail``.

    Raises
    ------
    ValueError
        If ``x`` is complex, the trailing shape differs from ``tail`` or any entry is not finite.
    """
    return _check_tail(real(x, name).astype(float, copy=False), name, tail)


#: the floating types the tree algorithms compute in without converting (precision-generic)
FLOAT_TYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.longdouble))


def as_float_array(x, name: str, tail: tuple[int, ...]) -> np.ndarray:
    """:func:`as_array`, but an array of ``float32``, ``float64`` or ``longdouble`` keeps its type.

    Anything else (ints, lists, other floats) becomes ``float64`` as in :func:`as_array`.

    Raises
    ------
    ValueError
        As :func:`as_array`.
    """
    a = real(x, name)
    if a.dtype not in FLOAT_TYPES:
        return as_array(x, name, tail)
    return _check_tail(a, name, tail)


def _check_tail(a: np.ndarray, name: str, tail: tuple[int, ...]) -> np.ndarray:
    """``a`` after checking its trailing shape and that every entry is finite."""
    k = len(tail)
    if a.ndim < k or a.shape[a.ndim - k :] != tail:
        want = "(..., " + ", ".join(str(t) for t in tail) + ")"
        raise ValueError(f"{name} must have shape {want}, got {a.shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains non-finite values (nan or inf)")
    return a


def as_scalar_array(x, name: str) -> np.ndarray:
    """Return ``x`` as a float array of any shape with finite entries (angles, masses, ...).

    Raises
    ------
    ValueError
        If ``x`` is complex or an entry is not finite.
    """
    a = real(x, name).astype(float, copy=False)
    if not np.isfinite(a).all():
        raise ValueError(f"{name} contains non-finite values (nan or inf)")
    return a


def _number_or_nan(x, name: str) -> np.ndarray:
    """``x`` as a float array, nan for what is not a number (a string); complex raises."""
    if np.iscomplexobj(x) or isinstance(x, complex):
        real(x, name)
    if isinstance(x, str | bytes):
        return np.asarray(np.nan)
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return np.asarray(np.nan)


def finite_scalar(x, name: str) -> float:
    """``x`` as a float; ``ValueError`` unless it is one finite real number (a time, an angle).

    Raises
    ------
    ValueError
        ``"{name} must be a single finite number, got {x!r}"`` for an array, a non-number
        (a string), nan or inf; ``"{name} must be real ..."`` for a complex number.
    """
    a = _number_or_nan(x, name)
    if a.shape != () or not np.isfinite(a):
        raise ValueError(f"{name} must be a single finite number, got {x!r}")
    return float(a)


def positive_scalar(x, name: str) -> float:
    """``x`` as a float; ``ValueError`` unless it is one finite number > 0 (a length, a mass)."""
    a = as_scalar_array(x, name)
    if a.shape != ():
        raise ValueError(f"{name} must be a single number, got {x!r}")
    if a <= 0:
        raise ValueError(f"{name} must be > 0, got {x!r}")
    return float(a)


def positive_array(x, name: str) -> np.ndarray:
    """``x`` as a finite float array whose every entry is > 0 (batched masses, lengths, steps).

    Raises
    ------
    ValueError
        ``"{name} must be positive, got ..."`` if an entry is <= 0, or if one is not finite.
    """
    a = as_scalar_array(x, name)
    if np.any(a <= 0):
        raise ValueError(f"{name} must be positive, got {a}")
    return a


def positive_scalars(values, names) -> list[float]:
    """:func:`positive_scalar` for each of ``values``, named by the matching ``names``."""
    return [positive_scalar(x, name) for x, name in zip(values, names, strict=True)]


_EYE3 = np.eye(3)
_EYE3.flags.writeable = False


def require_rotation(E: np.ndarray, name: str = "E", tol: float = 1e-8) -> None:
    """Raise ``ValueError`` unless every ``E[..., :, :]`` is a rotation (EᵀE = 1, det E = +1)."""
    err = np.abs(np.swapaxes(E, -1, -2) @ E - _EYE3).max(initial=0.0)
    if err > tol:
        raise ValueError(f"{name} is not orthonormal (max |EᵀE - 1| = {err:.2e} > {tol:g})")
    if np.any(np.linalg.det(E) < 0):
        raise ValueError(f"{name} is a reflection (det = -1), not a rotation")


# --- integers (sizes, counts, indices): taken exactly, never truncated by int()

__all__ += ["integer", "integers"]


def integer(x, name: str, minimum: int | None = None, maximum: int | None = None) -> int:
    """``x`` as a Python int; ``ValueError`` unless it is an integer in ``[minimum, maximum]``.

    An integer is a Python ``int``, a NumPy integer or a 0-d integer array (whatever
    ``operator.index`` accepts), never a ``bool`` and never a float: ``int(3.7)`` would silently
    be 3, so a size, count or index given as a float is refused even when it is whole.

    Raises
    ------
    ValueError
        ``"{name} must be an integer, got 3.7"``, with the range when one is given:
        ``"{name} must be a positive integer, got 0"`` (``minimum=1``; ``"a non-negative
        integer"`` for 0, ``"an integer >= m"``, ``"an integer in [m, M]"`` otherwise).
    """
    want = _integer_range(minimum, maximum)
    if isinstance(x, bool | np.bool_):
        raise ValueError(f"{name} must be {want}, got the bool {x!r}")
    try:
        n = operator.index(x)
    except TypeError:
        raise ValueError(f"{name} must be {want}, got {x!r}") from None
    if (minimum is not None and n < minimum) or (maximum is not None and n > maximum):
        raise ValueError(f"{name} must be {want}, got {n}")
    return n


def _integer_range(minimum: int | None, maximum: int | None) -> str:
    """``"a positive integer"``, ``"an integer in [0, 5]"``, ... for the messages."""
    if maximum is not None:
        return (
            f"an integer <= {maximum}"
            if minimum is None
            else f"an integer in [{minimum}, {maximum}]"
        )
    if minimum is None:
        return "an integer"
    return {0: "a non-negative integer", 1: "a positive integer"}.get(
        minimum, f"an integer >= {minimum}"
    )


def integers(xs, name: str, minimum: int | None = None, maximum: int | None = None) -> tuple:
    """Each entry of ``xs`` checked by :func:`integer`, as a tuple of ints (sizes, an order).

    Raises
    ------
    ValueError
        If ``xs`` is not a sequence (a string, a number), naming ``name``, or as :func:`integer`
        for the first bad entry, named ``"{name}[k]"``.
    """
    if isinstance(xs, str | bytes) or not hasattr(xs, "__iter__"):
        raise ValueError(f"{name} must be a sequence of integers, got {xs!r}")
    return tuple(integer(x, f"{name}[{k}]", minimum, maximum) for k, x in enumerate(xs))


# --- matrix-level solver inputs (spatial.solvers, and the contact code that calls them)

__all__ += [
    "box_bounds",
    "friction_coefficients",
    "iteration_limit",
    "matrix",
    "nonnegative_scalar",
    "positive_diagonal",
    "relaxation_factor",
    "square_matrix",
    "tolerance",
    "unit_vectors",
    "vector",
]


def matrix(x, name: str, cols: int) -> np.ndarray:
    """Return ``x`` as a finite float array of shape ``(..., m, cols)``.

    Raises
    ------
    ValueError
        If ``x`` is complex, not at least 2-D, has another number of columns, or a non-finite entry.
    """
    a = real(x, name).astype(float, copy=False)
    if a.ndim < 2:
        raise ValueError(f"{name} must be a matrix (at least 2-D), got shape {a.shape}")
    if a.shape[-1] != cols:
        raise ValueError(f"{name} must have shape (..., m, {cols}), got {a.shape}")
    return as_scalar_array(a, name)


def square_matrix(x, name: str, batch: bool = False) -> np.ndarray:
    """Return ``x`` as a finite square matrix, ``(n, n)`` (or ``(..., n, n)`` if ``batch``).

    Raises
    ------
    ValueError
        If ``x`` is complex or not square (or not 2-D without ``batch``) or has a non-finite entry.
    """
    a = real(x, name).astype(float, copy=False)
    if (a.ndim != 2 and not batch) or a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        want = "(..., n, n)" if batch else "(n, n)"
        raise ValueError(f"{name} must be a square matrix of shape {want}, got shape {a.shape}")
    return as_scalar_array(a, name)


def vector(x, name: str, n: int | None = None) -> np.ndarray:
    """Return ``x`` as a finite 1-D float array (of length ``n`` when given).

    Raises
    ------
    ValueError
        If ``x`` is complex, not 1-D, has another length than ``n``, or has a non-finite entry.
    """
    a = real(x, name).astype(float, copy=False)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-D vector, got shape {a.shape}")
    if n is not None and a.shape[0] != n:
        raise ValueError(
            f"{name} must have length {n} to match the other arguments, got {a.shape[0]}"
        )
    return as_scalar_array(a, name)


def box_bounds(lo, hi, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Return bounds ``lo, hi`` of length ``n`` (defaults 0 and +inf); infinities are allowed.

    Raises
    ------
    ValueError
        For a bound of the wrong length, a nan, ``lo = +inf``, ``hi = -inf`` or ``lo > hi``.
    """
    out = []
    for x, name, default in ((lo, "lo", 0.0), (hi, "hi", np.inf)):
        a = np.full(n, default) if x is None else real(x, name).astype(float, copy=False)
        if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != n):
            raise ValueError(f"{name} must be a scalar or a vector of length {n}, got {a.shape}")
        a = np.broadcast_to(a, (n,))
        if np.any(np.isnan(a)):
            raise ValueError(f"{name} contains nan")
        out.append(np.array(a, dtype=float))
    lo_, hi_ = out
    if np.any(lo_ == np.inf) or np.any(hi_ == -np.inf):
        raise ValueError("lo must be < +inf and hi must be > -inf")
    if np.any(lo_ > hi_):
        i = int(np.argmax(lo_ > hi_))
        raise ValueError(f"lo must not exceed hi (index {i}: lo={lo_[i]:g} > hi={hi_[i]:g})")
    return lo_, hi_


def friction_coefficients(mu, nc: int, name: str = "mu") -> np.ndarray:
    """Return friction coefficients as an array of length ``nc``; each must be finite and >= 0.

    Raises
    ------
    ValueError
        For a ``mu`` that is neither a scalar nor of length ``nc``, complex, non-finite or
        negative (``"friction coefficient {name} must be >= 0, got -0.1"``).
    """
    a = real(mu, name).astype(float, copy=False)
    if a.ndim > 1 or (a.ndim == 1 and a.shape[0] != nc):
        raise ValueError(f"{name} must be a scalar or a vector of length {nc} (one per contact)")
    a = as_scalar_array(np.broadcast_to(a, (nc,)).copy(), name)
    if np.any(a < 0):
        raise ValueError(f"friction coefficient {name} must be >= 0, got {a[a < 0][0]:g}")
    return a


def iteration_limit(max_iter: int | None, n: int) -> int:
    """Return ``max_iter`` checked to be a positive integer (default ``100 (n + 1)``).

    Raises
    ------
    ValueError
        If ``max_iter`` is not a positive integer.
    """
    if max_iter is None:
        return 100 * (n + 1)
    return integer(max_iter, "max_iter", minimum=1)


def tolerance(tol: float) -> float:
    """Return ``tol`` checked to be a positive finite number.

    Raises
    ------
    ValueError
        If ``tol`` is not a finite number > 0.
    """
    if not (np.isfinite(tol) and tol > 0):
        raise ValueError(f"tol must be a positive number, got {tol!r}")
    return float(tol)


def nonnegative_scalar(x, name: str) -> float:
    """``x`` as a float; ``ValueError`` unless it is one finite number >= 0 (a damping, a margin).

    Raises
    ------
    ValueError
        ``"{name} must be a number >= 0, got {x!r}"`` for an array, a non-number, a nan/inf or a
        negative value; ``"{name} must be real ..."`` for a complex number.
    """
    a = _number_or_nan(x, name)
    if a.shape != () or not np.isfinite(a) or a < 0:
        raise ValueError(f"{name} must be a number >= 0, got {x!r}")
    return float(a)


def unit_vectors(v, name: str) -> np.ndarray:
    """Return ``v`` (shape ``(..., 3)``) scaled to unit length (contact normals, plane normals).

    Raises
    ------
    ValueError
        If ``v`` is not a finite array of 3-vectors or one of them is (nearly) zero.
    """
    v = as_array(v, name, (3,))
    size = np.linalg.norm(v, axis=-1, keepdims=True)
    if np.any(size < 1e-12):
        raise ValueError(f"{name} must be a nonzero 3-vector")
    return v / size


def positive_diagonal(M: np.ndarray, name: str, method: str) -> None:
    """Raise ``ValueError`` unless every ``M[i, i] > 0`` (Gauss–Seidel divides by them).

    Raises
    ------
    ValueError
        ``"{method} needs a positive diagonal: {name}[i, i] > 0 for all i"``.
    """
    if np.any(np.diagonal(M, axis1=-2, axis2=-1) <= 0):
        raise ValueError(f"{method} needs a positive diagonal: {name}[i, i] > 0 for all i")


def relaxation_factor(omega: float) -> float:
    """Return the relaxation factor ``omega`` of a Gauss–Seidel method, checked to lie in (0, 2).

    Raises
    ------
    ValueError
        If ``omega`` is not a number in the open interval (0, 2).
    """
    if not 0 < omega < 2:
        raise ValueError(f"relaxation factor omega must be in (0, 2), got {omega!r}")
    return float(omega)


# --- batch shapes (one message for every function that combines batched arguments)

__all__ += ["broadcast_batch"]


def broadcast_batch(**arrays) -> tuple[int, ...]:
    """The common batch shape of several arrays, each given as ``name=(array, core_ndim)``.

    The batch shape of an array is its shape without the last ``core_ndim`` axes (a spatial
    vector has 1, a 6x6 matrix 2); arrays given as ``None`` are skipped.  The batch shapes must
    broadcast together (NumPy's rules).

    Returns
    -------
    tuple of int
        The broadcast batch shape.

    Raises
    ------
    ValueError
        ``"the batch shapes do not broadcast: X (2,), f (3,)"``, naming every array and its
        batch shape, if they do not.
    """
    shapes = {name: a.shape[: a.ndim - core] for name, (a, core) in arrays.items() if a is not None}
    try:
        return np.broadcast_shapes(*shapes.values())
    except ValueError:
        detail = ", ".join(f"{name} {shape}" for name, shape in shapes.items())
        raise ValueError(f"the batch shapes do not broadcast: {detail}") from None
