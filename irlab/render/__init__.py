"""Renderers: turn any :class:`irlab.document.Document` into text, Markdown, LaTeX, HTML or JSON.

This layer knows documents and blocks, never particular metrics.
"""

from __future__ import annotations

from ..errors import ParameterError

FORMATS = ("text", "markdown", "latex", "html", "json")


def render(document, fmt: str = "text", **options) -> str:
    """Render ``document`` in ``fmt``; options: ``standalone=True`` for a compilable LaTeX or full HTML page."""
    if fmt == "text":
        from .text import render_text as renderer
    elif fmt == "markdown":
        from .markdown import render_markdown as renderer
    elif fmt == "latex":
        from .latex import render_latex as renderer
    elif fmt == "html":
        from .html import render_html as renderer
    elif fmt == "json":
        from .json import render_json as renderer
    else:
        raise ParameterError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return renderer(document, **options)
