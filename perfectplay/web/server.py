"""Running the web app: bind a loopback address (others only when asked), print the URL, serve.

The server binds ``127.0.0.1`` unless told otherwise. A non-loopback address serves every
machine that can reach it, so :func:`bind` refuses one unless the caller says so explicitly
(``allow_remote=True``: the command line passes it only when ``--host`` is given), and then
prints one line on standard error saying that other machines can reach the server.

Examples
--------
>>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost")
(True, True, True)
>>> is_loopback("0.0.0.0"), is_loopback("192.168.1.7")
(False, False)
>>> bind("0.0.0.0", 0)
Traceback (most recent call last):
...
perfectplay.errors.InputFormatError: refusing to serve on 0.0.0.0, which is not a loopback ...
>>> with bind("127.0.0.1", 0) as sock:
...     url(sock).startswith("http://127.0.0.1:")
True
"""

from __future__ import annotations

import contextlib
import ipaddress
import socket
import sys
from collections.abc import Callable
from typing import Any

from perfectplay.errors import InputFormatError

__all__ = ["bind", "is_loopback", "serve", "url"]


def _addresses(host: str, port: int) -> list[tuple[Any, ...]]:
    try:
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise InputFormatError(f"cannot resolve host {host!r}: {error.strerror}") from None


def is_loopback(host: str) -> bool:
    """Whether every address `host` names is a loopback address (127.0.0.0/8, ::1)."""
    addresses = _addresses(host, 0)
    return bool(addresses) and all(
        ipaddress.ip_address(str(info[4][0]).split("%")[0]).is_loopback for info in addresses
    )


def bind(host: str, port: int, *, allow_remote: bool = False) -> socket.socket:
    """A listening socket on `host`:`port` (port 0: a free port chosen by the system).

    Raises
    ------
    InputFormatError
        If `host` is not a loopback address and `allow_remote` is false, or cannot be
        resolved, or `port` is outside 0..65535.
    OSError
        If the address cannot be bound (in use, not an address of this machine).

    Notes
    -----
    A non-loopback `host` allowed by `allow_remote` is bound after one warning line on
    standard error: the server has no login and nothing is encrypted.
    """
    if not 0 <= port <= 65535:
        raise InputFormatError(f"port must be between 0 and 65535, got {port}")
    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise InputFormatError(
            f"refusing to serve on {host}, which is not a loopback address: other machines "
            "could reach it; give the address with --host to do so anyway"
        )
    family, kind, proto, _, address = _addresses(host, port)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise OSError(error.errno, f"cannot listen on {host}:{port}: {error.strerror}") from None
    if remote:
        print(
            f"perfectplay: warning: serving on {host}, which other machines can reach: anyone "
            "who can connect uses this server (no login, nothing encrypted)",
            file=sys.stderr,
            flush=True,
        )
    return sock


def url(sock: socket.socket) -> str:
    """The ``http://`` address of a bound socket (IPv6 addresses in brackets)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def serve(app: Any, sock: socket.socket, *, announce: Callable[[str], None] | None = None) -> None:
    """Serve the ASGI `app` on the bound `sock` with uvicorn until Ctrl-C (or SIGTERM).

    `announce` is called with the server's URL once it accepts connections.
    """
    import uvicorn

    class _Server(uvicorn.Server):
        async def startup(self, sockets: list[socket.socket] | None = None) -> None:
            await super().startup(sockets)
            if announce is not None:
                announce(url(sock))

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    # uvicorn stops gracefully on SIGINT/SIGTERM, then raises the signal again: for a server
    # Ctrl-C is the normal way to stop, so it ends here without an error.
    with contextlib.suppress(KeyboardInterrupt):
        _Server(config).run(sockets=[sock])
