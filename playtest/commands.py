"""``playtest up``, ``demo``, ``report`` and ``designer set-password``."""

from __future__ import annotations

import argparse
import getpass
import json
import os
import sys
import time
from pathlib import Path

from playtest import auth, serving
from playtest.cli import CommandError, arg, command, group
from playtest.forwarded import SERVER_TRUSTED_ENV, TRUSTED_ENV
from playtest.storage import repository as repo
from playtest.storage.db import database_url, ready_engine, safe_url
from playtest.study_config import StudyConfigError

APP = Path(__file__).resolve().parent / "app.py"


def serve_app(port: int, address: str) -> None:
    """Replace this process with ``streamlit run playtest/app.py`` and every setting of
    :data:`playtest.serving.SETTINGS` as a flag (flags beat ``STREAMLIT_*`` variables and
    every config file), listening on ``address``."""
    if not address.strip():
        raise CommandError("--address must not be empty (127.0.0.1: this machine only; "
                           "0.0.0.0: every address)")
    command_line = [sys.executable, "-m", "streamlit", "run", str(APP),
                    "--server.port", str(port), *serving.flags(address)]
    # Streamlit's server (uvicorn) believes X-Forwarded-For from exactly the proxies the
    # app trusts (playtest/forwarded.py), not from this machine by default.
    os.environ[SERVER_TRUSTED_ENV] = os.environ.get(TRUSTED_ENV, "")
    os.execvp(command_line[0], command_line)


_PORT = arg("--port", type=int, default=8501, help="port to serve on (default 8501)")
_ADDRESS = arg("--address", default="127.0.0.1",
               help="address to listen on (default 127.0.0.1: this machine only)")


@command("serve", help="start the app (the supported way: its safety settings as flags)",
         args=[_PORT, _ADDRESS])
def serve(args: argparse.Namespace) -> int:
    os.environ.setdefault("DATABASE_URL", database_url())
    ready_engine()  # migrated, and a one-line error now rather than a page that waits
    print(f"Database: {safe_url(database_url())}")
    print(f"Designer start page: http://{args.address}:{args.port}/", flush=True)
    serve_app(args.port, args.address)
    return 0  # pragma: no cover - execvp does not return


@command("up", help="set up the database and a demo study, then start the app", args=[
    _PORT, _ADDRESS,
    arg("--testers", type=int, default=40,
        help="simulated testers for a new demo study (default 40; 0 for none); each "
             "other game's new demo study gets as many, up to 20"),
])
def up(args: argparse.Namespace) -> int:
    from playtest import demo
    from playtest.study_snapshot import refresh

    os.environ.setdefault("DATABASE_URL", database_url())
    engine = ready_engine()
    study = demo.ensure_demo_study(engine)
    if args.testers > 0 and not repo.list_participants(engine, study.study_id):
        print(f"Filling the demo study with {args.testers} simulated testers…", flush=True)
        print(demo.generate(engine, args.testers).summary(), flush=True)
        refresh(engine, study.study_id)  # the dashboard's first visit reads this
    # every other game's demo study too, with fewer testers (their games take longer to
    # simulate: up to a minute for 40 on two cores)
    for other, report in demo.fill_game_demo_studies(engine, min(args.testers,
                                                                 demo.GAME_DEMO_TESTERS)):
        print(f"{other.title}: {report.summary()}", flush=True)
        refresh(engine, other.study_id)
    password = auth.ensure_password()
    if password:
        auth.announce_password(password, sys.stdout)
    base = f"http://{args.address}:{args.port}"
    print(f"Database: {safe_url(database_url())}")
    print(f"Designer start page: {base}/")
    print(f"Tester link of the demo study: {base}/?study={study.study_id}", flush=True)
    for other in demo.ensure_game_demo_studies(engine):  # one per registered game
        print(f"Tester link of the {other.title}: {base}/?study={other.study_id}", flush=True)
    serve_app(args.port, args.address)
    return 0  # pragma: no cover - execvp does not return


