"""Tests of the offline animation player (spatial.viz.player)."""

import json
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.animation import FuncAnimation  # noqa: E402

import spatial as sp  # noqa: E402
from spatial import builders  # noqa: E402

#: The player's buttons, left to right: the JavaScript method each calls, and what it shows.
BUTTONS = [
    ("slower", "\u2212"),
    ("first_frame", "|\u25c0\u25c0"),
    ("previous_frame", "|\u25c0"),
    ("reverse_animation", "\u25c0"),
    ("pause_animation", "\u275a\u275a"),
    ("play_animation", "\u25b6"),
    ("next_frame", "\u25b6|"),
    ("last_frame", "\u25b6\u25b6|"),
    ("faster", "+"),
]
BUTTON = re.compile(r"<button\b[^>]*\bonclick=\"anim\w+\.(\w+)\(\)\">(.*?)</button>", re.S)
FRAME = re.compile(r"frames\[(\d+)\] = \"(data:image/png;base64,[^\"]+)\"")


def small_animation(frames=3):
    fig, ax = plt.subplots(figsize=(1.5, 1.5), dpi=30)
    (line,) = ax.plot([0, 1], [0, 1])
    return fig, FuncAnimation(fig, lambda k: line.set_ydata([0, k]), frames=frames)


def assert_offline(html):
    assert not re.search(r"https?://", html)
    assert "fa fa-" not in html and "fa-" not in html and "<i " not in html
    assert "<link" not in html


def test_player_of_a_real_animation_keeps_buttons_and_frames():
    fig, anim = small_animation(frames=3)
    raw = anim.to_jshtml()
    plt.close(fig)
    assert re.search(r"<link[^>]*\n?href=\"https://", raw)  # what matplotlib writes today
    html = sp.viz.offline_player(raw)
    assert_offline(html)
    buttons = [(method, label.strip()) for method, label in BUTTON.findall(html)]
    assert [method for method, _ in buttons] == [method for method, _ in BUTTONS]
    for (_, label), (_, symbol) in zip(buttons, BUTTONS, strict=True):
        assert label.replace("\ufe0e", "") == symbol  # plain symbols, possibly text-style
    assert len({label for _, label in buttons}) == 9  # backwards play is not forward play
    frames = FRAME.findall(html)
    assert [int(k) for k, _ in frames] == [0, 1, 2]
    assert frames == FRAME.findall(raw)  # the images are untouched
    # everything but the link and the icons is as matplotlib wrote it
    symbols = re.escape("".join(set("".join(symbol for _, symbol in BUTTONS) + "\ufe0e")))
    strip = re.compile(rf"<link[^>]*>\n?|<i class=\"[^\"]*\"></i>|[{symbols}]")
    assert strip.sub("", html) == strip.sub("", raw)


def test_symbols_avoid_the_media_control_characters():
    # U+23E9-23FA (⏮ ⏸ ⏭ ...) were blank boxes in Chromium with DejaVu Sans; triangles
    # (Geometric Shapes), heavy bars (Dingbats) and ASCII are in the common fonts
    for symbol in sp.viz.PLAYER_SYMBOLS.values():
        for char in symbol:
            assert char.isascii() or char in "\u2212\ufe0e" or 0x25A0 <= ord(char) <= 0x27BF, (
                f"{char!r} (U+{ord(char):04X}) is missing from some fonts"
            )


def test_animation_html_wraps_a_real_funcanimation():
    fig, anim = small_animation(frames=4)
    shown = sp.viz.animation_html(anim, fps=5, default_mode="once")
    plt.close(fig)
    assert_offline(shown.data)
    assert len(FRAME.findall(shown.data)) == 4
    assert len(BUTTON.findall(shown.data)) == 9
    assert re.search(r"value=\"once\"[^>]*\n\s*checked", shown.data)  # kwargs reached to_jshtml


