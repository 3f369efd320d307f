"""Rotatable 3D figures (``spatial.nb.figure3d``): which mode in which environment, and both modes.

The rule (``figure3d_mode``): live only with ``SPATIAL_3D=live``, without ``SPATIAL_STATIC``,
inside a Jupyter kernel, with ipympl installed; static otherwise.  The in-process tests fake
the kernel (``spatial.nb._in_kernel``) and record what would be displayed; a live figure stays
out of pyplot until its cell or widget run ends, in the thread that drew it.  The last tests
run a real kernel, as JupyterLab and nbval do, and read the outputs a front end would receive.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
import types

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.backend_bases import MouseEvent  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from spatial import nb  # noqa: E402

WIDGET = "application/vnd.jupyter.widget-view+json"


def _needs_ipympl():
    # not pytest.importorskip: importing ipympl makes it pyplot's backend for the whole run
    if importlib.util.find_spec("ipympl") is None:
        pytest.skip("ipympl is not installed (the notebooks extra installs it)")


@pytest.fixture
def kernel(monkeypatch):
    """Pretend to run in a Jupyter kernel."""
    monkeypatch.setattr(nb, "_in_kernel", lambda: True)


@pytest.fixture
def no_ipympl(monkeypatch):
    """Make ``import ipympl.backend_nbagg`` fail, as on a machine without ipympl."""
    monkeypatch.setitem(sys.modules, "ipympl.backend_nbagg", None)


@pytest.fixture
def ipympl():
    """ipympl's classes (imported through the helper, which keeps pyplot's backend)."""
    _needs_ipympl()
    classes = nb._ipympl()
    yield classes
    plt.close("all")


@pytest.fixture
def clean_env(monkeypatch):
    for name in ("SPATIAL_3D", "SPATIAL_STATIC"):
        monkeypatch.delenv(name, raising=False)
    yield monkeypatch
    nb._pending().clear()


@pytest.mark.parametrize(
    ("env", "in_kernel", "has_ipympl", "mode"),
    [
        ({"SPATIAL_3D": "live"}, True, True, "live"),  # make lab, the browser test
        ({"SPATIAL_3D": "LIVE "}, True, True, "live"),
        ({}, True, True, "static"),  # nbval (make test-notebooks), a bare `jupyter lab`
        ({"SPATIAL_3D": "static"}, True, True, "static"),
        ({"SPATIAL_3D": "live", "SPATIAL_STATIC": "1"}, True, True, "static"),  # make book
        ({"SPATIAL_3D": "live"}, False, True, "static"),  # a script, pytest
        ({"SPATIAL_3D": "live"}, True, False, "static"),  # ipympl missing
    ],
)
def test_mode_follows_the_documented_rule(
    request, clean_env, ipympl, env, in_kernel, has_ipympl, mode
):
    for name, value in env.items():
        clean_env.setenv(name, value)
    if in_kernel:
        request.getfixturevalue("kernel")
    else:
        clean_env.setattr(nb, "_in_kernel", lambda: False)
    if not has_ipympl:
        request.getfixturevalue("no_ipympl")
    assert nb.figure3d_mode() == mode


def test_mode_is_static_outside_a_kernel_even_when_asked_for(clean_env):
    clean_env.setenv("SPATIAL_3D", "live")
    assert nb.figure3d_mode() == "static"  # pytest: IPython may be imported, but no kernel
    import IPython

    clean_env.setattr(IPython, "get_ipython", lambda: types.SimpleNamespace(kernel=object()))
    assert nb._in_kernel()
    clean_env.setitem(sys.modules, "IPython", None)
    assert not nb._in_kernel()


def test_an_unknown_mode_is_refused(clean_env, kernel):
    clean_env.setenv("SPATIAL_3D", "rotate")
    with pytest.raises(ValueError, match=r"SPATIAL_3D must be 'live'.*or 'static', got 'rotate'"):
        nb.figure3d_mode()
    with pytest.raises(ValueError, match="SPATIAL_3D"):
        nb.figure3d()


def test_static_fallback_is_an_ordinary_pyplot_figure(clean_env, kernel, ipympl):
    fig = nb.figure3d(figsize=(3.0, 2.0))
    try:
        assert type(fig) is Figure and type(fig.canvas) is not ipympl[0]
        assert plt.gcf() is fig and tuple(fig.get_size_inches()) == (3.0, 2.0)
    finally:
        plt.close(fig)


def test_missing_ipympl_falls_back_to_an_ordinary_figure(clean_env, kernel, no_ipympl):
    clean_env.setenv("SPATIAL_3D", "live")
    fig = nb.figure3d()
    try:
        assert type(fig) is Figure and plt.gcf() is fig
    finally:
        plt.close(fig)


def test_importing_ipympl_keeps_the_backend_and_the_open_figures(ipympl):
    other = plt.figure()
    backend = matplotlib.get_backend()
    sys.modules.pop("ipympl", None)  # import the package again: it calls matplotlib.use
    assert nb._ipympl() is not None
    assert matplotlib.get_backend() == backend and plt.fignum_exists(other.number)
    plt.close(other)


@pytest.fixture
def displayed(monkeypatch):
    """What ``IPython.display.display`` is asked to show, instead of showing it."""
    import IPython.display

    objs = []
    monkeypatch.setattr(IPython.display, "display", lambda *o, **kw: objs.extend(o))
    return objs


def test_live_figure_is_drawn_outside_pyplot_and_shown_as_an_ipympl_canvas(
    clean_env, kernel, ipympl, displayed
):
    Canvas, _ = ipympl
    clean_env.setenv("SPATIAL_3D", "live")
    plain = plt.figure()  # a 2D figure next to it stays pyplot's, as before
    fig = nb.figure3d(figsize=(3.0, 2.0))
    ax = fig.add_subplot(projection="3d")
    ax.plot([0, 1], [0, 1], [0, 1])
    fig.tight_layout()
    assert plt.get_fignums() == [plain.number] and plt.gcf() is plain
    assert tuple(fig.get_size_inches()) == (3.0, 2.0)
    assert not isinstance(fig.canvas, Canvas) and nb._pending() == [fig]  # not shown yet
    canvases = nb._show_pending()  # what the end of the cell does
    canvas = fig.canvas
    assert canvases == displayed == [canvas] and isinstance(canvas, Canvas)
    assert nb._pending() == [] and not canvas.header_visible
    bundle = canvas._repr_mimebundle_()  # what a front end receives
    assert WIDGET in bundle and "image/png" in bundle
    plt.close("all")  # the inline backend after showing the 2D figure: the scene stays
    assert fig.canvas is canvas and canvas.comm is not None
    # the reader drags the scene: it turns
    x, y = ax.bbox.bounds[0] + ax.bbox.width / 2, ax.bbox.bounds[1] + ax.bbox.height / 2
    azim = ax.azim
    MouseEvent("button_press_event", canvas, x, y, button=1)._process()
    MouseEvent("motion_notify_event", canvas, x + 40, y, button=1)._process()
    MouseEvent("button_release_event", canvas, x + 40, y, button=1)._process()
    assert abs(ax.azim - azim) > 5 and plt.get_fignums() == []
    nb._close_live(canvas)
    assert canvas.comm is None and canvas.toolbar.comm is None


def test_displaying_a_live_figure_shows_its_canvas_at_once(clean_env, kernel, ipympl, displayed):
    clean_env.setenv("SPATIAL_3D", "live")
    fig = nb.figure3d()
    fig._ipython_display_()  # what IPython calls for display(fig)
    assert displayed == [fig.canvas] and nb._pending() == []
    fig._ipython_display_()  # a second view of the same canvas, not a second canvas
    assert displayed == [fig.canvas, fig.canvas]
    nb._close_live(fig.canvas)


def test_live_figures_wait_in_the_thread_that_drew_them(clean_env, kernel, ipympl):
    """A widget message handled in another thread (a kernel subshell) never shows them."""
    clean_env.setenv("SPATIAL_3D", "live")
    mine = nb.figure3d()
    other = []
    worker = threading.Thread(target=lambda: other.append((nb.figure3d(), nb._pending()[:])))
    worker.start()
    worker.join()
    fig, pending_there = other[0]
    assert pending_there == [fig] and nb._pending() == [mine]


def test_a_widget_shows_its_live_figures_and_closes_those_of_its_previous_run(
    clean_env, kernel, ipympl, displayed
):
    Canvas, _ = ipympl
    clean_env.setenv("SPATIAL_3D", "live")
    cell_figure = nb.figure3d()  # drawn by the cell before the widget: not the widget's

    def scene(a=1.0):
        fig = nb.figure3d()
        fig.add_subplot(projection="3d").plot([0, a], [0, 1], [0, 1])
        return fig

    w = nb.interact(scene, show=False, a=(0.0, 2.0))
    first = w.result.canvas
    assert isinstance(first, Canvas) and displayed == [first] and first.comm is not None
    with nb.driving(w) as controls:
        controls["a"].value = 1.5
        second = w.result.canvas
        assert isinstance(second, Canvas) and displayed == [first, second]
        assert first.comm is None and first.toolbar.comm is None  # replaced: closed
    assert nb._pending() == [cell_figure] and plt.get_fignums() == []
    nb._close_live(w.result.canvas)


# --- in a real kernel, as JupyterLab (make lab) and nbval (make test-notebooks) run it ---

CELLS = [
    "import matplotlib.pyplot as plt, spatial as sp\nsp.nb.figure3d_mode()",
    "fig = sp.nb.figure3d(figsize=(3, 3))\n"
    "fig.add_subplot(projection='3d').plot([0, 1], [0, 1], [0, 1])\nplt.show()",
    "plt.plot([1, 2])\nplt.show()",
]


def _run_in_kernel(monkeypatch, **env):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    _needs_ipympl()
    import pathlib

    monkeypatch.setenv("PYTHONPATH", str(pathlib.Path(nb.__file__).parents[1]))
    for name in ("SPATIAL_3D", "SPATIAL_STATIC", "MPLBACKEND"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nbclient.NotebookClient(book, timeout=120, kernel_name="python3").execute()
    mode = book.cells[0].outputs[0]["data"]["text/plain"]
    kinds = [[set(out.get("data", {})) for out in cell.outputs] for cell in book.cells[1:]]
    return mode, kinds


def test_in_a_kernel_with_spatial_3d_live_only_the_3d_scene_is_a_widget(monkeypatch):
    mode, (scene, plot) = _run_in_kernel(monkeypatch, SPATIAL_3D="live")
    assert mode == "'live'"
    assert len(scene) == 1 and WIDGET in scene[0] and "image/png" in scene[0]
    assert len(plot) == 1 and WIDGET not in plot[0] and "image/png" in plot[0]


def test_in_a_kernel_as_nbval_runs_it_the_3d_scene_is_a_png(monkeypatch):
    mode, (scene, plot) = _run_in_kernel(
        monkeypatch, MPLBACKEND="module://matplotlib_inline.backend_inline"
    )
    assert mode == "'static'"
    for outputs in (scene, plot):
        assert len(outputs) == 1 and WIDGET not in outputs[0] and "image/png" in outputs[0]
