"""Vasco's remedies: the follow-up experiments its confusion points call for.

>>> [r.target for r in REMEDIES]
['message:wrong_no_contact']
"""

from __future__ import annotations

from analytics.remedies import Remedy

REMEDIES: tuple[Remedy, ...] = (
    Remedy(fits=("rule:no_contact",), target="message:wrong_no_contact",
           control="default", challenger="formal",
           title="Name the space that touches no tile",
           why="Testers place tiles away from the others; the other wording names the "
               "space they chose, so the contact rule is tied to their own click."),
)
