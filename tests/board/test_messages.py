"""The message catalog: every key renders in every variant; bad catalogs are named."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from playtest.board.sounds import CUE_NAMES
from playtest.games.vapoosh.catalog import (
    REQUIRED_KEYS,
    WRONG_CLICK_KEYS,
    load_catalog,
    wrong_click_key,
)
from playtest.messages import (
    SPEEDS,
    CatalogError,
    MessageCatalog,
    MissingValueError,
    UnknownKeyError,
    UnknownVariantError,
    speed,
)
from playtest.messages import load_catalog as load_catalog_file

CATALOG_FILE = Path(__file__).resolve().parents[2] / "playtest" / "games" / "vapoosh" / "catalog.yaml"


def _raw() -> dict[str, Any]:
    obj: dict[str, Any] = yaml.safe_load(CATALOG_FILE.read_text("utf-8"))
    return obj


def test_every_key_renders_in_every_variant_with_all_values_filled() -> None:
    catalog = load_catalog()
    assert set(catalog.keys) >= REQUIRED_KEYS
    assert catalog.variants == ("default", "formal")
    for key in catalog.keys:
        values = {name: f"<{name}>" for name in catalog.entry(key).values}
        for variant in catalog.variants:
            msg = catalog.render(key, variant, **values)
            assert msg.key == key and msg.variant == variant and msg.text.strip()
            assert "{" not in msg.text and "}" not in msg.text
            assert msg.sound is None or msg.sound in CUE_NAMES
        # the default (children's) wording uses at least one declared value, or none exist
        used = [v for v in values.values() if v in catalog.render(key, **values).text]
        formal = catalog.render(key, "formal", **values).text
        assert used or not values or any(v in formal for v in values.values())


def test_wordings_from_the_seed_thread() -> None:
    catalog = load_catalog()
    assert catalog.render("extra_turn", seat=1).text == "Extra go!"
    assert catalog.render("extra_turn", "formal", seat=1).text == "Player 1's EXTRA turn"
    assert catalog.render("miss_turn", "formal", seat=2).text == "Player 2 misses a turn"
    msg = catalog.render("wrong_same_product", clicked=40, p=5, g=8)
    assert msg.text == "That's 40, but 5 × 8 is on another tile: look at column 5."
    assert (msg.tone, msg.sound) == ("warn", "wrong")
    assert catalog.render("vapoosh", seat=1).sound == "vapoosh"


def test_wrong_click_kinds_map_to_messages() -> None:
    catalog = load_catalog()
    values = {
        "number": 40,
        "other_c": 8,
        "other_r": 5,
        "clicked": 40,
        "expected": 40,
        "p": 5,
        "g": 8,
    }
    for (kind, reason), key in WRONG_CLICK_KEYS.items():
        assert wrong_click_key(kind, reason) == key
        assert catalog.render(key, **values).key == key
    with pytest.raises(UnknownKeyError):
        wrong_click_key("rule", "gravity")


def test_render_errors_are_typed() -> None:
    catalog = load_catalog()
    with pytest.raises(UnknownKeyError, match="no message 'nope'"):
        catalog.render("nope")
    with pytest.raises(UnknownVariantError, match="no variant 'pirate'"):
        catalog.render("extra_turn", "pirate", seat=1)
    with pytest.raises(MissingValueError, match=r"needs value\(s\) \['seat', 'name'\]"):
        catalog.render("extra_turn")
    # extra values are ignored, so one context dict serves every key
    assert catalog.render("draw", turns=400, seat=1).text.endswith("400 turns.")


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda o: o["messages"]["extra_turn"]["variants"].pop("formal"), "missing \\['formal'\\]"),
        (lambda o: o["messages"]["extra_turn"]["variants"].update(pirate="Arr"), "undeclared"),
        (lambda o: o["messages"]["extra_turn"].update(tone="loud"), "extra_turn.tone"),
        (lambda o: o["messages"]["extra_turn"].update(sound="boing"), "extra_turn.sound"),
        (lambda o: o["messages"]["extra_turn"].update(colour="red"), "unknown field"),
        (
            lambda o: o["messages"]["extra_turn"]["variants"].update(default="Go {player}!"),
            "placeholder\\(s\\) \\['player'\\] are not in values",
        ),
        (
            lambda o: o["messages"]["extra_turn"]["variants"].update(default="Go {seat.name}!"),
            "plain lower-case name",
        ),
        (
            lambda o: o["messages"]["extra_turn"]["variants"].update(default="Go {seat"),
            "bad braces",
        ),
        (lambda o: o["messages"].pop("vapoosh"), "missing required message\\(s\\) \\['vapoosh'\\]"),
        (lambda o: o.update(variants=["formal", "default"]), "starting with 'default'"),
        (lambda o: o.pop("variants"), "must have 'variants' and 'messages'"),
        (lambda o: o.update(shown=["extra_turn", "nope"]), "no message\\(s\\) \\['nope'\\]"),
    ],
)
def test_bad_catalogs_are_rejected_at_load(mutate: Any, message: str) -> None:
    obj = copy.deepcopy(_raw())
    mutate(obj)
    with pytest.raises(CatalogError, match=message):
        MessageCatalog.from_obj(obj, required=REQUIRED_KEYS)


def test_catalog_files_are_checked_when_loaded(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("variants: [default\nmessages: {", encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid YAML"):
        load_catalog_file(bad)
    with pytest.raises(CatalogError, match="cannot read"):
        load_catalog_file(tmp_path / "missing.yaml")
    good = tmp_path / "good.yaml"
    good.write_text(CATALOG_FILE.read_text("utf-8"), encoding="utf-8")
    assert load_catalog_file(good).keys == load_catalog().keys


def test_speed_table_matches_the_seed() -> None:
    assert {k: (s.think_s, s.message_s) for k, s in SPEEDS.items()} == {
        1: (3.0, 7.0),
        2: (3.0, 5.0),
        3: (2.0, 3.0),
    }
    assert speed(1).message_ms == 7000
    with pytest.raises(ValueError, match="speed must be 1, 2 or 3"):
        speed(4)


def test_variant_by_keyword_or_position() -> None:
    catalog = load_catalog()
    context: dict[str, object] = {"seat": 3}
    assert catalog.render("extra_turn", variant="formal", **context).text == "Player 3's EXTRA turn"
    assert catalog.render("extra_turn", "formal", **context).variant == "formal"
    with pytest.raises(UnknownVariantError):
        catalog.render("extra_turn", variant="pirate", seat=1)
