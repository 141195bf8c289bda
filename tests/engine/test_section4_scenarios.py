"""What the three section-4 games' scenarios share (rules-other-games.md section 4):
every result holds the contract's keys and only the documented extras beside them, and
no input, however broken, gets anything but a result or a one-line :class:`RulesError`
(the command turns that into status 2; anything else would be a traceback)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core import RulesError
from engine.vapoosh.scenario import run_document

HERE = Path(__file__).resolve().parent / "scenarios"
FILES = {
    game: json.loads((HERE / game / "section4.json").read_text())
    for game in ("morris", "vasco", "dokusen")
}
#: Section 4's ``expected`` keys per game, and the extras each reader documents.
CONTRACT = {
    "morris": {"board", "reserve", "toMove", "pendingRemoval", "winner", "events"},
    "vasco": {"tiles", "toMove", "winner", "tilesRemaining", "autoPlacements"},
    "dokusen": {"afterEachRound", "gameOver", "result", "counts", "events"},
}
EXTRAS = {
    "morris": {"id", "refused"},
    "vasco": {"id", "refused", "reason"},
    "dokusen": {"id", "board", "round", "toMove", "reason", "refused"},
}


@pytest.mark.parametrize("game", sorted(FILES))
def test_results_hold_the_contract_keys_and_only_documented_extras(game: str) -> None:
    results, failed = run_document(FILES[game])
    assert not failed
    for result in results:
        assert set(result) == CONTRACT[game] | EXTRAS[game]
    without_id = {k: v for k, v in FILES[game][0].items() if k != "id"}
    result, _ = run_document(without_id)
    assert set(result) == CONTRACT[game] | EXTRAS[game] - {"id"}


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=4)
    | st.sampled_from(["W", "B", "O", "X", "a7", "d4", "ox*", "o", "#", "1..", "user", "greedy"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["board", "at", "to", "player", "cell", "tile", "id", "type", "ai"])
            | st.text(max_size=3),
            inner,
            max_size=3,
        )
    ),
    max_leaves=6,
)


def paths(doc: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value, the value itself first."""
    out = [at]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += paths(v, (*at, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += paths(v, (*at, i))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(sorted(FILES)))
def test_a_broken_scenario_is_a_result_or_a_named_error_never_a_crash(
    data: st.DataObject, game: str
) -> None:
    """A scenario of the game's file with one place replaced by any JSON value, or
    removed: the command's reader gives results or raises :class:`RulesError` naming
    the scenario (status 2, one line), nothing else."""
    doc = copy.deepcopy(data.draw(st.sampled_from(FILES[game])))
    doc.pop("expected")
    where = data.draw(st.sampled_from(paths(doc)[1:]))
    parent = doc
    for step in where[:-1]:
        parent = parent[step]
    if isinstance(parent, dict) and data.draw(st.booleans()):
        del parent[where[-1]]
    else:
        parent[where[-1]] = data.draw(JSON)
    try:
        results, _ = run_document([doc])
    except RulesError as err:
        assert str(err).startswith("scenario[0]")
        assert "\n" not in str(err)
    else:
        assert set(results[0]) >= CONTRACT[game]
