"""The designer's pages: studies, overview, confusion, questionnaires, experiments,
replay, balance and the UX design plan. They exist in the navigation only after the
designer's password was given in this browser session.

Pages stay thin: they read the study's data once (cached for 30 s), call ``analytics``
and draw. Free text from testers is only ever shown as plain text or in data frames.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from typing import Any, TypeVar, cast

import pandas as pd
import streamlit as st
import yaml

from analytics import (
    confusion,
    experiments,
    figures,
    funnel,
    game_analytics,
    questionnaires,
    severity,
)
from analytics.metrics import MetricError, check_primary, metrics_for_target
from analytics.report import (
    build_report,
    report_chart_names,
    report_figures,
    report_game,
    report_html,
    report_markdown,
)
from analytics.stats import SEQUENTIAL_METHOD
from engine.core import EngineError
from playtest import page_results, runtime, services
from playtest.app_pages import access, balance_view
from playtest.app_pages import learning as learning_page
from playtest.app_pages.empty import no_testers_yet, plot
from playtest.display_words import (
    instrument_words,
    keys_in_words,
    question_words,
    reasons_in_words,
    step_words,
)
from playtest.games.registry import DEFAULT_GAME, GamePlugin, game_plugin, games
from playtest.people_tables import (
    AFTERMATH_NAMES,
    OVERLAY_NAMES,
    THEME_NAMES,
    confusion_points_table,
    people_table,
)
from playtest.replay import (
    game_label,
    game_outcome,
    games_of,
    text_steps,
)
from playtest.storage import repository as repo
from playtest.storage.game_counts import GameCounts, game_counts
from playtest.study_config import (
    StudyConfig,
    StudyConfigError,
    check_experiments_change_the_game,
    load_settings_text,
    parse_study_config,
)
from playtest.study_data import StudyBundle
from playtest.study_snapshot import load_prepared
from playtest.survey_items import annotate
from surveys import list_surveys

T = TypeVar("T")
SIGNED_IN = "designer_signed_in"


def study_link(study_id: str) -> str:
    """The full tester link of a study, on the address this app is being viewed at."""
    base = ""
    try:
        url = st.context.url or ""
        base = url.split("?", 1)[0].rsplit("/", 1)[0] if url.count("/") > 2 else url
    except Exception:  # noqa: BLE001 - no browser context (AppTest, bare mode)
        base = ""
    return f"{base}/?study={study_id}"


def is_signed_in() -> bool:
    return access.is_signed_in()


def sign_in_form() -> None:
    """The password form (on the start page): see :mod:`playtest.app_pages.access`."""
    access.sign_in_form()


def _guard() -> None:
    # Also checked here: a page object cached in a stale session must not render.
    if not is_signed_in():
        st.error("Designer pages need the designer's password.")
        st.stop()


# -- shared study picker and data ----------------------------------------------------------


@st.cache_resource(ttl=600, max_entries=4, show_spinner="Loading the study's data…")
def _bundle(database_url: str, study_id: str, fingerprint: tuple[int, ...]) -> StudyBundle:
    # Every argument is part of the cache key (Streamlit leaves out only names starting
    # with "_"): new data, or another database, is a new entry, not a 10-minute-old one.
    # Prepared (every page then only aggregates) by way of the study's snapshot on disk:
    # only testers whose data changed since it was written are derived again.
    # The refreshed snapshot is written in the background: the page need not wait.
    loaded = load_prepared(runtime.database(), study_id, save="background")
    annotate(loaded.bundle.data)
    # The whole study's page results are kept with the snapshot, named by its state.
    loaded.bundle.data._derived[PAGE_STORE] = page_results.store_for(
        runtime.database(), study_id, loaded.state, page_results.facts_of(loaded))
    return loaded.bundle


def bundle(study_id: str) -> StudyBundle:
    # Reloaded when the study's data changes (a cheap fingerprint), not on a timer.
    return _bundle(runtime.database_url(), study_id,
                   repo.study_fingerprint(runtime.database(), study_id))


def memo(b: StudyBundle | page_results.StudyHead, key: tuple[Any, ...],
         compute: Callable[[], T]) -> T:
    """A page's computation on this bundle, kept with it: a re-render only draws.

    The bundle's frames are never changed, so a result stays valid as long as the bundle
    (which the fingerprint replaces when the data changes).
    """
    cache: dict[tuple[Any, ...], Any] = b.data._derived.setdefault("pages", {})
    if key not in cache:
        cache[key] = compute()
    return cast(T, cache[key])


PAGE_STORE = "page_store"


def kept(b: StudyBundle, page: str, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
    """:func:`memo` of a result on the whole study, also kept on disk with the study's
    snapshot (:mod:`playtest.page_results`): another process, or this one after a
    restart, reads it instead of computing it."""
    store = b.data._derived.get(PAGE_STORE)
    return memo(b, key, lambda: cast(T, page_results.kept(store, page, compute)))


@st.cache_resource(ttl=600, max_entries=4, show_spinner=False)
def _head(database_url: str, study_id: str,
          fingerprint: tuple[int, ...]) -> page_results.StudyHead:
    # The same key as _bundle: the records, the study's state and its kept page results.
    return page_results.load_head(runtime.database(), study_id)


def head(study_id: str) -> page_results.StudyHead:
    """The study's records and state (no events, no answers): enough for the filters'
    widgets and for drawing a page whose result on the whole study is kept."""
    return _head(runtime.database_url(), study_id,
                 repo.study_fingerprint(runtime.database(), study_id))


def whole_study(study_id: str, page: str, compute: Callable[[StudyBundle], T]) -> T:
    """``page``'s result on the whole study: kept with the snapshot for the study's
    current state (then the study's tables are not even read), or computed on the
    bundle, and kept (:mod:`playtest.page_results`). After new data in a big study, the
    latest kept result is shown at once, labelled as of when (see
    :func:`whole_study_as_of`)."""
    return whole_study_as_of(study_id, page, compute)[0]


def whole_study_as_of(study_id: str, page: str,
                      compute: Callable[[StudyBundle], T]) -> tuple[T, str]:
    """:func:`whole_study`, and the state its result is of (the current one, or an
    earlier one shown while the current one is computed in the background: then the
    page says so, and reruns by itself when it is ready)."""
    h = head(study_id)
    found = h.result(page)
    if found is not None:
        return cast(T, found), h.state
    earlier = page_results.shown_while_updating(runtime.database(), study_id, h, page)
    if earlier is not None:
        st.info(page_results.as_of_notice(earlier), icon=":material/update:")
        _rerun_when_updated(h.store)
        return cast(T, earlier.value), earlier.state
    b = bundle(study_id)
    return kept(b, page, (page,), lambda: compute(b)), h.state


@st.fragment(run_every=2.0)
def _rerun_when_updated(store: page_results.PageStore) -> None:
    # Checks every 2 s (a file's age) whether the background update is done; then the
    # whole page runs again and draws the current results.
    if not page_results.updating(store):
        st.rerun()


def pick_study() -> repo.Study | None:
    studies = repo.list_studies(runtime.database())
    if not studies:
        st.info("No studies yet: create one on the Studies page.")
        return None
    ids = [s.study_id for s in studies]
    current = st.session_state.get("study_id")
    index = ids.index(current) if current in ids else 0
    chosen = st.sidebar.selectbox(
        "Study", ids, index=index, key="study_picker",
        format_func=lambda i: next(f"{s.title} ({s.study_id})" for s in studies if s.study_id == i),
    )
    st.session_state["study_id"] = chosen
    return next(s for s in studies if s.study_id == chosen)


def variants_of(data: Any, key: str | None) -> pd.Series | None:
    return experiments.participant_variants(data, key) if key else None


def experiment_picker(study: repo.Study, label: str = "Split by experiment") -> str | None:
    keys = [e["key"] for e in study.experiment_records]
    if not keys:
        return None
    choice = st.selectbox(label, ["(no split)", *keys], key=f"split-{label}")
    return None if choice == "(no split)" else choice


# -- studies ----------------------------------------------------------------------------


def studies_page() -> None:
    _guard()
    st.title("Studies")
    engine = runtime.database()
    for study in repo.list_studies(engine):
        counts = repo.study_counts(engine, study.study_id)
        with st.expander(f"{study.title} · {study.study_id} · {'open' if study.open else 'closed'}"):
            st.write("Share this link with testers (the copy button is at its right):")
            st.code(study_link(study.study_id), language=None, wrap_lines=True)
            _study_metrics(counts, game_counts(engine, study.study_id))
            _study_form(study)
    st.subheader("New study")
    _study_form(None)


def _study_metrics(counts: repo.StudyCounts, games: GameCounts) -> None:
    """Testers and games of a study, each number with its definition."""
    cols = st.columns([1, 1, 2, 1])  # the games' label is long: it gets room to be read
    cols[0].metric("Testers", counts.participants, help="Testers who agreed at consent.")
    cols[1].metric("Completed", counts.completed,
                   help="Testers who reached the thank-you page.")
    cols[2].metric("Games played out / started", f"{games.played_out} / {games.started}",
                   help="Started: every game begun, by the app or imported. Played out: "
                        "ended with a result (a win or a draw); restarted games and games "
                        "left from the menu are not.")
    cols[3].metric("Events", counts.events, help="Telemetry events stored for the study.")
    st.caption(games.summary())


def _game_choice(study: repo.Study | None, key: str) -> GamePlugin:
    """The study's game: chosen from the registry for a new study (outside the form, so
    its presets and rule options show at once), fixed once a study exists."""
    if study is not None:
        plugin = game_plugin(study.game)
        st.caption(f"Game: {plugin.title}")
        return plugin
    plugins = games()
    chosen = st.selectbox("Game", plugins, format_func=lambda p: p.title, key=f"game-{key}",
                          help="The game testers play in this study (the registry's games).")
    with st.expander(f"{chosen.title}: presets and rule options"):
        st.write(f"Presets: {', '.join(chosen.presets)} (default {chosen.default_rules}). "
                 f"Seats: {chosen.seats[0]} to {chosen.seats[1]}.")
        st.dataframe(pd.DataFrame(
            [{"option": name, "choices": ", ".join(map(str, choices))}
             for name, choices in chosen.rule_options.items()]), hide_index=True)
    return chosen


def seats_label(plugin: GamePlugin) -> str:
    """The seats field's label: the seat kinds this game's studies may use."""
    kinds = ["human", *(f"ai:{level}" for level in plugin.ai_levels())]
    return f"Seats (comma separated: {', '.join(kinds)})"


def _study_form(study: repo.Study | None) -> None:
    plugin = _game_choice(study, "new")
    # A new study's form is the chosen game's: its widgets start from that game's
    # defaults (surveys, rules), not from what was picked for another game.
    key = study.study_id if study else ("new" if plugin.name == DEFAULT_GAME
                                        else f"new-{plugin.name}")
    config, stored_problem = _stored_config(study)
    if study is None and config.game != plugin.name:
        config = StudyConfig(game=plugin.name)
    presets = list(plugin.presets)
    survey_ids = [s for s in list_surveys()]
    with st.form(f"study-{key}"):
        title = st.text_input("Title", value=study.title if study else "", key=f"title-{key}")
        rules_text = st.text_input(
            "Rules: a preset name or a JSON rules object",
            value=config.rules if isinstance(config.rules, str) else json.dumps(config.rules),
            help=f"Presets: {', '.join(presets)}. Rule options: "
                 f"{', '.join(o for o in plugin.rule_options if o != 'base')}. Example: "
                 f'{{"base": "{plugin.default_rules}", "<option>": <choice>}}',
            key=f"rules-{key}")
        seats = st.text_input(seats_label(plugin), value=", ".join(config.seats),
                              key=f"seats-{key}")
        cols = st.columns(3)
        games = cols[0].number_input("Games per tester", 1, 20, config.games_per_tester,
                                     key=f"games-{key}")
        more = cols[1].checkbox("May play more", config.allow_more_games, key=f"more-{key}")
        is_open = cols[2].checkbox("Open", study.open if study else True, key=f"open-{key}")
        audience = st.selectbox("Audience", ["mixed", "adults", "children"],
                                index=["mixed", "adults", "children"].index(config.audience),
                                key=f"aud-{key}")
        pre = st.selectbox("Pre-play survey", survey_ids,
                           index=survey_ids.index(config.pre_survey)
                           if config.pre_survey in survey_ids else 0, key=f"pre-{key}")
        post = st.selectbox("Post-play survey (short or long form)", survey_ids,
                            index=survey_ids.index(config.post_survey)
                            if config.post_survey in survey_ids else 0, key=f"post-{key}")
        cols = st.columns(3)
        highlight = cols[0].checkbox("Highlight options", config.highlight_options,
                                     key=f"hl-{key}")
        show_dice = cols[1].checkbox("Show computer dice", config.show_computer_dice,
                                     key=f"dice-{key}")
        speed_level = cols[2].selectbox("Speed", [1, 2, 3], index=config.speed - 1,
                                        key=f"speed-{key}")
        experiments_yaml = st.text_area(
            "Experiments (YAML list of key, target, variants)",
            value=yaml.safe_dump([e.model_dump() for e in config.experiments],
                                 sort_keys=False, allow_unicode=True) if config.experiments
            else _stored_experiments_text(study) if stored_problem else "",
            help="target: message:<key>, rules or ui:<setting>; variants: name → payload; "
                 "optional primary_metric (decides the verdict) and min_effect (the "
                 "smallest difference worth acting on, in the metric's unit)",
            key=f"exp-{key}", height=160)
        submitted = st.form_submit_button("Save study" if study else "Create study")
    _metric_choices(key)
    if not submitted:
        return
    try:
        rules: Any = rules_text.strip()
        if rules.startswith("{"):
            rules = load_settings_text(rules, "rules")
        raw_experiments = (load_settings_text(experiments_yaml, "experiments")
                           if experiments_yaml.strip() else [])
        new_config = parse_study_config({
            "game": plugin.name, "rules": rules, "seats": [s.strip() for s in seats.split(",") if s.strip()],
            "games_per_tester": int(games), "allow_more_games": more, "audience": audience,
            "pre_survey": pre, "post_survey": post, "highlight_options": highlight,
            "show_computer_dice": show_dice, "speed": int(speed_level),
            "ai_think_ms": config.ai_think_ms, "experiments": raw_experiments or [],
        })
        for experiment in new_config.experiments:
            check_primary(experiment.target, experiment.primary_metric)
        check_experiments_change_the_game(new_config)
    except (StudyConfigError, EngineError, json.JSONDecodeError, yaml.YAMLError,
            MetricError) as err:
        st.error(f"Not saved: {err}")
        return
    if not title.strip():
        st.error("Not saved: give the study a title.")
        return
    engine = runtime.database()
    if study is None:
        created = services.create_study(engine, title=title.strip(), config=new_config,
                                        open=is_open)
        st.success(f"Created study {created.study_id}. Share this link with testers "
                   "(the copy button is at its right):")
        st.code(study_link(created.study_id), language=None, wrap_lines=True)
    else:
        repo.update_study(engine, study.study_id, title=title.strip(), open=is_open,
                          **services.study_columns(new_config))
        st.success("Saved.")


def _stored_config(study: repo.Study | None) -> tuple[StudyConfig, str | None]:
    """The study's config, or the defaults and why its stored settings fail validation.

    A study saved before the settings were checked as a whole can fail the check: its
    testers see "this study is being fixed" (app.py) and the designer sees why here.
    """
    if study is None:
        return StudyConfig(), None
    try:
        return services.study_config(study), None
    except StudyConfigError as err:
        st.error(f"Testers cannot play this study until it is saved again: {err}. "
                 "They see \"This study is being fixed\". Correct it below and save.")
        # Keep the stored rules, seats, surveys … in the form when they pass on their own
        # (the experiments come back as stored text), so saving loses none of them.
        raw = {**study.config, "game": study.game, "experiments": []}
        try:
            return parse_study_config(raw), str(err)
        except StudyConfigError:
            return StudyConfig(), str(err)


def _stored_experiments_text(study: repo.Study | None) -> str:
    """The stored experiments as YAML to correct (payloads as stored)."""
    stored = study.config.get("experiments") if study is not None else None
    if not stored or not isinstance(stored, list):
        return ""
    return yaml.safe_dump([e for e in stored if isinstance(e, dict)],
                          sort_keys=False, allow_unicode=True)


def _metric_choices(key: str) -> None:
    """The metrics an experiment's ``primary_metric`` may name, with their definitions."""
    with st.expander("Metrics an experiment can be decided by (primary_metric, min_effect)"):
        rows = []
        for target in ("message:<key>", "rules", "ui:<setting>"):
            concrete = target.replace("<key>", "x").replace("<setting>", "speed")
            default = check_primary(concrete, None).key
            for metric in metrics_for_target(concrete):
                if metric.direction == "neither":
                    continue
                rows.append({"target": target, "primary_metric": metric.key,
                             "name": metric.name,
                             "default": "yes" if metric.key == default else "",
                             "unit": metric.unit, "better": metric.direction,
                             "default min_effect": metric.min_effect,
                             "definition": metric.definition})
        rows.append({"target": "any", "primary_metric": "score:<questionnaire>",
                     "name": "Questionnaire score (e.g. score:sus)", "default": "",
                     "unit": "points", "better": "higher (lower for workload)",
                     "default min_effect": 5.0,
                     "definition": "The tester's post-play total score on that "
                                   "questionnaire."})
        rows.append({"target": "any", "primary_metric": "quiz:<item>",
                     "name": "One rules-quiz item (e.g. quiz:quiz.capture)", "default": "",
                     "unit": "share", "better": "higher", "default min_effect": 0.15,
                     "definition": "Share of testers who answered that quiz item "
                                   "correctly."})
        st.dataframe(pd.DataFrame(rows), hide_index=True, key=f"metric-choices-{key}")


