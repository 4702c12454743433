"""Sphinx configuration for the scorestd documentation."""

import scorestd

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
nitpicky = False
