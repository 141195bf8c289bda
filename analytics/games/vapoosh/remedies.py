"""Vapoosh!'s remedies: the follow-up experiments its confusion points call for.

>>> [r.target for r in REMEDIES]
['ui:highlight_options']
"""

from __future__ import annotations

from analytics.remedies import Remedy

REMEDIES: tuple[Remedy, ...] = (
    Remedy(fits=("rule:empty_priority", "rule:own_tile", "rule:brown", "rule:suicide",
                 "rule:brown_compulsory"),
           target="ui:highlight_options", control=False, challenger=True,
           title="Highlight the tiles a counter may go on",
           why="Testers click tiles the rules forbid now (a capture while empty tiles are "
               "left, their own tile); ringing the allowed tiles shows the rule."),
)
