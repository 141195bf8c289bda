"""Vasco's remedies: the follow-up experiments its confusion points call for.

>>> [r.target for r in REMEDIES]
['message:wrong_no_contact', 'message:wrong_centre_first']
"""

from __future__ import annotations

from analytics.remedies import Remedy

REMEDIES: tuple[Remedy, ...] = (
    Remedy(fits=("rule:no_contact",), target="message:wrong_no_contact",
           control="default", challenger="formal",
           title="Name the space that touches no tile",
           why="Testers place tiles away from the others; the other wording names the "
               "space they chose, so the contact rule is tied to their own click."),
    Remedy(fits=("rule:centre_first",), target="message:wrong_centre_first",
           control="default",
           challenger="Start in the middle: the first tile goes on the centre of the table.",
           title="Point to the centre for the first tile",
           why="Testers open the game with a tile away from the centre; a refusal that "
               "says where to start, in a few words, shows the opening rule at once."),
)
