"""Renderers: turn any :class:`irlab.document.Document` into text, Markdown, LaTeX, HTML or JSON.

This layer knows documents and blocks, never particular metrics.
"""

from __future__ import annotations

from ..errors import ParameterError
from .html import render_html
from .json import render_json
from .latex import render_latex
from .markdown import render_markdown
from .text import render_text

FORMATS = ("text", "markdown", "latex", "html", "json")
_RENDERERS = {"text": render_text, "markdown": render_markdown, "latex": render_latex, "html": render_html,
              "json": render_json}


def render(document, fmt: str = "text", **options) -> str:
    """Render ``document`` in ``fmt``; options: ``standalone=True`` for a compilable LaTeX or full HTML page."""
    renderer = _RENDERERS.get(fmt) if isinstance(fmt, str) else None
    if renderer is None:
        raise ParameterError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    return renderer(document, **options)
