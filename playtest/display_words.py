"""People's words for the keys a designer's tables hold: the study funnel's step names
and a game's refusal reasons (in its message catalog's wording). The data keeps its
keys; a page maps them only when it draws a table or chart.

>>> [step_words(s) for s in ("consent", "pre_survey", "game 2 (optional)", "post_survey")]
['Consent', 'Survey before play', 'Game 2 (optional)', 'Survey after play']
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

import pandas as pd

from playtest.messages.catalog import MessageCatalog

#: The funnel's page steps (analytics/funnel.py), as a designer reads them.
STEP_WORDS = {"consent": "Consent", "pre_survey": "Survey before play",
              "post_survey": "Survey after play", "done": "Done",
              "play": "Playing"}


def step_words(step: str) -> str:
    """A funnel step for people (``game k`` stays, capitalised; unknown steps as they are).

    >>> step_words("play"), step_words("game 2"), step_words("pre_survey")
    ('Playing', 'Game 2', 'Survey before play')
    """
    if step in STEP_WORDS:
        return STEP_WORDS[step]
    return step[:1].upper() + step[1:] if step.startswith("game ") else step


def catalog_words(catalog: MessageCatalog, key: str) -> str:
    """Message ``key``'s default wording, each of its {values} shown as "…" (a table
    names the refusal, not one occasion of it).

    >>> from analytics.data import UNNAMED_GAME
    >>> from playtest.study_config import message_catalog
    >>> catalog = message_catalog(UNNAMED_GAME)
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


def question_words(survey_ids: Iterable[str]) -> dict[str, str]:
    """Item id → its question text, from the survey definitions the lab knows (an
    imported study's own survey it does not have adds nothing: its ids stay).

    >>> from surveys.loader import list_surveys
    >>> words = question_words(list_surveys())
    >>> all(text and text != item for item, text in words.items())
    True
    """
    from surveys.loader import SurveyDefinitionError, load_survey

    words: dict[str, str] = {}
    for survey_id in dict.fromkeys(str(s) for s in survey_ids):
        try:
            definition = load_survey(survey_id)
        except (SurveyDefinitionError, FileNotFoundError, KeyError, ValueError):
            continue
        for page in definition.pages:
            # a matrix's rows are answers of their own, each with its text
            for item in [x for it in page.items for x in (it, *getattr(it, "rows", ()))]:
                text = " ".join(str(getattr(item, "text", "") or "").split())
                if not text and getattr(item, "instrument", None):
                    text = _instrument_item(item.instrument, getattr(item, "index", None))
                if text and getattr(item, "type", "") != "info":
                    words.setdefault(item.id, text)
    return words


def _instrument_item(instrument: str, index: int | None) -> str:
    """An instrument's item without text of its own: the instrument's wording of it."""
    from surveys.instruments import INSTRUMENTS

    spec = INSTRUMENTS.get(instrument)
    if spec is None:
        return ""
    if index is not None and 1 <= index <= len(spec.items):
        return f"{spec.name}: {spec.items[index - 1]}"
    return spec.name


def instrument_words(instrument: str) -> str:
    """An instrument id as its name (``minipxi``: the miniPXI's name); unknown ids stay.

    >>> instrument_words("no_such_instrument")
    'no_such_instrument'
    """
    from surveys.instruments import INSTRUMENTS

    spec = INSTRUMENTS.get(instrument)
    return spec.name if spec is not None else instrument


def keys_in_words(frame: pd.DataFrame, columns: Mapping[str, Callable[[str], str]]
                  ) -> pd.DataFrame:
    """A copy of ``frame`` with each named column's text values put in words.

    >>> keys_in_words(pd.DataFrame({"item": ["q1", "q2"]}), {"item": str.upper})["item"].tolist()
    ['Q1', 'Q2']
    """
    present = {c: f for c, f in columns.items() if c in frame.columns}
    if not present or frame.empty:
        return frame
    return frame.assign(**{c: frame[c].map(lambda v, f=f: f(v) if isinstance(v, str) else v)
                           for c, f in present.items()})


#: Event types (telemetry-format.md) as a replay log names them.
EVENT_WORDS = {
    "click": "Click", "message": "Message shown",
    "roll": "Dice rolled", "page": "Page", "game_start": "Game started",
    "game_end": "Game over", "rules_open": "Rules opened", "rules_close": "Rules closed",
    "survey_page": "Survey page done", "place": "Placed", "move": "Moved", "auto": "Placed by itself",
    "remove": "Brick taken", "wall": "Wall made", "grow": "Colours grew", "win": "Won",
    "loss": "Lost"}
