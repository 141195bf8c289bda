"""A study's settings document (``studies.config``) and the exchange format's ``study``
record fields: one translated into the other, with nothing of the app (the checks of a
study's settings live above storage, in :mod:`playtest.study_config`).

A record's experiments carry their variants as a list of names and their payloads apart;
the document keeps each experiment's variants as ``{name: payload}``:

>>> doc = raw_config(rules="standard", games_per_tester=2, allow_more_games=True,
...     experiments=[{"key": "s", "target": "ui:speed", "variants": ["A", "B"],
...                   "payloads": {"B": 3, "A": 1}}],
...     surveys={"audience": "children"}, settings={"speed": 2}, game=None)
>>> doc["experiments"][0]["variants"], doc["audience"], "game" in doc
({'A': 1, 'B': 3}, 'children', False)
>>> fields = exchange_fields(doc)
>>> fields["experiments"][0]["variants"], fields["surveys"], fields["settings"]
(['A', 'B'], {'audience': 'children'}, {'speed': 2})
"""

from __future__ import annotations

import re
from typing import Any

from analytics.data import UNNAMED_GAME

#: The study record's ``settings`` object: the display and play settings, the panel and
#: the quota.
SETTING_KEYS = ("seats", "highlight_options", "show_computer_dice", "speed", "ai_think_ms",
                "panel", "quota")
#: A study record's optional keys of its study family (telemetry-format.md): the id every
#: version of one study shares, and this study's version in it.
FAMILY_KEYS = ("family", "version")
#: A study record's optional language testers are addressed in (``de``; absent: ``en``,
#: and a study's answers and events are in it).
LANGUAGE_KEY = "language"
#: An experiment record's optional keys beyond its key, target and variants.
EXPERIMENT_KEYS = ("primary_metric", "min_effect", "quiz_items", "targets")
#: A family id: what a study id may be (the first version's study id is its family's).
FAMILY_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
#: A confusion point id an experiment ``targets`` (``rule:walled``, ``fact:7x8``,
#: ``message:extra_turn@formal``, ``survey:sus.q3``).
POINT_PATTERN = re.compile(r"^[a-z_]{1,16}:[A-Za-z0-9_.@:+-]{1,60}$")


def family_problem(family: Any, version: Any) -> str | None:
    """Why a study record's ``family`` and ``version`` cannot be stored, or None; both are
    optional (None: absent).

    >>> family_problem("demo", 2), family_problem(None, None)
    (None, None)
    >>> family_problem("<script>", 2)
    "family must be a study id (1 to 64 letters, digits, '-' or '_'), not '<script>'"
    >>> family_problem("demo", 0)
    'version must be a whole number from 1, not 0'
    >>> family_problem(None, 3)
    'version 3 needs a family (a study without one is version 1 of its own)'
    """
    if family is not None and not (isinstance(family, str) and FAMILY_PATTERN.match(family)):
        return (f"family must be a study id (1 to 64 letters, digits, '-' or '_'), "
                f"not {str(family)[:40]!r}")
    if version is not None and (not isinstance(version, int) or isinstance(version, bool)
                                or not 1 <= version <= 1_000_000):
        return f"version must be a whole number from 1, not {str(version)[:20]}"
    if family is None and version not in (None, 1):
        return (f"version {version} needs a family (a study without one is version 1 of "
                "its own)")
    return None


def targets_problem(targets: Any) -> str | None:
    """Why an experiment's ``targets`` (the confusion point it was made to fix) cannot be
    stored, or None (None: absent).

    >>> targets_problem("rule:walled"), targets_problem(None)
    (None, None)
    >>> targets_problem("javascript:alert(1)")
    "targets must be a confusion point id such as 'rule:walled', not 'javascript:alert(1)'"
    """
    if targets is None or (isinstance(targets, str) and POINT_PATTERN.match(targets)):
        return None
    return (f"targets must be a confusion point id such as 'rule:walled', "
            f"not {str(targets)[:40]!r}")


