"""Text people wrote is shown as text, never as Markdown or HTML, on every page and in the
plan (issue 25 item 5): a study title with an image made the designer's browser fetch an
outside address, a link rendered, and a right-to-left override reversed the id shown after
it. The probe's strings go in through a study's title, its variants' names and a tester's
answer; every page (AppTest) and both plan files are read back."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from analytics.report import build_report, report_html, report_markdown
from analytics.text_safety import LINK_BREAK
from playtest import demo, services
from playtest.storage import repository as repo
from playtest.storage.db import make_engine, upgrade
from playtest.study_config import Experiment, StudyConfig
from playtest.study_data import load_bundle

ROOT = Path(__file__).resolve().parents[2]
PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")
START_APP = str(Path(__file__).parent / "apps" / "start_page.py")
IMAGE = "![x](http://x.example/a.png)"
LINK = "[here](http://x.example/b)"
RLO = "\u202e"
TITLE = f"{IMAGE} {LINK} Plan{RLO} 12"
VARIANTS = {f"A {IMAGE}": "default", f"B {LINK}": "formal"}
ANSWER = f"It was {IMAGE} fun {LINK} {RLO}ok"
STUDY = "probe"
PAGES = ["studies", "overview", "confusion", "questionnaires", "experiments", "replay",
         "balance", "report"]


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A study titled with the probe, whose variants are named with it, with simulated
    testers and one answer carrying it."""
    path = tmp_path_factory.mktemp("probe") / "playtest.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    study = services.create_study(engine, title=TITLE, study_id=STUDY, config=StudyConfig(
        ai_think_ms=0, experiments=[Experiment(key="wording", target="message:extra_turn",
                                               variants=VARIANTS)]))
    demo.generate(engine, 6, seed=3, study=study, workers=1)
    tester = repo.list_participant_ids(engine, STUDY)[0]
    repo.save_responses(engine, tester, "vapoosh_post_short", "1.0.0", None, "post", "open",
                        {"open.confused": ANSWER}, 2.0)
    engine.dispose()
    return path


@pytest.fixture
def app_db(probed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    copy = tmp_path / "playtest.sqlite"
    copy.write_bytes(probed.read_bytes())
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{copy}")
    monkeypatch.chdir(tmp_path)
    yield copy


def _markdown_shown(at: AppTest) -> list[str]:
    """Every text of the page that Streamlit draws as Markdown: body text, headings,
    notices, and the labels of expanders, metrics and widgets."""
    shown = [str(e.value) for kind in ("markdown", "caption", "title", "header",
                                       "subheader", "success", "info", "warning", "error")
             for e in getattr(at, kind)]
    shown += [str(e.label) for e in at.expander] + [str(m.label) for m in at.metric]
    shown += [str(w.label) for kind in ("selectbox", "text_input", "button", "checkbox")
              for w in getattr(at, kind)]
    return shown


def _all_shown(at: AppTest) -> list[str]:
    """Also plain text, options and table cells (where a direction control would still
    turn what follows it around)."""
    shown = _markdown_shown(at) + [str(t.value) for t in at.text] + [
        str(o) for s in at.selectbox for o in s.options]
    shown += [str(c) for df in at.dataframe for c in df.value.astype(str).to_numpy().ravel()]
    return shown


def _markup_in(text: str) -> list[str]:
    """Markdown that would draw an image or a link (a bracket, or a bare address, not
    escaped by a backslash)."""
    return re.findall(r"(?<!\\)!?(?<!\\)\[[^\]]*(?<!\\)\]\(|(?<!\\)https?:(?<!\\)//", text)


def _as_read(markdown: str) -> str:
    """What a reader sees of escaped Markdown: no backslashes, no invisible joiners."""
    return re.sub(r"\\(.)", r"\1", markdown).replace(LINK_BREAK, "")


def _page(name: str) -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=120)
    at.query_params["page"] = name
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = STUDY
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("name", PAGES)
def test_every_designer_page_shows_the_probe_as_text(app_db: Path, name: str) -> None:
    at = _page(name)
    for text in _markdown_shown(at):
        assert not _markup_in(text), (name, text)
    for text in _all_shown(at):
        assert RLO not in text, (name, text)
    if name == "studies":  # the title is there, every character of it, as written
        (label,) = [e.label for e in at.expander if STUDY in e.label]
        assert _as_read(label).startswith(TITLE.replace(RLO, ""))
        assert label.endswith(f" · {STUDY} · open")
    if name == "experiments":
        labels = [m.label for m in at.metric if m.label.startswith("Testers with")]
        assert [_as_read(label) for label in labels] == [
            f"Testers with {v}" for v in VARIANTS]


def test_the_start_page_shows_the_title_as_text(app_db: Path) -> None:
    at = AppTest.from_file(START_APP, default_timeout=60).run()
    assert not at.exception, at.exception
    assert TITLE.replace(RLO, "") in [t.value for t in at.text]
    for text in _all_shown(at):
        assert RLO not in text and not (_markup_in(text) and text in _markdown_shown(at))


def test_the_plan_files_show_the_probe_as_text(app_db: Path) -> None:
    engine = make_engine(f"sqlite:///{app_db}")
    try:
        bundle = load_bundle(engine, STUDY)
    finally:
        engine.dispose()
    report: dict[str, Any] = build_report(bundle.data, bundle.scores, bundle.quiz)
    markdown, page = report_markdown(report), report_html(report)
    assert f"A !\\[x\\](http{LINK_BREAK}://x.example/a.png)" in markdown  # as written
    assert not _markup_in(markdown) and RLO not in markdown
    assert RLO not in page
    assert not re.search(r"<(img|a)\b[^>]*x\.example", page)
    assert "A ![x](http://x.example/a.png)" in page.replace("&#34;", '"')


def test_the_testers_first_page_shows_the_title_as_text(app_db: Path) -> None:
    at = AppTest.from_file(str(ROOT / "playtest" / "app.py"), default_timeout=60)
    at.query_params["study"] = STUDY
    at.run()
    assert not at.exception, at.exception
    assert TITLE.replace(RLO, "") in [t.value for t in at.text]
    for text in _markdown_shown(at):
        assert not _markup_in(text), text
    for text in _all_shown(at):
        assert RLO not in text, text