#: Props that are bookkeeping, or too long for a line of the log.
_UNSAID = frozenset({"game_id", "record", "tiles", "before", "after", "seed", "via",
                     "client_event_id", "page_id"})


def event_in_words(kind: str, props: Mapping[str, object] | None,
                   refusal: Callable[[str], str | None] | None = None) -> str:
    """One telemetry event as a line of the Replay page's log: what happened, in words,
    never a raw dict. ``refusal``: the game's words for its refusal reasons.

    >>> event_in_words("click", {"seat": 1, "point": "e4", "ok": True, "ms": 6152})
    'Seat 1 clicked e4: accepted, after 6.2 s'
    >>> event_in_words("click", {"seat": 1, "c": 3, "r": 4, "ok": False, "ms": 900,
    ...                          "wrong_kind": "not_an_option"})
    'Seat 1 clicked column 3, row 4: refused (not an option), after 0.9 s'
    >>> event_in_words("message", {"key": "extra_turn", "variant": "formal",
    ...                            "text": "Player 2's EXTRA turn"})
    "Message shown: “Player 2's EXTRA turn” (extra_turn, wording formal)"
    >>> event_in_words("wall", {"seat": 1, "points": ["d7", "d6", "d5"], "tiles": [[4, 7]]})
    'Wall made: seat 1, points d7, d6, d5'
    >>> event_in_words("ai_move", {"seat": 2, "action": ["place", "a1"]})
    'Move of computer seat 2: place, a1'
    >>> event_in_words("game_end", {"winner": 2, "reason": "four_in_row", "turns": 31})
    'Game over: seat 2 won (four in row) after 31 turns'
    """
    props = props or {}
    seat = f"Seat {props['seat']}" if props.get("seat") not in (None, "") else "A tester"
    if kind == "click":
        where = props.get("point") or props.get("target") or (
            f"column {props.get('c')}, row {props.get('r')}" if "c" in props else "the board")
        outcome = "accepted" if props.get("ok") else "refused"
        reason = next((str(props[k]) for k in ("reason", "rule_reason", "wrong_kind")
                       if props.get(k)), None)
        if not props.get("ok") and reason:
            outcome += f" ({(refusal(reason) if refusal else None) or _words(reason)})"
        ms = props.get("ms")
        after = f", after {ms / 1000:.1f} s" if isinstance(ms, int | float) else ""
        return f"{seat} clicked {where}: {outcome}{after}"
    if kind == "message":
        return (f"Message shown: “{props.get('text', '')}” ({props.get('key')}, wording "
                f"{props.get('variant', 'default')})")
    if kind == "ai_move":
        what = props.get("reason") or _value(props.get("action") or "") or "played"
        return f"Move of computer seat {props.get('seat', '?')}: {what}"
    if kind == "game_end":
        if props.get("winner") not in (None, ""):
            result = f"seat {props['winner']} won ({_words(str(props.get('reason', '')))})"
        else:
            result = _words(str(props.get("reason") or "ended"))
        turns = f" after {props['turns']} turns" if props.get("turns") is not None else ""
        return f"Game over: {result}{turns}"
    said = [f"{_words(k)} {_value(v)}" for k, v in props.items()
            if k not in _UNSAID and v not in (None, "", [], {})]
    head = EVENT_WORDS.get(kind, _words(kind).capitalize())
    return f"{head}: {', '.join(said)}" if said else head


def _words(key: str) -> str:
    return key.replace("_", " ")


def _value(value: object) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(_value(v) for v in value)
    if isinstance(value, dict):
        return ", ".join(f"{_words(str(k))} {_value(v)}" for k, v in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def as_text(frame: pd.DataFrame) -> pd.DataFrame:
    """A copy of ``frame`` whose text cells (people's answers) have no direction controls
    (:func:`analytics.text_safety.without_direction_controls`): a cell shows its text in
    the order it was written.

    >>> as_text(pd.DataFrame({"text": ["ok\\u202e!"], "n": [1]})).to_dict("records")
    [{'text': 'ok!', 'n': 1}]
    """
    from analytics.text_safety import without_direction_controls

    columns = [c for c in frame.columns if frame[c].map(lambda v: isinstance(v, str)).any()]
    if not columns:
        return frame
    return frame.assign(**{c: frame[c].map(
        lambda v: without_direction_controls(v) if isinstance(v, str) else v) for c in columns})
