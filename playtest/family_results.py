"""A study family's "Did it work?" (issue 26, item 3), as the designer's pages and the
plan read it: every version's data from the database, the confusion points the family's
follow-up experiments were made to fix (their ``targets``), each followed across the
versions and arms (:func:`analytics.did_it_work.did_it_work`), and what a version changed
from the one before it (:func:`analytics.did_it_work.settings_changes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from analytics.data import StudyData
from analytics.did_it_work import PointReport, did_it_work, settings_changes
from playtest import services
from playtest.storage import repository as repo
from playtest.study_data import load_bundle


@dataclass(frozen=True)
class Version:
    """One version of the family: its number, study id, title and consented testers."""

    number: int
    study_id: str
    title: str
    testers: int


@dataclass(frozen=True)
class FamilyResults:
    """The family of one study: its versions in order, the points its follow-ups
    target, each point's report, and what the study's own version changed from the
    version before it (empty for version 1)."""

    family: str
    version: int
    versions: tuple[Version, ...]
    points: tuple[str, ...]
    reports: tuple[PointReport, ...]
    changes: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """The plan's ``family`` record (JSON-safe)."""
        return {"family": self.family, "version": self.version,
                "versions": [{"version": v.number, "study_id": v.study_id,
                              "testers": v.testers} for v in self.versions],
                "changes": list(self.changes),
                "did_it_work": [r.to_json() for r in self.reports]}


def targeted_points(configs: Iterable[Mapping[str, Any]]) -> list[str]:
    """The confusion points the studies' experiments were made to fix (``targets``),
    each once, in the order the versions name them.

    >>> targeted_points([{"experiments": []}, {"experiments": [
    ...     {"key": "fix_a", "targets": "rule:a"}, {"key": "other"}]},
    ...     {"experiments": [{"key": "fix_b", "targets": ["rule:b", "rule:a"]}]}])
    ['rule:a', 'rule:b']
    """
    found: dict[str, None] = {}
    for config in configs:
        for experiment in config.get("experiments") or []:
            if not isinstance(experiment, Mapping):
                continue
            targets = experiment.get("targets")
            names = [targets] if isinstance(targets, str) else (
                targets if isinstance(targets, list | tuple) else [])
            found.update((str(name), None) for name in names if name)
    return list(found)


def family_results(engine: Engine, study: repo.Study,
                   load: Callable[[str], StudyData] | None = None) -> FamilyResults | None:
    """``study``'s family followed across its versions, or None when there is nothing
    to compare: a study alone in its family whose experiments target no point.

    ``load``: a version's data by study id (default: :func:`playtest.study_data.
    load_bundle`; the pages pass their cached loader). Two studies that claim one
    version number (an import can bring them): the first made counts.
    """
    members: dict[int, repo.Study] = {}
    for member in services.study_family(engine, study):  # by version, then age
        members.setdefault(services.family_version(member), member)
    if study.study_id not in {m.study_id for m in members.values()}:
        members[services.family_version(study)] = study  # it is the one shown
    ordered = [members[number] for number in sorted(members)]
    configs = [m.config if isinstance(m.config, Mapping) else {} for m in ordered]
    points = targeted_points(configs)
    if len(ordered) < 2 and not points:
        return None
    read = load or (lambda study_id: load_bundle(engine, study_id).data)
    data = [(services.family_version(m), read(m.study_id)) for m in ordered]
    versions = tuple(
        Version(number, m.study_id, m.title,
                int(d.participants["consented_at"].notna().sum()))
        for (number, d), m in zip(data, ordered, strict=True))
    at = next(i for i, m in enumerate(ordered) if m.study_id == study.study_id)
    changes = tuple(settings_changes(configs[at - 1], configs[at])) if at > 0 else ()
    return FamilyResults(services.family_id(study), services.family_version(study), versions,
                         tuple(points), tuple(did_it_work(data, points)), changes)
