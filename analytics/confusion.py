"""Confusion signals of any game: refused clicks, message aftermath, rules-overlay use,
and the confusion points ranked by severity.

See :mod:`analytics.derive` for "turn" (a decision of the tester's) and "thinking time".
Every confusion point is scored on one basis (:mod:`analytics.severity` holds the
definition): its **occasions** (the moments it could happen), its **troubles** on those
occasions, the testers it reached, and whether it persisted past the first game. The same
families in every game, on the core's turns:

- ``rule:<reason>``: occasions are the testers' turns with a click on which the reason
  could bite (the game's ``reason_occasions``; by default every such turn); trouble is a
  click the rules refused for that reason in the turn. Turns that did not log their
  reasons count as an occasion of every reason seen in the study (the evidence says so);
- ``message:<key>`` (``message:<key>@<variant>`` for each wording when the key was shown
  in several): occasions are the showings; trouble is a refused click from the message
  to the end of the turn of the tester's next input, thinking before that input above
  the study's 75th percentile of thinking times, or a rules lookup from the message.
  Baseline: the same trouble on the testers' turns that do not follow this message
  (after no message, or after another; a rules lookup during the turn), never the
  message itself;
- ``survey:<item>``: occasions are the answers to a free-text item that asks for
  problems (or a neutral one); trouble is an answer naming a problem theme. Answers to
  a praise item ("What did you like?") are never confusion: see :func:`what_works`;
- the game's own families (its ``families``: e.g. facts, kinds of wrong answers), on the
  same turns.

The game's plug-in (:class:`analytics.game_analytics.GameAnalytics`,
:func:`analytics.game_analytics.for_study`) says what the core cannot know: which reasons
can bite when, its own families, the fix to suggest.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from analytics import derive, severity
from analytics.data import StudyData
from analytics.game_analytics import GameAnalytics, for_study
from analytics.metrics import PER_TESTER_FAMILIES
from analytics.questionnaires import problem_answers
from analytics.stats import wilson_interval


@dataclass(frozen=True)
class ConfusionPoint:
    """One ranked confusion point of the report: ``score`` is its severity
    (:func:`analytics.severity.severity`), ``interval`` the 95 % interval of its shrunk
    trouble rate, ``definition`` what its occasions and troubles are."""

    id: str
    label: str
    score: float
    evidence: dict[str, Any] = field(default_factory=dict)
    action: str = ""
    interval: tuple[float, float] | None = None
    definition: str = ""

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {"id": self.id, "label": self.label,
                                  "score": round(self.score, 6), "evidence": self.evidence,
                                  "action": self.action, "definition": self.definition}
        if self.interval is not None:
            result["interval"] = [round(self.interval[0], 4), round(self.interval[1], 4)]
        return result


def human_turn_count(data: StudyData) -> int:
    """Number of human turns in the study (what a turn is: the game's, :mod:`analytics.turns`)."""
    return len(derive.turns(data))


def wrong_clicks_by_reason(data: StudyData) -> pd.DataFrame:
    """The testers' refused clicks per refusal reason: ``reason, clicks, participants,
    per_turn`` (refused clicks per turn of the testers), most frequent first.

    >>> wrong_clicks_by_reason(StudyData.empty("s")).empty
    True
    """
    wrong = derive.refusals(data)
    columns = ["reason", "clicks", "participants", "per_turn"]
    if wrong.empty:
        return pd.DataFrame(columns=columns)
    grouped = wrong.groupby("reason")
    result = pd.DataFrame({"clicks": grouped.size(),
                           "participants": grouped["participant_id"].nunique()})
    result["per_turn"] = result["clicks"] / max(human_turn_count(data), 1)
    return result.rename_axis("reason").reset_index().sort_values(
        "clicks", ascending=False, kind="stable").reset_index(drop=True)[columns]


REASON_COLUMNS = ["reason", "decisions_with", "occasions", "rate", "ci_low", "ci_high",
                  "refusals", "testers"]


def reason_table(data: StudyData, game: GameAnalytics | None = None) -> pd.DataFrame:
    """Per refusal reason seen: ``reason, decisions_with`` (the testers' turns with a
    click refused for it), ``occasions`` (their turns on which it could bite: the
    ``rule:<reason>`` point's occasions), ``rate`` with its 95 % Wilson interval
    (``ci_low``, ``ci_high``), ``refusals`` (refused clicks) and ``testers``; most
    frequent first.

    >>> reason_table(StudyData.empty("s")).empty
    True
    """
    plugin = game or for_study(data)
    turn_table = derive.turns(data)
    attempted = turn_table[turn_table["n_clicks"] > 0]
    rows, _ = _rule_occasions(data, plugin, attempted, later_games(turn_table))
    if rows.empty:
        return pd.DataFrame(columns=REASON_COLUMNS)
    wrong = derive.refusals(data)
    counted = wrong.groupby("reason").size()
    found = []
    for reason, group in rows.groupby("candidate", sort=True):
        k, n = int(group["trouble"].sum()), len(group)
        low, high = wilson_interval(k, n)
        found.append({"reason": str(reason), "decisions_with": k, "occasions": n,
                      "rate": k / n if n else np.nan, "ci_low": low, "ci_high": high,
                      "refusals": int(counted.get(reason, 0)),
                      "testers": int(group.loc[group["trouble"], "participant_id"]
                                     .nunique())})
    return pd.DataFrame(found, columns=REASON_COLUMNS).sort_values(
        ["decisions_with", "reason"], ascending=[False, True], kind="stable"
    ).reset_index(drop=True)


def _trouble(turn_table: pd.DataFrame, slow_ms: float) -> pd.Series:
    return (turn_table["n_wrong"] > 0) | (turn_table["first_ms"] > slow_ms)


def _slow_ms(turn_table: pd.DataFrame) -> float:
    """The study's 75th percentile of thinking times (a turn's first click)."""
    thinking = pd.to_numeric(turn_table["first_ms"], errors="coerce").dropna()
    return float(thinking.quantile(0.75)) if len(thinking) else np.inf


def message_aftermath(data: StudyData) -> pd.DataFrame:
    """Per message key and wording: what followed its showings, against the testers'
    turns that do not follow the message.

    Columns: ``key, variant, text`` (what the wording said: :func:`wording_texts`),
    ``shown, participants, wrong_per_turn_after, wrong_per_turn_all,
    hesitation_after_ms, hesitation_all_ms, rules_opened, rules_open_rate,
    trouble_rate, baseline_trouble_rate``. ``wrong_per_turn_after``:
    refused clicks from the message to the end of the turn of the tester's next input;
    ``hesitation_after_ms``: the thinking before that input (:func:`analytics.derive.messages`);
    ``rules_opened``: showings followed by a ``rules_open`` whose ``context`` is the key
    before the next message of the session; ``trouble_rate``: the share of showings with
    trouble (module docstring); ``baseline_trouble_rate``: the same on the turns that do
    not follow the message.
    """
    # confusion_points reads it too: computed once per StudyData
    return derive.remember(data, "message_aftermath", lambda: _message_aftermath(data)).copy()


def wording_texts(data: StudyData, key: str) -> dict[str, str]:
    """What each wording of message ``key`` said: per variant, the text its testers were
    shown most often (a wording's text may carry names or numbers), for the pages and
    the plan to show beside each wording's results.

    >>> wording_texts(StudyData.empty("s"), "extra_turn")
    {}
    """
    texts = derive.message_texts(data)
    texts = texts[texts["key"] == key]
    if texts.empty:
        return {}
    totals = texts.groupby(["variant", "text"], sort=True)["shown"].sum().reset_index()
    top = totals.sort_values(["variant", "shown"], ascending=[True, False], kind="stable") \
        .drop_duplicates("variant")
    return {str(v): str(t) for v, t in zip(top["variant"], top["text"], strict=True)}


_AFTERMATH_COLUMNS = ["key", "variant", "text", "shown", "participants", "wrong_per_turn_after",
                      "wrong_per_turn_all", "hesitation_after_ms", "hesitation_all_ms",
                      "rules_opened", "rules_open_rate", "trouble_rate",
                      "baseline_trouble_rate"]


def _message_aftermath(data: StudyData) -> pd.DataFrame:
    shown = derive.messages(data)
    turn_table = derive.turns(data)
    if shown.empty:
        return pd.DataFrame(columns=_AFTERMATH_COLUMNS)
    showings = _showings(data, turn_table)
    frame = showings.frame
    grouped = frame.groupby(["key", "variant"], sort=True)
    result = pd.DataFrame({
        "shown": grouped.size(),
        "participants": grouped["participant_id"].nunique(),
        "wrong_per_turn_after": grouped["wrong"].mean(),
        "hesitation_after_ms": grouped["think_ms"].mean(),
        "rules_opened": grouped["followed"].sum().astype(int),
        "trouble_rate": grouped["trouble"].mean(),
        "baseline_trouble_rate": grouped["baseline"].first(),
    }).reset_index()
    result["wrong_per_turn_all"] = float(turn_table["n_wrong"].mean()) if len(turn_table) \
        else np.nan
    result["hesitation_all_ms"] = float(pd.to_numeric(turn_table["first_ms"]).mean()) \
        if len(turn_table) else np.nan
    result["rules_open_rate"] = result["rules_opened"] / result["shown"]
    result["text"] = [wording_texts(data, str(key)).get(str(variant), "")
                      for key, variant in zip(result["key"], result["variant"], strict=True)]
    return result[_AFTERMATH_COLUMNS].sort_values("trouble_rate", ascending=False,
                                                  kind="stable").reset_index(drop=True)


def rules_overlay_use(data: StudyData) -> pd.DataFrame:
    """Rules-overlay opens by ``context`` (last message key shown; "none" if absent).

    Columns: ``context, opens, participants, median_open_s`` (time to the next
    ``rules_close`` of the session).
    """
    opens = derive.props_of(data, "rules_open", ["context"])
    columns = ["context", "opens", "participants", "median_open_s"]
    if opens.empty:
        return pd.DataFrame(columns=columns)
    closes = derive.props_of(data, "rules_close", ["context"])
    opens = opens.assign(context=opens["context"].fillna("none").astype(str))
    if closes.empty:
        opens["open_s"] = np.nan
    else:
        matched = pd.merge_asof(
            opens[["row", "session_code", "at"]].sort_values("row"),
            closes[["row", "session_code", "at"]].rename(columns={"at": "closed_at"})
            .sort_values("row"), on="row", by="session_code", direction="forward")
        seconds = (pd.to_datetime(matched["closed_at"], utc=True)
                   - pd.to_datetime(matched["at"], utc=True)).dt.total_seconds()
        opens = opens.sort_values("row").assign(open_s=seconds.to_numpy())
    grouped = opens.groupby("context")
    return pd.DataFrame({"opens": grouped.size(),
                         "participants": grouped["participant_id"].nunique(),
                         "median_open_s": grouped["open_s"].median()}).rename_axis(
        "context").reset_index().sort_values("opens", ascending=False,
                                             kind="stable").reset_index(drop=True)


#: What each kind of point of the core counts: shown beside the points (``definition``);
#: a game's own families bring theirs (:class:`analytics.game_analytics.Family`).
DEFINITIONS: dict[str, str] = {
    "rule": "Occasions: the tester's turns on which the rules could refuse a click for "
            "this reason. Trouble: a click refused for this reason in the turn.",
    "message": "Occasions: showings of the message (of this wording, when it has "
               "several). Trouble: a refused click from the message to the end of the "
               "turn of the tester's next input, thinking before that input above the "
               "study's 75th percentile, or a rules lookup from the message. Baseline: "
               "the same on the tester's turns that do not follow this message.",
    "survey": "Occasions: answers to this question. Trouble: an answer naming a problem "
              "theme.",
}
IMPACT = {"rule": 1.0, "message": 0.5, "survey": 0.5}


def later_games(turn_table: pd.DataFrame) -> pd.Series:
    """Per turn: is it in a later game than the tester's first one?"""
    if turn_table.empty:
        return pd.Series(dtype=bool)
    games = turn_table["game_id"].astype(object).where(turn_table["game_id"].notna(), "")
    first = turn_table.assign(game=games).groupby(["participant_id", "game"], sort=False)[
        "turn_id"].transform("min")
    first_of_tester = turn_table.groupby("participant_id", sort=False)["turn_id"].transform(
        "min")
    return first != first_of_tester


def turns_with_later(data: StudyData, action: str) -> pd.DataFrame:
    """The tester's turns (:func:`analytics.derive.turns`) that made ``action``, each with
    ``later`` (:func:`later_games`: in a later game than the tester's first)."""
    turn_table = derive.turns(data)
    later = later_games(turn_table)
    return turn_table.assign(later=later)[turn_table["action"].eq(action)]


def occasion_tallies(frame: pd.DataFrame, family: str, baseline: float,
                     impact: float | None = None) -> list[severity.Tally]:
    """Tallies from one row per occasion: ``candidate, participant_id, later, trouble``;
    ``candidate`` is the name after ``<family>:`` (ids are made per candidate, not per
    row: a string per row is what costs at 10,000 testers)."""
    if frame.empty:
        return []
    later = frame["later"].fillna(False).astype(bool).to_numpy()
    trouble = frame["trouble"].fillna(False).astype(bool).to_numpy()
    # integer codes and bincounts: counting distinct testers on strings, or a pandas
    # groupby per tally, is what costs at 10,000 testers
    tester = pd.factorize(frame["participant_id"])[0].astype(np.int64) + 1  # 0: none
    codes, names = pd.factorize(frame["candidate"])
    named = codes >= 0  # a row without a candidate is no occasion of any
    codes, tester = codes[named].astype(np.int64), tester[named]
    later, trouble = later[named], trouble[named]
    size, span = len(names), int(tester.max(initial=0)) + 1
    pairs = codes * span + tester  # one number per (candidate, tester)

    def count(mask: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(codes if mask is None else codes[mask], minlength=size)

    def distinct_testers(mask: np.ndarray | None = None) -> np.ndarray:
        return np.bincount(np.unique(pairs if mask is None else pairs[mask]) // span,
                           minlength=size)

    occasions, troubles = count(), count(trouble)
    testers, affected = distinct_testers(), distinct_testers(trouble)
    first_occasions, first_troubles = count(~later), count(trouble & ~later)
    later_occasions, later_troubles = count(later), count(trouble & later)
    return [severity.Tally(
        id=f"{family}:{names[c]}", family=family, occasions=int(occasions[c]),
        troubles=int(troubles[c]), testers=int(testers[c]), affected=int(affected[c]),
        first_occasions=int(first_occasions[c]), first_troubles=int(first_troubles[c]),
        later_occasions=int(later_occasions[c]), later_troubles=int(later_troubles[c]),
        baseline=baseline, impact=IMPACT[family] if impact is None else impact)
        for c in range(size)]


def _rule_occasions(data: StudyData, game: GameAnalytics, attempted: pd.DataFrame,
                    later: pd.Series) -> tuple[pd.DataFrame, dict[str, int]]:
    """One row per (turn, reason that could bite on it), with ``trouble`` (a click
    refused for the reason in the turn); ``estimated`` counts per reason the occasions
    taken from turns that did not log their reasons (every reason seen in the study).
    Empty when no click was refused for a reason."""
    columns = ["candidate", "participant_id", "later", "trouble"]
    wrong = derive.refusals(data)
    seen = sorted(set(wrong["reason"].astype(str)))
    if not seen or attempted.empty:
        return pd.DataFrame(columns=columns), {}
    troubled = pd.MultiIndex.from_arrays([wrong["turn_id"].astype("int64"),
                                          wrong["reason"].astype(str)])
    every = pd.Series([seen] * len(attempted), index=attempted.index, dtype=object)
    if game.reason_occasions is None:  # every turn with a click: every reason
        reasons, logged = every, pd.Series(True, index=attempted.index)
    else:
        possible = game.reason_occasions(data, attempted)
        logged = possible.map(type).isin([list, tuple, np.ndarray])
        reasons = possible.where(logged, every)
    rows = pd.DataFrame({"turn_id": attempted["turn_id"].astype("int64"),
                         "participant_id": attempted["participant_id"],
                         "later": later.reindex(attempted.index).fillna(False).astype(bool),
                         "estimated": ~logged, "reason": reasons}).explode("reason")
    rows = rows[rows["reason"].notna()]
    rows["candidate"] = rows["reason"]
    rows["trouble"] = pd.MultiIndex.from_arrays(
        [rows["turn_id"].astype("int64"), rows["reason"].astype(str)]).isin(troubled)
    estimated = rows[rows["estimated"].astype(bool)].groupby("candidate").size()
    return rows, {f"rule:{k}": int(v) for k, v in estimated.items()}


@dataclass(frozen=True)
class _Showings:
    """Every showing of a message with what followed it (``frame``: ``key, variant,
    candidate, participant_id, later, wrong, think_ms, followed, trouble, occasion,
    baseline``), and ``study_rate``: the trouble rate on all the testers' turns with a
    click (the prior's mean)."""

    frame: pd.DataFrame
    study_rate: float


def _showings(data: StudyData, turn_table: pd.DataFrame) -> _Showings:
    def build() -> _Showings:
        shown = derive.messages(data)
        slow_ms = _slow_ms(turn_table)
        later = later_games(turn_table)
        followed = _followed_by_lookup(data, shown)
        has_turn = shown["next_turn_id"] >= 0
        think = pd.to_numeric(shown["think_ms"], errors="coerce")
        wrong_after = pd.to_numeric(shown["wrong_after"], errors="coerce")
        trouble = (has_turn & ((wrong_after > 0) | (think > slow_ms))) | followed
        turn_later = pd.Series(later.to_numpy(dtype=bool) if len(later) else [],
                               index=turn_table["turn_id"].to_numpy(), dtype=bool)
        variant = shown["variant"].astype(object).where(shown["variant"].notna(), "default")
        key = shown["key"].astype(str)
        # several wordings of a key shown: a point per wording (telemetry-format.md)
        wordings = variant.groupby(key).transform("nunique")
        candidate = key.where(wordings < 2, key + "@" + variant.astype(str))
        turn_trouble = _turn_trouble(data, turn_table, slow_ms)
        baselines = {name: _baseline(turn_trouble, shown.loc[key == name, "next_turn_id"])
                     for name in key.unique()}
        frame = pd.DataFrame({
            "key": key, "variant": variant.astype(str), "candidate": candidate,
            "participant_id": shown["participant_id"],
            "later": shown["next_turn_id"].map(turn_later).fillna(False).astype(bool),
            "wrong": wrong_after.where(has_turn), "think_ms": think.where(has_turn),
            "followed": followed, "trouble": trouble, "occasion": has_turn | followed,
            "baseline": key.map(baselines).astype(float)})
        study_rate = float(turn_trouble.mean()) if len(turn_trouble) else 0.0
        return _Showings(frame, study_rate)

    return derive.remember(data, "message_showings", build)


def _turn_trouble(data: StudyData, turn_table: pd.DataFrame, slow_ms: float) -> pd.Series:
    """Per tester's turn with a click (indexed by ``turn_id``): a refused click, thinking
    above ``slow_ms`` or a rules lookup during the turn."""
    attempted = turn_table[turn_table["n_clicks"] > 0]
    opens = derive.props_of(data, "rules_open", ["context"])
    looked = attempted["turn_id"].isin(opens["turn_no"].unique()) if len(opens) \
        else pd.Series(False, index=attempted.index)
    trouble = _trouble(attempted, slow_ms) | looked
    return pd.Series(trouble.to_numpy(dtype=bool), index=attempted["turn_id"].to_numpy())


def _baseline(turn_trouble: pd.Series, after: pd.Series) -> float:
    """The trouble rate on the turns that are not the turn after a showing of the
    message (``after``: the showings' ``next_turn_id``): turns after no message or after
    other ones; all turns when fewer than :data:`analytics.severity.MIN_OCCASIONS` are
    left (every turn comes after it)."""
    if turn_trouble.empty:
        return 0.0
    others = turn_trouble[~turn_trouble.index.isin(after.unique())]
    if len(others) >= severity.MIN_OCCASIONS:
        return float(others.mean())
    return float(turn_trouble.mean())


def _followed_by_lookup(data: StudyData, shown: pd.DataFrame) -> pd.Series:
    followed = pd.Series(False, index=shown.index)
    opens = derive.props_of(data, "rules_open", ["context"])
    if opens.empty or shown.empty:
        return followed
    # Each rules lookup is credited to the latest message before it in its session.
    shown_sorted = shown[["row", "session_code", "key"]].reset_index().sort_values("row")
    matched = pd.merge_asof(opens[["row", "session_code", "context"]].sort_values("row"),
                            shown_sorted, on="row", by="session_code", direction="backward")
    matched = matched[matched["index"].notna() & (matched["key"] == matched["context"])]
    followed.loc[matched["index"].astype(int).unique()] = True
    return followed


def scored_candidates(data: StudyData, min_occasions: int = severity.MIN_OCCASIONS,
                      min_testers: int = severity.MIN_TESTERS,
                      game: GameAnalytics | None = None
                      ) -> tuple[list[severity.Scored], dict[str, Any]]:
    """Every candidate scored (listed or not), with per-candidate extra evidence.

    ``game``: the plug-in of the game played (default: the study's,
    :func:`analytics.game_analytics.for_study`)."""
    plugin = game or for_study(data)
    return derive.remember(
        data, f"scored_candidates:{min_occasions}:{min_testers}:{plugin.name}",
        lambda: _scored_candidates(data, min_occasions, min_testers, plugin))


def _scored_candidates(data: StudyData, min_occasions: int, min_testers: int,
                       game: GameAnalytics
                       ) -> tuple[list[severity.Scored], dict[str, Any]]:
    turn_table = derive.turns(data)
    later = later_games(turn_table)
    attempted = turn_table[turn_table["n_clicks"] > 0]
    tallies: list[severity.Tally] = []
    means: dict[str, float] = {}
    extra: dict[str, dict[str, Any]] = {}
    rules, estimated = _rule_occasions(data, game, attempted, later)
    tallies += occasion_tallies(rules, "rule", 0.0)
    for candidate, count in estimated.items():
        extra.setdefault(candidate, {})["occasions_estimated"] = count
    for family in game.families:
        found, mean = family.tallies(data, attempted, later)
        if mean is not None and found:
            means[family.name] = mean
        tallies += found
    if len(derive.messages(data)):
        showings = _showings(data, turn_table)
        shown = showings.frame[showings.frame["occasion"]]
        if len(shown):
            means["message"] = showings.study_rate
            for names, group in shown.groupby(["candidate", "key", "variant"], sort=True):
                candidate, key, variant = (str(name) for name in names)
                tallies += occasion_tallies(group, "message",
                                            float(group["baseline"].iloc[0]))
                if candidate != key:
                    extra.setdefault(f"message:{candidate}", {}).update(
                        {"message": key, "variant": variant})
    answers = problem_answers(data.responses, data.study.get("text_items"),
                              data.study.get("text_polarity"), data.study.get("text_themes"))
    if len(answers):
        tallies += occasion_tallies(pd.DataFrame({
            "candidate": answers["item"],
            "participant_id": answers["participant_id"], "later": False,
            "trouble": answers["problem"]}), "survey", 0.0)
        texts = data.study.get("text_labels") or {}
        for item, group in answers.groupby("item"):
            themes = group.loc[group["themes"] != "", "themes"].astype(str)
            named = themes.str.split("|").explode().value_counts()
            found_extra = extra.setdefault(f"survey:{item}", {})
            found_extra["themes"] = {str(k): int(v) for k, v in named.items()}
            if isinstance(texts, dict) and isinstance(texts.get(item), str):
                found_extra["question"] = texts[item]
    return severity.score(tallies, means, min_occasions, min_testers), extra


def point_occasions(data: StudyData, point: str, game: GameAnalytics | None = None
                    ) -> pd.DataFrame:
    """One row per occasion of the confusion point ``point`` (``rule:<reason>``,
    ``message:<key>``, ``survey:<item>``): ``participant_id, trouble``, with the same
    occasions and troubles its severity counts. A wording's point
    (``message:<key>@<variant>``) counts every showing of the key: an experiment that
    rewords it shows other wordings. Other families: :class:`ValueError`.

    >>> point_occasions(StudyData.empty("s"), "rule:walled").empty
    True
    """
    family, _, name = point.partition(":")
    columns = ["participant_id", "trouble"]
    if family not in PER_TESTER_FAMILIES or not name:
        raise ValueError(f"point {point!r}: a trouble rate per tester is known for "
                         f"{', '.join(f + ':<name>' for f in PER_TESTER_FAMILIES)} only")
    turn_table = derive.turns(data)
    if family == "rule":
        attempted = turn_table[turn_table["n_clicks"] > 0]
        rows, _ = _rule_occasions(data, game or for_study(data), attempted,
                                  later_games(turn_table))
        rows = rows[rows["candidate"].astype(str) == name] if len(rows) else rows
    elif family == "message":
        if not len(derive.messages(data)):
            return pd.DataFrame(columns=columns)
        frame = _showings(data, turn_table).frame
        rows = frame[frame["occasion"] & (frame["key"] == name.split("@", 1)[0])]
    else:
        answers = problem_answers(data.responses, data.study.get("text_items"),
                                  data.study.get("text_polarity"),
                                  data.study.get("text_themes"))
        rows = answers[answers["item"].astype(str) == name].rename(
            columns={"problem": "trouble"}) if len(answers) else answers
    if not len(rows):
        return pd.DataFrame(columns=columns)
    return pd.DataFrame({"participant_id": rows["participant_id"].astype(str).to_numpy(),
                         "trouble": rows["trouble"].fillna(False).astype(bool).to_numpy()})


def confusion_points(data: StudyData, min_attempts: int = 5, top_facts: int = 5,
                     min_occasions: int = severity.MIN_OCCASIONS,
                     min_testers: int = severity.MIN_TESTERS,
                     game: GameAnalytics | None = None) -> list[ConfusionPoint]:
    """The listed confusion points, most severe first (see :mod:`analytics.severity`).

    ``min_attempts`` and ``top_facts`` are kept for older callers and no longer used: the
    evidence rule (``min_occasions``, ``min_testers``) decides what is listed. ``game``:
    the plug-in of the game played (default: the study's).
    """
    del min_attempts, top_facts
    plugin = game or for_study(data)
    scored, extra = scored_candidates(data, min_occasions, min_testers, plugin)
    return [_point(item, extra.get(item.tally.id, {}), plugin)
            for item in scored if item.listed]


def _point(item: severity.Scored, extra: dict[str, Any], game: GameAnalytics
           ) -> ConfusionPoint:
    tally = item.tally
    family, _, name = tally.id.partition(":")
    evidence: dict[str, Any] = {
        "occasions": tally.occasions, "troubles": tally.troubles,
        "rate": round(tally.rate, 4), "shrunk_rate": round(item.shrunk_rate, 4),
        "baseline": round(tally.baseline, 4), "testers": tally.testers,
        "testers_affected": tally.affected, "reach": round(item.reach, 4),
        "first_game_rate": _ratio(tally.first_troubles, tally.first_occasions),
        "later_games_rate": _ratio(tally.later_troubles, tally.later_occasions),
        "persistence": round(item.persistence, 4), "impact": tally.impact, **extra}
    own = game.family(family)
    if own is not None:
        return ConfusionPoint(tally.id, own.label(name, extra), item.severity, evidence,
                              own.action(name, extra), item.interval, own.definition)
    return ConfusionPoint(tally.id, _label(family, name, extra, game), item.severity,
                          evidence,
                          _action(family, name, extra, game), item.interval,
                          game.definitions.get(family, DEFINITIONS.get(family, "")))


def _percent(value: Any) -> str:
    number = _finite(value)
    return "–" if number is None else f"{100 * number:.0f} %"


def evidence_text(point: dict[str, Any]) -> str:
    """One readable line of a confusion point's evidence (its JSON, see ``to_json``).

    >>> print(evidence_text({"id": "rule:x", "interval": [0.1, 0.3], "evidence": {
    ...     "occasions": 50, "troubles": 10, "rate": 0.2, "shrunk_rate": 0.19,
    ...     "baseline": 0.0, "testers": 12, "testers_affected": 7,
    ...     "first_game_rate": 0.25, "later_games_rate": 0.1}}))
    10 troubles in 50 occasions (20 %; shrunk 19 %, 95 % interval 10–30 %; baseline 0 %); 7 of 12 testers; first game 25 %, later games 10 %
    """
    evidence = point.get("evidence", {})
    interval = point.get("interval") or [None, None]
    unit = "answers naming a problem" if str(point.get("id", "")).startswith("survey:") \
        else "troubles"
    text = (f"{evidence.get('troubles', 0)} {unit} in {evidence.get('occasions', 0)} "
            f"occasions ({_percent(evidence.get('rate'))}; shrunk "
            f"{_percent(evidence.get('shrunk_rate'))}, 95 % interval "
            f"{_percent(interval[0]).removesuffix(' %')}–{_percent(interval[1])}; baseline "
            f"{_percent(evidence.get('baseline'))}); {evidence.get('testers_affected', 0)} "
            f"of {evidence.get('testers', 0)} testers")
    if evidence.get("later_games_rate") is not None:
        text += (f"; first game {_percent(evidence.get('first_game_rate'))}, later games "
                 f"{_percent(evidence.get('later_games_rate'))}")
    if evidence.get("occasions_estimated"):
        text += (f"; {evidence['occasions_estimated']} occasions estimated (rolls logged "
                 "before 'refused' existed)")
    if evidence.get("themes"):
        text += "; themes: " + ", ".join(f"{name} {count}" for name, count
                                         in evidence["themes"].items())
    return text


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _label(family: str, name: str, extra: dict[str, Any], game: GameAnalytics) -> str:
    if family == "rule":
        words = game.reason_words.get(name)
        return f"Refused: {words}" if words else \
            f"Rule not understood: {name.replace('_', ' ')}"
    if family == "message":
        if "variant" in extra:
            return (f"Message '{extra['message']}' in wording '{extra['variant']}' is "
                    "followed by trouble")
        return f"Message '{name}' is followed by trouble"
    themes = ", ".join(extra.get("themes", {})) or "problems"
    return f"Answers to '{extra.get('question', name)}' name: {themes}"


#: The fix suggested for a refusal reason a game gives no advice for (every game's
#: plug-in names one per reason its engine gives: see tests).
GENERIC_RULE_ACTION = "Explain this rule where it applies."


def _action(family: str, name: str, extra: dict[str, Any], game: GameAnalytics) -> str:
    if family == "rule":
        return game.actions.get(f"rule:{name}", GENERIC_RULE_ACTION)
    if family == "message":
        if "variant" in extra:
            return (f"Compare wording '{extra['variant']}' of the '{extra['message']}' "
                    "message with the others on the Experiments page; reword it or show "
                    "it longer.")
        return (f"Reword the '{name}' message or show it longer, and A/B test the new "
                "wording.")
    top = next(iter(extra.get("themes", {})), "problem")
    return (f"Read the '{top}' answers to '{extra.get('question', name)}' and fix the "
            "most frequent complaint.")


def _finite(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if np.isfinite(number) else None


class _Row:
    """Attribute access to one record (typed ``Any``, unlike ``itertuples`` rows)."""

    def __init__(self, record: dict[Any, Any]) -> None:
        self._record = record

    def __getattr__(self, name: str) -> Any:
        try:
            return self._record[name]
        except KeyError as error:
            raise AttributeError(name) from error


def _rows(frame: pd.DataFrame) -> list[Any]:
    return [_Row(record) for record in frame.to_dict("records")]
