"""What each wording of a study's message experiments says, from its game's catalog,
written into the study record analytics reads (each message experiment's ``texts``:
variant name → text), so the verdicts, the Experiments page and the plan name a wording
with its text (:func:`analytics.experiments.variant_shows`).

A text is the catalog's wording as the study's testers read it: in the "you" voice when
one tester plays against the computer, else as a seat's; values a message fills in (a
player's name, a cell) are "…". A variant whose payload is a text of its own is that
text.

>>> from analytics.data import UNNAMED_GAME, StudyData
>>> data = StudyData.empty("s")
>>> data.study.update(game=UNNAMED_GAME, settings={"seats": ["human", "ai:easy"]},
...     experiments=[{"key": "w", "target": "message:extra_turn", "variants": ["A", "B"],
...                   "payloads": {"A": "default", "B": "formal"}}])
>>> annotate_experiments(data).study["experiments"][0]["texts"]
{'A': 'Extra go!', 'B': 'Your EXTRA turn'}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from analytics.data import StudyData
from analytics.targets import ExperimentTarget, TargetError
from engine.seats import Seat, SeatError
from playtest.messages.catalog import MessageError
from playtest.study_config import message_catalog


def voice_of_testers(seats: Any) -> str:
    """``"you"`` when exactly one seat is a human's (the tester against the computer),
    else ``"seat"`` (the text that names a seat).

    >>> voice_of_testers(["human", "ai:easy"]), voice_of_testers(["human", "human"]), voice_of_testers(None)
    ('you', 'seat', 'seat')
    """
    if not isinstance(seats, Sequence) or isinstance(seats, str):
        return "seat"
    try:
        humans = sum(Seat.parse(str(seat)).is_human for seat in seats)
    except SeatError:
        return "seat"
    return "you" if humans == 1 else "seat"


def variant_texts(game: str | None, message: str, payloads: Mapping[str, Any],
                  voice: str = "seat") -> dict[str, str]:
    """Each variant's text of message ``message`` in ``game``'s catalog (see the module
    docstring); a variant whose wording the catalog lacks is left out.

    >>> from analytics.data import UNNAMED_GAME
    >>> variant_texts(UNNAMED_GAME, "extra_turn", {"A": "default", "B": "Go on, {name}!"})
    {'A': 'Extra go!', 'B': 'Go on, …!'}
    """
    catalog = message_catalog(game)
    try:
        entry = catalog.entry(message)
    except MessageError:
        return {}
    blanks = dict.fromkeys(entry.values, "…")
    texts: dict[str, str] = {}
    for name, payload in payloads.items():
        if not isinstance(payload, str) or not payload.strip():
            continue
        if payload in catalog.variants:
            try:
                texts[str(name)] = catalog.render(message, payload, voice=voice,
                                                  **blanks).text
            except MessageError:
                continue
        else:  # a text of the designer's own, its {values} blank
            try:
                texts[str(name)] = payload.format(**blanks)
            except (KeyError, ValueError, IndexError):
                texts[str(name)] = payload
    return texts


def annotate_experiments(data: StudyData) -> StudyData:
    """Write each message experiment's ``texts`` into ``data.study``; returns ``data``."""
    settings = data.study.get("settings")
    voice = voice_of_testers(settings.get("seats") if isinstance(settings, Mapping) else None)
    game = data.study.get("game")
    for experiment in data.study.get("experiments") or []:
        if not isinstance(experiment, dict):
            continue
        try:
            target = ExperimentTarget.parse(str(experiment.get("target") or ""))
        except TargetError:
            continue
        payloads = experiment.get("payloads")
        if not isinstance(payloads, Mapping):
            variants = experiment.get("variants")
            payloads = variants if isinstance(variants, Mapping) else {}
        if target.is_message:
            experiment["texts"] = variant_texts(str(game) if game else None, target.name,
                                                payloads, voice)
    return data
