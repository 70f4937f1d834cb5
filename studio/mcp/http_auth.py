"""`studio mcp --http HOST:PORT --token` (issue 21, point 15): a bearer token in front of the SDK's streamable HTTP app.

With a token, every request without `Authorization: Bearer <token>` is answered 401 before it reaches the SDK's app
(whose transport security still refuses a foreign Origin with 403 and a foreign Host with 421 on loopback) — except
GET (or HEAD) /health, which the seed's CI waits on with no token (`wait-on http://localhost:7001/health`): it passes
marked public (PUBLIC_SCOPE), and the route answers only the seed's {ok, contexts}. The token
comes from STUDIO_MCP_TOKEN, or is made here and printed once on stderr; the studio never logs it or writes it to a
file. Without a token on a host other than loopback, one line on stderr warns that anyone who can reach the port can
use the tools."""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import sys

from mcp.server.mcpserver import MCPServer
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

TOKEN_ENV = "STUDIO_MCP_TOKEN"  # studio.scenarios.mcp_client (a layer below) reads it too
PUBLIC_SCOPE = "studio.public"  # set in the scope of a /health request that came without the token
PUBLIC_PATHS = ("/health",)
REFUSAL = ("Send `Authorization: Bearer <token>` with the token this server printed at its start or was given in "
           f"{TOKEN_ENV} (`studio run` sends ${TOKEN_ENV}).")


class BearerToken:
    """ASGI middleware: an HTTP request passes only with `Authorization: Bearer <token>`; lifespan events pass, and
    so does a GET or HEAD of /health without it, marked public (its route then says no more than the seed's)."""

    def __init__(self, app: ASGIApp, token: str) -> None:
        self.app, self._token = app, token.encode()

    def _allowed(self, scope: Scope) -> bool:
        scheme, _, given = Headers(scope=scope).get("authorization", "").partition(" ")
        # Headers are latin-1 text of the raw bytes; compared as bytes, in time that does not depend on the match.
        return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode("latin-1"), self._token)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan" or self._allowed(scope):
            await self.app(scope, receive, send)
        elif scope["type"] == "http" and scope.get("path") in PUBLIC_PATHS and scope.get("method") in ("GET", "HEAD"):
            await self.app({**scope, PUBLIC_SCOPE: True}, receive, send)
        elif scope["type"] == "http":
            # A JSON-RPC error, so that an MCP client (the SDK's, too) shows the sentence rather than the status.
            refusal = JSONResponse({"jsonrpc": "2.0", "id": None, "error": {"code": -32001, "message": REFUSAL}},
                                   status_code=401, headers={"WWW-Authenticate": 'Bearer realm="studio mcp"'})
            await refusal(scope, receive, send)
        else:  # a websocket: closed before it is accepted (policy violation)
            await send({"type": "websocket.close", "code": 1008})


def is_loopback(host: str) -> bool:
    """Whether `host` (as given to --http) is reachable from this machine only."""
    if host.strip("[]") == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name other than localhost
        return False


def server_token(wanted: bool) -> str | None:
    """The token `--token` asks for: STUDIO_MCP_TOKEN when set, else a new random one printed once on stderr with the
    header a client sends. None without --token."""
    if not wanted:
        return None
    token = os.environ.get(TOKEN_ENV, "").strip()
    if token:
        print(f"studio mcp: clients must send `Authorization: Bearer <token>` with the token in {TOKEN_ENV}.",
              file=sys.stderr, flush=True)
        return token
    token = secrets.token_urlsafe(32)
    print(f"studio mcp: clients must send this header (the token is shown only now; for `studio run --mcp-web/"
          f"--mcp-data` set {TOKEN_ENV} to it):\n    Authorization: Bearer {token}", file=sys.stderr, flush=True)
    return token


async def serve_http(server: MCPServer, host: str, port: int, token: str | None) -> None:
    """Serve `server`'s streamable HTTP app at host:port with uvicorn, as the SDK's run_streamable_http_async does,
    behind the bearer token when there is one."""
    import uvicorn

    if token is None and not is_loopback(host):
        print(f"Warning: studio mcp serves {host}:{port} without a token, so anyone who can reach that port can use "
              "its tools (drive the browser, change test data); add --token to require a bearer token.",
              file=sys.stderr, flush=True)
    app: ASGIApp = server.streamable_http_app(host=host)
    if token is not None:
        app = BearerToken(app, token)
    config = uvicorn.Config(app, host=host, port=port, log_level=server.settings.log_level.lower())
    await uvicorn.Server(config).serve()