# -- overview ---------------------------------------------------------------------------


def overview_page() -> None:
    _guard()
    study = pick_study()
    if study is None:
        return
    st.title("Overview")
    h = head(study.study_id)
    if no_testers_yet(len(h.data.participants), "the funnel"):
        return
    fkey, chosen = _filters(study, h.data)
    if fkey == UNFILTERED:
        table = whole_study(study.study_id, "funnel", lambda b: funnel.funnel(b.data))
    else:
        b, data = _filtered(study.study_id, fkey, chosen)
        table = memo(b, ("funnel", *fkey), lambda: funnel.funnel(data))
    # people's words for the steps (pre_survey: "Survey before play"); the data keeps keys
    table = table.assign(step=table["step"].map(step_words)) if len(table) else table
    plot(figures.funnel_figure(table), "funnel", "no tester matches these filters")
    st.caption(FUNNEL_NOTE)
    st.dataframe(table, hide_index=True, key="funnel_table", placeholder="–", column_config={
        "step": "Step", "reached": "Reached", "drop_off": "Drop-off",
        "optional": "Optional",
        "drop_off_rate": st.column_config.NumberColumn("Drop-off share", format="percent"),
        "median_seconds": st.column_config.NumberColumn("Median time", format="%.0f s")})


FUNNEL_NOTE = (
    "Reached: testers who got to the step (its page, or their k-th game). Drop-off: "
    "testers who reached the previous required step but not this one, and its share of "
    "them. Games beyond the study's games per tester are optional (lighter bars): not "
    "playing one is no drop-off. Median time: from reaching a step to reaching the next.")


