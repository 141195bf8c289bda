"""People's words for the keys a designer's tables hold: the study funnel's step names
and a game's refusal reasons (in its message catalog's wording). The data keeps its
keys; a page maps them only when it draws a table or chart.

>>> [step_words(s) for s in ("consent", "pre_survey", "game 2 (optional)", "post_survey")]
['Consent', 'Survey before play', 'Game 2 (optional)', 'Survey after play']
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from playtest.messages.catalog import MessageCatalog

#: The funnel's page steps (analytics/funnel.py), as a designer reads them.
STEP_WORDS = {"consent": "Consent", "pre_survey": "Survey before play",
              "post_survey": "Survey after play", "done": "Done"}


def step_words(step: str) -> str:
    """A funnel step for people (``game k`` stays, capitalised; unknown steps as they are)."""
    if step in STEP_WORDS:
        return STEP_WORDS[step]
    return step[:1].upper() + step[1:] if step.startswith("game ") else step


def catalog_words(catalog: MessageCatalog, key: str) -> str:
    """Message ``key``'s default wording, each of its {values} shown as "…" (a table
    names the refusal, not one occasion of it).

    >>> from playtest.messages.catalog import load_catalog
    >>> catalog = load_catalog()
    >>> key = next(k for k in catalog.keys if catalog.entry(k).values)
    >>> "…" in catalog_words(catalog, key)
    True
    """
    entry = catalog.entry(key)
    return catalog.render(key, **{value: "…" for value in entry.values}).text


def reasons_in_words(frame: pd.DataFrame,
                     words: Callable[[str], str | None] | None) -> pd.DataFrame:
    """``frame`` with every text column made only of refusal reasons (``words`` knows
    each: not None) shown in words; other columns, and ``frame`` itself, untouched.

    >>> table = pd.DataFrame({"point": ["a7", "d6"], "top_reason": ["select_first", "–"]})
    >>> said = {"select_first": "Pick a brick first."}.get
    >>> reasons_in_words(table, said)["top_reason"].tolist()
    ['Pick a brick first.', '–']
    """
    if words is None or frame.empty:
        return frame
    shown = frame.copy()
    for column in frame.columns:
        values = [v for v in frame[column].dropna().unique() if v != "–"]
        if values and all(isinstance(v, str) and words(v) is not None for v in values):
            shown[column] = frame[column].map(
                lambda v: words(v) if isinstance(v, str) and v != "–" else v)
    return shown
