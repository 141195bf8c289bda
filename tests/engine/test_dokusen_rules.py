"""Dokusen's rules, state and computer levels (rules-other-games.md §3), rule by rule.

The growth step and meteors are checked against a literal second reading
(``dokusen_oracle``) on random boards; whole random games on every stage end, agree
with the oracle round by round, and replay to the identical state.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import dokusen_oracle as oracle
import pytest

from engine.core import (
    CHANCE,
    TERMINAL,
    GameRecord,
    IllegalActionError,
    PlayableState,
    RulesError,
    State,
    make_game,
    sample_chance,
)
from engine.dokusen import DokusenGame, DokusenState, Place, Stage, Strike, builtin_stages
from engine.dokusen.ai import AIError, choose, computer_action, greedy_action, lookahead_action
from engine.dokusen.board import Grid, grow, strike
from engine.dokusen.stage import load_stages, stage_by_id, stages_from_obj

STAGE_IDS = [s.id for s in builtin_stages()]


def random_board(rng: random.Random, colours: int = 3) -> list[str]:
    rows, cols = rng.randint(1, 6), rng.randint(1, 6)
    cells = "#." + "".join(str(p) for p in range(colours))
    weights = [1, 4] + [2] * colours
    board = ["".join(rng.choices(cells, weights, k=cols)) for _ in range(rows)]
    if all(ch == "#" for row in board for ch in row):
        board[0] = "." + board[0][1:]
    return board


def play_random(state: DokusenState, rng: random.Random) -> None:
    """Random placements for every colour, chance drawn with ``rng``, to the end."""
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            state.apply_action(sample_chance(state, rng))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])


# ----- growth and meteors (§3.4 step 3, §3.5) --------------------------------------------


def test_growth_equals_the_literal_reading_on_random_boards() -> None:
    rng = random.Random(14)
    for _ in range(400):
        board = random_board(rng, colours=rng.randint(1, 4))
        grid = Grid.from_rows(board)
        got = grid.rows_of(grow(grid, grid.parse(board)))
        assert got == oracle.render(oracle.grow(oracle.parse(board)), board), board


def test_growth_on_byte_masks_equals_the_literal_reading_on_random_boards() -> None:
    """The state's growth (Grid.grow_masks on one mask per colour) against the oracle, with
    up to ten colours, voids and every neighbour count; the changed squares exactly those
    whose owner differs."""
    rng = random.Random(15)
    for _ in range(600):
        colours = rng.randint(1, 10)
        board = random_board(rng, colours=colours)
        grid = Grid.from_rows(board)
        cells = list(grid.parse(board))
        masks = grid.masks_of(cells, colours)
        assert grid.cells_of(masks) == cells
        after, changed = grid.grow_masks(masks)
        grown = grid.cells_of(after)
        assert grid.rows_of(grown) == oracle.render(oracle.grow(oracle.parse(board)), board), board
        flags = list(changed.to_bytes(grid.size, "little"))
        assert flags == [int(a != b) for a, b in zip(cells, grown, strict=True)], board


def test_growth_is_simultaneous_not_a_sweep() -> None:
    grid = Grid.from_rows(["...."])
    # row-major sweep would carry orange along the row; simultaneity moves it one step
    assert grid.rows_of(grow(grid, grid.parse(["1..."]))) == ["11.."]
    # and two neighbours swap (each judged on the other's old colour)
    assert grid.rows_of(grow(grid, grid.parse(["10##"]))) == ["01##"]


def test_a_tie_or_no_coloured_neighbour_leaves_a_square_unchanged() -> None:
    grid = Grid.from_rows(["...", "...", "..."])
    assert grid.rows_of(grow(grid, grid.parse([".1.", "0.2", ".3."])))[1][1] == "."
    assert grid.rows_of(grow(grid, grid.parse([".1.", "021", ".0."])))[1][1] == "2"  # 2-2 tie
    assert grid.rows_of(grow(grid, grid.parse(["...", ".2.", "..."])))[1][1] == "2"


def test_an_owned_square_flips_to_a_dominating_colour_and_its_own_colour_does_not_count() -> None:
    grid = Grid.from_rows(["...", "...", "..."])
    assert grid.rows_of(grow(grid, grid.parse([".1.", "101", "..."])))[1][1] == "1"
    # one orange neighbour beats none of blue around a blue square
    assert grid.rows_of(grow(grid, grid.parse(["...", ".01", "..."])))[1][1] == "1"


def test_void_cells_are_neither_squares_nor_neighbours() -> None:
    grid = Grid.from_rows(["1#.", "..."])
    assert grid.total == 5
    assert grid.rows_of(grow(grid, grid.parse(["1#.", "..."]))) == ["1#.", "1.."]


def test_meteor_blackens_the_manhattan_ball_and_skips_void() -> None:
    rng = random.Random(5)
    for _ in range(200):
        board = random_board(rng)
        grid = Grid.from_rows(board)
        squares = [i for i in range(grid.size) if grid.is_square[i]]
        at = rng.choice(squares)
        radius = rng.randint(0, 3)
        want = oracle.parse(board)
        oracle.meteor(want, grid.coord(at), radius)
        got = grid.rows_of(strike(grid, grid.parse(board), at, radius))
        assert got == oracle.render(want, board)


# ----- round structure (§3.4) ------------------------------------------------------------


def test_round_order_user_then_active_players_by_id_inactive_never() -> None:
    state = DokusenGame("S8").new_initial_state()
    assert state.game.num_players == 4
    seen = []
    for _ in range(3):
        seen.append(state.current_player())
        state.apply_action(state.legal_actions()[0])
    assert seen == [0, 1, 2]
    assert state.current_player() == 0 and state.round == 2
    assert [e.kind for e in state.last_events] == ["place", "grow"]


def test_placements_allowed_on_black_and_enemy_squares_not_own_or_void() -> None:
    state = DokusenGame("S6").new_initial_state()
    legal = {state.game.grid.coord(a) for a in state.legal_actions()}
    assert (0, 0) in legal and (7, 7) in legal  # the enemies' squares
    assert (3, 3) not in legal  # void
    assert state.owner(3, 2) == 0 and (3, 2) not in legal  # the user's own (S6 starts with 4)
    assert len(legal) == state.game.grid.total - state.counts()["0"]


def test_refused_actions_leave_the_state_untouched() -> None:
    game = DokusenGame({"board": ["0#...", "....1", "....."], "meteors": {"firstRound": 1, "every": 1}})
    state = game.new_initial_state()
    before = state.to_json()
    cases = [
        (game.encode(Place(0, 0)), "own_square"),
        (game.encode(Place(0, 1)), "void"),
        (game.encode(Strike(1, 4)), "no_meteor"),
        (99, "off_board"),
        (-1, "off_board"),
    ]
    for action, reason in cases:
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(action)
        assert err.value.reason == reason
        assert state.to_json() == before
    state.apply(Place(0, 2))
    assert state.current_player() == CHANCE
    before = state.to_json()
    black = next(i for i, o in enumerate(state.cells) if o == -1)
    for action, reason in [
        (game.encode(Place(1, 0)), "meteor_due"),
        (game.grid.size + black, "meteor_target"),
    ]:
        with pytest.raises(IllegalActionError) as err:
            state.apply_action(action)
        assert err.value.reason == reason
        assert state.to_json() == before


def test_scheduled_meteors_are_chance_nodes_uniform_over_owned_squares() -> None:
    board = ["." * 10] * 9 + ["." * 9 + "1"]
    game = DokusenGame({"board": board, "meteors": {"firstRound": 4, "every": 4}})
    state = game.new_initial_state()
    due_rounds = []
    rng = random.Random(3)
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            due_rounds.append(state.round)
            outcomes = state.chance_outcomes()
            owned = [i for i, o in enumerate(state.cells) if o >= 0]
            assert [a - game.grid.size for a, _ in outcomes] == owned
            assert sum(p for _, p in outcomes) == pytest.approx(1.0)
            assert state.legal_actions() == [a for a, _ in outcomes]
            assert state.phase == "meteor" and state.legal_targets() == []
            events = state.apply_action(sample_chance(state, rng))
            assert events[0].kind == "meteor" and events[0].data["radius"] == 1
        else:
            assert state.chance_outcomes() == []
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    assert due_rounds == list(range(4, state.round + 1, 4))
    assert len(due_rounds) >= 2


def test_no_meteor_when_nothing_is_owned() -> None:
    # the user's tile is wiped by the explicit meteor; the schedule then has no target
    state = DokusenGame({"board": ["..."], "meteors": {"firstRound": 1, "every": 1, "radius": 5}})
    s = state.new_initial_state()
    s.apply(Place(0, 0))
    assert s.current_player() == CHANCE
    s.apply(Strike(0, 1))
    assert s.cells == (-1, -1, -1) and s.round == 2
    s.apply(Place(0, 1))
    assert s.current_player() == CHANCE
    s.apply(Strike(0, 1))
    assert s.current_player() == 0


def test_the_user_wins_only_with_strictly_more_than_half() -> None:
    def end(board: list[str], at: tuple[int, int]) -> str | None:
        s = DokusenGame({"board": board}).new_initial_state()
        s.apply(Place(*at))
        return None if s.outcome is None else s.outcome.result

    assert end(["1..."], (0, 3)) == "loss"  # 2 of 4
    assert end(["1.."], (0, 1)) == "win"  # 2 of 3
    assert end(["1."], (0, 1)) == "loss"  # 1 of 2


def test_max_rounds_defaults_to_four_times_the_squares_and_ends_the_game() -> None:
    assert stage_by_id("S1").max_rounds == 100
    assert stage_by_id("S3").max_rounds == 4 * (49 - 16)
    s = DokusenGame({"board": ["1....."], "maxRounds": 2}).new_initial_state()
    s.apply(Place(0, 5))
    assert not s.is_terminal()
    s.apply(Place(0, 3))
    assert s.is_terminal() and s.outcome is not None
    assert s.outcome.reason == "max_rounds" and s.outcome.rounds == 2


def test_returns() -> None:
    s = DokusenGame({"board": ["1.."]}).new_initial_state()
    assert s.returns() == [0.0, 0.0]
    s.apply(Place(0, 1))
    assert s.returns() == [1.0, -1.0]
    lost = DokusenGame("S8").new_initial_state()
    play_random(lost, random.Random(1))
    r = lost.returns()
    assert len(r) == 4 and sum(r) == pytest.approx(0.0) and abs(r[0]) == 1.0


# ----- the app's face: clicks, targets, text ---------------------------------------------


def test_state_is_a_core_state_and_playable_state() -> None:
    s = make_game("dokusen", "S2", 1).new_initial_state()
    assert isinstance(s, State) and isinstance(s, PlayableState)


def test_click_refusal_codes_and_fields() -> None:
    game = DokusenGame(
        {"board": ["0#.", "1.."], "players": [{"id": 1, "kind": "active", "ai": "greedy"}]}
    )
    s = game.new_initial_state()
    before = s.to_json()
    assert s.click("0,0").refusal.reason == "own_square"  # type: ignore[union-attr]
    assert s.click("0,1").refusal.reason == "void"  # type: ignore[union-attr]
    assert s.click("9,9").refusal.reason == "off_board"  # type: ignore[union-attr]
    assert s.click("<script>").refusal.reason == "off_board"  # type: ignore[union-attr]
    ok = s.click("1,0")
    assert ok.ok and ok.action == game.encode(Place(1, 0)) and ok.fields == {"at": [1, 0]}
    assert s.to_json() == before
    assert s.legal_targets() == ["0,2", "1,0", "1,1", "1,2"]
    s.apply_action(ok.action)  # type: ignore[arg-type]
    refused = s.click("0,2")
    assert refused.refusal is not None and refused.refusal.reason == "not_your_turn"
    assert "orange" in refused.refusal.message
    assert s.legal_targets() == []
    play_random(s, random.Random(0))
    assert s.click("0,2").refusal.reason == "game_over"  # type: ignore[union-attr]


def test_to_text_names_the_round_the_mover_and_the_counts() -> None:
    s = DokusenGame("S5").new_initial_state()
    s.apply(Place(0, 0))
    text = s.to_text()
    assert text.splitlines()[0] == "Dokusen S5 First Rival · round 1 · orange to place"
    assert "blue 1 · orange 1 · black 34 · 36 squares · win with 19" in text


# ----- JSON, records, replay -------------------------------------------------------------


@pytest.mark.parametrize("stage_id", STAGE_IDS)
def test_random_games_end_agree_with_the_oracle_and_replay_identically(stage_id: str) -> None:
    game = make_game("dokusen", stage_id, 1)
    assert isinstance(game, DokusenGame)
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        board = oracle.parse(list(game.stage.board))
        snapshots = [state.to_json()]
        while not state.is_terminal():
            if state.current_player() == CHANCE:
                action = sample_chance(state, rng)
                oracle.meteor(board, game.grid.coord(action - game.grid.size), 1)
            else:
                action = computer_action(state, rng, user_level="random")
                assert action in state.legal_actions()
                board[game.grid.coord(action)] = str(state.current_player())
            events = state.apply_action(action)
            if any(e.kind == "grow" for e in events):
                board = oracle.grow(board)
                for e in events:
                    if e.kind == "meteor":
                        oracle.meteor(board, tuple(e.data["at"]), e.data["radius"])  # type: ignore[arg-type]
            assert state.board_rows() == oracle.render(board, list(game.stage.board))
            snapshots.append(state.to_json())
            assert state.round <= game.stage.max_rounds
        assert state.outcome is not None
        assert state.outcome.won == oracle.user_wins(board)
        record = GameRecord.from_json(json.loads(json.dumps(state.record().to_json())))
        replayed = record.replay()
        assert replayed == state and replayed.to_json() == state.to_json()
        for snap in snapshots[:: max(1, len(snapshots) // 5)]:
            again = DokusenState.from_json(json.loads(json.dumps(snap)))
            assert again.to_json() == snap


def test_a_record_can_start_from_a_snapshot() -> None:
    game = DokusenGame("S8")
    s = game.new_initial_state()
    rng = random.Random(9)
    for _ in range(5):
        s.apply_action(computer_action(s, rng, user_level="random"))
    start = s.to_json()
    cont = game.start_state(start)
    while not cont.is_terminal():
        cont.apply_action(computer_action(cont, rng, user_level="random"))
    rec = cont.record()
    assert rec.start == start and len(rec.actions) == len(cont.history) > 0
    assert rec.replay().to_json() == cont.to_json()


def test_custom_stage_records_carry_the_stage_object() -> None:
    stage = {"board": ["1..", "..#"], "players": [{"id": 1, "kind": "active", "ai": "greedy"}]}
    s = make_game("dokusen", stage, 2).new_initial_state()
    play_random(s, random.Random(2))
    rec = s.record()
    assert rec.rules == stage and rec.players == 2
    assert rec.replay() == s


def test_state_from_json_names_the_bad_field() -> None:
    snap = DokusenGame("S1").new_initial_state().to_json()
    for key, value, field in [
        ("board", ["....."], "state.board"),
        ("round", 0, "state.round"),
        ("phase", "dance", "state.phase"),
        ("to_move", 1, "state.to_move"),
        ("stage", "S0", "state.stage"),
    ]:
        with pytest.raises(RulesError, match=field.replace(".", r"\.")):
            DokusenState.from_json({**snap, key: value})


def test_players_must_be_one_or_the_stage_colours() -> None:
    assert DokusenGame("S8", 4).num_players == 4
    with pytest.raises(RulesError, match="players"):
        make_game("dokusen", "S8", 2)


# ----- stages as data (§3.7) -------------------------------------------------------------


def test_the_eight_proposed_stages() -> None:
    st = {s.id: s for s in builtin_stages()}
    assert list(st) == ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"]
    assert (st["S1"].rows, st["S1"].cols, st["S1"].board[2][2]) == (5, 5, "1")
    assert st["S3"].board[0] == st["S3"].board[6] == "##.1.##"
    assert st["S3"].board[1] == "##...##" and st["S3"].board[3] == "......."
    assert (st["S4"].rows, st["S4"].cols) == (7, 5)
    assert st["S5"].kind(1) == "active" and st["S5"].player(1).ai == "random"  # type: ignore[union-attr]
    assert st["S6"].board[3][3:5] == "##" and st["S6"].board[4][3:5] == "##"
    assert st["S6"].kind(2) == "inactive" and st["S6"].player(1).ai == "greedy"  # type: ignore[union-attr]
    assert st["S7"].schedule is not None and st["S7"].schedule.to_obj() == {
        "firstRound": 4,
        "every": 4,
        "radius": 1,
    }
    assert st["S8"].active_ids == (1, 2) and st["S8"].kind(3) == "inactive"
    assert st["S8"].schedule is not None and (
        st["S8"].schedule.first_round,
        st["S8"].schedule.every,
    ) == (6, 5)
    for s in st.values():
        assert Stage.from_obj(s.to_obj()) == s


def test_stage_file_errors_name_the_stage_and_field(tmp_path: Path) -> None:
    good = [s.to_obj() for s in builtin_stages()[:2]]
    path = tmp_path / "stages.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    assert [s.id for s in load_stages(path)] == ["S1", "S2"]
    cases = [
        ([{**good[0]}, {**good[1], "board": ["..", "..."]}], "stages[1] ('S2').board[1]"),
        ([{**good[0], "colour": "red"}], "stages[0] ('S1').colour: unknown field"),
        ([good[0], {**good[1], "id": "S1"}], "stages[1] ('S1').id: stage id 'S1' is used twice"),
        ([{**good[0], "players": [{"id": 0, "kind": "inactive"}]}], "players[0].id"),
        (
            [
                {
                    **good[0],
                    "players": [{"id": 1, "kind": "inactive"}, {"id": 1, "kind": "inactive"}],
                }
            ],
            "listed twice",
        ),
        ([{**good[0], "players": [{"id": 1, "kind": "inactive", "ai": "greedy"}]}], "no level"),
        ([{**good[0], "meteors": {"firstRound": 1}}], "meteors.every"),
        ([{**good[0], "meteors": [{"round": 1, "at": [9, 9]}]}], "meteors[0].at"),
        ({"S1": good[0]}, "must be a JSON list"),
        (["S1"], "not a name"),
    ]
    for doc, message in cases:
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(RulesError) as err:
            load_stages(path)
        assert message in str(err.value), str(err.value)
    path.write_text("[{", encoding="utf-8")
    with pytest.raises(RulesError, match="not valid JSON"):
        load_stages(path)
    with pytest.raises(RulesError, match="unknown stage 'S9'"):
        stage_by_id("S9")
    assert stages_from_obj([]) == []


# ----- computer levels (§3.6) ------------------------------------------------------------


def brute_greedy(state: DokusenState, me: int) -> int:
    """Greedy by the letter: simulate every legal square with the oracle, first best."""
    rows = state.board_rows()
    best, best_score = -1, None
    for action in state.legal_actions():
        board = oracle.parse(rows)
        board[state.game.grid.coord(action)] = str(me)
        grown = oracle.grow(board)
        tally = [sum(v == str(p) for v in grown.values()) for p in range(state.game.num_players)]
        score = tally[me] - max((n for p, n in enumerate(tally) if p != me), default=0)
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


def test_greedy_is_the_first_best_square_by_the_letter() -> None:
    rng = random.Random(21)
    checked = 0
    for stage_id in STAGE_IDS:
        for seed in range(3):
            state = DokusenGame(stage_id).new_initial_state()
            r = random.Random(seed)
            while not state.is_terminal() and state.round <= 6:
                if state.current_player() == CHANCE:
                    state.apply_action(sample_chance(state, r))
                    continue
                me = state.current_player()
                assert greedy_action(state) == brute_greedy(state, me)
                checked += 1
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 100


def test_lookahead_is_deterministic_legal_and_sees_the_users_reply() -> None:
    state = DokusenGame("S6").new_initial_state()
    state.apply(Place(1, 1))
    a = lookahead_action(state)
    assert a == lookahead_action(state.clone()) and a in state.legal_actions()
    # a position where greedy walks into the user's greedy reply and lookahead does not
    differ = 0
    for seed in range(20):
        s = DokusenGame("S6").new_initial_state()
        r = random.Random(seed)
        while s.round < 4 and not s.is_terminal():
            if s.current_player() == 1:
                differ += lookahead_action(s) != greedy_action(s)
            legal = s.legal_actions()
            s.apply_action(legal[r.randrange(len(legal))])
    assert differ > 0


def test_levels_play_in_order_and_random_uses_the_callers_generator() -> None:
    s = DokusenGame("S5").new_initial_state()
    with pytest.raises(AIError, match="user's turn"):
        computer_action(s, random.Random(0))
    s.apply(Place(5, 0))
    a = computer_action(s, random.Random(7))
    b = computer_action(s.clone(), random.Random(7))
    assert a == b and a in s.legal_actions()
    with pytest.raises(AIError, match="needs the caller's random generator"):
        choose(s, "random")
    with pytest.raises(AIError, match="unknown level"):
        choose(s, "genius")
    d = choose(s, "greedy")
    assert d.reason.startswith("Orange (greedy) takes")


def test_greedy_beats_random_users_on_the_rival_stages() -> None:
    """A sanity number, not a threshold on speed: greedy users win more than random ones."""
    wins = {"random": 0, "greedy": 0}
    for level in wins:
        for seed in range(10):
            s = DokusenGame("S5").new_initial_state()
            rng = random.Random(seed)
            while not s.is_terminal():
                s.apply_action(computer_action(s, rng, user_level=level))
            wins[level] += s.outcome is not None and s.outcome.won
    assert wins["greedy"] > wins["random"]


def test_terminal_is_reported() -> None:
    s = DokusenGame({"board": ["1."]}).new_initial_state()
    s.apply(Place(0, 1))
    assert s.current_player() == TERMINAL and s.legal_actions() == [] and s.phase == "over"
    with pytest.raises(IllegalActionError) as err:
        s.apply(Place(0, 0))
    assert err.value.reason == "game_over"


def test_heuristic_values_follow_the_margin_and_sum_to_zero() -> None:
    from engine.dokusen.heuristics import HEURISTICS

    game = DokusenGame("S8")
    s = game.new_initial_state()
    rng = random.Random(8)
    seen = 0
    while not s.is_terminal():
        values = HEURISTICS.values([s])[0]
        assert len(values) == 4 and sum(values) == pytest.approx(0.0)
        assert all(-1.0 <= v <= 1.0 for v in values)
        seen += 1
        s.apply_action(computer_action(s, rng, user_level="random"))
    assert HEURISTICS.values([s])[0] == s.returns()
    assert seen > 3
    ahead = DokusenGame({"board": ["00000", "0...1"]}).new_initial_state()
    behind = DokusenGame({"board": ["11111", "1...0"]}).new_initial_state()
    assert HEURISTICS.values([ahead])[0][0] > 0.5 > -0.5 > HEURISTICS.values([behind])[0][0]


def test_progress_unlocks_the_next_stage_only_after_a_win() -> None:
    from engine.dokusen.progress import Progress

    order = [s.id for s in builtin_stages()]
    assert Progress().unlocked(order) == ["S1"] and Progress().current(order) == "S1"
    p = Progress.from_results([("S1", "loss"), ("S1", "loss"), ("S1", "win"), ("S2", "loss")])
    assert p.unlocked(order) == ["S1", "S2"] and p.current(order) == "S2"
    assert p.won_on_attempt("S1") == 3 and p.won_on_attempt("S2") is None
    everything = Progress.from_results([(s, "win") for s in order])
    assert everything.current(order) == "S8" and everything.unlocked(order) == order
    with pytest.raises(RulesError, match="result"):
        Progress.from_results([("S1", "draw")])


def test_a_stage_variant_is_validated_and_plays() -> None:
    from engine.dokusen.progress import vary

    fast = vary("S7", {"id": "S7-fast", "meteors": {"firstRound": 2, "every": 2, "radius": 2}})
    assert fast.board == stage_by_id("S7").board and fast.id == "S7-fast"
    s = make_game("dokusen", fast.to_obj(), 1).new_initial_state()
    play_random(s, random.Random(5))
    assert s.is_terminal()
    with pytest.raises(RulesError, match="meteors.every"):
        vary("S7", {"meteors": {"firstRound": 2, "every": 0}})


def test_a_fresh_tile_is_not_protected_it_can_flip_in_the_same_round() -> None:
    """§3.4 read literally: growth judges every square on the board after the round's
    placements, the fresh tile too. Blue's tile in S4's orange plus has four orange
    neighbours: it is orange after the growth that ends the round (while the four orange
    squares, each with blue as its only coloured neighbour, turn blue)."""
    s = DokusenGame("S4").new_initial_state()
    events = s.apply(Place(2, 2))
    grow_event = next(e for e in events if e.kind == "grow")
    k = list(grow_event.tiles).index((2, 2))
    assert grow_event.data["before"][k] == 0 and grow_event.data["after"][k] == 1
    assert s.owner(2, 2) == 1
    assert [s.owner(*rc) for rc in ((1, 2), (2, 1), (2, 3), (3, 2))] == [0, 0, 0, 0]
