"""The Rules overlay of every game: its rules in a child's words, each section with a
picture of the game's own board, drawn by the game's renderer from its view data (not a
screenshot), from the game's content file (:attr:`GamePlugin.rules_path
<playtest.games.plugin.GamePlugin.rules_path>`, YAML)::

    title: How to play
    sections:
      - heading: The goal            # at least the goal and the main rule
        text: Markdown text.
        picture:                      # optional: a position of the game's board
          actions: [["place", "d6"]]  # the record that leads to it (from the start)
          rules: standard             # optional (default: the game's default rules)
          seats: [human, "ai:easy"]   # optional (default: the game's default seats)
          caption: What to look at.

:func:`load_rules` reads and checks a file (every picture's record is played through
the engine, so a picture is a real position); :func:`draw` draws the overlay in a
Streamlit dialog.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from playtest.games.plugin import GamePlugin
from playtest.session.play import Play
from playtest.session.view import Moment


class RulesFileError(ValueError):
    """A rules file that cannot be shown; the message names the file and the field."""


@dataclass(frozen=True)
class Picture:
    """A position of the game's board: the record from the start that leads to it."""

    actions: tuple[Any, ...]
    rules: Any = None
    seats: tuple[str, ...] = ()
    caption: str = ""


@dataclass(frozen=True)
class Section:
    heading: str
    text: str
    picture: Picture | None = None


@dataclass(frozen=True)
class RulesContent:
    title: str
    sections: tuple[Section, ...] = field(default_factory=tuple)


def _text(raw: Any, where: str, *, required: bool = True) -> str:
    if raw is None and not required:
        return ""
    if not isinstance(raw, str) or not raw.strip():
        raise RulesFileError(f"{where}: must be text")
    return raw.strip()


def parse_rules(obj: Any, source: str = "rules") -> RulesContent:
    """A rules file's content, checked (:class:`RulesFileError` naming the field).

    >>> parse_rules({"title": "How to play", "sections": [{"heading": "Goal",
    ...     "text": "Four in a row."}, {"heading": "Turn", "text": "Roll."}]}).sections[0].heading
    'Goal'
    >>> parse_rules({"title": "How to play", "sections": []})
    Traceback (most recent call last):
    ...
    playtest.board.rules_overlay.RulesFileError: rules.sections: at least the goal and the main rule (2 sections)
    """
    if not isinstance(obj, dict) or set(obj) - {"title", "sections"}:
        raise RulesFileError(f"{source}: the top level has 'title' and 'sections'")
    raw_sections = obj.get("sections")
    if not isinstance(raw_sections, list) or len(raw_sections) < 2:
        raise RulesFileError(f"{source}.sections: at least the goal and the main rule "
                             "(2 sections)")
    sections = []
    for number, raw in enumerate(raw_sections):
        where = f"{source}.sections.{number}"
        if not isinstance(raw, dict) or set(raw) - {"heading", "text", "picture"}:
            raise RulesFileError(f"{where}: a section has heading, text and maybe picture")
        picture = None
        if raw.get("picture") is not None:
            pic = raw["picture"]
            if not isinstance(pic, dict) or set(pic) - {"actions", "rules", "seats", "caption"}:
                raise RulesFileError(f"{where}.picture: actions, rules, seats, caption")
            actions = pic.get("actions", [])
            seats = pic.get("seats", [])
            if not isinstance(actions, list) or not isinstance(seats, list):
                raise RulesFileError(f"{where}.picture: actions and seats are lists")
            picture = Picture(tuple(actions), pic.get("rules"), tuple(map(str, seats)),
                              _text(pic.get("caption"), f"{where}.picture.caption",
                                    required=False))
        sections.append(Section(_text(raw.get("heading"), f"{where}.heading"),
                                _text(raw.get("text"), f"{where}.text"), picture))
    return RulesContent(_text(obj.get("title"), f"{source}.title"), tuple(sections))


@functools.cache
def load_rules(path: Path) -> RulesContent:
    """The rules file at ``path`` (parsed once per process)."""
    source = f"{path.parent.name}/{path.name}"
    try:
        obj = yaml.safe_load(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise RulesFileError(f"{source}: cannot read ({err})") from None
    return parse_rules(obj, source)


def picture_play(plugin: GamePlugin, picture: Picture) -> Play:
    """The position of ``picture``: its record played through the engine (an action the
    rules refuse raises the engine's error)."""
    seats: Sequence[str] = picture.seats or plugin.default_seats
    return Play.replayed(plugin, game_id="picture", participant_id="", seats=seats, seed=0,
                         rules=plugin.default_rules if picture.rules is None else picture.rules,
                         actions=picture.actions, finished=False)


def picture_view(plugin: GamePlugin, picture: Picture, language: str = "en") -> dict[str, Any]:
    """The game's view data of a picture (non-interactive, with its last move marked and
    the options ringed), the view's own words in ``language``."""
    play = picture_play(plugin, picture)
    assert plugin.view is not None, f"{plugin.name} has no board view"
    moment = Moment(play, tuple(play.steps[-1:]), {"highlight_options": True},
                    language=language)
    return plugin.view(moment)


def texts(content: RulesContent) -> list[str]:
    """Every text of a rules file a translation needs (gettext msgids of the game's
    domain), in file order."""
    found = [content.title]
    for section in content.sections:
        found += [section.heading, section.text]
        if section.picture is not None and section.picture.caption:
            found.append(section.picture.caption)
    return list(dict.fromkeys(t for t in found if t))


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Any:
    """A Babel extraction method for a game's ``rules.yaml`` (``babel.cfg``)."""
    for text in texts(parse_rules(yaml.safe_load(fileobj.read().decode("utf-8")))):
        yield 0, "gettext", text, []


def _same(text: str) -> str:
    return text


def draw(plugin: GamePlugin, tester: Any, words: Any = _same) -> None:
    """The overlay's content in the open dialog: each section's text and picture, in
    ``words``' language (the game's translations)."""
    import streamlit as st

    from playtest.board.component import mount
    from playtest.board.page import view_in
    from playtest.board.protocol import EventGate

    _ = words
    if plugin.rules_path is None:
        st.markdown(_("Play {game} against the computer: ask the person who gave you the "
                      "link how to play.").format(game=_(plugin.title)))
        return
    content = load_rules(plugin.rules_path)
    for number, section in enumerate(content.sections):
        st.markdown(f"**{_(section.heading)}**\n\n{_(section.text)}")
        if section.picture is None:
            continue
        language = getattr(getattr(words, "language", None), "code", "en")
        view = picture_view(plugin, section.picture, language)
        data = {"token": "picture", "interactive": False, "picture": True, "turn": None,
                "message": None, "end": None, "muted": True, "mute_control": False,
                "labels": {}, "view": view if language == "en" else view_in(view, _)}
        mount(plugin, data, key=f"rules-picture-{plugin.name}-{number}", gate=EventGate())
        if section.picture.caption:
            st.caption(_(section.picture.caption))
