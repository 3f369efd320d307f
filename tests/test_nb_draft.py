"""Draft mode (``SPATIAL_NB_DRAFT``, the notebook tests): cheap figures, the reader's widgets.

In a real kernel with the inline backend, as nbval runs the notebooks: a figure outside a widget
is rendered once at ``DRAFT_DPI`` without the tight bounding box, so its PNG is exactly its size
in inches times 50; a widget update renders as the reader's notebook does (100 dpi, cropped to
the tight bounding box, here widened by a label beyond the right edge); and the draft comes back
after the update.  Animation frames follow the same rule.  A figure laid out by ``tight_layout``
is drawn once, not first once more for the layout pass of the placeholder engine it leaves.
"""

from __future__ import annotations

import pathlib

import pytest

import spatial as sp

CELLS = [
    "import base64, matplotlib.pyplot as plt, spatial as sp\ncfg = sp.nb.setup()",
    '''png = get_ipython().display_formatter.formatters["image/png"]


def width(inches=4.0):
    """Pixel width of the PNG the notebook would show for a figure ``inches`` wide."""
    fig, ax = plt.subplots(figsize=(inches, 2.0))
    ax.plot([0.0, 1.0])
    fig.text(1.3, 0.5, "a label beyond the right edge")
    data = png(fig)
    plt.close(fig)
    data = base64.b64decode(data) if isinstance(data, str) else data
    return int.from_bytes(data[16:20], "big")  # the PNG header's width


print(width(), sp.nb.interact(width, show=False, inches=(2.0, 6.0)).result, width())''',
    """def frame_width(inches=4.0):  # an animation's frames, as sp.viz's players save them
    from matplotlib.animation import FuncAnimation

    fig, ax = plt.subplots(figsize=(inches, 2.0), dpi=70)
    player = FuncAnimation(fig, lambda k: ax.plot([0, k]), frames=2)
    html = player.to_jshtml()
    plt.close(fig)
    data = base64.b64decode(html.split("data:image/png;base64,")[1].split('"')[0])
    return int.from_bytes(data[16:20], "big")


print(frame_width(), sp.nb.interact(frame_width, show=False, inches=(2.0, 6.0)).result)""",
    """from IPython.core.pylabtools import print_figure

fig, ax = plt.subplots(figsize=(2.0, 1.5))  # laid out once by tight_layout, as most figures are
ax.plot([0.0, 1.0])
ax.set(xlabel="x (m)", ylabel="y (m)")
fig.tight_layout()
engine, draws = fig.get_layout_engine(), []
fig.canvas.mpl_connect("draw_event", lambda event: draws.append(event))
data = png(fig)
ours = len(draws)
# matplotlib's own draft PNG: a layout pass of tight_layout's placeholder engine, then the image
reference = print_figure(fig, "png", base64=True, bbox_inches=None)
plt.close(fig)
print(ours, len(draws) - ours, int(data == reference), int(fig.get_layout_engine() is engine))""",
]


def _widths(monkeypatch, draft: str) -> list[int]:
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    monkeypatch.setenv("PYTHONPATH", str(pathlib.Path(sp.__file__).parents[1]))
    monkeypatch.setenv("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    monkeypatch.setenv("SPATIAL_NB_DRAFT", draft)
    book = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in CELLS])
    nbclient.NotebookClient(book, timeout=120, kernel_name="python3").execute()
    return [int(w) for cell in book.cells[1:] for w in cell.outputs[0]["text"].split()]


def test_draft_figures_are_drawn_once_at_half_resolution_and_widgets_as_the_reader_sees_them(
    monkeypatch,
):
    out = _widths(monkeypatch, "1")
    outside, in_widget, after, frame, frame_in_widget, draws, mpl_draws, same, kept = out
    assert outside == after == 4 * sp.nb.DRAFT_DPI  # no tight box: exactly 4 inches
    assert in_widget > 4 * sp.nb.FIGURE_DPI  # the reader's: 100 dpi, widened to the label
    assert frame == 4 * sp.nb.DRAFT_DPI and frame_in_widget == 4 * 70  # the figure's own dpi
    # a tight_layout figure is drawn once, into the image that matplotlib draws after its
    # placeholder engine's layout pass; the figure keeps its engine
    assert draws == 1 and mpl_draws == 2 and same == 1 and kept == 1


def test_without_draft_mode_figures_are_the_readers(monkeypatch):
    import matplotlib.pyplot as plt

    monkeypatch.delenv("SPATIAL_NB_DRAFT", raising=False)
    with plt.rc_context():
        sp.nb.setup()
        assert plt.rcParams["figure.dpi"] == sp.nb.FIGURE_DPI
        assert plt.rcParams["savefig.dpi"] == "figure"
