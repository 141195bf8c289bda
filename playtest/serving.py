"""How the app is served: the Streamlit settings that keep it safe, whatever the working folder.

Streamlit reads ``.streamlit/config.toml`` from the working folder, so ``cd /elsewhere &&
streamlit run /path/playtest/app.py`` used to listen on every address, show visitors
tracebacks and send usage statistics. Streamlit (1.67) also reads a *script-level*
``.streamlit/config.toml`` next to the script it runs, after the global and the working
folder's files: ``playtest/.streamlit/config.toml`` holds :data:`SETTINGS`, so every
``streamlit run …/playtest/app.py`` gets them. Only a command-line flag or a
``STREAMLIT_*`` environment variable can change them, and ``playtest serve`` (and
``playtest up``) pass them all as flags (:func:`flags`), so not even the environment can.

A served app checks, once per process, what it is actually running with
(:func:`problems`): usage statistics on, error details shown, XSRF or CORS protection
off, Rich tracebacks (printed past the log's redaction), or an address nobody chose
(every interface because no setting was read at all) make it refuse to serve: every
visitor gets :data:`REFUSED_TITLE` and the server log says why. An address chosen on
purpose (``--server.address 0.0.0.0`` to let a classroom's tablets in) is allowed and
logged (:func:`notes`).

>>> flags()[:4]
['--server.headless', 'true', '--server.address', '127.0.0.1']
>>> options = dict(SETTINGS, **{"browser.gatherUsageStats": True})
>>> problems(options.get, lambda key: "a flag")
['browser.gatherUsageStats is True (it must be False)']
>>> problems(dict(SETTINGS, **{"server.address": None}).get, lambda key: "<default>")
['server.address is not set: Streamlit listens on every address (no setting was read)']
>>> notes(dict(SETTINGS, **{"server.address": "0.0.0.0"}).get, lambda key: "a flag")
['listening on 0.0.0.0 (set by a flag): reachable from other machines']
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

#: The script-level config file Streamlit reads for ``streamlit run playtest/app.py``.
CONFIG_FILE: Final = Path(__file__).resolve().parent / ".streamlit" / "config.toml"

#: What the app is served with (``playtest/.streamlit/config.toml`` says the same, and
#: why; ``tests/app/test_up_flags.py`` checks the two agree).
SETTINGS: Final[dict[str, Any]] = {
    "server.headless": True,
    "server.address": "127.0.0.1",
    "server.enableXsrfProtection": True,
    "server.enableCORS": True,
    "server.enableExpensiveMemoryStats": False,
    "browser.gatherUsageStats": False,
    "client.showErrorDetails": "none",
    "client.toolbarMode": "minimal",
    "logger.enableRich": False,
    "runner.postScriptGC": False,
}
#: The settings a served app refuses to run without.
REQUIRED: Final = ("server.enableXsrfProtection", "server.enableCORS",
                   "browser.gatherUsageStats", "client.showErrorDetails", "logger.enableRich")
_DEFAULT: Final = "<default>"  # Streamlit's where_defined for a setting nobody set

REFUSED_TITLE: Final = "This playtest lab is not started safely"
REFUSED_TEXT: Final = ("It is closed until the study team starts it with `playtest serve`. "
                       "Nothing can be seen or saved here meanwhile.")


def _flag_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def flags(address: str | None = None) -> list[str]:
    """:data:`SETTINGS` as ``streamlit run`` flags (``address`` instead of 127.0.0.1)."""
    out: list[str] = []
    for key, value in SETTINGS.items():
        chosen = address if key == "server.address" and address else value
        out += [f"--{key}", _flag_value(chosen)]
    return out


def _same(key: str, value: Any) -> bool:
    wanted = SETTINGS[key]
    if key == "client.showErrorDetails":  # Streamlit's older spelling of "none"
        return value in ("none", False, "false", "False")
    return bool(value is wanted or value == wanted or _flag_value(value) == _flag_value(wanted))


def problems(option: Callable[[str], Any], where: Callable[[str], str]) -> list[str]:
    """Why a server with these settings must not serve (empty: it may).

    ``option`` and ``where`` are Streamlit's ``config.get_option`` and
    ``config.get_where_defined``."""
    found = [f"{key} is {option(key)!r} (it must be {SETTINGS[key]!r})"
             for key in REQUIRED if not _same(key, option(key))]
    if not option("server.address") or where("server.address") == _DEFAULT:
        found.append("server.address is not set: Streamlit listens on every address "
                     "(no setting was read)")
    return found


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return address == "localhost"


def notes(option: Callable[[str], Any], where: Callable[[str], str]) -> list[str]:
    """What the log should say about settings chosen on purpose."""
    address = option("server.address")
    if address and not _loopback(str(address)):
        return [f"listening on {address} (set by {where('server.address')}): reachable "
                "from other machines"]
    return []


def streamlit_check() -> tuple[list[str], list[str]]:
    """:func:`problems` and :func:`notes` of this process's Streamlit settings."""
    from streamlit import config

    from playtest import forwarded

    said = notes(config.get_option, config.get_where_defined)
    if not forwarded.believable():
        said.append(f"X-Forwarded-For cannot be checked ({forwarded.SERVER_TRUSTED_ENV} is "
                    f"not within {forwarded.TRUSTED_ENV}): the sign-in limit counts every "
                    "visitor who sends it as one (start the app with `playtest serve`)")
    return problems(config.get_option, config.get_where_defined), said


def under_server() -> bool:
    """True inside a ``streamlit run`` server (not in ``AppTest`` nor bare mode)."""
    from streamlit.runtime import Runtime

    # AppTest's runtime is a mock made with spec=Runtime: isinstance() says yes to it.
    return Runtime.exists() and issubclass(type(Runtime.instance()), Runtime)
