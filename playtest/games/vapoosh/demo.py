"""Vapoosh!'s hooks for the simulated testers of ``playtest demo`` (:mod:`playtest.demo`).

Its testers play through the same game session the app's play screen uses
(:mod:`playtest.session`: the events are exactly what a real tester produces), with a
human error model of its own:

- arithmetic slips, far more likely on the planted hard facts (:data:`PLANTED_HARD_FACTS`:
  6 × 7, 6 × 8, 7 × 8, 8 × 9) and for testers with weaker times tables; fewer when
  options are highlighted;
- rule misunderstandings: the planted misunderstood rule (:data:`PLANTED_RULE`,
  ``empty_priority``): on turns where it applies, testers unsure of the rules click the
  opponent's tile instead of the free one; other refusals are rare slips (2 %);
- hesitation: lognormal time to the first click, longer on hard facts and after the
  planted confusing wording (:data:`PLANTED_WORDING`: the default "Extra go!" text of
  ``extra_turn``), which is also followed by rules lookups 30 % of the time.

The designer's dashboard should find these three truths: see the README, "What the demo
should show".

The hooks:

- ``demo_settings``: the demo study's two experiments (the wording of ``extra_turn``,
  highlighting the options), the planted truths' comparisons;
- ``play_game``: one whole game of a simulated tester on the dice-and-tiles screen.

>>> sorted(e.key for e in demo_settings()["experiments"])
['extra_turn_wording', 'highlight']
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from engine.players import Decision, Player, make_player
from engine.vapoosh import Brown
from playtest.games.vapoosh.catalog import load_catalog
from playtest.games.vapoosh.plugin import PLUGIN
from playtest.games.vapoosh.session import (
    brown_selection,
    legal_tiles,
    refusal_cue,
    refused_reasons,
)
from playtest.messages import MessageCatalog, MessageError, speed
from playtest.session import GameSession, Next, Pace, Play
from playtest.study_config import EffectiveConfig, Experiment

if TYPE_CHECKING:
    from playtest.demo import EventRecorder, SimulatedTester

_HARD = {6, 7, 8, 9}

#: Planted truth 1: the hardest single-digit products, known from research on the
#: "problem-size effect" (Campbell & Graham 1985; Chan, Au & Tang 2014): 6 × 7, 6 × 8,
#: 7 × 8 and 8 × 9 draw the most errors and the longest answers. Simulated testers slip
#: on these far more often than on any other fact.
PLANTED_HARD_FACTS = frozenset({(6, 7), (6, 8), (7, 8), (8, 9)})
#: Planted truth 2: the misunderstood rule. Testers unsure of the rules (most children)
#: believe they may capture even when the other rolled tile is free, so they click the
#: opponent's tile on many turns where ``empty_priority`` applies.
PLANTED_RULE = "empty_priority"
#: Planted truth 3: the confusing wording. The default "Extra go!" text of
#: ``extra_turn`` leaves testers unsure whose turn it is: a longer pause before the next
#: roll and click, and more rules lookups from it (variant B, the formal wording, does not).
PLANTED_WORDING = ("extra_turn", "default")

#: The planted truths by name: the hard facts, the misread rule, the puzzling wording.
TRUTHS = frozenset({"facts", "rule", "wording"})

#: Most turns a simulated game lasts (the engine's own limit ends it first).
MAX_TURNS = 400


def demo_settings() -> dict[str, Any]:
    """What Vapoosh!'s demo study sets beyond the game's defaults: its experiments, and
    its surveys with the times-table fluency probe before and after play (so the Learning
    page has gains to show)."""
    return {"pre_survey": "vapoosh_pre_probe", "post_survey": "vapoosh_post_probe",
            "experiments": [
        Experiment(key="extra_turn_wording", target="message:extra_turn",
                   variants={"A": "default", "B": "formal"}),
        Experiment(key="highlight", target="ui:highlight_options",
                   variants={"off": False, "on": True}),
    ]}


def fact_difficulty(p: int, g: int) -> float:
    """0 (easy: ×2, ×10, ×11, squares of small numbers) … 1 (the planted hard facts).

    >>> fact_difficulty(8, 7), fact_difficulty(2, 9)
    (1.0, 0.1)
    """
    a, b = sorted((p, g))
    if (a, b) in PLANTED_HARD_FACTS:
        return 1.0
    if a in (2, 10, 11) or b in (2, 10, 11):
        return 0.1
    if a == b:
        return 0.3 if a <= 6 else 0.4
    score = 0.15 + 0.1 * (a in _HARD) + 0.1 * (b in _HARD) + 0.1 * (b == 12)
    return min(score, 0.5)


def _wrong_tile(state: Any, kind: str, rng: random.Random) -> tuple[int, int] | None:
    """A tile a tester would wrongly click, of the given kind, if there is one."""
    legal = legal_tiles(state)
    options = list(state.options)
    p, g = (state.dice[0] + state.dice[1], state.dice[2] + state.dice[3]) if state.dice else (0, 0)
    if kind == "rule":
        forbidden = [o for o in options if o not in legal]
        return rng.choice(forbidden) if forbidden else None
    if kind == "same_product":
        same = [(c, r) for c in range(1, 13) for r in range(1, 13)
                if c * r == p * g and (c, r) not in options]
        return rng.choice(same) if same else None
    if kind == "near_miss":
        c, r = rng.choice(legal)
        near = [(c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
                if (dc or dr) and 1 <= c + dc <= 12 and 1 <= r + dr <= 12
                and (c + dc, r + dr) not in options]
        return rng.choice(near) if near else None
    # arithmetic: a wrong product near the right one (7×8 → 54 or 60). A slip by one
    # factor step (7×8 → 48) lands next to the answer, which the engine calls a near miss.
    slips = [(c, r) for c in range(1, 13) for r in range(1, 13)
             if 0 < abs(c * r - p * g) <= max(8, p + g) and (c, r) not in options
             and all(abs(c - oc) > 1 or abs(r - orr) > 1 for oc, orr in legal)]
    if slips:
        return rng.choice(slips)
    return _wrong_tile(state, "near_miss", rng) if legal else None


class _GamePlayers:
    """The demo's computer players: one per seat for the whole game, seeded from the
    game's seed and the seat (a simulated game is played through once, never resumed)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self.players: dict[int, Player] = {}

    def decide(self, play: Play, mover: int, level: str) -> Decision:
        if mover not in self.players:
            self.players[mover] = make_player(level, seed=self.seed * 10 + mover + 1,
                                              game=PLUGIN.name)
        return self.players[mover].decide(play.state)


