"""Sphinx configuration for the scorestd documentation."""

import sys
from pathlib import Path

import scorestd

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "scorestd"
author = "The scorestd developers"
copyright = "2026, the scorestd developers"
version = release = scorestd.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "matplotlib.sphinxext.plot_directive",
    "scorestd_docs",  # CLI reference from the parsers; bare names; plain numbers
]
autosummary_generate = True
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
intersphinx_mapping: dict = {}  # no network at build time
plot_include_source = True
plot_html_show_formats = False
plot_html_show_source_link = False
exclude_patterns = ["_build"]
html_theme = "alabaster"
html_static_path = ["_static"]
html_css_files = ["custom.css"]
# room for 100-character code lines (the package's line length) beside the sidebar
html_theme_options = {"page_width": "1180px", "body_max_width": "none"}
# Every cross-reference must resolve (-W makes a miss an error), except:
nitpicky = True
nitpick_ignore_regex = [
    # other libraries: no intersphinx inventories, since the build must not use the network
    (r"py:.*", r"(xarray|numpy|scipy|pandas|matplotlib|statsmodels|functools|dask|"
               r"distributed|arviz)\..*"),
    # the layer under the public API (kernels, private modules), described in
    # architecture.rst rather than page by page
    (r"py:.*", r"scorestd\.(kernels|_\w+|models\._\w+)(\..*)?"),
]
