"""Rule understanding (every game) and what the Learning page and the plan show: a
study's :class:`LearningView`, the plan's rows and the report's ``learning`` key (the
definitions: :mod:`analytics.learning`).

>>> from analytics.data import StudyData, empty_quiz
>>> view = learning_view(StudyData.empty("s"), empty_quiz(), "Chess", None)
>>> plan_rows(view)[0]["result"]
'none: Chess asks no facts, so its learning is rule understanding (below)'
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Final

import pandas as pd

from analytics.data import StudyData
from analytics.learning import (
    ACCURACY_DEFINITION,
    ARMS_DEFINITION,
    CPM_DEFINITION,
    CURVE_DEFINITION,
    FACT_DEFINITION,
    GAIN_DEFINITION,
    NORMALISED_DEFINITION,
    PHASE_ORDER,
    QUIZ_DEFINITION,
    RULES_DEFINITION,
    ArmComparison,
    Estimate,
    GainSummary,
    experiment_comparisons,
    gains_per_tester,
    mean_estimate,
    probe_scores,
    summaries_by_variant,
    summarise,
    variants,
)
from analytics.learning_facts import (
    IMPROVED,
    PLAY_ATTEMPT_COLUMNS,
    WORSE,
    curve_change,
    facts_stand_apart,
    learning_curve,
    numbered_attempts,
    play_fact_changes,
    probe_fact_changes,
)
from analytics.stats import wilson_interval

#: A game's rule occasions: per turn (:func:`analytics.derive.turns` rows), the rule
#: reasons that could refuse a click on it (a list; NaN where the game did not log them).
Occasions = Callable[[StudyData, pd.DataFrame], pd.Series]


def rule_errors_by_half(data: StudyData, occasions: Occasions | None = None) -> pd.DataFrame:
    """Per tester with two turns or more: ``first`` (share of the first half of their
    turns, in the order played, with a click the rules refused), ``later`` (the same over
    the second half) and ``turns``. A click the rules refused is one that names the
    rule's reason (:func:`analytics.derive.refusals`: not a maths slip). With the game's ``occasions``, only the turns on which a rule
    could refuse a click count (a board that fills up offers more chances to err: that is
    not a change in understanding)."""
    from analytics import derive

    columns = ["participant_id", "first", "later", "turns"]
    table = derive.turns(data)
    if not table.empty and occasions is not None:
        possible = occasions(data, table)
        table = table[[not isinstance(v, list | tuple) or len(v) > 0 for v in possible]]
    if table.empty:
        return pd.DataFrame(columns=columns)
    refused = derive.refusals(data)
    table = table.assign(rule=table["turn_id"].isin(set(refused["turn_id"])),
                         seq=pd.to_numeric(table["seq"], errors="coerce"))
    table = table.sort_values(["participant_id", "at", "seq"], kind="stable")
    position = table.groupby("participant_id").cumcount()
    count = table.groupby("participant_id")["rule"].transform("size")
    table = table.assign(later=position >= count / 2)[count >= 2]
    if table.empty:
        return pd.DataFrame(columns=columns)
    shares = table.groupby(["participant_id", "later"])["rule"].mean().unstack()
    turns = table.groupby("participant_id").size()
    return pd.DataFrame({"participant_id": shares.index.astype(str),
                         "first": shares[False].to_numpy(float),
                         "later": shares[True].to_numpy(float),
                         "turns": turns.reindex(shares.index).to_numpy(int)})


@dataclass(frozen=True)
class RuleTrend:
    """Rule errors per turn in the first and the second half of testers' turns (module
    docstring)."""

    first: Estimate
    later: Estimate
    change: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"first_half": self.first.to_json(), "second_half": self.later.to_json(),
                "change": self.change.to_json(), "definition": RULES_DEFINITION}


def rule_trend(data: StudyData, occasions: Occasions | None = None) -> RuleTrend:
    """:class:`RuleTrend` over the testers with two turns or more (on the game's rule
    ``occasions`` when it has them)."""
    table = rule_errors_by_half(data, occasions)
    both = table.dropna(subset=["first", "later"])
    return RuleTrend(mean_estimate(both["first"]), mean_estimate(both["later"]),
                     mean_estimate(both["later"] - both["first"]))


QUIZ_ROW_COLUMNS: Final = ["item", "phase", "testers", "right", "rate", "low", "high"]


def quiz_rows(quiz: pd.DataFrame) -> pd.DataFrame:
    """Per quiz question and phase (``post`` when the frame has no ``phase``): testers,
    right answers, the share right and its Wilson interval."""
    if quiz.empty:
        return pd.DataFrame(columns=QUIZ_ROW_COLUMNS)
    frame = quiz if "phase" in quiz.columns else quiz.assign(phase="post")
    rows = []
    for (item, phase), group in frame.groupby(["item", "phase"], sort=True):
        right = int(group["correct"].astype(bool).sum())
        low, high = wilson_interval(right, len(group))
        rows.append((str(item), str(phase), len(group), right, right / len(group), low, high))
    table = pd.DataFrame(rows, columns=QUIZ_ROW_COLUMNS)
    table["order"] = table["phase"].map(PHASE_ORDER).fillna(9)
    return table.sort_values(["item", "order"], kind="stable").drop(columns="order").reset_index(drop=True)


def quiz_change(quiz: pd.DataFrame) -> Estimate:
    """Per tester who answered quiz questions before and after play: share right after
    minus before; the mean with its paired interval (NaN without both phases)."""
    if quiz.empty or "phase" not in quiz.columns:
        return Estimate(math.nan, math.nan, math.nan, 0)
    share = quiz.assign(correct=quiz["correct"].astype(float)).groupby(
        ["participant_id", "phase"])["correct"].mean().unstack()
    if "pre" not in share.columns or "post" not in share.columns:
        return Estimate(math.nan, math.nan, math.nan, 0)
    both = share.dropna(subset=["pre", "post"])
    return mean_estimate(both["post"] - both["pre"])


@dataclass(frozen=True)
class LearningView:
    """Everything the Learning page and the plan's section show, worked out once.

    ``game_title``; ``has_facts``: the game asks facts in play (its plug-in's
    ``fact_attempts``); ``gains`` (None without testers with both probes) and
    ``by_variant`` (experiment → one summary per variant); ``arms``: each experiment's
    :class:`ArmComparison`; ``probe_facts`` / ``play_facts``: :func:`fact_changes`;
    ``curve`` and ``curve_change``: the in-play learning curve; ``rules``: rule errors
    over games; ``quiz`` (:func:`quiz_rows`) and ``quiz_change``; ``probe_testers``:
    testers with a probe answer per phase.
    """

    game_title: str
    has_facts: bool
    probe_testers: Mapping[str, int]
    gains: GainSummary | None
    by_variant: Mapping[str, tuple[GainSummary, ...]]
    arms: tuple[ArmComparison, ...]
    probe_facts: pd.DataFrame
    play_facts: pd.DataFrame
    curve: pd.DataFrame
    curve_change: Estimate
    rules: RuleTrend
    quiz: pd.DataFrame
    quiz_change: Estimate


def learning_view(data: StudyData, quiz: pd.DataFrame, game_title: str,
                  fact_attempts: Callable[[StudyData], pd.DataFrame] | None,
                  occasions: Occasions | None = None) -> LearningView:
    """:class:`LearningView` of a study (``quiz``: the quiz frame, with a ``phase`` column
    when known; ``fact_attempts``: the game's tries at facts in play, None without;
    ``occasions``: its rule occasions, :func:`rule_errors_by_half`)."""
    scores = probe_scores(data)
    gains = gains_per_tester(data)
    by_variant: dict[str, tuple[GainSummary, ...]] = {}
    for experiment in data.study.get("experiments") or []:
        key = str(experiment.get("key"))
        assigned = variants(data, key)
        names = [str(v) for v in experiment.get("variants") or []] or sorted(assigned.unique())
        by_variant[key] = tuple(replace(summary, group=f"{key}: {summary.group}")
                                for summary in summaries_by_variant(gains, assigned, names))
    attempts = numbered_attempts(fact_attempts(data)) if fact_attempts is not None \
        else pd.DataFrame(columns=PLAY_ATTEMPT_COLUMNS)
    return LearningView(
        game_title=game_title, has_facts=fact_attempts is not None,
        probe_testers={phase: int((scores["phase"] == phase).sum()) for phase in ("pre", "post")},
        gains=summarise(gains) if len(gains) else None, by_variant=by_variant,
        arms=tuple(experiment_comparisons(data, gains)),
        probe_facts=probe_fact_changes(data), play_facts=play_fact_changes(attempts),
        curve=learning_curve(attempts), curve_change=curve_change(attempts),
        rules=rule_trend(data, occasions), quiz=quiz_rows(quiz), quiz_change=quiz_change(quiz))


def _pct(estimate: Estimate) -> str:
    return estimate.text("pp", 100.0)


def _facts_named(table: pd.DataFrame, verdict: str) -> str:
    named = table.loc[table["verdict"] == verdict, "fact"].astype(str).tolist()
    if named and not facts_stand_apart(table):
        return f"all {len(table)} facts, together (none changed apart from the others)"
    return ", ".join(f.replace("x", " × ") for f in named) if named else "none"


def plan_rows(view: LearningView) -> list[dict[str, str]]:
    """The plan's Learning table: ``measure``, ``result`` (with its 95 % interval and
    count) and ``definition`` per row."""
    rows: list[dict[str, str]] = []

    def add(measure: str, result: str, definition: str) -> None:
        rows.append({"measure": measure, "result": result, "definition": definition})

    if not view.has_facts:
        add("Times-table facts", f"none: {view.game_title} asks no facts, so its learning "
            "is rule understanding (below)", "")
    elif view.gains is None:
        add("Fluency probe", f"no tester answered it before and after play (before: "
            f"{view.probe_testers.get('pre', 0)}, after: {view.probe_testers.get('post', 0)})",
            "Add a fluency_probe item to the pre and post forms to measure gains.")
    if view.gains is not None:
        g = view.gains
        add("Correct facts per minute before play", g.pre_cpm.text(signed=False), CPM_DEFINITION)
        add("Correct facts per minute after play", g.post_cpm.text(signed=False), CPM_DEFINITION)
        add("Gain in correct facts per minute", g.gain_cpm.text("facts/min"), GAIN_DEFINITION)
        add("Gain in accuracy", _pct(g.gain_accuracy), ACCURACY_DEFINITION + " " + GAIN_DEFINITION)
        add("Normalised gain", g.normalised_gain.text(digits=2)
            + f"; {g.no_room} at ceiling or floor", NORMALISED_DEFINITION)
        for arm in view.arms:
            add(f"Experiment {arm.experiment}: {arm.verdict}",
                f"{arm.treatment} − {arm.control}: {arm.effect.text('facts/min')}", ARMS_DEFINITION)
    for source, table in (("probe, before → after play", view.probe_facts),
                          ("play, first try → later tries", view.play_facts)):
        if len(table):
            add(f"Facts that improved ({source})", _facts_named(table, IMPROVED), FACT_DEFINITION)
            add(f"Facts that got worse ({source})", _facts_named(table, WORSE), FACT_DEFINITION)
    if view.has_facts and view.curve_change.n:
        add("In play: share right on later tries − first tries", _pct(view.curve_change),
            CURVE_DEFINITION)
    if view.rules.change.n:
        add("Rule errors per turn: second half − first half of turns", _pct(view.rules.change),
            RULES_DEFINITION)
    else:
        add("Rule errors per turn", "no tester has played two turns yet", RULES_DEFINITION)
    if view.quiz_change.n:
        add("Rules quiz: share right after − before play", _pct(view.quiz_change),
            QUIZ_DEFINITION)
    for row in view.quiz.itertuples(index=False):
        when = "before play" if row.phase == "pre" else "after play"
        add(f"Rules quiz {row.item}, {when}",
            f"{row.rate:.0%} (95% interval {row.low:.0%} to {row.high:.0%}, n = {row.testers})",
            QUIZ_DEFINITION)
    return rows


def report_section(view: LearningView) -> dict[str, Any]:
    """The report JSON's ``learning`` key: the plan's rows and the numbers behind them."""
    return {
        "game": view.game_title, "has_facts": view.has_facts,
        "probe_testers": dict(view.probe_testers),
        "gains": None if view.gains is None else view.gains.to_json(),
        "by_variant": {key: [s.to_json() for s in summaries]
                       for key, summaries in view.by_variant.items()},
        "experiments": [arm.to_json() for arm in view.arms],
        "facts_improved": {
            "probe": view.probe_facts.loc[view.probe_facts["verdict"] == IMPROVED, "fact"].tolist(),
            "play": view.play_facts.loc[view.play_facts["verdict"] == IMPROVED, "fact"].tolist()},
        "facts_worse": {
            "probe": view.probe_facts.loc[view.probe_facts["verdict"] == WORSE, "fact"].tolist(),
            "play": view.play_facts.loc[view.play_facts["verdict"] == WORSE, "fact"].tolist()},
        "rules": view.rules.to_json(), "quiz_change": view.quiz_change.to_json(),
        "rows": plan_rows(view),
    }
