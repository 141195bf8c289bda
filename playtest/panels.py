"""Recruitment panels and quotas: what a study sets, and what a panel's link brings.

A study recruited on a panel (Prolific, or any other that puts its participant id in the
link as ``?pid=``) names it in its settings (:class:`PanelConfig`). A tester arriving
from the panel carries the panel's ids in the study link; :func:`arrival_from_query`
reads them, refusing anything that is not a plain short id. At the end the tester is
sent back to the panel (:func:`completion_url`); a declined consent or a tester turned
away goes to the panel's screen-out address (:func:`screenout_url`).

>>> panel = PanelConfig(kind="prolific", completion_code="C1A2B3C4")
>>> arrival = arrival_from_query(panel, {"study": "s", "PROLIFIC_PID": "5f1e2d3c4b5a6978a1b2c3d4",
...     "STUDY_ID": "60aa", "SESSION_ID": "x1"})
>>> arrival.panel_id, arrival.panel_study, arrival.panel_session
('5f1e2d3c4b5a6978a1b2c3d4', '60aa', 'x1')
>>> completion_url(panel, arrival.panel_id)
'https://app.prolific.com/submissions/complete?cc=C1A2B3C4'

A study's addresses come from its designer only, never from the link; they must be
``https`` (:func:`check_panel_url`):

>>> check_panel_url("javascript:alert(1)")
Traceback (most recent call last):
...
ValueError: must start with https:// (this starts with 'javascript:')
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final, Literal
from urllib.parse import quote, urlsplit

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from playtest.storage.admission import PANEL_ID

#: Where Prolific takes a finished participant: the study's completion code goes in ``cc``.
PROLIFIC_COMPLETE: Final = "https://app.prolific.com/submissions/complete?cc={code}"
#: The link parameters Prolific fills in (``{{%PROLIFIC_PID%}}`` … in the study URL).
PROLIFIC_PARAMS: Final = ("PROLIFIC_PID", "STUDY_ID", "SESSION_ID")
#: The one link parameter of any other panel.
GENERIC_PARAM: Final = "pid"
#: A completion or screen-out code a panel gives the designer.
PANEL_CODE: Final = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
MAX_URL_CHARS: Final = 2000
#: Characters a designer's address may not hold anywhere (a quote or an angle bracket
#: could end the attribute or script it is written into; spaces are never in a URL).
_UNSAFE_URL = re.compile(r"[\s\"'<>\\`^{}|\x00-\x1f\x7f]")
_HOST = re.compile(r"^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+"
                   r"[A-Za-z]{2,63}$")
PANEL_NAMES: Final = {"prolific": "Prolific", "generic": "the recruitment site"}


class PanelIdError(ValueError):
    """A panel id in the link that is not one (too long, odd characters): refused whole."""


def check_panel_url(url: str) -> str:
    """A designer's panel address as it may be used: ``https://`` and a host name, no
    user name or password, nothing that could break out of a link; ``{pid}`` stands for
    the tester's panel id (URL-encoded when it is filled in).

    >>> check_panel_url("https://uni.sona-systems.com/webstudy_credit.aspx?id=9&survey_code={pid}")
    'https://uni.sona-systems.com/webstudy_credit.aspx?id=9&survey_code={pid}'
    >>> check_panel_url("http://panel.example/done")
    Traceback (most recent call last):
    ...
    ValueError: must start with https:// (this starts with 'http:')
    >>> check_panel_url("https://user:pw@panel.example/done")
    Traceback (most recent call last):
    ...
    ValueError: must not carry a user name or password
    """
    url = url.strip()
    if len(url) > MAX_URL_CHARS:
        raise ValueError(f"at most {MAX_URL_CHARS} characters (this has {len(url)})")
    scheme = url.split(":", 1)[0] + ":" if ":" in url else url[:12]
    if not url.lower().startswith("https://"):
        raise ValueError(f"must start with https:// (this starts with {scheme[:20]!r})")
    try:
        placeholders = {f for _, f, _, _ in string.Formatter().parse(url) if f is not None}
    except ValueError:
        raise ValueError("has an unbalanced { or }") from None
    if placeholders - {"pid"}:
        raise ValueError(f"{{{sorted(placeholders - {'pid'})[0]}}} is not a placeholder "
                         "here (only {pid}, the tester's panel id)")
    bare = url.replace("{pid}", "x")
    if _UNSAFE_URL.search(bare):
        raise ValueError("must not hold spaces, quotes, angle brackets or backslashes")
    parts = urlsplit(bare)
    if parts.username is not None or parts.password is not None:
        raise ValueError("must not carry a user name or password")
    if not parts.hostname or not _HOST.match(parts.hostname):
        raise ValueError(f"{parts.hostname or '(none)'!r} is not a host name")
    return url


class PanelConfig(BaseModel):
    """A study's recruitment panel: how its testers arrive and where they go back to.

    ``prolific``: the link carries ``PROLIFIC_PID``, ``STUDY_ID`` and ``SESSION_ID``; the
    end goes to Prolific's completion address with ``completion_code``, a declined
    consent to it with ``screenout_code`` (Prolific's code for "no consent"/screened out).
    ``generic``: the link carries ``?pid=``; the end goes to ``completion_url``, a
    declined consent to ``screenout_url`` (each may hold ``{pid}``). ``id_required``:
    arrivals without a panel id are refused (the study is run on the panel only).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal["prolific", "generic"] = "prolific"
    completion_code: str | None = Field(default=None, pattern=PANEL_CODE.pattern)
    screenout_code: str | None = Field(default=None, pattern=PANEL_CODE.pattern)
    completion_url: str | None = Field(default=None, max_length=MAX_URL_CHARS)
    screenout_url: str | None = Field(default=None, max_length=MAX_URL_CHARS)
    id_required: bool = True

    @field_validator("completion_url", "screenout_url")
    @classmethod
    def _url_is_safe(cls, url: str | None) -> str | None:
        return None if url is None or not url.strip() else check_panel_url(url)

    @model_validator(mode="after")
    def _what_the_kind_needs(self) -> PanelConfig:
        if self.kind == "prolific":
            if self.completion_code is None:
                raise ValueError("Prolific needs the study's completion code (Prolific "
                                 "shows it under \"Study completion\")")
            if self.completion_url or self.screenout_url:
                raise ValueError("Prolific's addresses are made from its codes: give "
                                 "completion_code (and screenout_code), not addresses")
        elif self.completion_url is None:
            raise ValueError("a panel other than Prolific needs its completion address "
                             "(completion_url)")
        elif self.completion_code or self.screenout_code:
            raise ValueError("codes are Prolific's: put another panel's code into its "
                             "completion_url")
        return self

    @property
    def name(self) -> str:
        """The panel as testers read it ("Prolific")."""
        return PANEL_NAMES[self.kind]

    @property
    def params(self) -> tuple[str, ...]:
        """The link parameters it fills in; the first is the participant id."""
        return PROLIFIC_PARAMS if self.kind == "prolific" else (GENERIC_PARAM,)


class QuotaConfig(BaseModel):
    """How many complete testers a study wants, and how long a place is kept.

    A place is taken by every tester who completed (the one definition of completed,
    :data:`analytics.metrics.COMPLETED_DEFINITION`) and by every tester who agreed less
    than ``hold_minutes`` ago and has not completed yet. New arrivals are turned away
    once ``completes`` places are taken; a tester who started keeps going whatever.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    completes: int = Field(ge=1, le=100_000, strict=True)
    hold_minutes: int = Field(default=60, ge=5, le=7 * 24 * 60, strict=True)


#: How long a started tester counts as in progress when the study sets no quota (the
#: experiment balance uses it: :mod:`playtest.storage.allocation`).
DEFAULT_HOLD_MINUTES: Final = 60


def hold_ms(quota: QuotaConfig | None) -> int:
    """How long after consent a study's tester counts as in progress, in milliseconds.

    >>> hold_ms(None), hold_ms(QuotaConfig(completes=10, hold_minutes=90))
    (3600000, 5400000)
    """
    return (quota.hold_minutes if quota is not None else DEFAULT_HOLD_MINUTES) * 60_000


#: The Studies form's choices of panel (:class:`RemoteForm`).
PANEL_CHOICES: Final = {"none": "No recruitment panel", "prolific": "Prolific",
                        "generic": "Another panel (its participant id in ?pid=)"}


@dataclass(frozen=True)
class RemoteForm:
    """The Studies form's recruitment panel and quota fields, as typed: only the fields
    of the chosen panel are read (a Prolific study ignores addresses typed for another).

    >>> RemoteForm(panel="prolific", completion_code=" C1A2 ", completes=40).settings()
    ({'kind': 'prolific', 'completion_code': 'C1A2', 'screenout_code': None, 'id_required': True}, {'completes': 40, 'hold_minutes': 60})
    >>> RemoteForm.of(None, None) == RemoteForm()
    True
    """

    panel: str = "none"
    completion_code: str = ""
    screenout_code: str = ""
    completion_url: str = ""
    screenout_url: str = ""
    panel_only: bool = True
    completes: int = 0  # 0: no quota
    hold_minutes: int = DEFAULT_HOLD_MINUTES

    def settings(self) -> tuple[dict[str, object] | None, dict[str, object] | None]:
        """The study settings' ``panel`` and ``quota`` (None: none), to be checked."""
        def typed(text: str) -> str | None:
            return text.strip() or None

        panel: dict[str, object] | None = None
        if self.panel == "prolific":
            panel = {"kind": "prolific", "completion_code": typed(self.completion_code),
                     "screenout_code": typed(self.screenout_code)}
        elif self.panel == "generic":
            panel = {"kind": "generic", "completion_url": typed(self.completion_url),
                     "screenout_url": typed(self.screenout_url)}
        if panel is not None:
            panel["id_required"] = self.panel_only
        quota: dict[str, object] | None = None
        if self.completes > 0:
            quota = {"completes": int(self.completes), "hold_minutes": int(self.hold_minutes)}
        return panel, quota

    @classmethod
    def of(cls, panel: PanelConfig | None, quota: QuotaConfig | None) -> RemoteForm:
        """The form's fields of a study's stored panel and quota."""
        return cls(
            panel="none" if panel is None else panel.kind,
            completion_code=(panel and panel.completion_code) or "",
            screenout_code=(panel and panel.screenout_code) or "",
            completion_url=(panel and panel.completion_url) or "",
            screenout_url=(panel and panel.screenout_url) or "",
            panel_only=True if panel is None else panel.id_required,
            completes=0 if quota is None else quota.completes,
            hold_minutes=DEFAULT_HOLD_MINUTES if quota is None else quota.hold_minutes)


def panel_link(study_link: str, panel: PanelConfig) -> str:
    """The study link to give the panel: with the parameters it fills in for each
    participant (Prolific's placeholders; for another panel, ``pid=`` for its own).

    >>> panel_link("https://lab.example/?study=s1", PanelConfig(completion_code="C1"))
    'https://lab.example/?study=s1&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}'
    """
    if panel.kind == "prolific":
        return study_link + "".join(f"&{p}={{{{%{p}%}}}}" for p in PROLIFIC_PARAMS)
    return f"{study_link}&{GENERIC_PARAM}=PARTICIPANT_ID"


@dataclass(frozen=True)
class PanelArrival:
    """The panel's ids a tester's link carried (kept apart from the tester's own code)."""

    panel: str
    panel_id: str
    panel_study: str | None = None
    panel_session: str | None = None


def _checked_id(name: str, value: object) -> str:
    if not isinstance(value, str) or not PANEL_ID.match(value):
        shown = str(value)[:24] + ("…" if len(str(value)) > 24 else "")
        raise PanelIdError(f"{name}={shown!r} is not a panel id (1-64 letters, digits, "
                           "'.', '_' or '-')")
    return value


def arrival_from_query(panel: PanelConfig, query: Mapping[str, object]) -> PanelArrival | None:
    """The panel ids in a study link's parameters, or None when it has no participant id.

    A participant id, study id or session id that is not a plain short id (a placeholder
    left unfilled such as ``{{%PROLIFIC_PID%}}``, an address, a script) raises
    :class:`PanelIdError`: nothing of it is kept.

    >>> arrival_from_query(PanelConfig(kind="generic", completion_url="https://p.example/x"),
    ...                    {"pid": "W123"}).panel_id
    'W123'
    >>> arrival_from_query(PanelConfig(completion_code="C1"), {"PROLIFIC_PID": "{{%PROLIFIC_PID%}}"})
    Traceback (most recent call last):
    ...
    playtest.panels.PanelIdError: PROLIFIC_PID='{{%PROLIFIC_PID%}}' is not a panel id (1-64 letters, digits, '.', '_' or '-')
    """
    first, *others = panel.params
    given = query.get(first)
    if given is None or given == "":
        return None
    extra = {name: query.get(name) for name in others}
    for name, value in extra.items():
        if value not in (None, ""):
            _checked_id(name, value)
    return PanelArrival(
        panel=panel.kind, panel_id=_checked_id(first, given),
        panel_study=str(extra["STUDY_ID"]) if extra.get("STUDY_ID") else None,
        panel_session=str(extra["SESSION_ID"]) if extra.get("SESSION_ID") else None)


def _filled(template: str, panel_id: str | None) -> str:
    return template.replace("{pid}", quote(panel_id or "", safe=""))


def completion_url(panel: PanelConfig, panel_id: str | None) -> str:
    """Where a tester who completed goes back to: Prolific's completion address with the
    study's code, or the panel's own with ``{pid}`` filled in.

    >>> completion_url(PanelConfig(kind="generic",
    ...     completion_url="https://p.example/credit?code=9&id={pid}"), "A.b-1")
    'https://p.example/credit?code=9&id=A.b-1'
    """
    if panel.kind == "prolific":
        return PROLIFIC_COMPLETE.format(code=quote(str(panel.completion_code), safe=""))
    return _filled(str(panel.completion_url), panel_id)


def screenout_url(panel: PanelConfig, panel_id: str | None) -> str | None:
    """Where a tester who declined consent (or was turned away) goes, or None when the
    study gave no screen-out code or address.

    >>> screenout_url(PanelConfig(completion_code="C1", screenout_code="NOCONSENT"), "x")
    'https://app.prolific.com/submissions/complete?cc=NOCONSENT'
    >>> screenout_url(PanelConfig(completion_code="C1"), "x") is None
    True
    """
    if panel.kind == "prolific":
        return None if panel.screenout_code is None else PROLIFIC_COMPLETE.format(
            code=quote(panel.screenout_code, safe=""))
    return None if panel.screenout_url is None else _filled(panel.screenout_url, panel_id)
