"""Command line: ``score``, ``check``, ``schema``.

- ``python -m surveys score FILE|-``: JSON list of ``{"instrument", "answers"}`` in,
  JSON list of ``{"instrument", "score", "scales", "grade", "notes"}`` out.
  Optional per entry: ``"options"`` (e.g. ``{"missing": "prorate"}`` for SUS).
- ``python -m surveys check FILE.yaml``: exit 0 with a one-line summary, or 2 with
  ``FILE: item ID: what is wrong``.
- ``python -m surveys schema``: the JSON Schema of the definition format.

Every failure is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from surveys.instruments import InstrumentAnswerError, score
from surveys.loader import SurveyDefinitionError, json_schema_text, load_survey
from surveys.model import Matrix


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> Any:  # one line, exit 2, no usage dump
        sys.stderr.write(f"surveys: {message}\n")
        raise SystemExit(2)


def _fail(message: str) -> int:
    sys.stderr.write(message.replace("\n", " ") + "\n")
    return 2


def _score(source: str) -> int:
    name = "<stdin>" if source == "-" else source
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        return _fail(f"{name}: cannot read: {exc.__class__.__name__}: {exc}")
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as exc:
        return _fail(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}")
    if not isinstance(entries, list):
        return _fail(f"{name}: expected a JSON list of {{\"instrument\": id, \"answers\": [...]}}")
    out = []
    for n, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict) or "instrument" not in entry or "answers" not in entry:
            return _fail(f"{name}: entry {n}: needs \"instrument\" and \"answers\"")
        options = entry.get("options") or {}
        if not isinstance(options, dict):
            return _fail(f"{name}: entry {n}: \"options\" must be an object")
        try:
            result = score(str(entry["instrument"]), entry["answers"], **options)
        except InstrumentAnswerError as exc:
            return _fail(f"{name}: entry {n}: {exc}")
        out.append(result.to_json())
    json.dump(out, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def _check(path: str) -> int:
    try:
        d = load_survey(path)
    except SurveyDefinitionError as exc:
        return _fail(str(exc))
    n_items = sum(1 for _ in d.items())
    n_rows = sum(len(it.rows) for _, it in d.items() if isinstance(it, Matrix))
    print(f"{path}: ok: {d.id} {d.version}, {len(d.pages)} pages, {n_items} items "
          f"({n_rows} matrix rows), {len(d.answer_ids())} answers, hash {d.content_hash[:12]}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = _Parser(prog="python -m surveys", description="Survey definitions and instrument scoring.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_score = sub.add_parser("score", help="score instrument answers (JSON list) from FILE or - (stdin)")
    p_score.add_argument("file")
    p_check = sub.add_parser("check", help="validate a survey definition (YAML or JSON)")
    p_check.add_argument("file")
    sub.add_parser("schema", help="print the JSON Schema of the definition format")
    args = parser.parse_args(argv)
    if args.command == "score":
        return _score(args.file)
    if args.command == "check":
        return _check(args.file)
    sys.stdout.write(json_schema_text())
    return 0