def _said(session: GameSession) -> list[Any]:
    """What the steps of the last operation said (their cues)."""
    return [step.say for step in session.fresh]


def _click(session: GameSession, c: int, r: int, *, brown: bool, ms: float) -> Any:
    """A click on tile (c, r): the cue it caused (its refusal's, or its placement's)."""
    result = session.click(f"{c},{r}", ms=ms, selection=brown_selection(brown), pace=_PACED)
    if result is not None and not result.ok:
        return refusal_cue(session.play)
    said = _said(session)
    return said[-1] if said else None


def _human_turn(session: GameSession, tester: SimulatedTester, highlight: bool,
                after_message: str | None, clock: list[float],
                truths: Collection[str] = TRUTHS) -> list[Any]:
    """Roll, maybe click wrong tiles, then place: returns the cues it caused (only the
    planted ``truths`` named: every other fact, rule or wording alike)."""
    rng = tester.rng
    play = session.play
    if "wording" not in truths:
        after_message = None  # no wording leaves anyone unsure
    # The pause before rolling: a moment to look at the board, and longer after the
    # planted wording, which leaves testers unsure whether it is their go (the metric
    # "response time" measures exactly this pause).
    wait = 700.0 + (4000.0 if after_message == "_".join(PLANTED_WORDING) else 0.0)
    clock[0] += rng.lognormvariate(math.log(wait * tester.pace), 0.35)
    session.draw(pace=_PACED)
    cues = _said(session)
    if session.next() is not Next.TESTER:
        return cues  # blocked: the turn passed (or a re-roll is due)
    state = play.state
    p = state.dice[0] + state.dice[1] if state.dice else 2
    g = state.dice[2] + state.dice[3] if state.dice else 2
    hard = "facts" in truths and (min(p, g), max(p, g)) in PLANTED_HARD_FACTS
    difficulty = fact_difficulty(p, g) if hard else min(fact_difficulty(p, g), 0.5)
    base = 1800 + 4200 * difficulty * (1.2 - tester.maths)
    if highlight:
        base *= 0.55
    if after_message == "_".join(PLANTED_WORDING):
        base += 2500  # planted: "Extra go!" leaves some unsure whose turn it is
    elapsed = rng.lognormvariate(math.log(base * tester.pace), 0.35)
    # planted: the misunderstood rule bites only where it applies (empty_priority);
    # other refusals are rare slips
    misread = "rule" in truths and PLANTED_RULE in refused_reasons(state)
    slips = {
        # planted: the hard facts trip even good calculators; others follow difficulty
        "arithmetic": ((0.3 + 0.4 * (1 - tester.maths)) if hard
                       else (1 - tester.maths) * difficulty * 0.6)
        * (0.4 if highlight else 1.0),
        "rule": (1 - tester.rules) * 0.9 if misread else 0.02,
        "near_miss": (1 - tester.maths) * 0.15,
        "same_product": (1 - tester.maths) * 0.1 * (0.2 if highlight else 1.0),
    }
    for kind, chance in slips.items():
        if rng.random() >= chance:
            continue
        tile = _wrong_tile(state, kind, rng)
        if tile is None:
            continue
        clock[0] += elapsed
        cues.append(_click(session, *tile, brown=False, ms=elapsed))
        elapsed += rng.lognormvariate(math.log(1500 * tester.pace), 0.4)
    clock[0] += elapsed
    choice = tester_player(tester).choose(state)
    brown = isinstance(choice.action, Brown)
    cues.append(_click(session, choice.action.c, choice.action.r, brown=brown, ms=elapsed))
    return cues


