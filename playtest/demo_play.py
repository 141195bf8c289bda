"""Simulated testers' games for any registered game, through the engine core alone.

The demo's testers play whole games of the study's game the way a person does on its
board: the engine's :class:`engine.core.PlayableState` says which targets a click may
choose (``legal_targets``) and what a click means (``click``), so a chosen move becomes
the clicks that make it (a brick picked up, then its new point; a cell, then a tile), and
a slip becomes a click the engine refuses, logged with the engine's refusal reason. The
events are those of the games' own play steps (telemetry-format.md): ``game_start``, one
``click`` per click (``seat``, ``target``, the game's own fields of
:attr:`engine.core.ClickResult.fields`, ``ok``, ``ms``, ``via``, and ``reason`` when
refused), the engine's events of every action (``place``, ``wall``, ``grow`` … with
``seat``, ``tiles`` and the event's data), ``ai_move`` for the computer's actions,
``rules_open``/``rules_close`` after some refusals, and ``game_end`` with the record.

Who moves:

- a seat ``"human"``: the simulated tester, choosing moves with the game's middle
  computer level (:func:`engine.players.levels`) when the tester knows the rules well,
  else its easiest (a random legal move when the game registers no levels);
- a seat ``"ai:<level>"``: that registered level (a random legal move when the game
  has none of that name), seeded per game;
- the chance player (dice, draws, meteors): :func:`engine.core.sample_chance`;
- seats the study does not list (a solo game's computer colours): a random legal move.

Error model (generic, no game's rules in it): before each click of a move the tester
may first click a target the rules refuse now (one of the game's targets seen so far
that is not legal for the current selection), the more often the less sure of the rules
the tester is and the fewer moves the tester has made (:data:`LEARNING_MOVES`), and half
as often with options highlighted (a game may name more targets a person might click by
mistake: its :attr:`DemoBehaviour.slip_targets
<playtest.games.plugin.DemoBehaviour.slip_targets>`); a refused click leaves the
selection as it was (other slips are not simulated). Times: a lognormal pause before
each click, longer after a refusal.

>>> from playtest.games.registry import games
>>> plugin = next(p for p in games() if p.seats == (2, 2))
>>> state = plugin.make_game(plugin.default_rules, len(plugin.default_seats)).new_initial_state()
>>> paths = click_paths(state)
>>> all(len(path) >= 1 for path in paths.values()) and set(paths) <= set(state.legal_actions())
True
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from engine.core import CHANCE, ClickResult, Event, PlayableState, sample_chance
from engine.players import Player, PlayerError, RandomPlayer, levels, make_player

if TYPE_CHECKING:
    from playtest.games.plugin import DemoBehaviour

#: Steps of one move a click path may take (pick up, then put down, then a third).
MAX_CLICKS = 3
#: A game that runs longer than this many actions is cut off (a draw by length).
MAX_ACTIONS = 1500
#: After this many moves a tester slips half as often as on the first (and a third as
#: often after twice as many).
LEARNING_MOVES = 12

Log = Callable[[str, dict[str, Any]], None]


class Profile(Protocol):
    """What the error model reads of a simulated tester (:class:`playtest.demo.SimulatedTester`)."""

    rng: random.Random
    rules: float  # 0 … 1: how sure of the rules
    pace: float  # a multiplier of every pause
    moves_made: int  # moves made so far, in every game (testers learn: fewer slips)


def supports(state: Any) -> bool:
    """Whether a state can be clicked through (the engine core's PlayableState)."""
    return isinstance(state, PlayableState)


def click_paths(state: Any, selection: Sequence[str] = ()) -> dict[int, tuple[str, ...]]:
    """Every action a tester can make by clicking from ``selection``, with the shortest
    clicks that make it (breadth first; ties in the order of ``legal_targets``)."""
    paths: dict[int, tuple[str, ...]] = {}
    frontier: list[tuple[tuple[str, ...], tuple[str, ...]]] = [(tuple(selection), ())]
    seen = {tuple(selection)}
    for _ in range(MAX_CLICKS):
        following: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
        for held, clicks in frontier:
            for target in state.legal_targets(held):
                result: ClickResult = state.click(target, held)
                if result.action is not None:
                    paths.setdefault(result.action, (*clicks, target))
                elif result.refusal is None:
                    after = tuple(result.selection)
                    if after not in seen:
                        seen.add(after)
                        following.append((after, (*clicks, target)))
        frontier = following
        if not frontier:
            break
    return paths


def click_path(state: Any, action: int, hint: str = "",
               targets_of: Callable[[tuple[str, ...]], list[str]] | None = None
               ) -> tuple[str, ...] | None:
    """The clicks that make ``action`` (depth first, stopping at the first found), or None
    when no click makes it. Targets that appear in ``hint`` (the action's JSON form, which
    usually spells its points or cells) are tried first: only the order changes, every
    path is still found by clicking. ``targets_of(selection)``: the state's legal targets
    (default: ``state.legal_targets``; a caller may pass a cached one)."""
    legal = targets_of or (lambda held: list(state.legal_targets(held)))

    def search(held: tuple[str, ...], clicks: tuple[str, ...],
               seen: set[tuple[str, ...]]) -> tuple[str, ...] | None:
        if len(clicks) >= MAX_CLICKS:
            return None
        deeper: list[tuple[str, tuple[str, ...]]] = []
        targets = legal(held)
        if hint:
            targets = sorted(targets, key=lambda t: t not in hint)
        for target in targets:
            result: ClickResult = state.click(target, held)
            if result.action == action:
                return (*clicks, target)
            after = tuple(result.selection)
            if result.action is None and result.refusal is None and after not in seen:
                seen.add(after)
                deeper.append((target, after))
        for target, after in deeper:
            found = search(after, (*clicks, target), seen)
            if found is not None:
                return found
        return None

    return search((), (), {()})


def click_props(seat: int, target: str, result: ClickResult, ms: int) -> dict[str, Any]:
    """The props of a ``click`` event (telemetry-format.md, ``click`` for other games).

    >>> from engine.core import Refusal
    >>> click_props(1, "d5", ClickResult(None, Refusal("walled", "…"), (), {"point": "d5"}), 812)
    {'seat': 1, 'target': 'd5', 'point': 'd5', 'ok': False, 'ms': 812, 'via': 'mouse', 'reason': 'walled'}
    """
    props: dict[str, Any] = {"seat": seat, "target": target, **dict(result.fields)}
    props.update({"ok": result.ok, "ms": ms, "via": "mouse"})
    if result.refusal is not None:
        props["reason"] = result.refusal.reason
    return props


def event_props(event: Event) -> dict[str, Any]:
    """An engine event as telemetry props: ``seat``, ``tiles`` and the event's data."""
    return {"seat": event.seat, "tiles": [list(t) for t in event.tiles], **dict(event.data)}


def _level_player(game: str, level: str | None, seed: int) -> Player:
    if level is not None:
        try:
            return make_player(level, seed, game=game)
        except PlayerError:
            pass
    return RandomPlayer(seed)


def habit_level(game: str, rules_sure: float) -> str | None:
    """The computer level whose choices stand for a tester's: the middle one for testers
    sure of the rules, the easiest for the others (None: the game registers none)."""
    try:
        names = levels(game)
    except PlayerError:
        return None
    return names[min(1, len(names) - 1)] if rules_sure >= 0.6 else names[0]


@dataclass
class _Clock:
    """The simulated clock (ms since the epoch), shared with the caller."""

    now: list[float]

    def wait(self, ms: float) -> None:
        self.now[0] += ms


def outcome(state: Any, seats: Sequence[str], last: Sequence[Event]) -> tuple[int | None, str]:
    """The winner (a 1-based seat the study lists, None for a draw or a solo loss) and
    the reason of a finished game (the final event's, else its kind)."""
    returns = list(state.returns()) if state.is_terminal() else []
    winner = next((s + 1 for s, r in enumerate(returns)
                   if r > 0 and s < len(seats) and r == max(returns)), None)
    final = next((e for e in reversed(last) if e.kind in ("win", "draw", "loss")), None)
    if final is None:
        return winner, "over" if state.is_terminal() else "unfinished"
    return winner, str(final.data.get("reason", final.kind))


def play_game(plugin: Any, *, rules: Any, seats: Sequence[str], seed: int, game_id: str,
              tester: Profile, highlight: bool, log: Log, clock: list[float],
              played: list[tuple[Any, int | None, str]] | None = None,
              messages: Mapping[str, str] | None = None,
              behaviour: DemoBehaviour | None = None) -> int:
    """Play one whole game of ``plugin``'s game, logging its telemetry with ``log``;
    returns the number of actions. ``clock`` (ms) advances by the simulated pauses;
    ``played`` gets the game's ``(rules, winner, reason)``; ``messages`` is the tester's
    wording of each message the study's experiments vary (see :func:`_show_messages`).
    ``behaviour``: the demo behaviour used instead of the game's own
    (:attr:`GamePlugin.demo <playtest.games.plugin.GamePlugin.demo>`), e.g. one whose
    ``messages_shown``, ``message_effect`` and ``planted_clicks`` plant a calibration's
    truths."""
    rng = tester.rng
    timer = _Clock(clock)
    demo = behaviour if behaviour is not None else plugin.demo
    shows = demo.messages_shown
    reacts = demo.message_effect
    planted = demo.planted_clicks
    hesitation = [0.0]  # ms the messages just read add to the tester's next pause
    game = plugin.make_game(rules, len(seats))
    state = game.new_initial_state()
    log("game_start", {"game_id": game_id, "game": plugin.name, "rules": game.rules_obj(),
                       "seats": list(seats), "seed": seed})
    habit = habit_level(plugin.name, tester.rules)
    slips = demo.slip_targets
    computers: dict[int, Player] = {}
    seen_targets: set[str] = set()
    actions: list[Any] = []
    last: list[Event] = []
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            break
        mover = state.current_player()
        if mover == CHANCE:
            action = sample_chance(state, rng)
        elif mover < len(seats) and seats[mover] == "human":
            chooser = _level_player(plugin.name, habit, rng.randrange(1 << 30))
            if shows is not None:
                _show_messages(shows, reacts, last, messages or {}, tester, log, timer,
                               hesitation)
            action = _tester_move(game, state, mover + 1, chooser, tester, highlight,
                                  seen_targets, slips, log, timer, hesitation, planted)
        else:
            if mover not in computers:
                seat = seats[mover] if mover < len(seats) else ""
                level = seat.split(":", 1)[1] if seat.startswith("ai:") else None
                solo = plugin.computer_level if not seat else None
                level = solo(state, mover) if solo is not None else level
                computers[mover] = _level_player(plugin.name, level, seed * 1009 + mover)
            action = computers[mover].decide(state).action
            timer.wait(rng.uniform(600, 1400))
        as_json = game.action_to_json(action)
        last = state.apply_action(action)
        actions.append(list(as_json))
        if mover >= 0 and not (mover < len(seats) and seats[mover] == "human"):
            log("ai_move", {"seat": mover + 1, "action": as_json})
        for event in last:
            log(event.kind, event_props(event))
    winner, reason = outcome(state, seats, last)
    if played is not None:
        played.append((game.rules_obj(), winner, reason))
    log("game_end", {"game_id": game_id, "winner": winner, "reason": reason,
                     "turns": len(actions), "record": actions})
    return len(actions)


def _show_messages(shows: Callable[..., Any], reacts: Callable[..., Any] | None,
                   events: Sequence[Event], variants: Mapping[str, str], tester: Profile,
                   log: Log, timer: _Clock, hesitation: list[float]) -> None:
    """The board's messages about the last action, as the tester's turn starts: the
    game's ``messages_shown(events, variants)`` (props of ``message`` events: ``key``,
    ``variant``, ``text``) are logged, and ``message_effect(key, variant)`` (the game's
    planted truth: ``(extra_ms, lookup_chance)``) adds to the pause before the tester's
    next click and may send the tester to the rules first."""
    rng = tester.rng
    for props in shows(events, variants):
        log("message", {**props, "ms_visible": None})
        extra, lookup = reacts(props["key"], props["variant"]) if reacts else (0.0, 0.0)
        hesitation[0] += extra * tester.pace
        if lookup and rng.random() < lookup:
            timer.wait(rng.lognormvariate(math.log(1800 * tester.pace), 0.4))
            log("rules_open", {"context": props["key"]})
            timer.wait(rng.uniform(5000, 20000))
            log("rules_close", {"context": props["key"]})


def _action_hint(game: Any, action: int) -> str:
    """The action's JSON form without spaces (``["place",[-3,-3],"ox*"]``)."""
    return json.dumps(game.action_to_json(action), separators=(",", ":"))


def _tester_move(game: Any, state: Any, seat: int, chooser: Player, tester: Profile,
                 highlight: bool, seen_targets: set[str],
                 slips: Callable[[Any, Sequence[str]], Sequence[str]] | None, log: Log,
                 timer: _Clock, hesitation: list[float] | None = None,
                 planted: Callable[..., Sequence[str]] | None = None) -> int:
    """The tester's clicks for one move (refused slips first, sometimes); the action.

    A refused click either leaves the selection as it was or drops it (then the tester
    starts the move again from its first click); a slip that would select something else
    is not simulated. ``planted(state, selection, candidates, tester)``: the clicks (of
    ``candidates``, the targets the tester knows, or others) a tester who misreads a rule
    makes before the move's next click (asked before each until it names some), kept
    when :func:`_detour` allows them.
    """
    rng = tester.rng
    known: dict[tuple[str, ...], list[str]] = {}  # clicks are pure: the state stays

    def targets_of(held: tuple[str, ...]) -> list[str]:
        if held not in known:
            known[held] = list(state.legal_targets(held))
        return known[held]

    seen_targets.update(targets_of(()))
    action = chooser.decide(state).action
    path = click_path(state, action, _action_hint(game, action), targets_of)
    if path is None:
        paths = click_paths(state)
        if not paths:  # a move no click makes (a pass): the screen's button
            timer.wait(rng.lognormvariate(math.log(1500 * tester.pace), 0.3))
            return action
        action = rng.choice(sorted(paths))
        path = paths[action]
    learning = 1 / (1 + tester.moves_made / LEARNING_MOVES)
    slip = (1 - tester.rules) * 0.8 * learning * (0.5 if highlight else 1.0)
    tester.moves_made += 1
    selection: tuple[str, ...] = ()
    step = 0
    slips_left = 3
    while step < len(path):
        elapsed = rng.lognormvariate(math.log(1600 * tester.pace), 0.45)
        if hesitation and hesitation[0]:  # the messages just read (first click only)
            elapsed += hesitation[0]
            hesitation[0] = 0.0
        if planted is not None:
            known_targets = seen_targets | set(slips(state, selection) if slips else ())
            picks = planted(state, selection, sorted(known_targets), tester)
            tried = _detour(state, selection, picks, path[step])
            for pick, result in tried:
                timer.wait(elapsed)
                log("click", click_props(seat, pick, result, round(elapsed)))
                elapsed = rng.lognormvariate(math.log(2200 * tester.pace), 0.4)
                selection = tuple(result.selection)
            if picks:
                planted = None  # once per move
        while slips_left > 0 and rng.random() < slip:
            slips_left -= 1
            candidates = seen_targets | set(slips(state, selection) if slips else ())
            wrong = sorted(candidates - set(targets_of(selection)))
            if not wrong:
                break
            pick = rng.choice(wrong)
            refused = state.click(pick, selection)
            if refused.refusal is None or tuple(refused.selection) not in (selection, ()):
                continue  # not a refusal: not simulated
            timer.wait(elapsed)
            log("click", click_props(seat, pick, refused, round(elapsed)))
            if rng.random() < 0.25 * (1 - tester.rules):
                context = refused.refusal.reason
                log("rules_open", {"context": context})
                timer.wait(rng.uniform(5000, 20000))
                log("rules_close", {"context": context})
            elapsed = rng.lognormvariate(math.log(2200 * tester.pace), 0.4)
            if tuple(refused.selection) != selection:  # dropped: start the move again
                selection, step = (), 0
        timer.wait(elapsed)
        target = path[step]
        result = state.click(target, selection)
        log("click", click_props(seat, target, result, round(elapsed)))
        selection = tuple(result.selection)
        seen_targets.update(targets_of(selection))
        step += 1
    return action


def _detour(state: Any, selection: tuple[str, ...], picks: Sequence[str], resume: str
            ) -> list[tuple[str, ClickResult]]:
    """The clicks ``picks`` from ``selection`` with their results, when they are a detour
    the move survives: none makes a move, one at least is refused, and the move's next
    click (``resume``) does from where they leave the selection what it does from
    ``selection``; else none (nothing is clicked)."""
    held, tried = selection, []
    for pick in picks:
        result = state.click(pick, held)
        if result.action is not None:
            return []
        tried.append((pick, result))
        held = tuple(result.selection)
    if not any(result.refusal is not None for _, result in tried) or \
            state.click(resume, held) != state.click(resume, selection):
        return []
    return tried


def counts(records: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Events by type (for tests and the demo's summary).

    >>> counts([{"type": "click"}, {"type": "click"}, {"type": "place"}])
    {'click': 2, 'place': 1}
    """
    out: dict[str, int] = {}
    for record in records:
        out[str(record["type"])] = out.get(str(record["type"]), 0) + 1
    return out