@command("demo", help="fill a study with simulated testers", args=[
    arg("--testers", type=int, default=24, help="how many testers (default 24)"),
    arg("--study", default=None, help="study id (default: the demo study)"),
    arg("--seed", type=int, default=1, help="random seed (default 1)"),
    arg("--language", default=None,
        help="a demo study whose testers read this language (e.g. de): demo-<language>-<game>"),
    arg("--game", default=None, help="with --language: the game of that study "
                                     "(default: the demo study's)"),
])
def demo_command(args: argparse.Namespace) -> int:
    from playtest import demo
    from playtest.study_snapshot import refresh

    if args.testers < 1:
        raise CommandError("--testers must be at least 1")
    engine = ready_engine()
    study = None
    if args.language:
        if args.study:
            raise CommandError("--language makes its own study: leave out --study")
        try:
            study = demo.ensure_language_demo_study(engine, args.language,
                                                    args.game or demo.DEMO_GAME)
        except (StudyConfigError, ValueError) as err:
            raise CommandError(str(err).splitlines()[0]) from None
        print(f"Tester link of {study.title}: /?study={study.study_id}")
    elif args.study:
        study = repo.get_study(engine, args.study)
        if study is None:
            raise CommandError(f"no study {args.study!r}")
    started = time.perf_counter()
    try:
        report = demo.generate(engine, args.testers, seed=args.seed, study=study)
    except StudyConfigError as err:  # a study stored before settings were checked
        raise CommandError(f"study {args.study}: fix its settings on the Studies page "
                           f"first ({err})") from None
    except demo.DemoUnavailableError as err:
        raise CommandError(str(err)) from None
    print(report.summary())
    done = refresh(engine, study.study_id if study else demo.DEMO_STUDY_ID)
    print(f"dashboard data {done.how} in {done.seconds:.1f} s")
    print(f"took {time.perf_counter() - started:.1f} s")
    return 0


@command("report", help="write the UX design plan of a study (Markdown, HTML, JSON)", args=[
    arg("--study", required=True, help="study id"),
    arg("--out", required=True, help="Markdown file to write, e.g. plan.md"),
    arg("--json", dest="json_out", default=None, help="JSON file to write, e.g. plan.json"),
    arg("--html", dest="html_out", default=None,
        help="HTML file with the charts (default: next to --out, .html)"),
    arg("--force", action="store_true", help="replace files that exist already"),
])
def report_command(args: argparse.Namespace) -> int:
    from analytics.report import report_html, report_markdown
    from playtest.page_results import plan
    from playtest.storage.outfiles import checked_out_path, written_together

    # Every output is checked before the (slow) report is built, and all are written
    # together: a bad --html path no longer leaves the .md behind.
    out = checked_out_path(args.out, force=args.force)
    html_out = checked_out_path(args.html_out or out.with_suffix(".html"), force=args.force,
                                option="--html")
    json_out = (checked_out_path(args.json_out, force=args.force, option="--json")
                if args.json_out else None)
    engine = ready_engine()
    if repo.get_study(engine, args.study) is None:
        raise CommandError(f"no study {args.study!r}")
    started = time.perf_counter()
    # From the results the dashboard keeps for the study's current state, when kept.
    made = plan(engine, args.study)
    report, charts = made.report, made.charts
    texts = {out: report_markdown(report, charts), html_out: report_html(report, charts)}
    if json_out is not None:
        texts[json_out] = json.dumps(report, indent=2)
    with written_together(list(texts)) as temporaries:
        for temporary, text in zip(temporaries, texts.values(), strict=True):
            temporary.write_text(text, encoding="utf-8")
    written = [str(path) for path in texts]
    print(f"wrote {', '.join(written)}: {report['participants']} participants, "
          f"{report['completed']} completed, "
          f"{len(report['confusion_points'])} confusion points, "
          f"{len(report['experiments'])} experiments "
          f"({time.perf_counter() - started:.1f} s)")
    return 0


group("designer", help="the designer's password and sign-in")


@command("designer", "set-password", help="set the designer's password (asks for it)", args=[
    arg("--stdin", action="store_true", help="read the password from standard input"),
])
def set_password(args: argparse.Namespace) -> int:
    if args.stdin:
        password = sys.stdin.readline().rstrip("\n")
    else:
        password = getpass.getpass("New designer password: ")
        if getpass.getpass("Again: ") != password:
            raise CommandError("the two passwords differ")
    try:
        path = auth.set_password(password)
    except ValueError as err:
        raise CommandError(str(err)) from None
    print(f"Stored the password's hash in {path}")
    return 0


@command("designer", "sign-in-code",
         help="print a one-time code that lets the designer sign in from an address that "
              "must wait after wrong passwords (15 minutes, used once)")
def sign_in_code(args: argparse.Namespace) -> int:
    from playtest.storage import sign_in

    code = sign_in.new_code(ready_engine())
    print(f"One-time sign-in code (15 minutes, used once; type it with the password): {code}")
    return 0