def test_animation_html_skips_the_canvas_refresh_and_draws_what_matplotlib_does():
    # the frames equal matplotlib's own player's (a figure laid out once by tight_layout, as the
    # animations of spatial.viz are), drawn without the canvas refresh after each update; the
    # canvas and the figure's layout engine are left as they were
    def make():
        fig, ax = plt.subplots(figsize=(2.0, 1.5), dpi=30)
        (line,) = ax.plot([0, 1], [0, 1])
        ax.set(xlabel="x (m)", ylabel="y (m)")
        fig.tight_layout()
        return fig, FuncAnimation(fig, lambda k: line.set_ydata([0, k]), frames=5)

    fig, anim = make()
    raw = anim.to_jshtml()
    plt.close(fig)
    fig, anim = make()
    engine, draws = fig.get_layout_engine(), []
    fig.canvas.mpl_connect("draw_event", lambda event: draws.append(event))
    html = sp.viz.animation_html(anim).data
    plt.close(fig)
    assert FRAME.findall(html) == FRAME.findall(raw)
    # one draw per frame, the image; matplotlib's own player first lays out the figure again
    # for tight_layout's placeholder engine (which lays nothing out) and refreshes the canvas
    # after each update: three draws per frame
    assert len(draws) == 5
    assert fig.get_layout_engine() is engine and "draw_idle" not in vars(fig.canvas)


def test_frame_indices_are_evenly_spaced_and_fewer_in_fast_mode(monkeypatch):
    monkeypatch.delenv("SPATIAL_NB_FAST", raising=False)
    assert sp.viz.player.frame_indices(5, 60).tolist() == [0, 1, 2, 3, 4]
    assert sp.viz.player.frame_indices(201, 5).tolist() == [0, 50, 100, 150, 200]
    assert sp.viz.player.frame_count(60) == 60
    monkeypatch.setenv("SPATIAL_NB_FAST", "1")
    assert sp.viz.player.frame_count(60) == sp.viz.player.FAST_FRAMES == 3
    assert sp.viz.player.frame_indices(200, 60).tolist() == [0, 100, 199]  # first, middle, last
    assert sp.viz.player.frame_count(2) == 2
    monkeypatch.setenv("SPATIAL_NB_FAST", "0")
    assert sp.viz.player.frame_count(60) == 60
    with pytest.raises(ValueError, match="max_frames must be ≥ 1, got 0"):
        sp.viz.player.frame_indices(10, 0)


def test_animate_gives_an_offline_player():
    model = builders.double_pendulum()
    qs = np.stack([np.linspace(0.0, 1.0, 10), np.linspace(0.5, -0.5, 10)], -1)
    html = sp.viz.animate(model, qs, max_frames=3).data
    assert_offline(html)
    assert len(FRAME.findall(html)) == 3 and len(BUTTON.findall(html)) == 9


FAKE = """<link rel="stylesheet"
href="https://example.org/font-awesome.css">
<div class="anim-buttons">
  <button onclick="anim1.play_animation()"><i class="fa fa-play"></i></button>
  {extra}
</div>
"""


def test_a_fake_template_with_known_icons_is_rewritten():
    assert sp.viz.offline_player(FAKE.format(extra="")).count("\u25b6") == 1


@pytest.mark.parametrize(
    "template, message",
    [
        (FAKE.split("\n", 2)[2].format(extra=""), "no stylesheet linked from the internet"),
        (FAKE.format(extra='<button><i class="fa fa-repeat"></i></button>'), "fa fa-repeat"),
        (FAKE.format(extra='<span class="fa fa-repeat"></span>'), "still uses .*fa-repeat"),
        (FAKE.format(extra='<script src="http://cdn.example/x.js"></script>'), "still uses .*http"),
    ],
    ids=["no-link", "unknown-icon", "icon-left", "url-left"],
)
def test_a_changed_template_is_refused(template, message):
    with pytest.raises(ValueError, match=f"{message}.*template has changed"):
        sp.viz.offline_player(template)


def test_wrong_arguments():
    with pytest.raises(TypeError, match="html must be the str"):
        sp.viz.offline_player(b"<div></div>")
    with pytest.raises(TypeError, match="animation must be a matplotlib Animation"):
        sp.viz.animation_html("<div></div>")


def test_no_notebook_shows_matplotlibs_player_unrewritten():
    # the book executor no longer strips the internet stylesheet: every animation must go
    # through animation_html (or viz.animate), in the notebooks as in the package
    root = Path(__file__).resolve().parents[1]
    raw = []
    for path in sorted((root / "notebooks").rglob("*.ipynb")):  # chapters and projects
        cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
        code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
        raw += [path.name for source in code if "to_jshtml(" in source]
    assert not raw, f"to_jshtml called directly (use sp.viz.animation_html) in {raw}"
    calls = [p.name for p in (root / "spatial").rglob("*.py") if ".to_jshtml(" in p.read_text()]
    assert calls == ["player.py"]
