"""Text that people wrote (a study's title, a variant's name, a tester's answer) shown as
the text it is: never as Markdown or HTML, and never reordering what follows it.

Unicode's explicit direction controls (embeddings, overrides and isolates, U+202A–U+202E
and U+2066–U+2069) are dropped: a right-to-left override in a title would otherwise show
the study id after it backwards. Right-to-left text itself (Arabic, Hebrew) needs none of
them; the implicit marks (U+200E, U+200F) stay.

>>> without_direction_controls("Plan\\u202e 1 · demo")
'Plan 1 · demo'
>>> print(markdown_literal("![x](http://x.example/a.png) *b* <i> orange_grows _c_"
...                        ).replace(LINK_BREAK, "⁞"))
\\!\\[x\\]\\(http⁞://x.example/a.png\\) \\*b\\* \\<i\\> orange_grows \\_c\\_
>>> print(markdown_literal("1. # - not a list"))
1\\. \\# - not a list
"""

from __future__ import annotations

import re
from typing import Any, Final

_DIRECTION_CONTROLS: Final = re.compile("[\u202a-\u202e\u2066-\u2069]")
#: What can start inline markup (emphasis, code, links and images, HTML, math, tables,
#: strike, headings and quotes); an underscore inside a word starts nothing.
_MARKUP: Final = re.compile(r"([\\`*\[\]()!<>#|~$]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
#: An invisible word joiner (U+2060), put where GFM would make a bare link: after the
#: scheme of ``http://``, ``https://`` or ``ftp://``, inside ``www.``, before the ``@`` of
#: an e-mail address. GFM finds bare links in the text after the Markdown is parsed, so
#: a backslash cannot stop them; the joiner breaks the pattern and shows nothing.
LINK_BREAK: Final = "\u2060"
_BARE_LINK: Final = re.compile(r"(?i)(?<![A-Za-z0-9])(https?|ftp)(?=:)|(?<![A-Za-z0-9])(www)(?=\.)"
                               r"|(?<=[A-Za-z0-9._+-])(?=@[A-Za-z0-9])")


def break_bare_links(text: str) -> str:
    """``text`` with :data:`LINK_BREAK` where GFM would make a bare link.

    >>> break_bare_links("see http://x.example, www.x.example or a@x.example").split(LINK_BREAK)
    ['see http', '://x.example, www', '.x.example or a', '@x.example']
    """
    return _BARE_LINK.sub(lambda m: (m[1] or m[2] or "") + LINK_BREAK, text)


#: What makes a list, a rule or a setext heading at the start of a text.
_LINE_START: Final = re.compile(r"^(\d+)([.)])|^([-+=])")


def without_direction_controls(text: Any) -> str:
    """``text`` without explicit direction controls (see the module docstring)."""
    return _DIRECTION_CONTROLS.sub("", str(text))


def markdown_literal(text: Any) -> str:
    """``text`` as Markdown that shows exactly it: every character that could start
    markup backslash-escaped, bare links broken (:func:`break_bare_links`), lines joined,
    and without direction controls. For the places that take Markdown only (a label, a
    heading, a notice)."""
    flat = " ".join(without_direction_controls(text).split())
    escaped = break_bare_links(_MARKUP.sub(r"\\\1", flat))
    return _LINE_START.sub(lambda m: f"{m[1]}\\{m[2]}" if m[1] else f"\\{m[3]}", escaped)