#: The filters' key when nothing is filtered (see :func:`_filters`).
UNFILTERED: tuple[Any, ...] = (None, None, (), None, ())


def _filters(study: repo.Study, data: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The filters' widgets (drawn from the study's records): the choice's key, and the
    arguments of ``funnel.filter_study`` that apply it."""
    with st.expander("Filters"):
        created = pd.to_datetime(data.participants["created_at"], utc=True)
        dates = None
        if len(created):
            dates = st.date_input("Joined between",
                                  (created.min().date(), created.max().date()), key="f_dates")
        bands: list[str] = []
        if "age_band" in data.attributes.columns:
            bands = sorted(str(band) for band in data.attributes["age_band"].dropna().unique())
        chosen_bands = st.multiselect("Age band", bands, key="f_bands")
        key = experiment_picker(study, "Variant filter: experiment")
        chosen_variants: list[str] = []
        if key:
            names = next(e["variants"] for e in study.experiment_records if e["key"] == key)
            chosen_variants = st.multiselect("Variants", names, key="f_variants")
    start = end = None
    if dates and isinstance(dates, tuple) and len(dates) == 2:
        start = pd.Timestamp(dates[0], tz="UTC")
        end = pd.Timestamp(dates[1], tz="UTC") + pd.Timedelta(days=1)
        if created.min() >= start and created.max() < end:
            start = end = None  # the whole range: no filter
    fkey = (start, end, tuple(chosen_bands), key if chosen_variants else None,
            tuple(chosen_variants))
    return fkey, {"start": start, "end": end, "age_bands": chosen_bands or None,
                  "experiment": key if chosen_variants else None,
                  "variants": chosen_variants or None}


def _filtered(study_id: str, fkey: tuple[Any, ...],
              chosen: dict[str, Any]) -> tuple[StudyBundle, Any]:
    """The study's bundle, and the study restricted by the filters (kept per choice)."""
    b = bundle(study_id)
    return b, memo(b, ("filter", *fkey), lambda: funnel.filter_study(b.data, **chosen))


