"""Is there a network on this machine? Asked once per process, cheaply.

A network tool that times out or cannot connect offline says nothing about the server. The
check resolves a well-known public name and opens a TCP connection to one of its public
addresses, within a short timeout; nothing is sent, and an answer in a private, loopback or
reserved range (a captive resolver) counts as no network, so no traffic goes to such a range.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
import threading

__all__ = ["PROBE_HOST", "has_network"]

#: A public name with anycast addresses on port 443.
PROBE_HOST = "one.one.one.one"
_TIMEOUT = 1.5


def _probe(host: str, timeout: float) -> bool:
    try:
        infos = socket.getaddrinfo(host, 443, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return False
    for family, kind, proto, _name, address in infos:
        try:
            if not ipaddress.ip_address(address[0]).is_global:
                continue
        except ValueError:
            continue
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.settimeout(timeout)
                sock.connect(address)
                return True
        except OSError:
            continue
    return False


def probe(host: str = PROBE_HOST, timeout: float = _TIMEOUT) -> bool:
    """Resolve ``host`` and connect to a public address of it, all within about ``timeout``
    seconds (name resolution has no timeout of its own, so it runs on a helper thread)."""
    answer: list[bool] = []
    worker = threading.Thread(
        target=lambda: answer.append(_probe(host, timeout)), name="toolscore-netcheck", daemon=True
    )
    worker.start()
    worker.join(timeout * 2)
    return bool(answer and answer[0])


@functools.cache
def has_network() -> bool:
    """True when this machine reaches the public internet (cached for the process)."""
    return probe()
