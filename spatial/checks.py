"""Finite-difference checks of derivatives, on vector spaces and on SO(3), SE(3), unit quaternions.

A derivative computed by hand is trusted only after it agrees with a finite difference.  On a
vector space the point is moved along coordinate directions, ``x ± h e_k``.  A rotation, a frame
or a unit quaternion cannot be moved that way (the result would leave the group), so the
manifold versions move the point through the exponential map and differentiate with respect to
the 3 (rotation) or 6 (twist ``[ω; v]``) tangent coordinates:

* ``space="so3"``: ``R exp([δ])``, a rotation by ``δ`` about axes fixed in the body;
* ``space="se3"``: ``E exp([δ])``, the frame moved by the body twist ``δ`` for unit time, as in
  Sueda's finite-difference checks (eqs. 1.11 and 1.20);
* ``space="quat"``: ``q ⊗ quat_from_rotvec(δ)``, the quaternion counterpart of ``R exp([δ])``
  (quaternions scalar first ``(w, x, y, z)``).

These are *body* (right) perturbations, the default, matching body twists.  ``side="world"``
uses left perturbations ``exp([δ]) R``, ``exp([δ]) E``, ``quat_from_rotvec(δ) ⊗ q`` instead,
for derivatives with respect to world-frame (spatial) velocities.

All differences are central, ``(f(x⁺) - f(x⁻)) / 2h``, with truncation error ``O(h²)``; the
default step ``h = ε^(1/3)·scale ≈ 6e-6·scale`` balances it against round-off, so a correct
derivative typically agrees to about 1e-9 relative.  The checks report the relative error, the
step and a pass flag with the tolerance they used.  Each check takes a single point ``x`` (no
batch dimensions); ``f`` may return an array of any shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._validate import as_array, as_scalar_array, positive_array, require_rotation
from .rotations import quat_from_rotvec, quat_multiply, require_unit_quaternion
from .se3 import exp_se3, exp_so3

__all__ = ["CheckResult", "fd_jacobian", "check_jacobian", "check_directional"]

_SPACES = ("vector", "so3", "se3", "quat")
_SIDES = ("body", "world")
_CBRT_EPS = np.finfo(float).eps ** (1.0 / 3.0)


@dataclass(frozen=True)
class CheckResult:
    """Outcome of a derivative check; true in a boolean context when the check passed.

    Attributes
    ----------
    error : float
        Relative error ``‖claimed - fd‖ / max(‖claimed‖, ‖fd‖)`` (Frobenius norms; 0 if both
        are zero).
    abs_error : float
        ``‖claimed - fd‖``.
    step : ndarray
        The finite-difference step(s) used: one per tangent coordinate for a Jacobian, a
        single value for a directional derivative.
    rtol, atol : float
        The tolerance: the check passes when ``abs_error <= rtol·max(‖claimed‖, ‖fd‖) + atol``.
    passed : bool
    """

    error: float
    abs_error: float
    step: np.ndarray
    rtol: float
    atol: float
    passed: bool

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        steps = ", ".join(f"{s:.1e}" for s in np.atleast_1d(self.step))
        verdict = "passed" if self.passed else "FAILED"
        return (
            f"derivative check {verdict}: relative error {self.error:.1e} "
            f"(tolerance rtol={self.rtol:g}, atol={self.atol:g}; step {steps})"
        )


def _tangent(space: str, side: str, x):
    """Validate the point ``x`` and return ``(x, dim, retract, scale)`` for ``space``.

    ``retract(δ)`` moves ``x`` by the tangent vector ``δ`` (shape ``(dim,)``); ``scale`` (shape
    ``(dim,)``) sizes the default step of each coordinate.
    """
    if space not in _SPACES:
        raise ValueError(f"space must be one of {_SPACES}, got {space!r}")
    if side not in _SIDES:
        raise ValueError(f"side must be one of {_SIDES}, got {side!r}")
    right = side == "body"
    if space == "vector":
        x = as_scalar_array(x, "x")
        return x, x.size, lambda d: x + d.reshape(x.shape), np.maximum(1.0, np.abs(x).ravel())
    if space == "so3":
        x = _single(as_array(x, "x", (3, 3)), "x", (3, 3))
        require_rotation(x, "x")
        return x, 3, lambda d: x @ exp_so3(d) if right else exp_so3(d) @ x, np.ones(3)
    if space == "se3":
        x = _single(as_array(x, "x", (4, 4)), "x", (4, 4))
        if np.abs(x[3] - [0.0, 0.0, 0.0, 1.0]).max() > 1e-12:
            raise ValueError("x is not a rigid frame: its last row must be [0, 0, 0, 1]")
        require_rotation(x[:3, :3], "the rotation block of x")
        p_scale = max(1.0, np.abs(x[:3, 3]).max())
        scale = np.array([1.0, 1.0, 1.0, p_scale, p_scale, p_scale])
        return x, 6, lambda d: x @ exp_se3(d) if right else exp_se3(d) @ x, scale
    x = _single(as_array(x, "x", (4,)), "x", (4,))
    require_unit_quaternion(x, "x")
    if right:
        return x, 3, lambda d: quat_multiply(x, quat_from_rotvec(d)), np.ones(3)
    return x, 3, lambda d: quat_multiply(quat_from_rotvec(d), x), np.ones(3)


def _single(x: np.ndarray, name: str, shape: tuple[int, ...]) -> np.ndarray:
    if x.shape != shape:
        raise ValueError(f"{name} must be a single point of shape {shape}, got {x.shape}")
    return x


def _steps(h, dim: int, default: np.ndarray) -> np.ndarray:
    if h is None:
        return _CBRT_EPS * default
    h = as_scalar_array(h, "h")
    if h.ndim == 0:
        h = np.full(dim, float(h))
    if h.shape != (dim,):
        raise ValueError(f"h must be a scalar or have shape ({dim},), got {h.shape}")
    return positive_array(h, "h")


def _fd_jacobian(f, x, h, space, side):
    x, dim, retract, scale = _tangent(space, side, x)
    steps = _steps(h, dim, scale)
    columns = []
    for k in range(dim):
        d = np.zeros(dim)
        d[k] = steps[k]
        f_plus = np.asarray(f(retract(d)), dtype=float)
        f_minus = np.asarray(f(retract(-d)), dtype=float)
        columns.append((f_plus - f_minus) / (2.0 * steps[k]))
    return np.stack(columns, -1), steps


def fd_jacobian(f: Callable, x, h=None, *, space: str = "vector", side: str = "body") -> np.ndarray:
    """Jacobian of ``f`` at ``x`` by central differences, on a vector space or a manifold.

    Parameters
    ----------
    f : callable
        ``f(x)`` returning an array of any shape ``S``.
    x : array_like
        The point: any shape for ``space="vector"`` (the Jacobian is with respect to
        ``x.ravel()``), a rotation ``(3, 3)`` for ``"so3"``, a frame ``(4, 4)`` for ``"se3"``,
        a unit quaternion ``(4,)`` (scalar first) for ``"quat"``.
    h : float or array_like, shape (n,), optional
        Step, one for all or one per tangent coordinate; default ``ε^(1/3)·max(1, |x_k|)``
        (vector), ``ε^(1/3)`` for rotations, and ``ε^(1/3)·max(1, |p|)`` for the linear
        coordinates of a frame.
    space : {"vector", "so3", "se3", "quat"}
        How ``x`` is perturbed (see the module docstring).
    side : {"body", "world"}
        Right (body) or left (world) perturbation on a manifold; ignored for vectors.

    Returns
    -------
    ndarray, shape S + (n,)
        Column ``k`` is the derivative with respect to tangent coordinate ``k``;
        ``n = x.size`` (vector), 3 (so3, quat) or 6 (se3, order ``[ω; v]``).

    Raises
    ------
    ValueError
        If ``space`` or ``side`` is unknown, ``x`` is not a valid point of the space (not
        finite, not a rotation, frame or unit quaternion, or batched), or ``h`` is not positive
        or has the wrong length.
    """
    return _fd_jacobian(f, x, h, space, side)[0]


def _result(claimed: np.ndarray, fd: np.ndarray, step, rtol: float, atol: float) -> CheckResult:
    abs_error = float(np.linalg.norm((claimed - fd).ravel()))
    scale = max(float(np.linalg.norm(claimed.ravel())), float(np.linalg.norm(fd.ravel())))
    error = abs_error / scale if scale > 0 else 0.0
    passed = abs_error <= rtol * scale + atol
    return CheckResult(error, abs_error, np.asarray(step, dtype=float), rtol, atol, passed)


def check_jacobian(
    f: Callable,
    J,
    x,
    h=None,
    *,
    space: str = "vector",
    side: str = "body",
    rtol: float = 1e-6,
    atol: float = 1e-9,
) -> CheckResult:
    """Compare a claimed Jacobian ``J`` of ``f`` at ``x`` with central differences.

    Parameters
    ----------
    f : callable
        ``f(x)`` returning an array of shape ``S``.
    J : array_like, shape S + (n,)
        The claimed Jacobian with respect to the ``n`` tangent coordinates (see
        :func:`fd_jacobian` for ``n`` and the perturbation).
    x, h, space, side
        As in :func:`fd_jacobian`.
    rtol, atol : float
        Pass when ``‖J - J_fd‖ <= rtol·max(‖J‖, ‖J_fd‖) + atol``.  The default 1e-6 sits well
        above the ~1e-9 accuracy of a central difference and far below a wrong term.

    Returns
    -------
    CheckResult

    Raises
    ------
    ValueError
        As :func:`fd_jacobian`, or if ``J`` does not have the shape of the finite-difference
        Jacobian.
    """
    J_fd, steps = _fd_jacobian(f, x, h, space, side)
    J = as_scalar_array(J, "J")
    if J.shape != J_fd.shape:
        raise ValueError(f"J must have shape {J_fd.shape} (f's shape + (n,)), got {J.shape}")
    return _result(J, J_fd, steps, rtol, atol)


def check_directional(
    f: Callable,
    df,
    x,
    dx,
    h=None,
    *,
    space: str = "vector",
    side: str = "body",
    rtol: float = 1e-6,
    atol: float = 1e-9,
) -> CheckResult:
    """Compare a claimed directional derivative ``df = D f(x)[dx]`` with a central difference.

    The difference is ``(f(x ⊕ h dx) - f(x ⊕ -h dx)) / 2h``, where ``⊕`` is ``+`` on a vector
    space and the exponential-map perturbation of ``space`` on a manifold; on SE(3) with the
    default body side this is Sueda's check of ``Ė = E [φ]`` (eq. 1.11) and of ``d/dt Ad``
    (eq. 1.20), central instead of forward.

    Parameters
    ----------
    f : callable
        ``f(x)`` returning an array of shape ``S``.
    df : array_like, shape S
        The claimed derivative of ``f`` at ``x`` in the direction ``dx``.
    x : array_like
        The point (see :func:`fd_jacobian`).
    dx : array_like
        The direction: same shape as ``x`` for vectors, a rotation vector ``(3,)`` for
        ``"so3"``/``"quat"``, a twist ``(6,)`` for ``"se3"``.
    h : float, optional
        Step along ``dx``; default ``ε^(1/3)·max(1, ‖x‖_∞)/‖dx‖`` (for a frame, ``‖p‖_∞``
        instead of ``‖x‖_∞``; 1 for rotations and quaternions).
    space, side, rtol, atol
        As in :func:`check_jacobian`.

    Returns
    -------
    CheckResult

    Raises
    ------
    ValueError
        As :func:`fd_jacobian`, or if ``dx`` has the wrong shape or is zero, or ``df`` does not
        have the shape of ``f(x)``.
    """
    x, dim, retract, scale = _tangent(space, side, x)
    dx = as_scalar_array(dx, "dx")
    if dx.size != dim or (space != "vector" and dx.shape != (dim,)):
        want = x.shape if space == "vector" else (dim,)
        raise ValueError(f"dx must have shape {want}, got {dx.shape}")
    norm = float(np.linalg.norm(dx))
    if norm == 0.0:
        raise ValueError("dx must be non-zero")
    step = _steps(h, 1, np.array([scale.max() / norm]))[0]
    d = dx.ravel() * step
    fd = (np.asarray(f(retract(d)), dtype=float) - np.asarray(f(retract(-d)), dtype=float)) / (
        2.0 * step
    )
    df = as_scalar_array(df, "df")
    if df.shape != fd.shape:
        raise ValueError(f"df must have the shape of f(x), {fd.shape}, got {df.shape}")
    return _result(df, fd, step, rtol, atol)