# -- confusion --------------------------------------------------------------------------


def _confusion_tables(study: repo.Study, h: page_results.StudyHead) -> dict[str, Any]:
    fkey, chosen = _filters(study, h.data)
    if fkey == UNFILTERED:
        tables = whole_study(study.study_id, "confusion",
                             lambda b: page_results.confusion_tables(b.data))
    else:
        b, data = _filtered(study.study_id, fkey, chosen)
        tables = memo(b, ("confusion", *fkey), lambda: page_results.confusion_tables(data))
    # the study's game (its charts and sections) is added on each run: functions, not kept
    return page_results.with_game(tables, h.data)


def confusion_page() -> None:
    _guard()
    study = pick_study()
    if study is None:
        return
    st.title("Confusion points")
    h = head(study.study_id)
    if no_testers_yet(len(h.data.participants), "the confusion analysis"):
        return
    t = _confusion_tables(study, h)
    points = t["points"]
    st.caption("Ranked by severity: the extra trouble per occasion, weighted by how many "
               "testers it reached, whether it persisted after the first game, and impact.")
    with st.expander("How severity is defined"):
        st.caption(severity.severity_definition(t["game"].occasions))
    if points:
        st.dataframe(confusion_points_table(points), hide_index=True, key="points_table")
    else:
        st.info("No confusion point has enough evidence yet: each needs at least "
                f"{severity.MIN_OCCASIONS} occasions and {severity.MIN_TESTERS} testers.")
    _game_sections(t)
    st.subheader("Messages followed by trouble")
    st.caption("Trouble: a wrong click in the next turn, hesitation above the study's 75th "
               "percentile, or a rules lookup from the message. "
               + game_analytics.turn_definition(t["game"]))
    st.dataframe(people_table(t["aftermath"], AFTERMATH_NAMES), hide_index=True)
    st.subheader("Rules overlay use")
    st.dataframe(people_table(t["overlay"], OVERLAY_NAMES), hide_index=True)


