"""Sphinx helpers of the scorestd documentation.

- ``.. scorestd-cli::`` writes the command-line reference from the argparse parsers
  themselves (:func:`scorestd.cli.build_parser`), so it cannot drift from ``--help``.
- Bare names in docstrings (``:func:`error_rates```) resolve against the flat public API
  (``scorestd.error_rates``) when they do not resolve where they are written.
- Signatures show numpy scalars as plain numbers (``0.01``, not ``np.float64(0.01)``).
- Measure names such as P@10 or nDCG@20 stay text (docutils reads them as e-mail addresses).
"""

from __future__ import annotations

import argparse
import importlib
import re

from docutils import nodes
from docutils.parsers.rst import Directive
from docutils.statemachine import StringList
from sphinx.util.nodes import nested_parse_with_titles

_NUMPY_SCALAR = re.compile(r"np\.(?:float|int|uint|bool)\w*\(([^()]*)\)")


def plain_numbers(app, what, name, obj, options, signature, return_annotation):
    """``np.float64(0.01)`` → ``0.01`` in a rendered signature."""
    if signature:
        signature = _NUMPY_SCALAR.sub(r"\1", signature)
    return signature, return_annotation


_MEASURE_AT = re.compile(r"^[\w.]+@\d+$")


def measures_not_mail(app, doctree):
    """``P@10`` in a docstring or page: text, not a ``mailto:`` link."""
    for ref in list(doctree.findall(nodes.reference)):
        if ref.get("refuri", "").startswith("mailto:") and _MEASURE_AT.match(ref.astext()):
            ref.replace_self(nodes.Text(ref.astext()))


def _exists(dotted: str) -> bool:
    """Whether ``dotted`` names a module or an attribute of one."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


def _contexts(node) -> list[str]:
    """Where a reference was written: the documented object's dotted name and its
    parents (``scorestd.io.formats.load`` → ``scorestd.io.formats`` …)."""
    source = str(node.source or node.parent.source or "") if node.parent else str(node.source or "")
    match = re.search(r"docstring of ([\w.]+)", source)
    names = [match.group(1)] if match else []
    names += [node.get("py:module") or ""]
    out = []
    for name in filter(None, names):
        parts = name.split(".")
        out += [".".join(parts[:k]) for k in range(len(parts), 0, -1)]
    return list(dict.fromkeys(out))


def resolve_public_name(app, env, node, contnode):
    """A Python reference that did not resolve where it was written.

    First as a name of the flat public API (``error_rates`` → ``scorestd.error_rates``);
    then, if it names a real object of the package that has no page of its own (a module,
    a helper or a constant under the public API), as code without a link. A name that
    exists nowhere still fails the build.
    """
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip(".~")
    domain = env.get_domain("py")
    for candidate in (f"scorestd.{target}", f"scorestd.{target.rsplit('.', 1)[-1]}"):
        found = domain.resolve_xref(env, node.get("refdoc", ""), app.builder,
                                    node["reftype"], candidate, node, contnode)
        if found is not None:
            return found
    if target.startswith("scorestd.") and _exists(target):
        return contnode
    if any(_exists(f"{context}.{target}") for context in _contexts(node)):
        return contnode
    return None


def _rst_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`").replace(
        "|", "\\|")


def _option_lines(action: argparse.Action) -> list[str]:
    if action.help == argparse.SUPPRESS:
        return []
    if action.option_strings:
        metavar = ""
        if action.nargs != 0:
            shown = action.metavar or (
                "{" + ",".join(map(str, action.choices)) + "}" if action.choices
                else action.dest.upper())
            metavar = " " + (" ".join(shown) if isinstance(shown, tuple) else shown)
        name = ", ".join(f"{flag}{metavar}" for flag in action.option_strings)
    else:
        name = action.metavar or action.dest
    text = _rst_escape((action.help or "").replace("%(default)s", str(action.default)))
    return [f"``{name}``", f"    {text or '(no description)'}", ""]


class CommandLineReference(Directive):
    """Every ``scorestd`` subcommand: description, usage and options, from its parser."""

    has_content = False

    def run(self):
        from scorestd.cli import build_parser

        parser = build_parser()
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        helps = {choice.dest: choice.help for choice in sub._choices_actions}
        lines: list[str] = []
        for name, command in sub.choices.items():
            command.prog = f"scorestd {name}"
            lines += [f".. _cli-{name}:", "", f"scorestd {name}", "-" * (9 + len(name)), ""]
            lines += [_rst_escape(command.description or helps.get(name) or ""), ""]
            lines += [".. code-block:: text", ""]
            lines += ["   " + line for line in command.format_usage().strip().splitlines()]
            lines += [""]
            for group in command._action_groups:
                actions = [a for a in group._group_actions
                           if a.help != argparse.SUPPRESS and not isinstance(a, argparse._HelpAction)]
                if not actions:
                    continue
                lines += [f"**{group.title}**", ""]
                for action in actions:
                    lines += _option_lines(action)
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="scorestd.cli"), node)
        return node.children


def setup(app):
    app.add_directive("scorestd-cli", CommandLineReference)
    app.connect("autodoc-process-signature", plain_numbers)
    app.connect("missing-reference", resolve_public_name)
    app.connect("doctree-read", measures_not_mail)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
