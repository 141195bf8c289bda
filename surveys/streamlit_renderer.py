"""Render a :class:`~surveys.model.SurveyDefinition` with Streamlit, one ``st.form`` per page.

Usage in an app::

    store = SessionStateStore("pre")              # or the app's database-backed store
    if render_survey(load_survey(study.pre_survey), store, key="pre", rng_seed=participant_seed):
        st.success("Thank you!")

How it behaves

- **Forward only, resumable.** The current page is the first page whose ``show_if``
  holds and that the store has not completed. A reload (new session) resumes there;
  answers typed on an unsubmitted page are not kept (a form sends nothing before submit).
- **Validation on submit**: each refused answer gets its message right under its
  widget (``st.error``); nothing is saved until the whole page passes.
- **Text length**: a text box says how much it keeps ("Up to 2,000 characters.") and
  counts towards it; typing stops there, and Streamlit 1.67's box ignores a paste that
  would go past it (seen in Chromium). A longer value sent by hand is cut to the limit by
  Streamlit's server: an answer at the limit gets a warning at the field and is saved
  when the page is submitted again unchanged.
- **Conditions** (``show_if``) and piping (``{answer:ID}``, ``{study:KEY}``) only use
  answers from earlier pages, which the loader enforces: inside ``st.form`` nothing
  reruns before submit, so a same-page condition could never update.
- **Time per page**: ``time.monotonic()`` from the page's first render in this session
  to its successful submit (kept in ``st.session_state``). After a reload the clock
  restarts at the resumed page's first render; time before the reload is not counted.
- **Plain text only**: every label, option and piped value goes through
  :func:`~surveys.logic.escape_markdown`; HTML is never enabled.
- **Phones**: faces, Likert and 0–10 ratings are horizontal radios that wrap; matrices
  are stacked rows; help is a caption under the widget, not a hover tooltip.
- **Fluency probe** (``fluency_probe``): its page is not a form but the probe's number
  pad (:mod:`surveys.probe_pad`), which sends every answer at once when the time runs
  out or the last question is answered; the page is then saved as any other. What the
  pad sent is checked (:func:`surveys.fluency.entries_from_browser`): a malformed
  sending stores nothing and says so.
- On a successful submit the renderer calls ``store.save_page`` and then ``st.rerun()``.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st

from surveys import fluency, probe_pad
from surveys.logic import escape_markdown, evaluate, pipe, validate_answer
from surveys.model import (
    FACES,
    Answer,
    FaceScale,
    FluencyProbe,
    InfoBlock,
    Likert,
    LongText,
    Matrix,
    MatrixRow,
    MultipleChoice,
    NumberItem,
    Option,
    Page,
    Ranking,
    Rating0to10,
    ShortText,
    SingleChoice,
    Slider,
    SurveyDefinition,
    YesMaybeNo,
)
from surveys.progress import ResponseStore as ResponseStore  # re-exported
from surveys.progress import SavedProgress as SavedProgress  # re-exported

# Faces as Material icons (the font ships with Streamlit): emoji drew as empty boxes in a
# browser without an emoji font (Debian's Chromium drew three of the five faces).
FACE_ICONS: tuple[str, ...] = tuple(f":material/{name}:" for name in (
    "sentiment_very_dissatisfied", "sentiment_dissatisfied", "sentiment_neutral",
    "sentiment_satisfied", "sentiment_very_satisfied"))
assert len(FACE_ICONS) == len(FACES)
def _same(text: str) -> str:
    """No translation: the renderer's own words in English."""
    return text


#: Marks a text for the translation catalog (Babel's extractor knows the name).
N_ = _same


#: The fluency probe's pad's own words (:data:`surveys.probe_pad.WORDS`), marked for the
#: translation catalog: the renderer gives the pad each through its ``words``.
PAD_WORDS = {"pad": N_("Times tables"), "time_left": N_("Time left"), "delete": N_("Delete"),
             "ok": N_("OK: enter the answer"), "question": N_("Question {n}"),
             "done": N_("Well done! Saving your answers…"),
             "resend": N_("Send my answers again")}
assert PAD_WORDS == probe_pad.WORDS


#: The answer checks' messages a tester sees most (surveys.logic), marked for the
#: translation catalog: the renderer gives each through its ``words``.
CHECK_WORDS = (N_("This question needs an answer."), N_("Enter text."),
               N_("Choose from the options."), N_("Each option can be picked once."),
               N_("Enter a number."), N_("Enter a whole number."))