def tester_player(tester: SimulatedTester) -> Any:
    """The move a tester chooses once the tile is found: a medium-strength habit.

    Kept on the tester (not in a table keyed by ``id(tester)``: ids are reused once a
    tester is freed, which handed a later tester the earlier one's player and made the
    output depend on memory layout).
    """
    if tester.player is None:
        tester.player = make_player("medium", seed=tester.rng.randrange(1 << 30),
                                    game=PLUGIN.name)
    return tester.player


def _message_records(cues: list[Any], recorder: EventRecorder, catalog: MessageCatalog,
                     variants: dict[str, str], ms_visible: int) -> str | None:
    """Log the message the screen would show for these cues; return its key+variant."""
    shown = [c for c in cues if c is not None and c.key]
    if not shown:
        return None
    cue = shown[-1]
    variant = variants.get(cue.key, "default")
    try:
        text = catalog.render(cue.key, variant, voice=cue.voice, **cue.values).text
    except MessageError:
        text, variant = cue.fallback_text, "fallback"
    recorder.log("message", {"key": cue.key, "variant": variant, "text": text,
                             "ms_visible": ms_visible})
    return f"{cue.key}_{variant}"


def _catalog() -> MessageCatalog:
    """The game's message catalog (parsed once per process; worker processes inherit it)."""
    return load_catalog()


#: The demo steps the computers itself (one call per step, as the screen's clock would):
#: a think time makes the session wait for it instead of moving them at once.
_PACED = Pace(1)


def _computers(session: GameSession) -> list[Any]:
    """The computers' moves, one step at a time, until a tester is to act: their cues."""
    cues: list[Any] = []
    while session.next() is Next.COMPUTER:
        session.step(pace=_PACED)
        cues += _said(session)
    return cues


def play_game(config: EffectiveConfig, *, seed: int, game_id: str, tester: SimulatedTester,
              recorder: EventRecorder, clock: list[float],
              truths: Collection[str] = TRUTHS) -> None:
    """One whole game of a simulated tester on the dice-and-tiles screen: the
    controller's events, the messages the screen shows and the rules lookups after them.

    ``config`` is the tester's (its experiments' arms applied); ``recorder`` is the
    game's sink and event log; ``clock`` (ms) advances by the simulated pauses;
    ``truths``: the planted truths of :data:`TRUTHS` to plant (a calibration plants some
    or none).
    """
    rng = tester.rng
    ms_visible = speed(config.speed).message_ms
    play = Play.new(PLUGIN, game_id=game_id, participant_id=recorder.participant_id,
                    seats=config.seats, seed=seed, rules=config.rules)
    session = GameSession(PLUGIN, play, recorder, computers=_GamePlayers(seed),
                          settings={"highlight_options": config.highlight_options,
                                    "show_computer_dice": config.show_computer_dice,
                                    "speed": config.speed}, clock=lambda: clock[0],
                          log_messages=False)  # the testers' reading is logged below
    session.start(pace=_PACED)
    last: str | None = None
    for _turn in range(MAX_TURNS):
        if play.over:
            break
        if session.next() is Next.COMPUTER:
            cues = _computers(session)
            clock[0] += 2500
        else:
            cues = _human_turn(session, tester, config.highlight_options, last, clock,
                               truths)
        last = _message_records(cues, recorder, _catalog(), config.message_variants,
                                ms_visible)
        lookup = 0.25 * (1 - tester.rules) if last and last.startswith(
            ("wrong_rule", "blocked", "reroll")) else 0.0
        if "wording" in truths and last == "_".join(PLANTED_WORDING):
            lookup = 0.3  # planted: testers look up whose turn it is
        if last and rng.random() < lookup:
            recorder.log("rules_open", {"context": last.rsplit("_", 1)[0]})
            clock[0] += rng.uniform(5000, 20000)
            recorder.log("rules_close", {"context": last.rsplit("_", 1)[0]})
