"""Dokusen's remedies: the follow-up experiments its confusion points call for.

>>> [r.target for r in REMEDIES]
['message:refused_own_square']
"""

from __future__ import annotations

from analytics.remedies import Remedy

REMEDIES: tuple[Remedy, ...] = (
    Remedy(fits=("rule:own_square",), target="message:refused_own_square",
           control="default", challenger="formal",
           title="Say plainly that the square is already owned",
           why="Testers click their own squares; the shorter wording says the rule "
               "('you already own it') without a list of what to do instead."),
)
