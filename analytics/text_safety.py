"""Text that people wrote (a study's title, a variant's name, a tester's answer) shown as
the text it is: never as Markdown or HTML, and never reordering what follows it.

Unicode's explicit direction controls (embeddings, overrides and isolates, U+202A–U+202E
and U+2066–U+2069) are dropped: a right-to-left override in a title would otherwise show
the study id after it backwards. Right-to-left text itself (Arabic, Hebrew) needs none of
them; the implicit marks (U+200E, U+200F) stay.

>>> without_direction_controls("Plan\\u202e 1 · demo")
'Plan 1 · demo'
>>> print(markdown_literal("![x](http://x.example/a.png) *b* <i> orange_grows _c_"))
\\!\\[x\\]\\(http\\://x.example/a.png\\) \\*b\\* \\<i\\> orange_grows \\_c\\_
>>> print(markdown_literal("1. # - not a list, nor www.x.example, nor a@x.example"))
1\\. \\# - not a list, nor www\\.x.example, nor a\\@x.example
"""

from __future__ import annotations

import re
from typing import Any, Final

_DIRECTION_CONTROLS: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: Where GFM's bare links start: the colon of ``http:``, ``https:`` or ``ftp:``, the dot
#: of ``www.``, the ``@`` of an e-mail address; a backslash before it makes plain text.
BARE_LINK: Final = (r"(?i:(?<=http):|(?<=https):|(?<=ftp):|(?<=www)\.)"
                    r"|@(?=[A-Za-z0-9])")
#: What can start inline markup (emphasis, code, links and images, HTML, math, tables,
#: strike, headings and quotes, bare links); an underscore inside a word starts nothing.
_MARKUP: Final = re.compile(r"([\\`*\[\]()!<>#|~$]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])|"
                            + BARE_LINK + ")")
#: What makes a list, a rule or a setext heading at the start of a text.
_LINE_START: Final = re.compile(r"^(\d+)([.)])|^([-+=])")


def without_direction_controls(text: Any) -> str:
    """``text`` without explicit direction controls (see the module docstring)."""
    return _DIRECTION_CONTROLS.sub("", str(text))


def markdown_literal(text: Any) -> str:
    """``text`` as Markdown that shows exactly it: every character that could start
    markup backslash-escaped, lines joined, and without direction controls. For the
    places that take Markdown only (a label, a heading, a notice)."""
    flat = " ".join(without_direction_controls(text).split())
    escaped = _MARKUP.sub(r"\\\1", flat)
    return _LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", escaped)