def _game_sections(t: dict[str, Any]) -> None:
    """The game's own charts, then its sections (heading, caption, charts, table)."""
    game = t["game"]
    side_by_side = [chart for chart in game.charts if chart.group and not chart.section]
    for column, chart in zip(st.columns(len(side_by_side)) if side_by_side else [],
                             side_by_side, strict=True):
        with column:
            plot(t["charts"][chart.name], chart.key or chart.name)
    for chart in game.charts:
        if not chart.section and not chart.group:
            plot(t["charts"][chart.name], chart.key or chart.name)
    for section in game.sections:
        st.subheader(section.heading or section.title)
        if section.caption:
            st.caption(section.caption)
        for chart in game.charts:
            if chart.section == section.key:
                plot(t["charts"][chart.name], chart.key or chart.name)
        if section.key in t["frames"]:
            # refusal reasons in the play screen's words (select_first: "First click...")
            frame = reasons_in_words(t["frames"][section.key],
                                     game_plugin(game.name).refusal_words)
            st.dataframe(people_table(frame, dict(section.page_columns)),
                         hide_index=True, placeholder="–")


# -- questionnaires -----------------------------------------------------------------------


def questionnaires_page() -> None:
    _guard()
    study = pick_study()
    if study is None:
        return
    st.title("Questionnaires")
    h = head(study.study_id)
    if no_testers_yet(len(h.data.participants), "the questionnaires"):
        return
    # The page before any choice is kept with the study's state (page_results); another
    # choice (a split, an instrument, an item, a search) is computed on the study's tables.
    q = whole_study(study.study_id, "questionnaires", page_results.questionnaire_tables)
    unscored = q["unscored"]
    if unscored:
        # survey names are data: shown in a table, never as Markdown
        st.warning(f"{sum(u.answers for u in unscored)} answers cannot be scored: no "
                   "definition of their survey is stored or bundled. They are kept (see "
                   "the answers below) but are not in the scores. Import the study's "
                   "survey records to score them.")
        st.dataframe(pd.DataFrame([{"Survey": u.survey, "Version": u.survey_version,
                                    "Answers": u.answers, "Testers": u.testers}
                                   for u in unscored]), hide_index=True, key="unscorable")
    key = experiment_picker(study)

    def on_tables(memo_key: tuple[Any, ...], compute: Callable[[StudyBundle, Any], T]) -> T:
        b = bundle(study.study_id)
        variants = memo(b, ("variants", key), lambda: variants_of(b.data, key))
        return memo(b, memo_key, lambda: compute(b, variants))

    # people's words for instrument and item ids (the survey definitions' titles)
    asked = question_words(_survey_ids(study))

    def said(item: str) -> str:
        return asked.get(item, item)

    words = {"instrument": instrument_words, "item": said, "pre_question": said,
             "post_question": said}
    st.subheader("Instrument scores")
    st.caption(SCORE_TABLE_NOTE)
    st.dataframe(keys_in_words(q["summary"] if key is None else on_tables(
        ("summary", key), lambda b, v: questionnaires.instrument_summary(b.scores, v)),
        words), hide_index=True, column_config=SCORE_COLUMNS, key="score_table",
        placeholder="–")
    if q["instruments"]:
        chosen = st.selectbox("Distribution of", q["instruments"], key="dist_instrument",
                              format_func=instrument_words)
        plot(q["distribution"][chosen] if chosen in q["distribution"] else on_tables(
            ("dist", chosen), lambda b, v: figures.score_distribution_figure(b.scores, chosen)),
            "dist")
    st.subheader("Expectation (pre) against experience (post)")
    _expectation_table(keys_in_words(q["expectation"], words))
    st.subheader("Rules quiz: correct answers")
    st.dataframe(keys_in_words(q["quiz"] if key is None else on_tables(
        ("quiz", key), lambda b, v: questionnaires.quiz_correctness(b.quiz, v)), words),
        hide_index=True, column_config=QUIZ_COLUMNS, key="quiz_table")
    if q["items"]:
        item = st.selectbox("Answers to item", q["items"], key="dist_item", format_func=said)
        st.dataframe(q["item"][item] if key is None and item in q["item"] else on_tables(
            ("item", item, key),
            lambda b, v: questionnaires.item_distribution(b.data.responses, item, v)),
            hide_index=True, column_config={
                "share": st.column_config.NumberColumn("Share", format="percent")})
    st.subheader("Free text")
    search = st.text_input("Search answers", key="text_search")
    st.dataframe(keys_in_words(q["free_text"] if key is None and not search else on_tables(
        ("free_text", search, key), lambda b, v: questionnaires.free_text(
            b.data.responses, search or None, v, q["text_items"])), words), hide_index=True)
    st.caption("Themes by the question's intent: a mention in answers to a problem question "
               "(\"What confused you?\") is a problem; in answers to a praise question "
               "(\"What did you like?\") it is something that works, never a confusion.")
    st.dataframe(people_table(keys_in_words(q["themes"], words), THEME_NAMES),
                 hide_index=True, key="themes_table")


