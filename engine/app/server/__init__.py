"""``eighteen serve``: a local web app (JSON API and page) over the engine and the solver.

:func:`create_app` builds the ASGI app (:mod:`engine.app.server.app`); the command itself is
:mod:`engine.app.cli_serve`.  Importing this package needs the server's dependencies
(FastAPI, uvicorn).
"""

from engine.app.server.app import create_app

__all__ = ["create_app"]
