"""Benchmark: ``python -m benchmarks.bench_analytics --testers 10000`` prints seconds per function.

The input is :func:`analytics.synth.synthesize_study` (≈100 events per tester). The one-off
derivation (``analytics.derive.prepare``) is timed first, then every page-facing function
on the prepared data, then ``build_report`` cold (fresh StudyData) and warm.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from analytics import confusion, derive, experiments, funnel, questionnaires, report
from analytics.data import StudyData
from analytics.game_analytics import for_study
from analytics.synth import synthesize_scores_and_quiz, synthesize_study


def _time(label: str, call: Callable[[], Any]) -> float:
    start = time.perf_counter()
    call()
    seconds = time.perf_counter() - start
    print(f"{label:<40} {seconds:8.3f} s")
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--testers", type=int, default=10_000)
    parser.add_argument("--turns", type=int, default=27)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.testers < 1 or args.turns < 1:
        print("error: --testers and --turns must be at least 1", file=sys.stderr)
        return 2
    start = time.perf_counter()
    data = synthesize_study(args.testers, seed=args.seed, turns=args.turns)
    scores, quiz = synthesize_scores_and_quiz(data, seed=args.seed)
    print(f"synthesised {len(data.events):,} events of {args.testers:,} testers in "
          f"{time.perf_counter() - start:.1f} s")

    def fresh() -> StudyData:
        return StudyData(study=data.study, participants=data.participants,
                         assignments=data.assignments, events=data.events,
                         responses=data.responses)

    game = for_study(data)
    checks: list[tuple[str, Callable[[StudyData], Any]]] = [
        ("funnel", funnel.funnel),
        ("wrong_clicks_by_reason", confusion.wrong_clicks_by_reason),
        # the game's own charts and report sections (heatmaps, facts …)
        *((f"chart: {chart.name}", chart.build) for chart in game.charts),
        *((f"section: {section.key}",
           lambda d, rows=section.rows: rows(d, 10, 5)) for section in game.sections),
        ("message_aftermath", confusion.message_aftermath),
        ("rules_overlay_use", confusion.rules_overlay_use),
        ("confusion_points", confusion.confusion_points),
        ("analyze_experiments", lambda d: experiments.analyze_experiments(d, scores, quiz)),
        ("filter_study (variant B)", lambda d: funnel.filter_study(
            d, experiment="extra_turn_copy", variants=["B"])),
    ]
    cold = fresh()
    print("-- once per loaded study: derive.prepare (props expansion, turns, clicks)")
    _time("derive.prepare", lambda: derive.prepare(cold))
    print("-- page functions on the prepared StudyData")
    for label, check in checks:
        _time(label, partial(check, cold))
    _time("gc.collect() (why Holm avoids statsmodels)", gc.collect)
    print("-- questionnaires")
    variants = experiments.participant_variants(data, "extra_turn_copy")
    _time("instrument_summary (by variant)",
          lambda: questionnaires.instrument_summary(scores, variants))
    _time("quiz_correctness (by variant)",
          lambda: questionnaires.quiz_correctness(quiz, variants))
    _time("free_text (search 'rules')", lambda: questionnaires.free_text(data.responses,
                                                                         "rules"))
    _time("theme_counts", lambda: questionnaires.theme_counts(data.responses))
    print("-- report")
    built: dict[str, Any] = {}
    _time("build_report (fresh StudyData, cold)",
          lambda: built.update(report.build_report(fresh(), scores, quiz)))
    _time("build_report (prepared StudyData)",
          lambda: report.build_report(cold, scores, quiz))
    figs: dict[str, Any] = {}
    _time("report_figures", lambda: figs.update(report.report_figures(cold, built)))
    # Python's cyclic GC rescans the million event dicts on every full collection; after
    # loading, gc.freeze() takes them out of its scans (see streamlit-notes.md).
    gc.collect()
    gc.freeze()
    print("-- after gc.freeze() of the loaded study")
    for label, check in checks:
        _time(label, partial(check, cold))
    _time("build_report (prepared StudyData)",
          lambda: report.build_report(cold, scores, quiz))
    _time("report_figures", lambda: figs.update(report.report_figures(cold, built)))
    _time("report_markdown", lambda: report.report_markdown(built, figs))
    _time("report_html", lambda: report.report_html(built, figs))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