def _survey_ids(study: repo.Study) -> list[str]:
    """The surveys the study asks (its settings', else its game's defaults, and the
    children's forms): where its item ids' questions are written. Read from the study's
    record, not its data, so the page's kept first render loads nothing more."""
    plugin = game_plugin(study.game)
    named = [study.config.get("pre_survey"), study.config.get("post_survey"),
             plugin.pre_survey, plugin.post_survey, *plugin.child_surveys.values()]
    return [str(s) for s in named if isinstance(s, str) and s]


# The questionnaire tables' columns named for people (the frames keep their keys).
SCORE_TABLE_NOTE = (
    "One row per instrument, scale and phase (pre: before play, post: after): testers "
    "(n), their mean score with its 95 % confidence interval (t), and the standard "
    "deviation across testers. Norm: the instrument's published mean, where there is one.")
SCORE_COLUMNS: dict[str, Any] = {
    "instrument": "Instrument", "scale": "Scale", "phase": "Phase", "variant": "Variant",
    "n": st.column_config.NumberColumn("Testers (n)"),
    "mean": st.column_config.NumberColumn("Mean", format="%.2f"),
    "sd": st.column_config.NumberColumn("Std. dev.", format="%.2f"),
    "ci_low": st.column_config.NumberColumn("95 % low", format="%.2f"),
    "ci_high": st.column_config.NumberColumn("95 % high", format="%.2f"),
    "norm_mean": st.column_config.NumberColumn("Norm mean", format="%.1f"),
    "norm_note": "Norm", "grade": "Grade"}
