"""What a tester's new browser session reads back from the database, so that any app
process can serve them (issue 12): their settings and the last message of their game.

Both are already stored as telemetry events (``setting``: mute and speed; ``message``: the
text the board showed, with its game), so a session that starts on another process (a
reconnect after a crash, a deploy, a reload) shows what the tester had, not the defaults.

>>> from playtest.storage.db import make_engine, upgrade
>>> from playtest.storage import repository as repo
>>> from playtest.storage.events import EventLogger
>>> engine = make_engine("sqlite://"); upgrade(engine)
>>> _ = repo.create_study(engine, title="Demo", study_id="demo")
>>> tester = repo.create_consented_participant(engine, "demo", {"adult": True})
>>> session = repo.start_session(engine, tester.participant_id)
>>> log = EventLogger(engine).log
>>> _ = log(session, tester.participant_id, "setting", {"name": "mute", "value": True}, None)
>>> _ = log(session, tester.participant_id, "setting", {"name": "speed", "value": 3}, None)
>>> _ = log(session, tester.participant_id, "setting", {"name": "mute", "value": False}, None)
>>> last_settings(engine, tester.participant_id)
{'mute': False, 'speed': 3}
>>> _ = log(session, tester.participant_id, "message",
...         {"key": "captured", "variant": "default", "text": "Captured!"}, None, game_id="g1")
>>> last_message(engine, tester.participant_id, "g1")
StoredMessage(key='captured', text='Captured!')
>>> last_message(engine, tester.participant_id, "g2") is None
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.engine import Engine

from playtest.storage.models import events


def _props(raw: Any) -> dict[str, Any]:
    value = json.loads(raw) if isinstance(raw, str | bytes) else raw
    return value if isinstance(value, dict) else {}


def last_settings(engine: Engine, participant_id: str) -> dict[str, Any]:
    """The tester's latest value of each setting they changed (none changed: ``{}``)."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(events.c.props)
            .where(events.c.participant_id == participant_id, events.c.type == "setting")
            .order_by(events.c.at_ms, events.c.event_id)
        ).scalars()
        settings: dict[str, Any] = {}
        for raw in rows:
            props = _props(raw)
            if isinstance(props.get("name"), str) and "value" in props:
                settings[props["name"]] = props["value"]
    return settings


@dataclass(frozen=True)
class StoredMessage:
    """The last message a game's board showed the tester, as it was logged."""

    key: str
    text: str


def last_message(engine: Engine, participant_id: str, game_id: str) -> StoredMessage | None:
    """The last ``message`` event of the tester's game ``game_id`` (None: none yet)."""
    with engine.connect() as conn:
        raw = conn.execute(
            select(events.c.props)
            .where(events.c.participant_id == participant_id, events.c.type == "message",
                   events.c.game_id == game_id)
            .order_by(events.c.at_ms.desc(), events.c.event_id.desc())
            .limit(1)
        ).scalar()
    props = _props(raw)
    text = props.get("text")
    if not isinstance(text, str) or not text:
        return None
    return StoredMessage(str(props.get("key") or ""), text)