def _ymn(_: Callable[[str], str]) -> dict[str, str]:
    """The Again-Again answers' labels, in ``_``'s language."""
    return {"yes": f"{FACE_ICONS[3]} {_('Yes')}", "maybe": f"{FACE_ICONS[2]} {_('Maybe')}",
            "no": f"{FACE_ICONS[1]} {_('No')}"}


# ------------------------------------------------------------------ stores
class _DictStore:
    def _data(self) -> dict[str, Any]:
        raise NotImplementedError

    def _commit(self, data: dict[str, Any]) -> None:
        raise NotImplementedError

    def load(self) -> SavedProgress:
        data = self._data()
        return SavedProgress(dict(data.get("answers", {})), tuple(data.get("completed_pages", [])),
                             dict(data.get("seconds_per_page", {})))

    def save_page(self, page_id: str, answers: Mapping[str, Answer], seconds_on_page: float) -> None:
        data = self._data()
        merged = dict(data.get("answers", {}))
        merged.update(answers)
        pages = [p for p in data.get("completed_pages", []) if p != page_id] + [page_id]
        secs = dict(data.get("seconds_per_page", {}))
        secs[page_id] = float(seconds_on_page)
        self._commit({"answers": merged, "completed_pages": pages, "seconds_per_page": secs})


class SessionStateStore(_DictStore):
    """Keeps progress in ``st.session_state`` (standalone use and demos; lost when the
    browser session ends)."""

    def __init__(self, name: str) -> None:
        self.state_key = f"surveys.store.{name}"

    def _data(self) -> dict[str, Any]:
        return dict(st.session_state.get(self.state_key, {}))

    def _commit(self, data: dict[str, Any]) -> None:
        st.session_state[self.state_key] = data