def _ordered_payloads(variants: Any, payloads: Any) -> Any:
    """An experiment record's variants as ``{name: payload}`` in the order of its list of
    names (PostgreSQL's JSONB keeps no key order; the list is the order); a record without
    payloads uses each name as its payload.

    >>> _ordered_payloads(["slow", "fast"], {"fast": 3, "slow": 1})
    {'slow': 1, 'fast': 3}
    """
    if isinstance(variants, list) and isinstance(payloads, dict) and \
            set(payloads) == {v for v in variants if isinstance(v, str)}:
        return {v: payloads[v] for v in variants}
    if payloads:
        return payloads
    if isinstance(variants, list):
        return {v: v for v in variants if isinstance(v, str)}
    return variants


def raw_config(*, rules: Any, games_per_tester: Any, allow_more_games: Any,
               experiments: Any, surveys: Any, settings: Any,
               game: Any = UNNAMED_GAME, family: Any = None,
               version: Any = None, language: Any = None) -> dict[str, Any]:
    """The settings of a study's stored columns (or exchange record) as one raw mapping.

    ``experiments`` are exchange-format records (``key``, ``target``, ``variants`` as
    names, ``payloads``); a record without payloads uses each variant's name as its
    payload. Anything malformed is passed on as it is, for
    :func:`playtest.study_config.parse_study_config` to name. ``game=None`` leaves the
    game out (the settings document a study stores); ``family`` and ``version`` (the
    study's family, :data:`FAMILY_KEYS`) and ``language`` (:data:`LANGUAGE_KEY`) are
    left out when None.
    """
    surveys = surveys if isinstance(surveys, dict) else {}
    settings = settings if isinstance(settings, dict) else {}
    raw: dict[str, Any] = {
        **({"game": game} if game is not None else {}),
        "rules": rules,
        "games_per_tester": games_per_tester,
        "allow_more_games": allow_more_games,
        "experiments": [
            {"key": e.get("key"), "target": e.get("target"),
             "variants": _ordered_payloads(e.get("variants"), e.get("payloads")),
             **{k: e[k] for k in EXPERIMENT_KEYS if e.get(k) is not None}}
            if isinstance(e, dict) else e
            for e in (experiments if isinstance(experiments, list) else [experiments])
        ],
        **{k: v for k, v in surveys.items() if k in ("pre_survey", "post_survey", "audience")},
        **{k: v for k, v in settings.items()
           if k in SETTING_KEYS},
        **{k: v for k, v in (("family", family), ("version", version),
                             (LANGUAGE_KEY, language)) if v is not None},
    }
    return raw


def exchange_fields(document: Any) -> dict[str, Any]:
    """A stored settings document as the exchange format's ``study`` record fields
    (``rules``, ``experiments`` as records, ``surveys``, ``games_per_tester``,
    ``allow_more_games``, ``settings``, ``family`` and ``version`` when the study has
    a family, ``language`` when it is not English); inverse of :func:`raw_config` for what it keeps.

    >>> fields = exchange_fields({"rules": "standard", "speed": 3, "audience": "mixed"})
    >>> fields["rules"], fields["settings"]["speed"], fields["surveys"]["audience"]
    ('standard', 3, 'mixed')
    >>> exchange_fields({"rules": "standard", "language": "de"})["language"]
    'de'
    """
    doc = document if isinstance(document, dict) else {}
    experiments = doc.get("experiments")
    records = []
    for e in experiments if isinstance(experiments, list) else []:
        if not isinstance(e, dict):
            continue
        variants = e.get("variants")
        record = {"key": e.get("key"),
                  "variants": list(variants) if isinstance(variants, dict) else variants,
                  "target": e.get("target"), "payloads": variants}
        record.update({k: e[k] for k in EXPERIMENT_KEYS if e.get(k)})
        records.append(record)
    return {
        "rules": doc.get("rules", "standard"),
        "experiments": records,
        "surveys": {k: doc[k] for k in ("pre_survey", "post_survey", "audience") if k in doc},
        "games_per_tester": doc.get("games_per_tester", 1),
        "allow_more_games": doc.get("allow_more_games", True),
        "settings": {k: doc[k] for k in SETTING_KEYS if k in doc},
        **{k: doc[k] for k in (*FAMILY_KEYS, LANGUAGE_KEY) if doc.get(k) is not None},
    }
