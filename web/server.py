"""Run the board: bind the socket, start uvicorn on it, open the browser.

The socket is bound here, before uvicorn starts, so that a port in use is one clear error
and ``port=0`` picks a free port (the URL printed says which).
"""

from __future__ import annotations

import socket
import threading
import time
import webbrowser
from collections.abc import Callable

import uvicorn

from catbox.solver import formats
from catbox.solver.errors import FileError
from catbox.solver.player import DEFAULT_LEVEL

from .app import LOCAL_HOSTS, create_app

__all__ = ["ServeError", "bind", "serve"]


class ServeError(FileError):
    """The server cannot start: the address is in use or cannot be bound (an I/O error, like
    an unreadable file: the command line's exit code 6)."""

    kind = "serve"


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (``port`` 0: a free one).

    Raises:
        ServeError: the address cannot be bound (in use, or not this machine's).
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host.strip("[]"), port))
    except OSError as e:
        sock.close()
        raise ServeError(
            f"cannot listen on {host}:{port}: {e.strerror or e}", where="--port"
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def serve(
    initial: formats.Document | None,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    open_browser: bool = True,
    workers: int = 2,
    announce: Callable[[str], None] = print,
    level: int = DEFAULT_LEVEL,
) -> None:
    """Serve the board until interrupted (Ctrl-C). ``announce`` gets the URL once the server
    answers; with ``open_browser`` the default browser opens it."""
    sock = bind(host, port)
    port = sock.getsockname()[1]
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    names = {*LOCAL_HOSTS, shown.lower()}
    hosts = names | {f"{h}:{port}" for h in names}
    app = create_app(initial, workers=workers, hosts=hosts, level=level)
    url = f"http://{'127.0.0.1' if shown in ('0.0.0.0', '[::]') else shown}:{port}/"
    config = uvicorn.Config(
        app,
        log_level="warning",
        h11_max_incomplete_event_size=32 * 1024,
        timeout_graceful_shutdown=3,
    )
    server = uvicorn.Server(config)

    def when_up() -> None:
        while not server.started and not server.should_exit:
            time.sleep(0.05)
        if server.started:
            announce(f"catbox board at {url}  (Ctrl-C stops it)")
            if open_browser:
                webbrowser.open(url)

    threading.Thread(target=when_up, daemon=True).start()
    server.run(sockets=[sock])
