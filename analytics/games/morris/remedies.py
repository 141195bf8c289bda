"""Bricks & Walls' remedies: the follow-up experiments its confusion points call for.

>>> [r.target for r in REMEDIES]
['ui:highlight_options', 'ui:highlight_options', 'message:refused_walled']
"""

from __future__ import annotations

from analytics.remedies import Remedy

REMEDIES: tuple[Remedy, ...] = (
    Remedy(fits=("rule:walled", "rule:remove_own", "rule:remove_empty"),
           target="ui:highlight_options", control=False, challenger=True,
           title="Highlight the bricks that may be taken",
           why="Testers click walled or own bricks during a removal; ringing the bricks "
               "they may take shows the rule at the moment it applies."),
    Remedy(fits=("rule:occupied", "rule:select_first", "rule:not_yours",
                 "rule:not_adjacent", "rule:no_moves"),
           target="ui:highlight_options", control=False, challenger=True,
           title="Ring the points a click may choose",
           why="Testers click taken points, the other player's bricks or points a brick "
               "cannot reach; ringing the free points while placing, then the bricks "
               "that can move and their destinations, shows the rule at the moment it "
               "applies."),
    Remedy(fits=("rule:walled",), target="message:refused_walled", control="default",
           challenger="formal", title="Say why a walled brick stays",
           why="The refusal names the rule ('walled and cannot be removed') instead of "
               "only asking for another brick."),
)
