"""What Dokusen adds to the one game session (:mod:`playtest.session`): one game is one
stage of the study's course; how a game ends (won or lost, and why); which stage a
tester's next game plays; what its board says and the data its renderer draws.

>>> from playtest.games.dokusen.plugin import PLUGIN
>>> from playtest.session import Moment, Play
>>> play = Play.new(PLUGIN, game_id="g", participant_id="p", seats=("human",), seed=7,
...                 rules="S1")
>>> [say.key for say in words(Moment(play))]
['your_turn']
>>> next_rules("all", [("S1", "win:full")]), next_rules("all", [("S1", "loss:rounds")])
('S2', 'S1')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.dokusen.course import Course
from engine.dokusen.progress import Progress
from playtest.games.dokusen.view import RoundSteps, board_data, message_say, round_steps
from playtest.games.plugin import GameResult
from playtest.session.play import Play
from playtest.session.view import Moment
from playtest.session.words import Say

#: How long one square's change takes on the board, per speed (1 slow … 3 fast), in ms.
STEP_MS = {1: 330, 2: 220, 3: 140}


def result(state: Any, actions: int) -> GameResult:
    """Who won (the tester, seat 1, or nobody: a solo game) and why (``win:<reason>`` or
    ``loss:<reason>``: the progress through the course is read from it); the end
    screen says the stage's result, as the course counts it."""
    outcome = state.outcome
    winner = 1 if outcome is not None and outcome.won else None
    reason = f"{outcome.result}:{outcome.reason}" if outcome is not None else "over"
    title = None if outcome is None else ("Stage won!" if outcome.won else "Stage lost")
    return GameResult(winner, reason, actions, title)


def stage_id_of(rules: Any) -> str:
    """The stage a game record's rules play (``"custom"`` for a stage without an id)."""
    if isinstance(rules, str):
        return rules
    return str(rules.get("id") or "custom") if isinstance(rules, dict) else "custom"


def next_rules(rules: Any, played: Sequence[tuple[Any, str | None]]) -> Any:
    """The stage of the tester's next game: the first of the study's course not yet won
    (from their finished games' rules and reasons)."""
    course = Course.from_rules(rules)
    return course.record_rules(Progress.from_records(played).current(course.order))


def start_props(game: Any, rules: Any) -> dict[str, Any]:
    """``game_start``'s stage."""
    return {"stage": stage_id_of(rules)}


def next_choices(play: Play, rules: Any) -> list[tuple[str, Any]]:
    """After a won stage, the next one of the study's course (if any) and the same again;
    after a lost one, the same again."""
    course = Course.from_rules(rules)
    here = stage_id_of(play.rules)
    outcome = play.state.outcome
    same = ("Play this stage again", course.record_rules(here) if here in course.order
            else play.rules)
    if outcome is None or not outcome.won or here not in course.order:
        return [("Try this stage again", same[1])]
    after = course.after(here)
    if after is None:
        return [same]
    name = course.stage(after).name
    return [(f"Next stage: {after}" + (f" · {name}" if name else ""),
             course.record_rules(after)), same]


def _events(moment: Moment) -> list[Any]:
    return [e for step in moment.fresh for e in step.events]


#: Where ``play.memo`` keeps the round the board replays, with what it was worked out
#: from (the steps of the last input, the position): the message and the board data of
#: one input share it.
ROUND = "round"


def _round(moment: Moment) -> RoundSteps:
    """The round the last input played (:func:`~playtest.games.dokusen.view.round_steps`),
    worked out once for the board's message and its data."""
    play = moment.play
    key = (moment.fresh, len(play.state.history))
    kept = play.memo.get(ROUND)
    # the steps themselves are kept with it: an identical tuple is the same input's
    if kept is not None and kept[0][0] is key[0] and kept[0][1] == key[1]:
        return kept[1]
    played = round_steps(play.state, _events(moment))
    play.memo[ROUND] = (key, played)
    return played


def words(moment: Moment) -> tuple[Say, ...]:
    """The board's message (:func:`~playtest.games.dokusen.view.message_say`) about the
    last input and the round after it."""
    play = moment.play
    return (message_say(play.state, refusal=play.refusal, played=_round(moment)),)


def stages_won(here: str, order: Sequence[str], won: bool,
               played: Sequence[tuple[Any, str | None]] | None = None) -> int:
    """The stages of the course won so far, while stage ``here`` is played: those the
    tester's finished games ``played`` (``(rules, reason)``, oldest first) won, and this
    one once won. Without ``played``: every stage before it (a tester reaches a stage of
    the course only by winning the one before it: :func:`next_rules`,
    :func:`next_choices`), and this one once won.

    >>> stages_won("S2", ["S1", "S2", "S3"], False), stages_won("S3", ["S1", "S2", "S3"], True)
    (1, 3)

    A won stage played again (**Play this stage again**) stays won:

    >>> stages_won("S1", ["S1", "S2"], False, [("S1", "win:majority")])
    1
    """
    if played is None:
        return order.index(here) + (1 if won else 0)
    done = Progress.from_records(played).won | ({here} if won else set())
    return len(done & set(order))


def view(moment: Moment) -> dict[str, Any]:
    """What the renderer draws (:func:`~playtest.games.dokusen.view.board_data`): the last
    round replayed square by square at the tester's speed, the stage's place in the
    study's course."""
    from playtest.i18n.words import study_words  # it reads the registry of the games

    play = moment.play
    rules = moment.extra.get("study_rules")
    stage_of = won = None
    if rules is not None:
        course = Course.from_rules(rules)
        here = stage_id_of(play.rules)
        if here in course.order:
            stage_of = (course.order.index(here) + 1, len(course.order))
            outcome = play.state.outcome
            played = moment.extra.get("played")
            won = stages_won(here, course.order, outcome is not None and outcome.won, played)
    games = moment.extra.get("games")
    data = board_data(play.state, played=_round(moment),
                      speed_ms=STEP_MS.get(int(moment.setting("speed", 2)), 220),
                      stage_of=stage_of, stages_won=won,
                      games=None if games is None else (int(games[0]), int(games[1])),
                      words=study_words(moment.language, "dokusen"))
    data["interactive"] = moment.interactive
    return data
