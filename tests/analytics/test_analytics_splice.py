"""Prepared tables derived per group of testers and spliced equal those of the whole study."""

from __future__ import annotations

import pandas as pd
import pytest

from analytics import confusion, derive, experiments
from analytics.data import StudyData
from analytics.games.vapoosh import facts as vapoosh_facts
from analytics.synth import synthesize_scores_and_quiz, synthesize_study


def _subset(data: StudyData, ids: set[str]) -> StudyData:
    def only(frame: pd.DataFrame) -> pd.DataFrame:
        return frame[frame["participant_id"].isin(ids)].reset_index(drop=True)

    return StudyData(study=data.study, participants=data.participants,
                     assignments=data.assignments, events=only(data.events),
                     responses=only(data.responses), attributes=data.attributes)


def test_spliced_tables_give_the_analytics_of_the_whole_study() -> None:
    whole = synthesize_study(30, seed=4)
    scores, quiz = synthesize_scores_and_quiz(whole, seed=4)
    ids = sorted(whole.participants["participant_id"])
    early, late = set(ids[:20]), set(ids[20:])
    base = derive.prepared_tables(_subset(whole, early))
    fresh = derive.prepared_tables(_subset(whole, late))
    spliced = derive.splice_prepared(base, fresh, late)
    # turn ids stay unique across the two parts
    assert spliced["turns"]["turn_id"].is_unique
    combined = derive.adopt_prepared(
        StudyData(study=whole.study, participants=whole.participants,
                  assignments=whole.assignments, events=whole.events.iloc[0:0],
                  responses=whole.responses), spliced)
    derive.prepare(whole)
    assert repr(confusion.confusion_points(combined)) == repr(
        confusion.confusion_points(whole))
    pd.testing.assert_frame_equal(confusion.message_aftermath(combined),
                                  confusion.message_aftermath(whole))
    pd.testing.assert_frame_equal(vapoosh_facts.hardest_facts(combined),
                                  vapoosh_facts.hardest_facts(whole))
    assert repr(experiments.analyze_experiments(combined, scores, quiz)) == repr(
        experiments.analyze_experiments(whole, scores, quiz))


def test_replacing_a_tester_drops_their_old_rows() -> None:
    whole = synthesize_study(6, seed=2)
    ids = sorted(whole.participants["participant_id"])
    base = derive.prepared_tables(whole)
    again = derive.prepared_tables(_subset(whole, {ids[0]}))
    spliced = derive.splice_prepared(base, again, {ids[0]})
    for key in derive.PREPARED_KEYS:
        assert len(spliced[key]) == len(base[key]), key


def test_adopting_needs_every_table() -> None:
    tables = derive.prepared_tables(StudyData.empty("s"))
    del tables["turns"]
    with pytest.raises(derive.PreparedTablesError, match="turns"):
        derive.adopt_prepared(StudyData.empty("s"), tables)
