"""Who a visitor is, address-wise, when the app runs behind a reverse proxy.

Behind nginx every websocket comes from the proxy's address, so a per-address limit (the
designer's sign-in) would count everyone as one visitor. The proxy tells the real address
in ``X-Forwarded-For`` (``deploy/nginx/snippets/playtest-proxy.conf`` sets it with
``$proxy_add_x_forwarded_for``, which *appends* the address it saw). A visitor can send a
made-up header of their own, so the header is believed only when the connection comes
from a proxy the operator named, and only from the right: walking right to left, trusted
proxies are skipped and the first other address is the visitor (anything further left is
what the visitor wrote).

Trusted: only the addresses or networks in ``$PLAYTEST_TRUSTED_PROXIES`` (comma-separated,
e.g. ``127.0.0.1,::1`` for nginx on this machine, as ``deploy/`` sets it, or
``10.0.0.5,172.16.0.0/12`` for a proxy on another machine or in a container network).
Nothing by default: a client on this machine could otherwise forge an address per try
and never meet the per-address limit.

Streamlit's server (uvicorn) rewrites the connection's address itself, from
``X-Forwarded-For``, when the connection comes from an address in ``$FORWARDED_ALLOW_IPS``
(default ``127.0.0.1,::1``): what the app is told is then already the header's word. So
the header is believed only when uvicorn believes no more than we do
(:func:`believable`); otherwise every visitor who sends it counts as one, :data:`UNVERIFIED`
(``playtest serve`` sets ``FORWARDED_ALLOW_IPS`` from ``PLAYTEST_TRUSTED_PROXIES``).

>>> trusted = trusted_proxies("127.0.0.1, 10.0.0.5")
>>> client_address(None, "203.0.113.7", trusted)           # via nginx on this machine
'203.0.113.7'
>>> client_address(None, "6.6.6.6, 203.0.113.7", trusted)  # a forged entry on the left
'203.0.113.7'
>>> client_address("10.0.0.5", "203.0.113.7, 10.0.0.5", trusted)  # two proxies
'203.0.113.7'
>>> client_address("198.51.100.2", "6.6.6.6", trusted)     # not from a proxy: ignored
'198.51.100.2'
>>> client_address(None, None, trusted) is None            # local, no proxy
True
>>> client_address(None, "6.6.6.6", trusted_proxies(""))   # nothing trusted: the peer
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable

TRUSTED_ENV = "PLAYTEST_TRUSTED_PROXIES"
SERVER_TRUSTED_ENV = "FORWARDED_ALLOW_IPS"  # uvicorn's
SERVER_DEFAULT = "127.0.0.1,::1"  # uvicorn's when the variable is unset
UNVERIFIED = "forwarded"  # a visitor whose X-Forwarded-For cannot be checked
_THIS_MACHINE = (ipaddress.ip_address("127.0.0.1"), ipaddress.ip_address("::1"))

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_proxies(configured: str | None = None) -> tuple[Network, ...]:
    """The networks in ``configured`` (default: the environment's
    ``PLAYTEST_TRUSTED_PROXIES``); entries that are not addresses are skipped.

    >>> [str(n) for n in trusted_proxies("10.1.2.3, 172.16.0.0/12, nonsense")]
    ['10.1.2.3/32', '172.16.0.0/12']
    """
    text = os.environ.get(TRUSTED_ENV, "") if configured is None else configured
    networks: list[Network] = []
    for entry in text.split(","):
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def believable(server: str | None = None, ours: str | None = None) -> bool:
    """Whether an ``X-Forwarded-For`` can be checked: uvicorn believes it only from
    addresses we trust too (``server``: its ``FORWARDED_ALLOW_IPS``, ``ours``:
    ``PLAYTEST_TRUSTED_PROXIES``; default: the environment's).

    >>> believable("", ""), believable("127.0.0.1", ""), believable("127.0.0.1", "127.0.0.0/8")
    (True, False, True)
    >>> believable("*", "0.0.0.0/0")
    False
    """
    text = os.environ.get(SERVER_TRUSTED_ENV, SERVER_DEFAULT) if server is None else server
    entries = [entry.strip() for entry in text.split(",") if entry.strip()]
    if "*" in entries:
        return False
    mine = trusted_proxies(ours)
    for entry in entries:
        try:
            theirs = ipaddress.ip_network(entry, strict=False)
        except ValueError:
            return False  # a name uvicorn may match: not ours to vouch for
        if not any(theirs.version == n.version and theirs.subnet_of(n)  # type: ignore[arg-type]
                   for n in mine):
            return False
    return True


def _trusted(address: str | None, networks: Iterable[Network]) -> bool:
    candidates: tuple[ipaddress.IPv4Address | ipaddress.IPv6Address, ...]
    if address is None:  # Streamlit's way of saying "this machine"
        candidates = _THIS_MACHINE
    else:
        try:
            candidates = (ipaddress.ip_address(address.strip().strip("[]")),)
        except ValueError:
            return False
    return any(ip.version == n.version and ip in n for ip in candidates for n in networks)


def client_address(peer: str | None, forwarded_for: str | None,
                   networks: tuple[Network, ...]) -> str | None:
    """The visitor's address: ``peer`` (the connection's, None for this machine) unless
    it is a trusted proxy, then the rightmost untrusted address of ``forwarded_for``.
    None when the visitor is this machine itself."""
    if not _trusted(peer, networks) or not forwarded_for:
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop, networks):
            try:
                return str(ipaddress.ip_address(hop.strip("[]")))
            except ValueError:
                return peer  # garbage where an address should be: not believed
    return peer