class JsonFileStore(_DictStore):
    """Keeps progress in a JSON file, written atomically (survives reloads and restarts)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def _data(self) -> dict[str, Any]:
        if not self.path.exists():
            return {}
        loaded = json.loads(self.path.read_text(encoding="utf-8"))
        return loaded if isinstance(loaded, dict) else {}

    def _commit(self, data: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=self.path.name, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False)
        os.replace(tmp, self.path)


# ------------------------------------------------------------------ flow
def current_page(definition: SurveyDefinition, progress: SavedProgress) -> Page | None:
    """The first visible, not yet completed page that shows at least one question;
    ``None`` when the survey is done. (A page whose questions are all hidden by their
    ``show_if`` is passed over, not shown as an empty form; info-only pages are shown.)"""
    done = set(progress.completed_pages)
    for page in definition.pages:
        if page.id in done or not evaluate(page.show_if, progress.answers):
            continue
        if not _has_visible_question(page, progress.answers):
            continue
        return page
    return None


def _has_visible_question(page: Page, answers: Mapping[str, Any]) -> bool:
    """False only for a page with questions that are all hidden (info-only pages show)."""
    questions = [it for it in page.items if not isinstance(it, InfoBlock)]
    return not questions or any(evaluate(it.show_if, answers) for it in questions)


def _ordered(options: list[Any], seed: str, shuffle: bool, pinned: Callable[[Any], bool]) -> list[Any]:
    """Shuffle per participant (stable for a seed), keeping pinned entries in place."""
    if not shuffle:
        return list(options)
    movable = [o for o in options if not pinned(o)]
    random.Random(seed).shuffle(movable)
    it = iter(movable)
    return [o if pinned(o) else next(it) for o in options]


def _label(text: str, required: bool) -> str:
    return text + (" :red[\\*]" if required else "")


def _scale_format(values: list[int], labels: list[str], left: str | None = None,
                  right: str | None = None) -> Callable[[int], str]:
    ends = {}
    if left is not None or right is not None:
        ends = {values[0]: left or "", values[-1]: right or ""}
    elif len(labels) == len(values):
        return lambda v: escape_markdown(labels[values.index(v)])
    elif len(labels) == 2:
        ends = {values[0]: labels[0], values[-1]: labels[1]}

    def fmt(v: int) -> str:
        return f"{v} {escape_markdown(ends[v])}".strip() if v in ends else str(v)

    return fmt


def _horizontal(points: int, labels: list[str]) -> bool:
    """Numbered or short scales sit in one wrapping row; a scale with a long label on
    every one of 6+ points is a vertical list (a wrapped row is hard to read on a phone)."""
    return not (len(labels) == points and points > 5)


def _index(options: list[Any], value: Any) -> int | None:
    return options.index(value) if value is not None and value in options else None


class _PageRenderer:
    def __init__(self, definition: SurveyDefinition, page: Page, answers: Mapping[str, Any],
                 context: Mapping[str, str], key: str, rng_seed: int | str,
                 words: Callable[[str], str] = _same) -> None:
        self.words = words
        self.d = definition
        self.page = page
        self.answers = answers
        self.context = context
        self.key = key
        self.seed = rng_seed
        self.collected: dict[str, tuple[Any, Any, Any]] = {}  # answer id -> (value, item-like, slot)

    def text(self, raw: str) -> str:
        return pipe(raw, self.d, self.answers, self.context)

    def wkey(self, answer_id: str) -> str:
        return f"{self.key}::{self.page.id}::{answer_id}"

    def rseed(self, item_id: str) -> str:
        return f"{self.seed}:{self.d.id}:{item_id}"

    def item(self, item: Any) -> None:
        prev = self.answers.get(item.id)
        label = _label(self.text(item.text), item.required)
        k = self.wkey(item.id)
        value: Any
        vals: list[Any]
        if isinstance(item, InfoBlock):
            st.markdown(self.text(item.text))
            if item.help:
                st.caption(self.text(item.help))
            return
        if isinstance(item, Matrix):
            self.matrix(item)
            return
        if isinstance(item, Likert):
            vals = item.values()
            value = st.radio(label, vals, index=_index(vals, prev), key=k,
                             horizontal=_horizontal(item.points, item.labels),
                             format_func=_scale_format(vals, item.labels))
        elif isinstance(item, FaceScale):
            vals = [1, 2, 3, 4, 5]
            value = st.radio(label, vals, index=_index(vals, prev), key=k, horizontal=True,
                             format_func=lambda v, it=item:
                             f"{FACE_ICONS[v - 1]} {escape_markdown(it.labels[v - 1])}")
        elif isinstance(item, Rating0to10):
            vals = list(range(11))
            value = st.radio(label, vals, index=_index(vals, prev), key=k, horizontal=True)
            st.caption(f"0 = {self.text(item.low_label)} · 10 = {self.text(item.high_label)}")
        elif isinstance(item, YesMaybeNo):
            vals = ["yes", "maybe", "no"]
            value = st.radio(label, vals, index=_index(vals, prev), key=k, horizontal=True,
                             format_func=_ymn(self.words).__getitem__)
        elif isinstance(item, SingleChoice):
            opts = self.options(item)
            vals = [o.value for o in opts]
            labels = {o.value: self.text(o.label) for o in opts}
            value = st.radio(label, vals, index=_index(vals, prev), key=k, format_func=labels.__getitem__)
        elif isinstance(item, MultipleChoice | Ranking):
            opts = self.options(item)
            vals = [o.value for o in opts]
            # select-box options are plain text in Streamlit (no Markdown): do not escape
            labels = {o.value: pipe(o.label, self.d, self.answers, self.context, markdown=False) for o in opts}
            default = [v for v in prev if v in vals] if isinstance(prev, list) else None
            if isinstance(item, Ranking):
                _ = self.words
                st.caption(_("Pick every option in order, best first."))
                value = st.multiselect(label, vals, default=default, key=k, format_func=labels.__getitem__,
                                       placeholder=_("Tap the options in order"))
            else:
                value = st.multiselect(label, vals, default=default, key=k, format_func=labels.__getitem__,
                                       max_selections=item.max_picks)
            value = list(value)
        elif isinstance(item, ShortText):
            value = st.text_input(label, value=prev if isinstance(prev, str) else "", key=k,
                                  max_chars=item.max_length)
            st.caption(_length_note(item.max_length, self.words))
        elif isinstance(item, LongText):
            value = st.text_area(label, value=prev if isinstance(prev, str) else "", key=k,
                                 max_chars=item.max_length)
            st.caption(_length_note(item.max_length, self.words))
        elif isinstance(item, NumberItem):
            initial = prev if isinstance(prev, int | float) and not isinstance(prev, bool) else None
            if item.integer:
                value = st.number_input(label, value=None if initial is None else int(initial), step=1, key=k)
            else:
                value = st.number_input(label, value=None if initial is None else float(initial), key=k)
        elif isinstance(item, Slider):
            whole = all(float(x).is_integer() for x in (item.min, item.max, item.step, item.start_value()))
            conv: Callable[[float], Any] = int if whole else float
            start = prev if isinstance(prev, int | float) and not isinstance(prev, bool) else item.start_value()
            value = st.slider(label, conv(item.min), conv(item.max), conv(start), conv(item.step), key=k)
            if item.low_label or item.high_label:
                st.caption(f"{self.text(item.low_label or '')} ◀ ▶ {self.text(item.high_label or '')}")
        else:  # pragma: no cover - the model's union is closed
            raise TypeError(f"no widget for {type(item).__name__}")
        if item.help:
            st.caption(self.text(item.help))
        self.collected[item.id] = (value, item, st.empty())

    def options(self, item: Any) -> list[Option]:
        return _ordered(list(item.options), self.rseed(item.id), item.randomize, lambda o: o.pinned)

    def matrix(self, item: Matrix) -> None:
        from surveys.logic import matrix_row_item

        st.markdown(_label(self.text(item.text), item.required))
        if item.help:
            st.caption(self.text(item.help))
        rows: list[MatrixRow] = _ordered(list(item.rows), self.rseed(item.id), item.randomize, lambda r: False)
        vals = item.values()
        for row in rows:
            fmt = _scale_format(vals, item.labels, row.left, row.right)
            prev = self.answers.get(row.id)
            value = st.radio(self.text(row.text), vals, index=_index(vals, prev), key=self.wkey(row.id),
                             horizontal=_horizontal(item.points, item.labels), format_func=fmt)
            self.collected[row.id] = (value, matrix_row_item(item, row.id), st.empty())


def _length_note(limit: int, _: Callable[[str], str] = _same) -> str:
    """The caption under a text box: how much it keeps (longer text is cut, issue 11)."""
    return _("Up to {limit} characters.").format(limit=f"{limit:,}")


def _at_limit_warning(limit: int, submit_label: str, _: Callable[[str], str] = _same) -> str:
    return _("This answer reached the limit of {limit} characters, so anything longer was "
             "cut off. Check its end, then press “{label}” again to keep it.").format(
        limit=f"{limit:,}", label=submit_label)


def _normalise(value: Any) -> Answer:
    if isinstance(value, str) and value.strip() == "":
        return None
    if isinstance(value, list) and not value:
        return None
    return value


def render_survey(definition: SurveyDefinition, store: ResponseStore, *,
                  context: Mapping[str, str] | None = None, key: str = "survey",
                  rng_seed: int | str = 0, submit_label: str | None = None,
                  words: Callable[[str], str] = _same) -> bool:
    """Show the current page of ``definition``; ``True`` once every visible page is
    completed in ``store`` (then nothing is drawn).

    ``context`` feeds ``{study:KEY}`` piping; ``key`` namespaces widget and timer keys
    (use one per survey on a page); ``rng_seed`` fixes option/row shuffling per
    participant. ``words`` translates the renderer's own words (a gettext; the
    definition comes translated already: :func:`surveys.translate.translated`).
    """
    _ = words
    submit_label = submit_label or _("Continue")
    progress = store.load()
    page = current_page(definition, progress)
    if page is None:
        return True
    start_key = f"{key}::started::{page.id}"
    if start_key not in st.session_state:
        st.session_state[start_key] = time.monotonic()
    visible_pages = [p for p in definition.pages
                     if evaluate(p.show_if, progress.answers) and _has_visible_question(p, progress.answers)]
    number = next((i for i, p in enumerate(visible_pages, start=1) if p.id == page.id), 1)
    probe = next((it for it in page.items if isinstance(it, FluencyProbe)
                  and evaluate(it.show_if, progress.answers)), None)
    if probe is not None:
        return _probe_page(definition, page, probe, store, progress.answers, context or {},
                           key, rng_seed, _("Page {number} of {total}").format(
                               number=number, total=len(visible_pages)), start_key, words)
    renderer = _PageRenderer(definition, page, progress.answers, context or {}, key, rng_seed,
                             words)
    # Enter in a text box must not submit the page (phones show "Go" on every field)
    with st.form(f"{key}::form::{page.id}", enter_to_submit=False):
        if page.title:
            st.subheader(pipe(page.title, definition, progress.answers, context or {}))
        st.caption(_("Page {number} of {total}").format(number=number,
                                                        total=len(visible_pages)))
        for item in page.items:
            if evaluate(item.show_if, progress.answers):
                renderer.item(item)
        submitted = st.form_submit_button(submit_label, type="primary", width="stretch")
    if not submitted:
        return False
    page_answers: dict[str, Answer] = {}
    problems = 0
    # A text box keeps at most max_length characters (the browser stops there and
    # Streamlit cuts a longer value, e.g. a pasted page): an answer at the limit may have
    # been cut, so the tester is told at the field and confirms by submitting it again.
    limit_key = f"{key}::at_limit::{page.id}"
    confirmed: dict[str, Any] = st.session_state.get(limit_key, {})
    at_limit: dict[str, str] = {}
    for answer_id, (raw, item_like, slot) in renderer.collected.items():
        value = _normalise(raw)
        message = validate_answer(item_like, value)
        if message is not None:
            slot.error(words(message))
            problems += 1
        elif (isinstance(item_like, ShortText | LongText) and isinstance(value, str)
              and len(value) >= item_like.max_length and confirmed.get(answer_id) != value):
            slot.warning(_at_limit_warning(item_like.max_length, submit_label, words))
            at_limit[answer_id] = value
        page_answers[answer_id] = value
    if problems:
        st.error(_("Please check {n} marked question above.").format(n=1) if problems == 1 else
                 _("Please check {n} marked questions above.").format(n=problems))
        return False
    if at_limit:
        st.session_state[limit_key] = at_limit
        return False
    st.session_state.pop(limit_key, None)
    seconds = time.monotonic() - float(st.session_state[start_key])
    store.save_page(page.id, page_answers, seconds)
    del st.session_state[start_key]
    st.rerun()
    return False  # pragma: no cover - st.rerun does not return


def probe_questions(definition: SurveyDefinition, item: FluencyProbe,
                    rng_seed: int | str) -> tuple[fluency.Form, list[tuple[int, int]]]:
    """The form and questions this tester is shown (:func:`surveys.fluency.form_for`)."""
    form = fluency.form_for(item.form, definition.phase, rng_seed)
    return form, fluency.questions(item.min_factor, item.max_factor, form, item.count)


def _probe_page(definition: SurveyDefinition, page: Page, item: FluencyProbe,
                store: ResponseStore, answers: Mapping[str, Any], context: Mapping[str, str],
                key: str, rng_seed: int | str, caption: str, start_key: str,
                words: Callable[[str], str] = _same) -> bool:
    """A page holding a fluency probe: its info blocks, then the number pad; saved once
    the pad sends its answers (module docstring)."""
    if page.title:
        st.subheader(pipe(page.title, definition, answers, context))
    st.caption(caption)
    for info in page.items:
        if isinstance(info, InfoBlock) and evaluate(info.show_if, answers):
            st.markdown(pipe(info.text, definition, answers, context))
    if item.text:
        st.markdown(f"**{pipe(item.text, definition, answers, context)}**")
    if item.help:
        st.caption(pipe(item.help, definition, answers, context))
    form, shown = probe_questions(definition, item, rng_seed)
    token = f"{definition.id}:{item.id}:{form}"
    widget_key = probe_pad.widget_key(f"{key}::{page.id}::{item.id}")
    data = probe_pad.pad_data(shown, item.seconds, token,
                              pipe(item.start_label, definition, answers, context,
                                   markdown=False),
                              {key: words(text) for key, text in PAD_WORDS.items()})
    result = probe_pad.pad()(key=widget_key, data={"probe": data}, on_done_change=_ignore)
    payload = result.get("done") if isinstance(result, Mapping) else getattr(result, "done", None)
    if payload is None:
        return False
    if isinstance(payload, Mapping) and payload.get("token") not in (None, token):
        return False  # sent by a pad showing another probe (an old tab)
    try:
        entries = fluency.entries_from_browser(payload, shown, item.seconds)
    except fluency.ProbeAnswerError as error:
        _ = words
        st.error(_("Your answers could not be read ({error}). Please reload the page and "
                   "try the times tables again.").format(error=error))
        return False
    seconds = time.monotonic() - float(st.session_state.get(start_key, time.monotonic()))
    store.save_page(page.id, {item.id: list[Any](entries)}, seconds)
    st.session_state.pop(start_key, None)
    st.rerun()
    return False  # pragma: no cover - st.rerun does not return


def _ignore() -> None:
    """The pad's trigger callback: the page reads the trigger's value as it runs."""
