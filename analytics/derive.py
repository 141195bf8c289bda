"""Derived per-event tables, computed once per :class:`StudyData` and memoised on it.

Definitions used everywhere in ``analytics`` (the same in every game):

- **turn**: one decision of a seat, as the study's game finds it in its log (its
  plug-in's :class:`analytics.turns.TurnRule`): from the seat's first click to the
  action the rules accept, with the refused clicks on the way and their reasons (a game
  with a turn marker, a ``roll``, has a turn per marker event instead: the roll and the
  clicks up to the next roll). A **human turn** (a tester's) is a turn of a seat the
  ``game_start`` of the same participant and ``game_id`` lists as ``"human"``
  (:class:`engine.seats.Seat`; ``props.seat`` is 1-based; games without a
  ``game_start`` count as human), not an ``ai_move``; without a marker it must hold one
  of the tester's clicks.
- A click belongs to the turn started by the latest turn start before it (or at it) in
  the same session; a stale tab's click (``stale: true``) to none.
- **refusal**: a click with ``ok`` false; its **reason** is the engine's ``reason``
  prop (a game may read it from props of its own: its plug-in's ``read_clicks``).
- **thinking time** (hesitation): the ``ms`` prop (from the board being ready, or the
  options appearing, to the click) of the first click of a turn.
- **after a message**: the tester's next input after a ``message`` (a click, or the
  start of one of their turns) and the turn it belongs to (:func:`messages`).

Everything is vectorised: props are expanded once per needed event type with
``pd.DataFrame.from_records`` and events are ordered with ``np.lexsort`` on integer codes.

>>> from analytics.data import StudyData
>>> turns(StudyData.empty("s")).empty
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from analytics.data import StudyData
from analytics.turns import COMPUTER_EVENTS, TurnRule, closing_acts, turn_starts
from engine.seats import Seat, SeatError

if TYPE_CHECKING:
    from analytics.game_analytics import GameAnalytics

T = TypeVar("T")

#: Where :func:`analytics.game_analytics.use` keeps the plug-in a caller gave a study.
GIVEN_GAME = "game_analytics"

#: The click props every game logs (telemetry-format.md); a game reads more of its own
#: (its plug-in's ``click_keys``).
CLICK_KEYS = ["seat", "ok", "reason", "ms"]
TURN_COLUMNS = [
    "turn_id", "participant_id", "session_id", "game_id", "seq", "at", "row", "seat",
    "action", "n_clicks", "n_wrong", "first_ms", "first_ok",
]


def _memo(data: StudyData, key: str) -> Any:
    return data._derived.get(key)


def remember(data: StudyData, key: str, compute: Callable[[], T]) -> T:
    """``compute()`` once per StudyData, kept under ``key`` (its frames never change).

    Keep results that are not per-participant rows here (:func:`carry_over` copies
    tables with a ``participant_id`` column into filtered studies).

    >>> data = StudyData.empty("s")
    >>> remember(data, "answer", lambda: 42), remember(data, "answer", lambda: 0)
    (42, 42)
    """
    cached = data._derived.get(key)
    if cached is None:
        cached = data._derived[key] = compute()
    return cast(T, cached)


def ordered_events(data: StudyData) -> pd.DataFrame:
    """Events ordered by participant, session and ``seq``, with integer helper columns.

    Adds ``row`` (position), ``session_code`` (int per participant+session),
    ``turn_start`` (a turn starts at the event: :func:`analytics.turns.turn_starts` with
    the game's rule) and ``turn_no`` (running count of turn starts, global; a click's turn
    is the one started with the same ``turn_no`` when it has the same ``session_code``).
    """
    cached = _memo(data, "ordered")
    if cached is not None:
        return cached
    events = data.events
    if events.empty:
        ordered = events.assign(row=pd.Series(dtype="int64"),
                                session_code=pd.Series(dtype="int64"),
                                turn_start=pd.Series(dtype=bool),
                                turn_no=pd.Series(dtype="int64"))
    else:
        participant_code = pd.factorize(events["participant_id"])[0]
        session_code = events.groupby(["participant_id", "session_id"], sort=False,
                                      dropna=False).ngroup().to_numpy()
        seq = pd.to_numeric(events["seq"], errors="coerce").fillna(0).to_numpy()
        order = np.lexsort((seq, session_code, participant_code))
        if np.array_equal(order, np.arange(len(order))):
            ordered = events.reset_index(drop=True)  # storage usually delivers this order
        else:
            ordered = events.iloc[order].reset_index(drop=True)
        ordered["session_code"] = session_code[order]
        ordered["row"] = np.arange(len(ordered))
        ordered["turn_start"] = turn_starts(ordered, turn_rule(data))
        ordered["turn_no"] = ordered["turn_start"].to_numpy().cumsum()
    data._derived["ordered"] = ordered
    return ordered


def props_key(event_type: str, keys: Sequence[str]) -> str:
    """The memo key of :func:`props_of`'s table (what a game names in its ``prepared``).

    >>> props_key("click", ["seat", "ok"])
    'props:click:seat,ok'
    """
    return f"props:{event_type}:{','.join(keys)}"


def props_of(data: StudyData, event_type: str, keys: list[str]) -> pd.DataFrame:
    """Events of one type with the given ``props`` keys as columns (missing keys: NaN).

    The frame keeps ``participant_id``, ``session_id``, ``seq``, ``at``, ``game_id``,
    ``row``, ``session_code`` and ``turn_no`` from :func:`ordered_events`.
    """
    memo_key = props_key(event_type, keys)
    cached = _memo(data, memo_key)
    if cached is not None:
        return cached
    ordered = ordered_events(data)
    rows = _rows_of_type(data, ordered).get(event_type, _NO_ROWS)
    # one positional take of the envelope columns (a column selection, then a take,
    # copied the whole frame's columns first)
    base = ordered.iloc[rows, _envelope_positions(ordered)].reset_index(drop=True)
    records = ordered["props"].take(rows).tolist()
    try:
        expanded = pd.DataFrame.from_records(records, columns=keys) if records else \
            pd.DataFrame(columns=keys)
    except (TypeError, AttributeError, ValueError):
        # Some props are not dicts (null or malformed): read them as empty.
        records = [p if isinstance(p, dict) else {} for p in records]
        expanded = pd.DataFrame.from_records(records, columns=keys)
    for key in keys:
        if key not in expanded.columns:
            expanded[key] = np.nan
    if list(expanded.columns) != list(keys) or not isinstance(expanded.index, pd.RangeIndex) \
            or expanded.index.start != 0:
        expanded = expanded[keys].reset_index(drop=True)
    # A prop named like an envelope column (``game_id``) is kept as ``prop_<key>``.
    expanded.columns = [f"prop_{k}" if k in base.columns else k for k in keys]
    result = pd.concat([base, expanded], axis=1)
    data._derived[memo_key] = result
    return result


_NO_ROWS = np.zeros(0, dtype="int64")
#: The columns of :func:`ordered_events` every :func:`props_of` table keeps.
_ENVELOPE = ["participant_id", "session_id", "seq", "at", "game_id", "row", "session_code",
             "turn_no"]


def _envelope_positions(ordered: pd.DataFrame) -> list[int]:
    # get_loc: a missing column raises KeyError, as selecting it by name did
    return [cast(int, ordered.columns.get_loc(column)) for column in _ENVELOPE]


def _rows_of_type(data: StudyData, ordered: pd.DataFrame) -> dict[Any, np.ndarray]:
    """The positions in ``ordered`` of each event type's events (found once per study,
    not once per :func:`props_of` table: a comparison of the whole ``type`` column and a
    copy of every column each time)."""
    cached = _memo(data, "rows_by_type")
    if cached is not None and cached[0] is ordered:
        return cast(dict[Any, np.ndarray], cached[1])
    codes, kinds = pd.factorize(ordered["type"])
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(kinds) + 1), side="left")
    found = {kind: order[bounds[code]:bounds[code + 1]] for code, kind in enumerate(kinds)}
    data._derived["rows_by_type"] = (ordered, found)
    return found


def log_of(data: StudyData, kinds: dict[str, list[str]]) -> pd.DataFrame:
    """The events of the given types in log order, one :func:`props_of` table each
    (``kinds``: event type → props keys) stacked, with their ``type``: what a game's own
    analyses walk instead of the raw events, so that they read only tables a study's
    snapshot keeps (list the same tables in the plug-in's ``prepared``).

    >>> log_of(StudyData.empty("s"), {"place": ["seat"], "grow": ["round"]}).empty
    True
    """
    frames = [props_of(data, kind, keys).assign(type=kind) for kind, keys in kinds.items()]
    parts = [frame for frame in frames if len(frame)]
    if not parts:
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()
    return pd.concat(parts, ignore_index=True).sort_values("row", kind="stable") \
        .reset_index(drop=True)


# --- the study's game ------------------------------------------------------------------


def game_of(data: StudyData) -> GameAnalytics:
    """The analytics plug-in of the game ``data`` plays
    (:func:`analytics.game_analytics.for_study`: the one its caller gave, else found by
    the study's game)."""
    from analytics.game_analytics import for_study  # the plug-ins import this module

    return for_study(data)


def turn_rule(data: StudyData) -> TurnRule:
    """The study's game's :class:`analytics.turns.TurnRule` (its plug-in's ``turns``)."""
    return game_of(data).turns


# --- seats: read once, with engine.seats.Seat --------------------------------------------


@functools.lru_cache(maxsize=256)
def _seat(text: str) -> Seat | None:
    try:
        return Seat.parse(text)
    except SeatError:
        return None  # not a seat text the lab writes: neither a person nor a level


def seat_is_human(text: Any) -> bool:
    """Whether a seat written ``text`` (a ``game_start``'s ``seats`` entry) is a person.

    >>> seat_is_human("human"), seat_is_human("ai:easy"), seat_is_human("computer")
    (True, False, False)
    """
    seat = _seat(text) if isinstance(text, str) else None
    return seat is not None and seat.is_human


def seat_is_computer(text: Any) -> bool:
    """Whether a seat written ``text`` is the computer at some level (``ai:<level>``)."""
    seat = _seat(text) if isinstance(text, str) else None
    return seat is not None and seat.is_computer


def _seat_list(value: Any) -> list[Any] | None:
    """A ``seats`` prop as a list (a tuple or array read back from a file too)."""
    if isinstance(value, tuple | np.ndarray):
        return list(value)
    return value if isinstance(value, list) else None


def human_seats(data: StudyData, frame: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``frame`` (with ``participant_id``, ``row``, ``session_code``,
    ``game_id`` and ``seat``, as :func:`props_of` frames have): whether its seat is a
    person's, and the game it belongs to.

    The game is the row's ``game_id``, else the latest ``game_start`` of its session;
    the seats are that game's ``game_start``'s (the participant's last one of the
    game). A game without a ``game_start`` counts every seat as human; a seat number
    outside the list, or a seat that is not ``human``, is not.
    """
    if frame.empty:
        return np.zeros(0, dtype=bool), np.zeros(0, dtype=object)
    starts = props_of(data, "game_start", ["game_id", "seats"])
    games = frame["game_id"].to_numpy(dtype=object)
    if starts.empty:
        return np.ones(len(frame), dtype=bool), games
    start_game = starts["prop_game_id"].where(starts["prop_game_id"].notna(),
                                              starts["game_id"]).to_numpy(dtype=object)
    # the latest game_start at or before each row in its session (an as-of join on
    # session and row, with integer keys and one binary search)
    start_rows = starts["row"].to_numpy(dtype="int64")
    start_sessions = starts["session_code"].to_numpy(dtype="int64")
    rows = frame["row"].to_numpy(dtype="int64")
    sessions = frame["session_code"].to_numpy(dtype="int64")
    span = int(max(start_rows.max(), rows.max())) + 1
    start_keys = start_sessions * span + start_rows
    order = np.argsort(start_keys, kind="stable")
    before = np.searchsorted(start_keys[order], sessions * span + rows, side="right") - 1
    found = order[np.maximum(before, 0)]
    found_ok = (before >= 0) & (start_sessions[found] == sessions)
    latest = np.where(found_ok, start_game[found], np.nan)
    game = pd.Series(games, dtype=object).where(pd.notna(games), latest).to_numpy()
    # each (participant, game)'s seats: its last game_start with a seat list; a game_start
    # names its game in props and in its event's column (both, when they differ, as an
    # import may give them): an event of either game id finds it
    participants = starts["participant_id"].to_numpy(dtype=object)
    column_game = starts["game_id"].to_numpy(dtype=object)
    seat_lists: dict[tuple[Any, Any], list[Any]] = {}
    for at in np.argsort(start_rows, kind="stable"):
        listed = _seat_list(starts["seats"].iat[at])
        if listed is None:
            continue
        names = [start_game[at]]
        if pd.notna(column_game[at]) and column_game[at] != start_game[at]:
            names.append(column_game[at])
        for name in names:
            seat_lists[(_key(participants[at]), _key(name))] = listed
    numbers = pd.to_numeric(frame["seat"], errors="coerce").to_numpy(dtype=float)
    human = np.ones(len(frame), dtype=bool)
    for index, (participant, name, number) in enumerate(
            zip(frame["participant_id"].to_numpy(dtype=object), game, numbers, strict=True)):
        seats = seat_lists.get((_key(participant), _key(name)))
        if seats is not None:  # known: a person's seat only when listed as one
            human[index] = (number.is_integer() and 1 <= number <= len(seats)
                            and seat_is_human(seats[int(number) - 1]))
    return human, game


def _key(value: Any) -> Any:
    """A join key as pandas' merges match it: every missing value is the same one."""
    return None if value is None or (isinstance(value, float) and value != value) \
        or value is pd.NA else value


# --- clicks and turns --------------------------------------------------------------------


def _turn_frame(data: StudyData) -> pd.DataFrame:
    """Every turn start (:func:`ordered_events` rows) with ``seat``, ``game`` (resolved:
    :func:`human_seats`), ``human`` (a tester's turn, see the module docstring) and
    ``action`` (the act that closed the decision; None: none, or a marker's turn)."""
    cached = _memo(data, "turn_frame")
    if cached is not None:
        return cast(pd.DataFrame, cached)
    ordered = ordered_events(data)
    rule = turn_rule(data)
    started = ordered["turn_start"].to_numpy(dtype=bool)
    subset = ordered[started]
    frame = subset[["participant_id", "session_id", "seq", "at", "game_id", "row",
                    "session_code", "turn_no", "type"]].reset_index(drop=True)
    frame["seat"] = pd.Series([p.get("seat") if isinstance(p, dict) else None
                               for p in subset["props"]], index=frame.index, dtype=object)
    human, game = human_seats(data, frame)
    human &= ~frame["type"].isin(COMPUTER_EVENTS).to_numpy(dtype=bool)
    if not rule.marker:  # a tester's turn shows in their clicks
        table = props_of(data, "click", [*CLICK_KEYS, "stale"])
        clicked = table.loc[~table["stale"].eq(True), "turn_no"].unique()
        human &= frame["turn_no"].isin(clicked).to_numpy(dtype=bool)
    frame["human"] = human
    frame["game"] = game
    closing = closing_acts(ordered, rule, started) if len(ordered) else \
        np.zeros(0, dtype=bool)
    closed = pd.Series(ordered["type"].to_numpy()[closing],
                       index=ordered["turn_no"].to_numpy()[closing])
    closed = closed[~closed.index.duplicated(keep="first")]
    frame["action"] = frame["turn_no"].map(closed).astype(object)
    frame["action"] = frame["action"].where(frame["action"].notna(), None)
    data._derived["turn_frame"] = frame
    return frame


def clicks(data: StudyData) -> pd.DataFrame:
    """One row per ``click`` event, props as columns, plus ``turn_id`` and ``first``.

    Columns: :func:`props_of`'s, ``seat, ok, reason, ms`` and the game's own click props
    (its plug-in's ``click_keys``, read by its ``read_clicks``: e.g. the refusal reason
    of a game that logs it under another name). ``turn_id`` is the ``turn_no`` of the
    human turn the click belongs to (``-1``: no human turn, e.g. a click before any
    roll); ``first`` marks the first click of a turn; ``ok`` is a bool column, ``ms``
    a float one. A stale tab's click is left out: it was never the tester's answer.
    """
    cached = _memo(data, "clicks")
    if cached is not None:
        return cast(pd.DataFrame, cached)
    game = game_of(data)
    keys = [*CLICK_KEYS, *(k for k in game.click_keys if k not in CLICK_KEYS)]
    table = props_of(data, "click", [*keys, "stale"])
    # A stale tab's click (``stale: true``) was never the tester's answer to this board.
    stale = table["stale"].eq(True)
    table = table[~stale].drop(columns="stale").reset_index(drop=True)
    table["ok"] = table["ok"].fillna(False).astype(bool)
    table["ms"] = pd.to_numeric(table["ms"], errors="coerce")
    if game.read_clicks is not None:
        table = game.read_clicks(table)
    table["reason"] = table["reason"].where(~table["ok"] & table["reason"].notna(), None)
    frame = _turn_frame(data)
    human_turns = frame.loc[frame["human"], ["turn_no", "session_code"]]
    lookup = pd.Series(human_turns["session_code"].to_numpy(),
                       index=human_turns["turn_no"].to_numpy())
    turn_session = table["turn_no"].map(lookup)
    valid = turn_session.notna() & (turn_session == table["session_code"])
    table["turn_id"] = np.where(valid, table["turn_no"], -1).astype("int64")
    in_turn = table["turn_id"] >= 0
    table["first"] = in_turn & ~table["turn_id"].duplicated()
    data._derived["clicks"] = table
    return table


def turns(data: StudyData) -> pd.DataFrame:
    """One row per human turn (a tester's decision: see the module docstring).

    Columns: ``turn_id, participant_id, session_id, game_id, seq, at, row, seat,
    action, n_clicks, n_wrong, first_ms, first_ok``. ``row`` is the turn's first event,
    ``action`` the game's act that closed the decision (``place``, ``remove`` …; None
    when none did: a game with a turn marker, or a decision left unfinished);
    ``n_wrong`` counts the refused clicks, ``first_ms`` is the thinking time.
    """
    cached = _memo(data, "turns")
    if cached is not None:
        return cast(pd.DataFrame, cached)
    frame = _turn_frame(data)
    human = frame[frame["human"]]
    if human.empty:
        result = pd.DataFrame(columns=TURN_COLUMNS)
        data._derived["turns"] = result
        return result
    result = pd.DataFrame({
        "turn_id": human["turn_no"].to_numpy(),
        "participant_id": human["participant_id"].to_numpy(),
        "session_id": human["session_id"].to_numpy(),
        "game_id": human["game"].to_numpy(),
        "seq": human["seq"].to_numpy(),
        "at": human["at"].reset_index(drop=True),  # to_numpy() would box tz-aware stamps
        "row": human["row"].to_numpy(),
        "seat": pd.to_numeric(human["seat"], errors="coerce").to_numpy(dtype=float),
        "action": human["action"].to_numpy(dtype=object),
    })
    table = clicks(data)
    in_turn = table[table["turn_id"] >= 0]
    # clicks and refused clicks per turn (counted by value: a groupby and a join cost more)
    n_clicks = in_turn["turn_id"].value_counts()
    n_wrong = in_turn.loc[~in_turn["ok"], "turn_id"].value_counts()
    result["n_clicks"] = result["turn_id"].map(n_clicks).fillna(0).astype("int64")
    result["n_wrong"] = result["turn_id"].map(n_wrong).fillna(0).astype("int64")
    first = in_turn[in_turn["first"]].set_index("turn_id")
    result["first_ms"] = result["turn_id"].map(first["ms"])
    result["first_ok"] = result["turn_id"].map(first["ok"])
    result = result[TURN_COLUMNS]
    data._derived["turns"] = result
    return result


def refusals(data: StudyData) -> pd.DataFrame:
    """The refused clicks of the testers' turns that name a reason: ``turn_id,
    participant_id, reason`` (the rules' ``rule:<reason>`` troubles, in every game).

    >>> list(refusals(StudyData.empty("s")).columns)
    ['turn_id', 'participant_id', 'reason']
    """
    table = clicks(data)
    wrong = table[(table["turn_id"] >= 0) & ~table["ok"] & table["reason"].notna()]
    return pd.DataFrame({"turn_id": wrong["turn_id"].astype("int64"),
                         "participant_id": wrong["participant_id"],
                         "reason": wrong["reason"].astype(str)})


# --- messages -----------------------------------------------------------------------------

MESSAGE_COLUMNS = ["key", "variant", "ms_visible", "next_turn_id", "mid_turn", "think_ms",
                   "wrong_after", "response_ms", "lookups_after"]


def messages(data: StudyData) -> pd.DataFrame:
    """One row per ``message`` event with what followed it, measured where it happens:

    - ``next_turn_id``: the human turn of the tester's **next input** after the message
      in the same session (their next click, or the start of one of their turns: a roll
      of theirs); ``-1`` when none follows. ``mid_turn``: that input is a click in a turn
      that began before the message (a message shown during a decision);
    - ``think_ms``: the thinking before that input: the turn's thinking time (its first
      click's ``ms``) when the turn began after the message, else the time from the
      message to the click;
    - ``wrong_after``: refused clicks from the message to the end of that turn;
    - ``response_ms`` and ``lookups_after``: see :func:`_add_message_responses`.
    """
    cached = _memo(data, "messages")
    if cached is not None:
        return cast(pd.DataFrame, cached)
    # not the text: key and variant name it (and 350k texts weigh on every load)
    table = props_of(data, "message", ["key", "variant", "ms_visible"]).copy()
    _add_next_input(data, table)
    _add_message_responses(data, table)
    data._derived["messages"] = table
    return table


def _add_next_input(data: StudyData, table: pd.DataFrame) -> None:
    """Add ``next_turn_id``, ``mid_turn``, ``think_ms`` and ``wrong_after`` (in place)."""
    size = len(table)
    table["next_turn_id"] = pd.Series(-1, index=table.index, dtype="int64")
    table["mid_turn"] = pd.Series(False, index=table.index, dtype=bool)
    table["think_ms"] = pd.Series(np.nan, index=table.index, dtype="float64")
    table["wrong_after"] = pd.Series(np.nan, index=table.index, dtype="float64")
    turn_table = turns(data)
    if not size or turn_table.empty:
        return
    click_table = clicks(data)
    in_turn = click_table[click_table["turn_id"] >= 0]
    # the tester's inputs: the start of each of their turns and each click in one
    starts = pd.DataFrame({"row": turn_table["row"].to_numpy(dtype="int64"),
                           "turn": turn_table["turn_id"].to_numpy(dtype="int64"),
                           "start": True})
    inputs = pd.concat([starts, pd.DataFrame({
        "row": in_turn["row"].to_numpy(dtype="int64"),
        "turn": in_turn["turn_id"].to_numpy(dtype="int64"), "start": False})],
        ignore_index=True).sort_values(["row", "start"], ascending=[True, False],
                                       kind="stable").drop_duplicates("row")
    ordered = ordered_events(data)
    session = ordered["session_code"].to_numpy()
    rows = inputs["row"].to_numpy(dtype="int64")
    message_rows = table["row"].to_numpy(dtype="int64")
    position = np.searchsorted(rows, message_rows, side="right")
    found = position < len(rows)
    at = np.minimum(position, len(rows) - 1)
    next_rows = rows[at]
    found &= session[next_rows] == session[message_rows]
    turn = np.where(found, inputs["turn"].to_numpy(dtype="int64")[at], -1)
    turn_start = pd.Series(turn_table["row"].to_numpy(dtype="int64"),
                           index=turn_table["turn_id"].to_numpy(dtype="int64"))
    began = pd.Series(turn).map(turn_start).to_numpy(dtype=float)
    mid = found & (began < message_rows)
    table["next_turn_id"] = turn.astype("int64")
    table["mid_turn"] = mid
    by_turn = turn_table.set_index("turn_id")
    first_ms = pd.Series(turn).map(by_turn["first_ms"]).to_numpy(dtype=float)
    n_wrong = pd.Series(turn).map(by_turn["n_wrong"]).to_numpy(dtype=float)
    at_ms = _at_ms(ordered["at"])
    waited = at_ms[next_rows] - at_ms[message_rows]
    table["think_ms"] = np.where(found, np.where(mid, waited, first_ms), np.nan)
    # refused clicks of the turn after the message's row (all of them when it began after)
    wrong = in_turn[~in_turn["ok"]]
    span = int(max(len(ordered), 1))
    keys = np.sort(wrong["turn_id"].to_numpy(dtype="int64") * span
                   + wrong["row"].to_numpy(dtype="int64"))
    upper = np.searchsorted(keys, (turn + 1) * span, side="left")
    lower = np.searchsorted(keys, turn * span + message_rows, side="right")
    table["wrong_after"] = np.where(found, np.where(mid, upper - lower, n_wrong), np.nan)


def message_texts(data: StudyData) -> pd.DataFrame:
    """What each wording said: one row per tester, message key, wording (``variant``) and
    ``text`` they were shown, with how many times (``shown``). (The :func:`messages`
    table leaves the texts out: many showings, few distinct texts.)

    >>> list(message_texts(StudyData.empty("s")).columns)
    ['participant_id', 'key', 'variant', 'text', 'shown']
    """
    cached = _memo(data, "message_texts")
    if cached is not None:
        return cast(pd.DataFrame, cached)
    table = props_of(data, "message", ["key", "variant", "text"])
    columns = ["participant_id", "key", "variant", "text", "shown"]
    if table.empty:
        result = pd.DataFrame(columns=columns)
    else:
        result = table.assign(
            variant=table["variant"].astype(object).where(table["variant"].notna(),
                                                          "default"),
            text=table["text"].astype(object).where(table["text"].notna(), "")) \
            .groupby(["participant_id", "key", "variant", "text"], sort=True, dropna=False) \
            .size().rename("shown").reset_index()[columns]
    data._derived["message_texts"] = result
    return result


#: The tester's own actions that end the wait after a message (see :func:`messages`).
RESPONSE_ACTIONS = ("roll", "click", "rules_open", "menu_open")


def _add_message_responses(data: StudyData, table: pd.DataFrame) -> None:
    """Add ``response_ms`` and ``lookups_after`` to the message table (in place).

    ``response_ms``: milliseconds from the message event's ``at`` to the ``at`` of the
    tester's next own action in the same session (the start of a human turn, e.g. a roll
    by a human seat, a click, a rules or menu opening); NaN when none follows.
    ``lookups_after``: ``rules_open`` events after the message and before the end of the
    next human turn (the next turn start of any seat after that turn's start; the
    session's end when there is none) or the next message, whichever comes first (so a
    lookup counts for one message only).
    """
    ordered = ordered_events(data)
    table["response_ms"] = pd.Series(np.nan, index=table.index, dtype="float64")
    table["lookups_after"] = pd.Series(0, index=table.index, dtype="int64")
    if table.empty or ordered.empty:
        return
    kinds = ordered["type"].to_numpy()
    frame = _turn_frame(data)
    human_rows = frame.loc[frame["human"], "row"].to_numpy(dtype="int64")
    is_action = np.isin(kinds, [k for k in RESPONSE_ACTIONS if k != "roll"])
    is_action[human_rows] = True
    action_rows = np.flatnonzero(is_action)
    session = ordered["session_code"].to_numpy()
    at_ms = _at_ms(ordered["at"])
    message_rows = table["row"].to_numpy(dtype="int64")
    position = np.searchsorted(action_rows, message_rows, side="right")
    found = position < len(action_rows)
    next_rows = action_rows[np.minimum(position, max(len(action_rows) - 1, 0))] \
        if len(action_rows) else np.zeros_like(message_rows)
    valid = found & (session[next_rows] == session[message_rows]) if len(action_rows) \
        else np.zeros(len(message_rows), dtype=bool)
    waited = at_ms[next_rows] - at_ms[message_rows] if len(action_rows) else \
        np.full(len(message_rows), np.nan)
    table["response_ms"] = np.where(valid & (waited >= 0), waited, np.nan)
    # Window of "the turn after": up to the first turn start after the next human turn's.
    session_end = pd.Series(np.arange(len(ordered))).groupby(session).transform("max") \
        .to_numpy() + 1
    started = ordered["turn_start"].to_numpy(dtype=bool)
    start_rows = np.flatnonzero(started)
    start_of_turn = pd.Series(ordered.index[started].to_numpy(),
                              index=ordered.loc[started, "turn_no"].to_numpy())
    next_turn = table["next_turn_id"].to_numpy(dtype="int64")
    start = np.where(next_turn >= 0,
                     pd.Series(next_turn).map(start_of_turn).fillna(-1).to_numpy(dtype="int64"),
                     message_rows)
    start = np.maximum(start, message_rows)
    after = np.searchsorted(start_rows, start, side="right")
    end = np.where(after < len(start_rows),
                   start_rows[np.minimum(after, max(len(start_rows) - 1, 0))]
                   if len(start_rows) else session_end[message_rows],
                   session_end[message_rows])
    end = np.minimum(end, session_end[message_rows])
    # A later message takes over: a lookup counts for the latest message before it.
    all_messages = np.sort(message_rows)
    later = np.searchsorted(all_messages, message_rows, side="right")
    next_message = np.where(later < len(all_messages),
                            all_messages[np.minimum(later, len(all_messages) - 1)],
                            session_end[message_rows])
    end = np.minimum(end, next_message)
    open_rows = np.flatnonzero(kinds == "rules_open")
    table["lookups_after"] = (np.searchsorted(open_rows, end, side="left")
                              - np.searchsorted(open_rows, message_rows, side="right")
                              ).astype("int64")


def _at_ms(stamps: pd.Series) -> np.ndarray:
    """Event times as float milliseconds since the epoch (NaN when missing)."""
    converted = pd.to_datetime(stamps, utc=True, errors="coerce")
    values = converted.to_numpy(dtype="datetime64[ns]").astype("int64").astype("float64")
    values[converted.isna().to_numpy()] = np.nan
    return values / 1e6


def games(data: StudyData) -> pd.DataFrame:
    """One row per ``game_end`` event: how long the game was and who won.

    Columns: ``participant_id, game_id, turns, human_won, against_computer, one_human``.
    ``human_won`` is 1.0 when the winner's seat is ``human`` in the game's
    ``game_start`` (0.0 for another winner or a draw); ``against_computer`` is True when
    the game had an ``ai:`` seat; ``one_human`` when exactly one seat is ``human`` (a game
    against the computer, or a game played alone, such as a stage whose computer
    colours are part of the stage): there ``human_won`` is the tester's own win. Games
    without a ``game_start`` count as one human against computer with an unknown winner
    seat kind (``human_won`` NaN).
    """
    cached = _memo(data, "games")
    if cached is not None:
        return cached
    ends = props_of(data, "game_end", ["game_id", "winner", "turns"])
    starts = props_of(data, "game_start", ["game_id", "seats"])
    columns = ["participant_id", "game_id", "turns", "human_won", "against_computer",
               "one_human"]
    if ends.empty:
        result = pd.DataFrame(columns=columns)
        data._derived["games"] = result
        return result
    game = ends["prop_game_id"].where(ends["prop_game_id"].notna(), ends["game_id"])
    start_game = starts["prop_game_id"].where(starts["prop_game_id"].notna(),
                                              starts["game_id"])
    seats = pd.Series(starts["seats"].map(_seat_list).to_numpy(),
                      index=start_game.astype(str).to_numpy())
    seats = seats[~seats.index.duplicated(keep="last")]
    seat_lists = game.astype(str).map(seats)
    winner = pd.to_numeric(ends["winner"], errors="coerce")

    def won(seat_list: Any, seat: float) -> float:
        if not isinstance(seat_list, list):
            return np.nan
        if not np.isfinite(seat) or not 1 <= seat <= len(seat_list):
            return 0.0
        return 1.0 if seat_is_human(seat_list[int(seat) - 1]) else 0.0

    result = pd.DataFrame({
        "participant_id": ends["participant_id"].to_numpy(),
        "game_id": game.astype(str).to_numpy(),
        "turns": pd.to_numeric(ends["turns"], errors="coerce").to_numpy(dtype="float64"),
        "human_won": [won(s, w) for s, w in zip(seat_lists, winner, strict=True)],
        "against_computer": [not isinstance(s, list) or any(seat_is_computer(k) for k in s)
                             for s in seat_lists],
        "one_human": [not isinstance(s, list) or sum(seat_is_human(k) for k in s) == 1
                      for s in seat_lists],
    })
    data._derived["games"] = result
    return result


def prepare(data: StudyData) -> StudyData:
    """Compute every derived table now (≈ the one-off cost of a study) and return ``data``.

    Pages should call this once per loaded StudyData and keep that object (e.g. in
    ``st.cache_resource``): afterwards each analytics function only aggregates.
    """
    ordered_events(data)
    clicks(data)
    turns(data)
    messages(data)
    message_texts(data)
    games(data)
    for event_type, keys in (("page", ["page"]), ("game_start", ["game_id", "seats"]),
                             ("rules_open", ["context"]), ("rules_close", ["context"]),
                             *_game_tables(data)):
        props_of(data, event_type, keys)
    data._derived["prepared"] = True
    return data


def _game_tables(data: StudyData) -> list[tuple[str, list[str]]]:
    """The props tables the study's game reads (its plug-in's ``prepared``)."""
    return [(event_type, list(keys)) for event_type, keys in game_of(data).prepared]


def prepared_keys(data: StudyData) -> tuple[str, ...]:
    """:data:`PREPARED_KEYS` and the props tables of the study's game (its ``prepared``).

    >>> prepared_keys(StudyData.empty("s", "chess")) == PREPARED_KEYS  # no plug-in
    True
    """
    extra = [props_key(event_type, keys) for event_type, keys in _game_tables(data)]
    return PREPARED_KEYS + tuple(key for key in dict.fromkeys(extra)
                                 if key not in PREPARED_KEYS)


def carry_over(source: StudyData, target: StudyData, participant_ids: set[str]) -> None:
    """Give ``target`` (a participant subset of ``source``) the subset of the derived
    tables ``source`` already has, so filtering a prepared study costs no re-derivation.

    Only done when ``source`` went through :func:`prepare` (then no table is derived
    lazily later from row positions of the subset); the plug-in its caller gave it
    (:func:`analytics.game_analytics.use`) always goes along. Every derived row belongs to one participant,
    so the subsets equal what deriving from the subset's events would give.
    """
    from analytics.game_analytics import use  # the plug-ins import this module

    if source._derived.get(GIVEN_GAME) is not None:  # the caller's plug-in: the same game
        use(target, source._derived[GIVEN_GAME])
    if not source._derived.get("prepared"):
        return
    for key, table in source._derived.items():
        if isinstance(table, pd.DataFrame) and "participant_id" in table.columns:
            target._derived[key] = table[member_mask(table["participant_id"],
                                                     participant_ids)]
    target._derived["prepared"] = True


def member_mask(column: pd.Series, ids: set[str]) -> np.ndarray:
    """``column.isin(ids)`` as a bool array, fast for Arrow-backed string columns.

    pandas converts the value set element by element on every ``isin`` of an Arrow string
    column; ``pyarrow.compute.is_in`` does the whole test in C.
    """
    try:
        array = pa.array(column.array)
        value_set = pa.array(sorted(ids), type=pa.string()).cast(array.type)
        return np.asarray(pc.is_in(array, value_set=value_set).fill_null(False),
                          dtype=bool)
    except (pa.ArrowException, TypeError, ValueError):
        return column.isin(list(ids)).to_numpy(dtype=bool)


# --- Prepared tables kept outside a StudyData (a snapshot) -------------------------------

#: The derived tables analytics functions read once :func:`prepare` has run (memo keys).
#: A study's snapshot keeps exactly these; everything else (the ordered events, the
#: expanded marker props) only serves to derive them.
PREPARED_KEYS = (
    "clicks",
    "turns",
    "messages",
    "message_texts",
    "games",
    "props:page:page",
    "props:game_start:game_id,seats",
    "props:rules_open:context",
    "props:rules_close:context",
)
# Integer ids that number things across the whole study (row position, participant +
# session code, running turn count); -1 in the turn references means "no turn".
_RUNNING_IDS = ("row", "session_code", "turn_no")
_TURN_REFERENCES = ("turn_id", "next_turn_id")


class PreparedTablesError(ValueError):
    """A set of prepared tables lacks a table or a column analytics reads."""


def prepared_tables(data: StudyData) -> dict[str, pd.DataFrame]:
    """The tables of :data:`PREPARED_KEYS` for ``data`` (prepared first if need be).

    >>> sorted(prepared_tables(StudyData.empty("s", "chess"))) == sorted(PREPARED_KEYS)
    True
    """
    if not data._derived.get("prepared"):
        prepare(data)
    return {key: data._derived[key] for key in prepared_keys(data)}


def adopt_prepared(data: StudyData, tables: dict[str, pd.DataFrame]) -> StudyData:
    """Give ``data`` derived tables computed elsewhere (e.g. read from a snapshot).

    ``data.events`` may then be empty: analytics functions read only the prepared
    tables. Raises :class:`PreparedTablesError` if a table is missing.
    """
    missing = [key for key in PREPARED_KEYS if key not in tables]
    if missing:
        raise PreparedTablesError(f"prepared tables lack: {', '.join(missing)}")
    for key, table in tables.items():  # the core's and the game's (prepared_keys)
        data._derived[key] = table
    data._derived["prepared"] = True
    return data


def splice_prepared(
    base: dict[str, pd.DataFrame], fresh: dict[str, pd.DataFrame], replaced: set[str]
) -> dict[str, pd.DataFrame]:
    """``base`` without the participants in ``replaced``, plus ``fresh``.

    ``fresh`` holds the tables derived from some participants' events alone (those
    participants must be in ``replaced`` if ``base`` has them). Every derived row belongs
    to one participant and links to rows of the same participant only, so the result
    equals deriving the combined events, except that the study-wide running numbers
    (``row``, ``session_code``, ``turn_no`` and the turn ids built from ``turn_no``) of
    the fresh rows are shifted past those of ``base`` to stay unique.

    >>> empty = prepared_tables(StudyData.empty("s"))
    >>> splice_prepared(empty, empty, set())["turns"].empty
    True
    """
    shift: dict[str, int] = {}
    for column in _RUNNING_IDS:
        tops = [int(table[column].max()) for table in base.values()
                if column in table.columns and len(table)]
        shift[column] = max(tops, default=-1) + 1
    # turn ids are turn numbers, so they move with turn_no
    shift["turn_id"] = shift["next_turn_id"] = shift["turn_no"]
    result: dict[str, pd.DataFrame] = {}
    game_keys = [key for key in fresh if key in base and key not in PREPARED_KEYS]
    for key in (*PREPARED_KEYS, *game_keys):
        old, new = base[key], fresh[key]
        kept = old[~member_mask(old["participant_id"], replaced)] if replaced and len(old) \
            else old
        if new.empty:
            result[key] = kept.reset_index(drop=True)
            continue
        new = new.copy()
        for column in new.columns:
            # Text read back from a snapshot is an Arrow string column, text just
            # derived from the database an object column: the few fresh rows take the
            # base's type (as a snapshot round trip would give them), or the concat
            # below would turn the base's whole column into Python objects.
            if column in old.columns and isinstance(old[column].dtype, pd.StringDtype) \
                    and new[column].dtype == object:
                new[column] = new[column].astype(old[column].dtype)
        for column in _RUNNING_IDS:
            if column in new.columns:
                new[column] = new[column].astype("int64") + shift[column]
        for column in _TURN_REFERENCES:
            if column in new.columns:
                values = new[column].astype("int64")
                new[column] = np.where(values >= 0, values + shift[column], -1).astype("int64")
        result[key] = (pd.concat([kept, new], ignore_index=True) if len(kept)
                       else new.reset_index(drop=True))
    return result
