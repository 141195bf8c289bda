"""The tester's way through a study: stages in order, forward only.

>>> next_stage("consent"), next_stage("post_survey")
('pre_survey', 'done')
>>> can_advance("play", "done")
False
"""

from __future__ import annotations

STAGES: tuple[str, ...] = ("consent", "pre_survey", "play", "post_survey", "done")


def next_stage(stage: str) -> str:
    index = STAGES.index(stage)
    return STAGES[min(index + 1, len(STAGES) - 1)]


def can_advance(current: str, new: str) -> bool:
    """Only one step forward at a time; never back."""
    return STAGES.index(new) == STAGES.index(current) + 1