QUIZ_COLUMNS: dict[str, Any] = {
    "item": "Quiz question", "variant": "Variant", "answers": "Answers", "correct": "Correct",
    "share_correct": st.column_config.NumberColumn("Share correct", format="percent")}


def _expectation_table(table: pd.DataFrame) -> None:
    """The same question before and after playing, paired per tester (or why not yet)."""
    if table.empty:
        st.info("No data yet: no tester has answered both the before-play and the "
                "after-play question (fun 0–10 for adults, the faces for children).")
        return
    st.caption("One pair per tester who answered both. Change: mean of after − before, "
               "with its 95% interval (t) and the Wilcoxon signed-rank p-value; "
               "blank below two pairs.")
    st.dataframe(table, hide_index=True, column_config={
        name: st.column_config.NumberColumn(label, format="%.2f")
        for name, label in (("pre_mean", "Before (mean)"), ("post_mean", "After (mean)"),
                            ("change", "Change"), ("ci95_low", "95 % low"),
                            ("ci95_high", "95 % high"))} | {
        "measure": "Measure", "n_pairs": "Pairs", "pre_question": "Before: question",
        "post_question": "After: question",
        "p_value": st.column_config.NumberColumn("p (Wilcoxon)", format="%.3f")},
                 key="expectation_table")


# -- experiments --------------------------------------------------------------------------


def experiments_page() -> None:
    _guard()
    study = pick_study()
    if study is None:
        return
    st.title("Experiments")
    h = head(study.study_id)
    results = whole_study(study.study_id, "experiments",
                          lambda b: experiments.analyze_experiments(b.data, b.scores, b.quiz))
    if not results:
        st.info("This study has no experiments. Add them on the Studies page.")
        return
    if no_testers_yet(len(h.data.participants), "the experiments"):
        return
    st.caption(f"How verdicts are made: each experiment is decided by its primary metric "
               f"alone, with an {SEQUENTIAL_METHOD}. It stays valid however often you "
               "look, so checking every day does not make false 'better' verdicts more "
               "likely. 'No difference' means the interval lies inside ± the smallest "
               "difference worth acting on. Other metrics use fixed-sample tests with "
               "Holm's correction; guardrails (completion, wrong clicks, survey scores) "
               "are named when a variant is clearly worse on one.")
    st.caption(game_analytics.turn_definition(game_analytics.for_study(h.data)))
    for result in results:
        _experiment_section(result)


def _experiment_section(result: experiments.ExperimentResult) -> None:
    doc = result.to_json()
    st.subheader(f"{result.key} · {result.target}")
    box = st.success if result.verdict.endswith(" better") else st.info
    if result.guardrails:
        box = st.warning
    summary = result.summary()
    box(f"**{result.verdict}**{summary[len(result.verdict):]}"
        if summary.startswith(result.verdict) else summary)
    if doc.get("definition"):
        st.caption(f"Primary metric: {doc['definition']}")
    for note in result.notes:
        st.warning(note)
    cols = st.columns(len(result.counts) + 1)
    for col, (name, count) in zip(cols, result.counts.items(), strict=False):
        col.metric(f"Testers with {name}", count)
    cols[-1].metric("Sample-ratio check p", "–" if doc["srm_p"] is None
                    else f"{doc['srm_p']:.3f}", help="Below 0.001 the split between "
                    "variants is broken: do not trust the verdict.")
    rows = experiments.readable_rows(doc)
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True)
        plot(figures.experiment_effect_figure(doc), f"eff-{result.key}")


# -- replay -------------------------------------------------------------------------------


def replay_page() -> None:
    _guard()
    study = pick_study()
    if study is None:
        return
    st.title("Replay")
    engine = runtime.database()
    people = repo.list_participant_ids(engine, study.study_id)
    if no_testers_yet(len(people), "the replay"):
        return
    code = st.selectbox("Tester", people, key="replay_tester")
    games = games_of(engine, code)
    if not games:
        st.info("This tester has not started a game.")
        return
    game = st.selectbox("Game", games, key="replay_game", format_func=game_label)
    st.caption(f"This game: {game_outcome(game)}.")
    plugin = game_plugin(game.game)
    if plugin.replay_module:  # the game's own board, step by step
        importlib.import_module(plugin.replay_module).replay_page(engine, game)
        return
    texts = text_steps(game)  # a game without one: the engine's text view
    if not texts:
        st.info("This game has no moves yet.")
        return
    number = st.slider("Step", 1, len(texts), len(texts),
                       key=f"replay_step-{game.game_id}") if len(texts) > 1 else 1
    st.code(texts[number - 1], language=None)


