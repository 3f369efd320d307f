"""Sphinx configuration of the static book: the course's notebooks as one HTML site.

``make book`` first executes the notebooks into ``build/executed``
(``tools/execute_notebooks.py``: two at a time, widgets drawn as static figures of their
teaching defaults with ``SPATIAL_STATIC=1``, see ``spatial.nb.interact``), then builds the site
from those copies into ``build/book`` with MyST-NB's own execution off, warnings as errors.
``make test`` builds the unexecuted notebooks the same way, so a broken cross-reference or
table-of-contents entry fails the tests.  (``SPATIAL_BOOK_EXECUTE=force`` still lets MyST-NB
execute them, one at a time.)
The table of contents is ``notebooks/_toc.yml`` (read by ``sphinx-external-toc``).  Equations
are typeset by MathJax copied into the site's ``_static`` (``sphinx-mathjax-offline``), so the
book reads without a network; the live widgets stay in JupyterLab.
"""

import os

project = "spatial: rigid-body dynamics, verified"
author = "the spatial developers"
# sphinx-mathjax-offline (its module name has hyphens) points mathjax_path at a copy of MathJax 3
# that it puts into the site's _static: no equation depends on a CDN
extensions = ["myst_nb", "sphinx_external_toc", "sphinx-mathjax-offline"]
external_toc_path = "_toc.yml"
external_toc_exclude_missing = False
exclude_patterns = ["_build", ".ipynb_checkpoints"]

# dollarmath only: every equation of the course sits between $ or $$ (MathJax reads the
# environments inside them).  MyST's "amsmath" extension would also take a line that starts with
# \begin{bmatrix} inside a $$ … $$ running over several lines of a paragraph as a block of its
# own, cutting the paragraph and leaving the rest as raw TeX (notebook 01's inverse transform).
myst_enable_extensions = ["dollarmath"]
myst_dmath_double_inline = True  # $$ … $$ inside a paragraph, as Jupyter renders it
myst_heading_anchors = 3
nb_execution_mode = os.environ.get("SPATIAL_BOOK_EXECUTE", "off")
nb_execution_timeout = 900
nb_execution_raise_on_error = True
nb_merge_streams = True

html_theme = "sphinx_book_theme"
html_title = "spatial"
html_theme_options = {"show_toc_level": 2}
# an explicit default colour mode: without one the theme logs "invalid theme mode" to the
# browser console on a reader's first visit
html_context = {"default_mode": "auto"}
