"""An experiment's verdict in one plain sentence: which variant, on what, by how much,
and the guardrails that disagree said as a caution.

:func:`plain_summary` words an :class:`analytics.experiments.ExperimentResult` (the
``summary`` of the report JSON and of the Experiments page). Which guardrails count as
worse is the experiment analysis's (``ExperimentResult.guardrails``); this module only
says it:

- a better variant: ``B is better than A on response time after the message: −1.2 s
  [−2.0, −0.4].``; by a real difference smaller than the one worth acting on, that is
  said, and that either will do;
- no difference, too few testers, no variance: what that means and, for too few, how
  many testers each variant needs;
- a guardrail a variant is worse on: ``Caution: B is worse on completion: −14.3 pp
  [−30.0, −1.0].`` when it disagrees with the verdict (the better variant is worse on
  it, or no variant is better); one worse for the losing variant agrees and is not
  repeated.

>>> from types import SimpleNamespace as N
>>> from analytics.metrics import metric_by_key
>>> primary = N(metric=metric_by_key("response_time"), compared=("A", "B"),
...             no_variance=False, effect=-1.2, sequential=object(),
...             effect_text=lambda: "−1.2 s [−2.0, −0.4]")
>>> print(plain_summary(N(primary_result=primary, verdict="B better", min_effect=1.0,
...                       n_needed=None, guardrails=[])))
B is better than A on response time after the message: −1.2 s [−2.0, −0.4].
"""

from __future__ import annotations

from typing import Any

#: The verdicts of :func:`analytics.experiments.decide` (its words).
TOO_FEW = "too few participants"
NO_DIFFERENCE = "no difference"


def plain_summary(result: Any) -> str:
    """The verdict of ``result`` (an ``ExperimentResult``) in one plain sentence, with
    a caution per guardrail that disagrees (module docstring)."""
    primary = result.primary_result
    if primary is None:
        return f"{result.verdict}: no metric could be measured yet."
    metric = primary.metric.name.lower()
    if primary.no_variance:
        return (f"{result.verdict}: {metric} is the same for every tester so far (no "
                "variance), so it cannot be tested yet.")
    control, treatment = (str(name) for name in primary.compared)
    effect = f"{treatment} − {control} = {primary.effect_text()}"
    worth = primary.metric.format_size(result.min_effect)
    winner = result.verdict.removesuffix(" better") \
        if result.verdict.endswith(" better") else None
    if winner is not None:
        loser = control if winner == treatment else treatment
        text = f"{winner} is better than {loser} on {metric}: {primary.effect_text()}"
        if primary.sequential is not None and abs(primary.effect) < result.min_effect:
            text = (f"{winner} is better than {loser} on {metric}, but by less than the "
                    f"{worth} worth acting on ({primary.effect_text()}): either will do")
    elif result.verdict == NO_DIFFERENCE:
        text = (f"No difference worth acting on between {control} and {treatment} on "
                f"{metric}: {effect}, within the {worth} worth acting on")
    else:
        text = (f"Too few testers yet to tell {control} and {treatment} apart on "
                f"{metric}: {effect}")
        text += (f"; about {result.n_needed} testers per variant are needed to see a "
                 f"difference of {worth}" if result.n_needed
                 else "; not enough spread yet to say how many more")
    cautions = [guard for guard in result.guardrails
                if winner is None or guard.worse == winner]
    for guard in cautions:
        text += (f". Caution: {guard.worse} is worse on {guard.metric.name.lower()}: "
                 f"{guard.effect_text()}")
    return text + "."
