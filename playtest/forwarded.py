"""Who a visitor is, address-wise, when the app runs behind a reverse proxy.

Behind nginx every websocket comes from the proxy's address, so a per-address limit (the
designer's sign-in) would count everyone as one visitor. The proxy tells the real address
in ``X-Forwarded-For`` (``deploy/nginx.conf`` sets it with ``$proxy_add_x_forwarded_for``,
which *appends* the address it saw). A visitor can send a made-up header of their own, so
the header is believed only when the connection comes from a trusted proxy, and only from
the right: walking right to left, trusted proxies are skipped and the first other address
is the visitor (anything further left is what the visitor wrote).

Trusted: this machine (``127.0.0.1``, ``::1``; Streamlit reports both as no address) and
the addresses or networks in ``$PLAYTEST_TRUSTED_PROXIES`` (comma-separated, e.g.
``10.0.0.5,172.16.0.0/12`` for a proxy on another machine or in a container network).

>>> trusted = trusted_proxies("10.0.0.5")
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
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Iterable

TRUSTED_ENV = "PLAYTEST_TRUSTED_PROXIES"
_LOCAL = ("127.0.0.1/32", "::1/128")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_proxies(configured: str | None = None) -> tuple[Network, ...]:
    """This machine and the networks in ``configured`` (default: the environment's
    ``PLAYTEST_TRUSTED_PROXIES``); entries that are not addresses are skipped.

    >>> [str(n) for n in trusted_proxies("10.1.2.3, 172.16.0.0/12, nonsense")]
    ['127.0.0.1/32', '::1/128', '10.1.2.3/32', '172.16.0.0/12']
    """
    text = os.environ.get(TRUSTED_ENV, "") if configured is None else configured
    networks: list[Network] = [ipaddress.ip_network(n) for n in _LOCAL]
    for entry in text.split(","):
        try:
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
        except ValueError:
            continue
    return tuple(networks)


def _trusted(address: str | None, networks: Iterable[Network]) -> bool:
    if address is None:  # Streamlit's way of saying "this machine"
        return True
    try:
        ip = ipaddress.ip_address(address.strip().strip("[]"))
    except ValueError:
        return False
    return any(ip.version == n.version and ip in n for n in networks)


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