# -- balance ------------------------------------------------------------------------------


def balance_page() -> None:
    _guard()
    study = pick_study()
    if study is None:
        return
    st.title("Balance")
    config, problem = _stored_config(study)
    if problem:
        return
    plugin = game_plugin(config.game)  # the study's game, through the registry
    balance_view.page(study.study_id, plugin.name, plugin.title, config.rules,
                      plugin.ai_levels(), plugin.seats)


# -- report -------------------------------------------------------------------------------


def report_page() -> None:
    _guard()
    study = pick_study()
    if study is None:
        return
    st.title("UX design plan")
    h = head(study.study_id)
    if no_testers_yet(len(h.data.participants), "the design plan"):
        return
    report, of = whole_study_as_of(study.study_id, "report",
                                   lambda b: build_report(b.data, b.scores, b.quiz))
    st.download_button("Download plan (Markdown)",
                       memo(h, ("report_md", of), lambda: report_markdown(
                           report, report_chart_names(report))),
                       file_name=f"plan-{study.study_id}.md", mime="text/markdown",
                       key="dl_md")
    st.download_button("Download plan (JSON)",
                       memo(h, ("report_json", of), lambda: json.dumps(report, indent=2)),
                       file_name=f"plan-{study.study_id}.json", mime="application/json",
                       key="dl_json")
    # The HTML is ~5 MB (plotly.js inlined, so it works offline): made only when asked
    # for, not on every run of the page.
    if st.button("Prepare the plan as HTML with charts", key="make_html"):
        st.session_state["plan_html_of"] = study.study_id
    if st.session_state.get("plan_html_of") == study.study_id and of != h.state:
        st.caption("The HTML plan is made from the current data: ready once the results "
                   "above are updated.")  # its charts could not be drawn as of then
    elif st.session_state.get("plan_html_of") == study.study_id:
        b = bundle(study.study_id)  # the charts draw from the study's tables
        page = memo(b, ("report_html", of),
                    lambda: report_html(report, report_figures(b.data, report)))
        st.download_button("Download plan (HTML with charts)", page,
                           file_name=f"plan-{study.study_id}.html", mime="text/html",
                           key="dl_html")
    st.subheader("Ranked confusion points")
    st.caption(report.get("severity_definition", ""))
    for i, point in enumerate(report["confusion_points"][:15], start=1):
        st.text(f"{i}. {point['label']} (severity {point['score']:.2f}) → "
                f"{point.get('action', '')}\n   Evidence: {confusion.evidence_text(point)}")
    if report.get("what_works"):
        st.subheader("What works (praise from free text)")
        st.text("\n".join(f"- {row['theme']}: {row['answers']} of the answers to "
                          f"{row['item']} ({row['share']:.0%})"
                          for row in report["what_works"]))
    _plan_sections(report)
    st.subheader("Experiments")
    for e in report["experiments"]:
        st.text(f"{e['key']}: {e['verdict']}")


def _plan_sections(report: dict[str, Any]) -> None:
    """The game's own sections of the plan, as the download shows them (its tables)."""
    for section in report_game(report).sections:
        st.subheader(section.title)
        if section.caption:
            st.caption(section.caption)
        rows = report.get(section.key) or []
        if not rows:
            st.caption(section.empty or "No data yet.")
            continue
        st.dataframe(pd.DataFrame([["–" if row.get(column.key) is None
                                     else column.show(row[column.key])
                                     for column in section.columns] for row in rows],
                                  columns=[column.header for column in section.columns]),
                     hide_index=True, key=f"plan_{section.key}")


def pages() -> list[st.Page]:
    # Material icons (the font ships with Streamlit): emoji drew as empty boxes where the
    # machine has no emoji font, as Debian's Chromium does.
    return [
        st.Page(studies_page, title="Studies", url_path="studies",
                icon=":material/folder_open:"),
        st.Page(overview_page, title="Overview", url_path="overview",
                icon=":material/monitoring:"),
        st.Page(confusion_page, title="Confusion", url_path="confusion",
                icon=":material/help:"),
        st.Page(questionnaires_page, title="Questionnaires", url_path="questionnaires",
                icon=":material/assignment:"),
        st.Page(experiments_page, title="Experiments", url_path="experiments",
                icon=":material/balance:"),
        learning_page.st_page(),
        st.Page(replay_page, title="Replay", url_path="replay", icon=":material/replay:"),
        st.Page(balance_page, title="Balance", url_path="balance", icon=":material/casino:"),
        st.Page(report_page, title="Design plan", url_path="plan",
                icon=":material/description:"),
    ]
