"""Analytics tables as people read them on the designer's pages: column names in words,
rates as whole percents, numbers rounded, evidence beside each confusion point.

>>> import pandas as pd
>>> people_table(pd.DataFrame({"key": ["extra_turn"], "trouble_rate": [0.4567]}),
...              AFTERMATH_NAMES).to_dict("records")
[{'Message': 'extra_turn', 'Trouble after it': '46%'}]
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pandas as pd

from analytics import confusion


def confusion_points_table(points: list[confusion.ConfusionPoint]) -> pd.DataFrame:
    """The ranked points as people read them: names, rounded numbers, evidence."""
    rows = []
    for rank, point in enumerate(points, start=1):
        evidence = point.evidence
        low, high = point.interval or (math.nan, math.nan)
        rows.append({  # what a designer acts on first, the numbers behind it after
            "Rank": rank, "Confusion point": point.label,
            "Severity": round(point.score, 2), "What to do": point.action,
            "Evidence": confusion.evidence_text(point.to_json()),
            "Trouble rate (shrunk, 95 % interval)":
                f"{evidence.get('shrunk_rate', 0):.0%} [{low:.0%}, {high:.0%}]",
            "Testers affected": f"{evidence.get('testers_affected')} of "
                                f"{evidence.get('testers')}",
            "Occasions": evidence.get("occasions"), "Definition": point.definition})
    return pd.DataFrame(rows)


AFTERMATH_NAMES = {"key": "Message", "variant": "Wording", "text": "What it says",
                    "shown": "Shown", "participants": "Testers",
                    "trouble_rate": "Trouble after it",
                    "baseline_trouble_rate": "Trouble on turns not after it",
                    "hesitation_after_ms": "Mean pause after (ms)",
                    "hesitation_all_ms": "Mean pause, all turns (ms)",
                    "wrong_per_turn_after": "Wrong clicks in the next turn",
                    "wrong_per_turn_all": "Wrong clicks per turn", "rules_opened":
                    "Rules lookups from it"}
OVERLAY_NAMES = {"context": "Opened after message", "opens": "Opens",
                  "participants": "Testers", "median_open_s": "Median time open (s)"}
THEME_NAMES = {"item": "Question", "polarity": "Asks for", "theme": "Theme",
               "negative": "A problem", "answers": "Answers", "share": "Share of answers"}
_PERCENT_COLUMNS = {"Share of answers", "Wrong rate", "Shrunk rate", "95 % low", "95 % high",
                    "Trouble after it", "Trouble on any turn"}


def people_table(frame: pd.DataFrame, names: dict[str, str]) -> pd.DataFrame:
    """The columns named in ``names``, renamed for people; rates as whole percents,
    other numbers rounded."""
    shown = frame[[c for c in names if c in frame.columns]].rename(columns=names)
    for column in shown.columns:
        if column in _PERCENT_COLUMNS:
            shown[column] = pd.to_numeric(shown[column], errors="coerce").map(
                lambda v: "–" if pd.isna(v) else f"{v:.0%}")
        elif pd.api.types.is_float_dtype(shown[column]):
            shown[column] = shown[column].round(2 if shown[column].abs().max() < 10 else 0)
    return shown


def replay_log(timeline: list[dict[str, Any]], zone: str | None) -> pd.DataFrame:
    """A replay's timeline (``at`` ISO times in UTC, ``what`` in words) as the Replay page
    shows it: the time on the designer's clock (``zone``, the browser's time zone; UTC
    when it is unknown), then what happened.

    >>> replay_log([{"at": "2026-01-01T09:00:05.120Z", "event": "page",
    ...              "what": "Page: consent"}], "Europe/Berlin").to_dict("records")
    [{'Time (Europe/Berlin)': '10:00:05', 'What happened': 'Page: consent'}]
    """
    try:
        tz = ZoneInfo(zone) if zone else UTC
    except (ZoneInfoNotFoundError, ValueError):
        tz = UTC
    name = zone if tz is not UTC else "UTC"
    times = [datetime.fromisoformat(str(row["at"]).replace("Z", "+00:00")).astimezone(tz)
             for row in timeline]
    days = {t.date() for t in times}
    shown = "%d %b %H:%M:%S" if len(days) > 1 else "%H:%M:%S"
    return pd.DataFrame({f"Time ({name})": [t.strftime(shown) for t in times],
                         "What happened": [str(row.get("what", "")) for row in timeline]})
