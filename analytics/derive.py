"""Derived per-event tables, computed once per :class:`StudyData` and memoised on it.

Definitions used everywhere in ``analytics``:

- **turn**: as the study's game defines it (its plug-in's
  :class:`analytics.turns.TurnRule`): every event of its turn marker (a ``roll``) starts
  a turn of the seat in its ``props.seat``; a game without a marker has a turn per run
  of one seat's acts (clicks, ``ai_move``, its own action events) with no other seat
  acting in between (:mod:`analytics.turns`). A **human turn** is a turn of a seat the
  ``game_start`` of the same participant and ``game_id`` lists as ``"human"``
  (``props.seat`` is 1-based; games without a ``game_start`` count as human), not an
  ``ai_move``; without a marker it must hold one of the tester's clicks.
- A click belongs to the turn started by the latest turn start before it (or at it) in
  the same session.
- **hesitation**: the ``ms`` prop (ms from the options appearing to the click) of the
  first click of a turn.
- **fact** of a turn: ``P×G`` with ``P = p1+p2``, ``G = g1+g2``, keyed smaller factor
  first (``"7x8"``).

Everything is vectorised: props are expanded once per needed event type with
``pd.DataFrame.from_records`` and events are ordered with ``np.lexsort`` on integer codes.

>>> from analytics.data import StudyData

T = TypeVar("T")
>>> turns(StudyData.empty("s")).empty
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from analytics.data import StudyData
from analytics.turns import COMPUTER_EVENTS, TurnRule, turn_starts

T = TypeVar("T")

CLICK_PROPS = ["seat", "c", "r", "ok", "wrong_kind", "rule_reason", "expected", "clicked", "ms"]
TURN_COLUMNS = [
    "turn_id", "participant_id", "session_id", "game_id", "seq", "at", "fact", "a", "b",
    "options", "refused", "n_clicks", "n_wrong", "n_wrong_math", "first_ms", "first_ok",
    "first_wrong_kind",
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
    subset = ordered[ordered["type"] == event_type]
    base = subset[["participant_id", "session_id", "seq", "at", "game_id", "row",
                   "session_code", "turn_no"]].reset_index(drop=True)
    records = subset["props"].tolist()
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
    expanded = expanded[keys].reset_index(drop=True)
    # A prop named like an envelope column (``game_id``) is kept as ``prop_<key>``.
    expanded.columns = [f"prop_{k}" if k in base.columns else k for k in keys]
    result = pd.concat([base, expanded], axis=1)
    data._derived[memo_key] = result
    return result


def turn_rule(data: StudyData) -> TurnRule:
    """The study's game's :class:`analytics.turns.TurnRule` (its plug-in's ``turns``)."""
    from analytics.game_analytics import for_study  # the plug-ins import this module

    return for_study(data).turns


#: The marker event's props a turn keeps (a roll's dice, options and refused options).
MARKER_PROPS = ["seat", "dice", "options", "refused"]


def _turn_start_events(data: StudyData) -> pd.DataFrame:
    """The events that start a turn, as :func:`props_of` frames with ``MARKER_PROPS``
    and ``type`` (props a game's acts do not have are NaN)."""
    rule = turn_rule(data)
    if rule.marker:
        return props_of(data, rule.marker, MARKER_PROPS).assign(type=rule.marker)
    ordered = ordered_events(data)
    subset = ordered[ordered["turn_start"].to_numpy(dtype=bool)]
    base = subset[["participant_id", "session_id", "seq", "at", "game_id", "row",
                   "session_code", "turn_no", "type"]].reset_index(drop=True)
    seats = [p.get("seat") if isinstance(p, dict) else None for p in subset["props"]]
    return base.assign(seat=pd.Series(seats, index=base.index, dtype=object),
                       dice=np.nan, options=np.nan, refused=np.nan)


def _human_turns(data: StudyData) -> pd.DataFrame:
    """:func:`_turn_start_events` with ``seat_no`` and ``human`` (a tester's turn:
    module docstring; without a marker, a turn of a human seat the clicks then confirm)."""
    cached = _memo(data, "human_turns")
    if cached is not None:
        return cached
    result = _classify_turns(data, _turn_start_events(data))
    human = result["human"].to_numpy(dtype=bool) & \
        ~result["type"].isin(COMPUTER_EVENTS).to_numpy(dtype=bool)
    if not turn_rule(data).marker:  # a tester's turn shows in their clicks
        table = props_of(data, "click", [*CLICK_PROPS, "stale"])
        clicked = table.loc[~table["stale"].eq(True), "turn_no"].unique()
        human &= result["turn_no"].isin(clicked).to_numpy(dtype=bool)
    result["human"] = human
    data._derived["human_turns"] = result
    return result


def _classify_turns(data: StudyData, rolls: pd.DataFrame) -> pd.DataFrame:
    rolls = rolls.copy()
    starts = props_of(data, "game_start", ["game_id", "seats"])
    rolls["seat_no"] = pd.to_numeric(rolls["seat"], errors="coerce")
    if starts.empty or rolls.empty:
        rolls["human"] = True
        return rolls
    # The game id may sit in the event column or in props (props win when both exist).
    starts = starts.assign(game=starts["prop_game_id"].where(starts["prop_game_id"].notna(),
                                                            starts["game_id"]))
    # A turn without a game_id belongs to the latest game_start of its session.
    latest = pd.merge_asof(
        rolls[["row", "session_code"]].sort_values("row"),
        starts[["row", "session_code", "game"]].sort_values("row"),
        on="row", by="session_code", direction="backward",
    ).set_index("row")["game"]
    rolls["game"] = rolls["game_id"].where(rolls["game_id"].notna(),
                                           rolls["row"].map(latest))
    seats = starts.loc[starts["seats"].map(lambda s: isinstance(s, list)),
                       ["participant_id", "game", "seats"]]
    seats = seats.drop_duplicates(["participant_id", "game"], keep="last")
    exploded = seats.explode("seats")
    exploded["seat_no"] = exploded.groupby(level=0).cumcount() + 1
    exploded["kind_human"] = exploded["seats"] == "human"
    merged = rolls.merge(exploded[["participant_id", "game", "seat_no", "kind_human"]],
                         on=["participant_id", "game", "seat_no"], how="left")
    known = seats[["participant_id", "game"]].assign(known=True)
    merged = merged.merge(known, on=["participant_id", "game"], how="left")
    has_game = merged["known"].eq(True)
    merged["human"] = np.where(has_game, merged["kind_human"].eq(True), True)
    merged["game_id"] = merged["game"]
    return merged.drop(columns=["kind_human", "known", "game"])


def clicks(data: StudyData) -> pd.DataFrame:
    """One row per ``click`` event, props as columns, plus ``turn_id`` and ``first``.

    ``turn_id`` is the ``turn_no`` of the human turn the click belongs to (``-1``: no
    human turn, e.g. a click before any roll); ``first`` marks the first click of a turn.
    ``ok`` is a bool column.
    """
    cached = _memo(data, "clicks")
    if cached is not None:
        return cached
    table = props_of(data, "click", [*CLICK_PROPS, "stale"])
    # A stale tab's click (``stale: true``) was never the tester's answer to this board.
    stale = table["stale"].eq(True)
    table = table[~stale].drop(columns="stale").reset_index(drop=True)
    table["ok"] = table["ok"].fillna(False).astype(bool)
    table["ms"] = pd.to_numeric(table["ms"], errors="coerce")
    table["c"] = pd.to_numeric(table["c"], errors="coerce")
    table["r"] = pd.to_numeric(table["r"], errors="coerce")
    human = _human_turns(data)
    human_turns = human.loc[human["human"], ["turn_no", "session_code"]]
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
    """One row per human turn (see module docstring), with click outcomes.

    Columns: ``turn_id, participant_id, session_id, game_id, seq, at, fact, a, b, options,
    refused, n_clicks, n_wrong, n_wrong_math, first_ms, first_ok, first_wrong_kind``.
    ``refused`` is the roll's list of rule reasons refusing a rolled option (NaN when the
    roll did not log it: data from before the prop existed); ``a, b, fact, options,
    refused`` come from a turn marker's props (a roll's dice), NaN for other turns.
    ``n_wrong_math`` counts wrong clicks other than ``rule`` ones (mental-maths errors).
    """
    cached = _memo(data, "turns")
    if cached is not None:
        return cached
    human = _human_turns(data)
    human = human[human["human"]]
    if human.empty:
        result = pd.DataFrame(columns=TURN_COLUMNS)
        data._derived["turns"] = result
        return result
    dice_lists = human["dice"].tolist()
    try:
        # Fast path: every roll has four dice.
        dice_array = np.array(dice_lists, dtype=float).reshape(len(dice_lists), 4)
    except (ValueError, TypeError):
        dice_array = np.array([d if isinstance(d, list) and len(d) == 4 else [np.nan] * 4
                               for d in dice_lists], dtype=float)
    dice_frame = pd.DataFrame(dice_array, columns=["p1", "p2", "g1", "g2"], index=human.index)
    pink = dice_frame["p1"] + dice_frame["p2"]
    green = dice_frame["g1"] + dice_frame["g2"]
    low = np.minimum(pink.to_numpy(), green.to_numpy())
    high = np.maximum(pink.to_numpy(), green.to_numpy())
    result = pd.DataFrame({
        "turn_id": human["turn_no"].to_numpy(),
        "participant_id": human["participant_id"].to_numpy(),
        "session_id": human["session_id"].to_numpy(),
        "game_id": human["game_id"].to_numpy(),
        "seq": human["seq"].to_numpy(),
        "at": human["at"].reset_index(drop=True),  # to_numpy() would box tz-aware stamps
        "a": low,
        "b": high,
        "options": human["options"].to_numpy(),
        # rule reasons that refuse a rolled option (a list; NaN where not logged)
        "refused": human["refused"].to_numpy(),
    })
    # Fact labels by table lookup (dice sums are 2..12): no per-row string building.
    labels = np.array([None] + [f"{a}x{b}" for a in range(1, 13) for b in range(1, 13)],
                      dtype=object)
    a_values = result["a"].to_numpy(float)
    b_values = result["b"].to_numpy(float)
    in_range = (np.isfinite(a_values) & np.isfinite(b_values) & (a_values >= 1)
                & (b_values <= 12))
    codes = np.where(in_range, (np.nan_to_num(a_values) - 1) * 12
                     + np.nan_to_num(b_values), 0).astype(int)
    result["fact"] = labels[codes]
    table = clicks(data)
    in_turn = table[table["turn_id"] >= 0]
    wrong = ~in_turn["ok"]
    math_wrong = wrong & (in_turn["wrong_kind"] != "rule")
    per_turn = pd.DataFrame({
        "turn_id": in_turn["turn_id"], "wrong": wrong, "math": math_wrong,
    }).groupby("turn_id").agg(n_clicks=("wrong", "size"), n_wrong=("wrong", "sum"),
                              n_wrong_math=("math", "sum"))
    first = in_turn[in_turn["first"]].set_index("turn_id")
    result = result.join(per_turn, on="turn_id")
    result["first_ms"] = result["turn_id"].map(first["ms"])
    result["first_ok"] = result["turn_id"].map(first["ok"])
    result["first_wrong_kind"] = result["turn_id"].map(first["wrong_kind"])
    for column in ("n_clicks", "n_wrong", "n_wrong_math"):
        result[column] = result[column].fillna(0).astype("int64")
    result = result[TURN_COLUMNS]
    data._derived["turns"] = result
    return result


def messages(data: StudyData) -> pd.DataFrame:
    """One row per ``message`` event with ``key``, ``variant`` and ``next_turn_id``.

    ``next_turn_id`` is the first human turn that starts after the message in the same
    session (``-1`` when none): "the turn immediately following the message".
    """
    cached = _memo(data, "messages")
    if cached is not None:
        return cached
    # not the text: key and variant name it (and 350k texts weigh on every load)
    table = props_of(data, "message", ["key", "variant", "ms_visible"]).copy()
    turn_table = turns(data)
    turn_ids = np.sort(turn_table["turn_id"].to_numpy().astype("int64"))
    ordered = ordered_events(data)
    session_of_row = ordered["session_code"].to_numpy()
    started = ordered["turn_start"].to_numpy(dtype=bool)
    row_of_turn = pd.Series(ordered.index[started].to_numpy(),
                            index=ordered.loc[started, "turn_no"].to_numpy())
    if len(turn_ids) and len(table):
        position = np.searchsorted(turn_ids, table["turn_no"].to_numpy() + 1)
        candidate = np.where(position < len(turn_ids),
                             turn_ids[np.minimum(position, len(turn_ids) - 1)], -1)
        candidate_rows = pd.Series(candidate).map(row_of_turn).fillna(-1).astype("int64")
        same_session = (candidate >= 0) & (
            session_of_row[candidate_rows.clip(lower=0).to_numpy()]
            == table["session_code"].to_numpy()
        )
        table["next_turn_id"] = np.where(same_session, candidate, -1).astype("int64")
    else:
        table["next_turn_id"] = pd.Series(-1, index=table.index, dtype="int64")
    _add_message_responses(data, table)
    data._derived["messages"] = table
    return table


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
    human = _human_turns(data)
    human_rows = human.loc[human["human"], "row"].to_numpy(dtype="int64")
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
    seats = pd.Series(starts["seats"].to_numpy(), index=start_game.astype(str).to_numpy())
    seats = seats[~seats.index.duplicated(keep="last")]
    seat_lists = game.astype(str).map(seats)
    winner = pd.to_numeric(ends["winner"], errors="coerce")

    def won(seat_list: Any, seat: float) -> float:
        if not isinstance(seat_list, list):
            return np.nan
        if not np.isfinite(seat) or not 1 <= seat <= len(seat_list):
            return 0.0
        return 1.0 if seat_list[int(seat) - 1] == "human" else 0.0

    result = pd.DataFrame({
        "participant_id": ends["participant_id"].to_numpy(),
        "game_id": game.astype(str).to_numpy(),
        "turns": pd.to_numeric(ends["turns"], errors="coerce").to_numpy(dtype="float64"),
        "human_won": [won(s, w) for s, w in zip(seat_lists, winner, strict=True)],
        "against_computer": [not isinstance(s, list) or any(str(k).startswith("ai:")
                                                             for k in s) for s in seat_lists],
        "one_human": [not isinstance(s, list) or sum(str(k) == "human" for k in s) == 1
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
    games(data)
    for event_type, keys in (("page", ["page"]), ("game_start", ["game_id"]),
                             ("rules_open", ["context"]), ("rules_close", ["context"]),
                             *_game_tables(data)):
        props_of(data, event_type, keys)
    data._derived["prepared"] = True
    return data


def _game_tables(data: StudyData) -> list[tuple[str, list[str]]]:
    """The props tables the study's game reads (its plug-in's ``prepared``)."""
    from analytics.game_analytics import for_study  # the plug-ins import this module

    return [(event_type, list(keys)) for event_type, keys in for_study(data).prepared]


def prepared_keys(data: StudyData) -> tuple[str, ...]:
    """:data:`PREPARED_KEYS` and the props tables of the study's game (its ``prepared``).

    >>> prepared_keys(StudyData.empty("s")) == PREPARED_KEYS
    True
    """
    extra = [props_key(event_type, keys) for event_type, keys in _game_tables(data)]
    return PREPARED_KEYS + tuple(key for key in dict.fromkeys(extra)
                                 if key not in PREPARED_KEYS)


def carry_over(source: StudyData, target: StudyData, participant_ids: set[str]) -> None:
    """Give ``target`` (a participant subset of ``source``) the subset of the derived
    tables ``source`` already has, so filtering a prepared study costs no re-derivation.

    Only done when ``source`` went through :func:`prepare` (then no table is derived
    lazily later from row positions of the subset). Every derived row belongs to one participant,
    so the subsets equal what deriving from the subset's events would give.
    """
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
    "games",
    "props:page:page",
    "props:game_start:game_id",
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

    >>> sorted(prepared_tables(StudyData.empty("s"))) == sorted(PREPARED_KEYS)
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
