"""The Studies form's part for remote studies: the recruitment panel testers come from
and go back to, and the number of complete testers wanted. The fields only gather
(:class:`playtest.panels.RemoteForm`); saving the study checks them."""

from __future__ import annotations

from typing import Any

import streamlit as st

from playtest.panels import PANEL_CHOICES, PanelConfig, RemoteForm, panel_link
from playtest.study_config import StudyConfig

HELP_CODE = ("Prolific shows it under \"Study completion\" (\"I'll redirect them using a "
             "URL\"): testers who finish are sent to Prolific with it.")
HELP_SCREENOUT = ("Optional: a Prolific code for testers who decline (or find the study "
                  "full); they are sent back with it. Empty: they are only told so.")
HELP_URL = ("Where a tester who finished goes back to, https:// only; {pid} stands for "
            "their participant id on that panel.")
HELP_QUOTA = ("0: no limit. Otherwise, once this many testers have completed or are "
              "playing, new arrivals read \"This study is full\".")
HELP_HOLD = ("A tester who agreed holds a place this long; after that, unless they "
             "completed, their place goes to the next arrival.")


def remote_values(config: StudyConfig) -> dict[str, Any]:
    """The fields' start values (the study's panel and quota), by widget name."""
    form = RemoteForm.of(config.panel, config.quota)
    return {"panel": form.panel, "pcode": form.completion_code,
            "pscreen": form.screenout_code, "purl": form.completion_url,
            "psurl": form.screenout_url, "ponly": form.panel_only,
            "quota": form.completes, "hold": form.hold_minutes}


def remote_fields(key: str) -> RemoteForm:
    """The fields, drawn inside the study's form (values in the session's state)."""
    st.markdown("**Remote study: recruitment panel and quota**")
    kind = st.selectbox("Recruitment panel", list(PANEL_CHOICES), key=f"panel-{key}",
                        format_func=PANEL_CHOICES.__getitem__,
                        help="Where testers are recruited: their panel id comes in the "
                             "link, and they are sent back at the end.")
    cols = st.columns(2)
    code = cols[0].text_input("Prolific completion code", key=f"pcode-{key}", help=HELP_CODE)
    screen = cols[1].text_input("Prolific screen-out code", key=f"pscreen-{key}",
                                help=HELP_SCREENOUT)
    url = cols[0].text_input("Completion address (another panel)", key=f"purl-{key}",
                             help=HELP_URL)
    screen_url = cols[1].text_input("Screen-out address (another panel)", key=f"psurl-{key}",
                                    help=HELP_URL)
    only = st.checkbox("Only testers who come from the panel", key=f"ponly-{key}",
                       help="A link without a panel id is then refused.")
    cols = st.columns(2)
    completes = cols[0].number_input("Complete testers wanted", 0, 100_000,
                                     key=f"quota-{key}", help=HELP_QUOTA)
    hold = cols[1].number_input("Minutes a place is held", 5, 7 * 24 * 60,
                                key=f"hold-{key}", help=HELP_HOLD)
    return RemoteForm(panel=kind, completion_code=code, screenout_code=screen,
                      completion_url=url, screenout_url=screen_url, panel_only=only,
                      completes=int(completes), hold_minutes=int(hold))


def panel_link_note(link: str, panel: PanelConfig | None) -> None:
    """Under a study's link: the link to give its panel (with the panel's parameters)."""
    if panel is None:
        return
    where = ("Prolific's \"Study URL\"" if panel.kind == "prolific" else
             "the panel (replace PARTICIPANT_ID with its placeholder for the participant id)")
    st.write(f"The link for {where}:")
    st.code(panel_link(link, panel), language=None, wrap_lines=True)
