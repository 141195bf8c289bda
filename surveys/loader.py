"""Loading and checking survey definitions.

>>> d = load_survey(EXAMPLE_SURVEY)
>>> d.id, d.phase
('example_post', 'post')
>>> all(load_survey(survey_id).id == survey_id for survey_id in list_surveys())
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from surveys.logic import PIPE_PATTERN
from surveys.model import (
    ITEM_TYPES,
    FluencyProbe,
    InfoBlock,
    Matrix,
    MultipleChoice,
    SingleChoice,
    SurveyDefinition,
    SurveyExtension,
    condition_items,
)

DEFAULTS_DIR = Path(__file__).parent / "defaults"
#: Each game's own surveys and rules quiz: ``surveys/games/<game>/<id>.yaml``.
GAMES_DIR = Path(__file__).parent / "games"
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
SCHEMA_PATH = Path(__file__).parent / "schema" / "survey.schema.json"
#: The published schema's ``$id``: the lab's name, not a game's (the lab plays several).
#: Definitions cannot point at it (they take no ``$schema`` key), so no file names it.
SCHEMA_ID = "https://github.com/playtest-lab/surveys/survey.schema.json"
#: An example survey of no game (not bundled: loaded by path), for examples and tests.
EXAMPLE_SURVEY = Path(__file__).parent / "examples" / "example_post.yaml"


class SurveyDefinitionError(ValueError):
    """A definition that cannot be used. ``str(err)`` is ``"FILE: item ID: problem"``."""

    def __init__(self, source: str, item_id: str | None, problem: str) -> None:
        self.source = source
        self.item_id = item_id
        self.problem = problem
        where = f"item {item_id}: " if item_id else ""
        super().__init__(f"{source}: {where}{problem}")


#: The survey folders of games from outside the lab's packages, by game (the app's
#: registry gives them: :func:`use_game_folders`).
_GAME_FOLDERS: dict[str, Path] = {}


def use_game_folders(folders: Mapping[str, Path]) -> None:
    """Bundle the surveys in ``folders`` (``{game: folder}``, each ``<id>.yaml``) beside
    the lab's own, replacing the folders given before: the surveys of games configured
    from outside the packages, which name their folder in their plug-in. A bundled id
    is never replaced by one of theirs.

    >>> before = dict(_GAME_FOLDERS)
    >>> use_game_folders({**before, "toy": EXAMPLE_SURVEY.parent})
    >>> "example_post" in list_surveys()
    True
    >>> use_game_folders(before)
    >>> "example_post" in list_surveys()
    False
    """
    _GAME_FOLDERS.clear()
    _GAME_FOLDERS.update({game: Path(folder) for game, folder in folders.items()})


def _bundled() -> dict[str, Path]:
    """Bundled survey id -> file: the game-independent ones, then every game's (the lab's
    games', then those of the games given by :func:`use_game_folders`)."""
    found: dict[str, Path] = {}
    for path in [*DEFAULTS_DIR.glob("*.yaml"), *GAMES_DIR.glob("*/*.yaml"),
                 *(p for folder in _GAME_FOLDERS.values() for p in sorted(folder.glob("*.yaml")))]:
        found.setdefault(path.stem, path)
    return found


def survey_file(survey_id: str) -> Path | None:
    """The file of a bundled survey (None: no bundled survey of that id).

    >>> survey_file("example_post") is None
    True
    """
    return _bundled().get(survey_id)


def list_surveys() -> list[str]:
    """Ids of the bundled surveys (``surveys/defaults/``, ``surveys/games/<game>/`` and
    the folders of configured games: :func:`use_game_folders`)."""
    return sorted(_bundled())


def load_survey(survey_id_or_path: str | Path) -> SurveyDefinition:
    """A bundled survey by id (``"<game>_pre"``) or a YAML/JSON file by path.

    Parsed definitions are cached per (path, modification time, size), so calling this
    on every Streamlit rerun is cheap and an edited file is re-read.
    """
    name = str(survey_id_or_path)
    bundled = _bundled().get(name) if "/" not in name else None
    path = bundled if bundled is not None and bundled.is_file() else Path(name)
    try:
        stat = path.stat()
    except OSError:
        raise SurveyDefinitionError(
            name, None, f"no such survey file or bundled id (bundled: {', '.join(list_surveys())})") from None
    if not path.is_file():
        raise SurveyDefinitionError(name, None, "not a file")
    return _load_cached(str(path.resolve()), stat.st_mtime_ns, stat.st_size, str(path))


@functools.lru_cache(maxsize=64)
def _load_cached(resolved: str, mtime_ns: int, size: int, shown: str) -> SurveyDefinition:
    try:
        text = Path(resolved).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SurveyDefinitionError(shown, None, f"cannot read: {exc}") from None
    return parse_survey(text, source=shown)


