"""``eighteen serve``: the local web app (docs/SERVER.md)."""

from __future__ import annotations

import ipaddress
import sys
import threading
import time

import click

from engine.app.cli_common import workers_option_value

__all__ = ["serve", "is_loopback"]


def is_loopback(host: str) -> bool:
    """Is ``host`` a loopback address (only this machine can connect)?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind (anything but loopback lets other machines in).")  # fmt: skip
@click.option("--port", type=click.IntRange(0, 65535), default=8018, show_default=True,
              help="Port (0: any free port; the URL printed names it).")  # fmt: skip
@click.option("--open", "open_browser", is_flag=True, help="Open the page in a browser.")
@click.option("--workers", type=click.IntRange(0, 64), default=None,
              help="Solver processes (default: up to 2, most: the cores; 0: threads of the "
                   "server).")  # fmt: skip
def serve(host: str, port: int, open_browser: bool, workers: int | None) -> None:
    """Serve the web app: open records and positions, step through a game, solve, compare
    declared with optimal routes, rank what-if moves.  Ctrl-C stops it."""
    try:
        import uvicorn

        from engine.app.server import create_app
        from engine.app.server.work import Workers, warm
    except ImportError as exc:  # pragma: no cover - the dependencies are the project's
        raise click.ClickException(f"the server needs {exc.name}: pip install eighteen") from None

    if not is_loopback(host):
        click.echo(f"warning: binding {host}: other machines can reach this server, which "
                   "has no authentication", err=True)  # fmt: skip
    t0 = time.perf_counter()
    click.echo("warming the solver ...", err=True)
    warm()
    pool = Workers(workers_option_value(workers) if workers else workers)
    pool.start()
    app = create_app(pool)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    server = _Server(config, open_browser, t0)
    try:
        server.run()
    except KeyboardInterrupt:  # pragma: no cover - uvicorn handles the first Ctrl-C itself
        pass
    finally:
        pool.shutdown()
    if not server.started:
        raise click.ClickException(f"could not serve on {host}:{port}")
    click.echo("stopped", err=True)


class _Server:
    """uvicorn's server, saying where it listens once its sockets are bound."""

    def __init__(self, config, open_browser: bool, t0: float) -> None:
        import uvicorn

        outer = self

        class Server(uvicorn.Server):
            async def startup(self, sockets=None) -> None:
                await super().startup(sockets)
                if self.started:
                    outer.announce(self)

        self.server = Server(config)
        self.open_browser = open_browser
        self.t0 = t0

    @property
    def started(self) -> bool:
        return bool(self.server.started)

    def announce(self, server) -> None:
        host, port = server.config.host, server.config.port
        for s in getattr(server, "servers", []) or []:
            for sock in getattr(s, "sockets", []) or []:
                port = sock.getsockname()[1]
                break
        shown = f"[{host}]" if ":" in host else host
        url = f"http://{shown}:{port}/"
        click.echo(f"eighteen serve: ready at {url} ({time.perf_counter() - self.t0:.1f} s; "
                   "Ctrl-C stops)")  # fmt: skip
        sys.stdout.flush()
        if self.open_browser:
            import webbrowser

            threading.Thread(target=webbrowser.open, args=(url,), daemon=True).start()

    def run(self) -> None:
        self.server.run()