def parse_survey(text: str, *, source: str = "<string>") -> SurveyDefinition:
    """Parse YAML (JSON is YAML) text into a checked definition."""
    try:
        data = yaml.load(text, Loader=_YAML_LOADER)  # a safe loader (C version when available)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise SurveyDefinitionError(source, None, f"not valid YAML{at}") from None
    return survey_from_data(data, source=source)


#: The keys of a definition that extends a bundled one (:func:`extended`).
EXTENSION_KEYS = frozenset(SurveyExtension.model_fields)


def extended(data: Mapping[str, Any], source: str) -> dict[str, Any]:
    """A definition that ``extends`` a bundled survey, written out whole: the bundled
    survey's pages with ``pages_before`` put first and ``pages_after`` last, under its
    own ``id`` and ``version`` (and ``title``, ``description``, ``phase``, ``audience``
    when given; else the bundled one's). Only a bundled survey can be extended (never a
    file path), so a definition read from elsewhere reads no other file; and only one that
    extends none (no chain, no loop).

    >>> base = list_surveys()[0]
    >>> whole = extended({"extends": base, "id": "x", "version": "1",
    ...                   "pages_after": [{"id": "extra", "items": [{"id": "i", "type": "info"}]}]},
    ...                  "<doc>")
    >>> whole["pages"][-1]["id"], whole["title"] == load_survey(base).title
    ('extra', True)
    """
    unknown = sorted(set(data) - EXTENSION_KEYS)
    if unknown:
        raise SurveyDefinitionError(source, None, f"a survey that extends another takes only "
                                    f"{', '.join(sorted(EXTENSION_KEYS))}; not {', '.join(unknown)}")
    base_id = data.get("extends")
    if not isinstance(base_id, str) or base_id not in _bundled():
        raise SurveyDefinitionError(source, None, f"extends {base_id!r}: not a bundled survey "
                                    f"(bundled: {', '.join(list_surveys())})")
    raw = yaml.load(_bundled()[base_id].read_text(encoding="utf-8"), Loader=_YAML_LOADER)
    if isinstance(raw, Mapping) and "extends" in raw:
        raise SurveyDefinitionError(source, None, f"extends {base_id!r}, which extends "
                                    f"{raw['extends']!r} itself: extend that one instead")
    base = load_survey(base_id).model_dump(mode="json", by_alias=True, exclude_none=True)
    whole = {key: data[key] if key in data else base.get(key)
             for key in ("id", "version", "title", "description", "phase", "audience")}
    before, after = data.get("pages_before") or [], data.get("pages_after") or []
    if not isinstance(before, list) or not isinstance(after, list):
        raise SurveyDefinitionError(source, None, "pages_before and pages_after are lists of pages")
    whole["pages"] = [*before, *base["pages"], *after]
    return {key: value for key, value in whole.items() if value is not None}


def survey_from_data(data: Any, *, source: str = "<data>") -> SurveyDefinition:
    if not isinstance(data, Mapping):
        raise SurveyDefinitionError(source, None, "the top level must be a mapping with id, version, title, pages")
    if "extends" in data:
        data = extended(data, source)
    _precheck_types(data, source)
    try:
        definition = SurveyDefinition.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        item_id, depth = _item_id_at(data, loc)
        field = ".".join(str(p) for p in loc[depth:] if _is_field_name(p))
        msg = err["msg"].removeprefix("Value error, ")
        raise SurveyDefinitionError(source, item_id, f"{field}: {msg}" if field else msg) from None
    check_semantics(definition, source)
    return definition


_UNION_TAGS = set(ITEM_TYPES) | {"Condition", "AllOf", "AnyOf"}
_TYPE_TAGS = {"str", "int", "float", "bool", "none"}


def _is_field_name(part: Any) -> bool:
    """Keep field names from a pydantic error path; drop list indexes and union tags."""
    text = str(part)
    return not isinstance(part, int) and text not in _UNION_TAGS and text not in _TYPE_TAGS \
        and "[" not in text and "-" not in text


def _precheck_types(data: Mapping[str, Any], source: str) -> None:
    """Name unknown item types plainly (pydantic's union error is verbose)."""
    for page in data.get("pages") or []:
        if not isinstance(page, Mapping):
            continue
        for item in page.get("items") or []:
            if isinstance(item, Mapping):
                kind = item.get("type")
                if kind not in ITEM_TYPES:
                    raise SurveyDefinitionError(
                        source, str(item.get("id", "?")),
                        f"unknown type {kind!r} (known: {', '.join(ITEM_TYPES)})")


def _item_id_at(data: Any, loc: tuple[Any, ...]) -> tuple[str | None, int]:
    """The id of the innermost page/item/row mapping along a pydantic error path, and
    how many path parts lead to it (the rest names the field)."""
    found: str | None = None
    depth = 0
    node = data
    for n, part in enumerate(loc, start=1):
        if part in _UNION_TAGS and isinstance(node, Mapping) and part not in node:
            continue  # pydantic's tag for a union member, not a key of the data
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, Mapping) and "id" in node:
            found, depth = str(node["id"]), n
    return found, depth


def check_semantics(definition: SurveyDefinition, source: str = "<definition>") -> None:
    """Cross-item rules pydantic cannot see on one item.

    - ids (pages, items, matrix rows) are unique;
    - ``show_if`` and ``{answer:…}`` piping refer only to answers on *earlier pages*
      (a page is one ``st.form``: nothing on it is known until it is submitted);
    - quiz ``correct`` values are options; instrument tags name a known instrument.
    """
    from surveys.instruments import INSTRUMENTS  # local: instruments imports model only

    seen: set[str] = set()
    page_ids: set[str] = set()
    answered_before: set[str] = set()
    all_answer_ids = set(definition.answer_ids())
    tags: set[tuple[str, int]] = set()
    for page in definition.pages:
        if page.id in page_ids:
            raise SurveyDefinitionError(source, page.id, "duplicate page id")
        page_ids.add(page.id)
        probes = [it for it in page.items if isinstance(it, FluencyProbe)]
        if probes and len(probes) + sum(isinstance(it, InfoBlock) for it in page.items) \
                != len(page.items) or len(probes) > 1:
            raise SurveyDefinitionError(source, probes[0].id, "a fluency probe fills a page of "
                                        "its own (info blocks may stand above it)")
        if page.show_if is not None:
            _check_refs(page.show_if, answered_before, all_answer_ids, source, page.id)
        on_page: list[str] = []
        for item in page.items:
            ids = [item.id] + ([r.id for r in item.rows] if isinstance(item, Matrix) else [])
            for i in ids:
                if i in seen:
                    raise SurveyDefinitionError(source, i, "duplicate id")
                seen.add(i)
            if item.show_if is not None:
                _check_refs(item.show_if, answered_before, all_answer_ids, source, item.id)
            texts = [item.text, item.help or ""] + [o.label for o in getattr(item, "options", [])]
            for text in texts:
                for m in PIPE_PATTERN.finditer(text):
                    if m.group(1) == "answer":
                        _check_ref_id(m.group(2), answered_before, all_answer_ids, source, item.id, "piping")
            if isinstance(item, SingleChoice) and item.correct is not None \
                    and item.correct not in [o.value for o in item.options]:
                raise SurveyDefinitionError(source, item.id, f"correct value {item.correct!r} is not an option")
            if isinstance(item, MultipleChoice) and item.correct is not None \
                    and any(c not in [o.value for o in item.options] for c in item.correct):
                raise SurveyDefinitionError(source, item.id, "a correct value is not an option")
            units: list[Any] = list(item.rows) if isinstance(item, Matrix) else [item]
            for unit in units:
                if unit.instrument is None:
                    continue
                spec = INSTRUMENTS.get(unit.instrument)
                if spec is None:
                    raise SurveyDefinitionError(source, unit.id, f"unknown instrument {unit.instrument!r}")
                if unit.index is None or not 1 <= unit.index <= spec.n_items:
                    raise SurveyDefinitionError(source, unit.id, f"instrument {spec.id} needs index 1..{spec.n_items}")
                if (unit.instrument, unit.index) in tags:
                    raise SurveyDefinitionError(source, unit.id, f"{spec.id} item {unit.index} appears twice")
                tags.add((unit.instrument, unit.index))
                shuffled = item.randomize if isinstance(item, Matrix) else getattr(item, "randomize", False)
                if shuffled and not spec.shuffle_allowed:
                    raise SurveyDefinitionError(source, item.id, f"{spec.id} is given in its fixed order: remove randomize")
            on_page.extend(ids)
        answered_before.update(on_page)


def _check_refs(cond: Any, before: set[str], every: set[str], source: str, owner: str) -> None:
    for ref in condition_items(cond):
        _check_ref_id(ref, before, every, source, owner, "show_if")


def _check_ref_id(ref: str, before: set[str], every: set[str], source: str, owner: str, what: str) -> None:
    if ref in before:
        return
    if ref in every:
        raise SurveyDefinitionError(
            source, owner, f"{what} refers to {ref!r}, which is not on an earlier page "
            "(conditions and piping can only use answers from earlier pages)")
    raise SurveyDefinitionError(source, owner, f"{what} refers to {ref!r}, which does not exist")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the definition format (published as survey.schema.json)."""
    whole = SurveyDefinition.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
    extension = SurveyExtension.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
    defs = {**whole.pop("$defs", {}), **extension.pop("$defs", {})}
    defs["SurveyDefinition"], defs["SurveyExtension"] = whole, extension
    # A whole definition, or a bundled one plus pages (``extends``).
    schema: dict[str, Any] = {"title": "SurveyDefinition", "$defs": defs, "anyOf": [
        {"$ref": "#/$defs/SurveyDefinition"}, {"$ref": "#/$defs/SurveyExtension"}]}
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = SCHEMA_ID
    return schema


def json_schema_text() -> str:
    return json.dumps(json_schema(), indent=2, ensure_ascii=False, sort_keys=True) + "\n"
