"""The page's routes: who is asking (``guard``), one view or action, the answer as HTML.

``create_local_app`` is ``kindling ui``'s application (mounted at ``/``), over any ``Memory``: a
local database, or a ``kindling serve`` in remote mode; ``add_team_ui`` mounts the same pages at
``/ui`` on ``kindling serve``'s application, logged in with a bearer token.

Must not import the CLI or other adapters than ``kindling.http``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from importlib.resources import files
from pathlib import Path
from urllib.parse import parse_qsl, urlencode

from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kindling.config import kindling_home
from kindling.errors import (
    InvalidInputError,
    KindlingError,
    NeedLogin,
    Refused,
    UnauthorizedError,
)
from kindling.http.api import Api
from kindling.http.app import read_bytes, told
from kindling.http.auth import authenticate, authenticate_hash, token_hash
from kindling.http.shedding import READ_TIMEOUT_S
from kindling.memory import Memory
from kindling.ui import actions, search, views
from kindling.ui.guard import (
    HEADERS,
    LOCAL_COOKIE,
    TEAM_COOKIE,
    TEAM_IDLE_S,
    Csrf,
    LocalLogin,
    TeamSessions,
    check_loopback_host,
    cookie_name,
)
from kindling.ui.markup import Markup, esc, tag
from kindling.ui.pages import Ctx, layout
from kindling.ui.source import MemorySource, Source, TeamSource

MAX_FORM_BYTES = 64 << 10
STATIC = {"ui.css": "text/css; charset=utf-8", "ui.js": "text/javascript; charset=utf-8"}
log = logging.getLogger("kindling.ui")

View = Callable[[Source, Ctx, Mapping[str, str]], Awaitable[Markup]]
Action = Callable[[Source, Ctx, Mapping[str, str]], Awaitable[str]]
READS: dict[str, View] = {
    "/": views.repos,
    "/repo": partial(views.timeline, path="/repo"),
    "/session": partial(views.timeline, path="/session"),
    "/timeline": partial(views.timeline, path="/timeline"),
    "/item": views.item,
    "/search": search.search,
    "/pins": views.pins,
    "/status": views.status,
    "/forget": actions.forget_form,
}
PAGES: dict[str, View] = {"/forget/preview": actions.forget_preview, "/forget": actions.forget}
REDIRECTS: dict[str, Action] = {"/pin": actions.pin, "/unpin": actions.unpin}


class Secured:
    """ASGI wrapper: the security headers on every answer; on the local page, the loopback
    ``Host`` check before anything else (static files and unknown paths included)."""

    def __init__(self, app: ASGIApp, *, loopback_only: bool) -> None:
        self.app, self.loopback_only = app, loopback_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers[name] = value
            await send(message)

        if scope["type"] == "http" and self.loopback_only:
            try:
                check_loopback_host(Request(scope))
            except Refused as exc:
                await refused(str(exc))(scope, receive, secured)
                return
        await self.app(scope, receive, secured)


def refused(message: str) -> Response:
    return HTMLResponse(f"<!doctype html><title>403</title><p>{esc(message)}</p>", 403)


async def read_form(request: Request, timeout_s: float) -> dict[str, str]:
    """A urlencoded form, at most ``MAX_FORM_BYTES``, all in within ``timeout_s`` (the API's
    body reader, ``http.app.read_bytes``); the first value of each field."""
    data = await read_bytes(request, MAX_FORM_BYTES, timeout_s)
    try:
        pairs = parse_qsl(data.decode("utf-8"), keep_blank_values=True)
    except (UnicodeDecodeError, ValueError):
        raise InvalidInputError("the form is not valid UTF-8 urlencoded data") from None
    form: dict[str, str] = {}
    for key, value in pairs:
        form.setdefault(key, value)
    return form


class Ui:
    """The routes of one page (local or team) and how a request becomes a ``Source``."""

    def __init__(
        self,
        base: str,
        enter: Callable[[Request], Awaitable[tuple[Source, str]]],
        team: bool,
        read_timeout_s: float = READ_TIMEOUT_S,
    ) -> None:
        self.base, self.enter, self.team, self.csrf = base, enter, team, Csrf()
        self.read_timeout_s = read_timeout_s  # a form's body, as an API body (``serve``'s)

    def routes(self) -> list[Route]:
        found = [Route(p, self.handler(v), methods=["GET"]) for p, v in READS.items()]
        found += [Route(p, self.handler(v), methods=["POST"]) for p, v in PAGES.items()]
        found += [Route(p, self.redirecting(a), methods=["POST"]) for p, a in REDIRECTS.items()]
        found.append(Route("/static/{name}", static, methods=["GET"]))
        return found

    async def _begin(self, request: Request) -> tuple[Source, Ctx, Mapping[str, str]]:
        src, cookie = await self.enter(request)
        ctx = Ctx(self.base, self.csrf.field(cookie), src.who, self.team)
        if request.method != "POST":
            return src, ctx, dict(request.query_params)
        form = await read_form(request, self.read_timeout_s)
        self.csrf.check(request, cookie, form.get("csrf"))
        return src, ctx, form

    def handler(self, view: View) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            async def page() -> Response:
                src, ctx, params = await self._begin(request)
                try:
                    return HTMLResponse(await view(src, ctx, params))
                except KindlingError as exc:
                    return self.error_page(request, ctx, exc)

            return await self.answer(request, page)

        return run

    def redirecting(self, action: Action) -> Callable[[Request], Awaitable[Response]]:
        async def run(request: Request) -> Response:
            async def act() -> Response:
                src, ctx, form = await self._begin(request)
                try:
                    return RedirectResponse(await action(src, ctx, form), 303)
                except KindlingError as exc:
                    return self.error_page(request, ctx, exc)

            return await self.answer(request, act)

        return run

    async def answer(self, request: Request, make: Callable[[], Awaitable[Response]]) -> Response:
        try:
            return await make()
        except Refused as exc:
            return refused(str(exc))
        except NeedLogin:
            if request.method == "POST":
                return refused("log in first")
            return RedirectResponse(f"{self.base}/login", 303)
        except KindlingError as exc:  # a bad form, or the store failed before a page was drawn
            status, message = self.told(request, exc)
            return HTMLResponse(f"<!doctype html><p>{esc(message)}</p>", status)
        except Exception:
            log.exception("unexpected error on %s %s", request.method, request.url.path)
            return HTMLResponse("<!doctype html><p>internal error; see the log</p>", 500)

    def error_page(self, request: Request, ctx: Ctx, exc: KindlingError) -> Response:
        status, message = self.told(request, exc)
        body = tag("p", {"class": "error"}, f"{exc.code}: {message}")
        return HTMLResponse(layout(ctx, "Error", body), status)

    def told(self, request: Request, exc: KindlingError) -> tuple[int, str]:
        """The status and message a visitor gets: the JSON API's (``http.app.told``). On the
        team page a store failure's message (it names the database: host, port, name or path)
        goes to the log; the local page is its own database's owner's, who sees it."""
        return told(request, exc) if self.team else (exc.http_status, exc.message)


async def static(request: Request) -> Response:
    name = request.path_params["name"]
    if name not in STATIC:
        return Response("not found", 404, media_type="text/plain")
    data = files("kindling.ui").joinpath("static", name).read_bytes()
    return Response(data, media_type=STATIC[name])


def create_local_app(
    memory: Memory, *, login: LocalLogin, hooks_log: Path | None = None
) -> ASGIApp:
    """``kindling ui``: ``memory`` (a database, or a server through ``RemoteKindling``) for
    whoever opens one of ``login``'s codes. The status page shows the hook errors logged in
    ``hooks_log`` (default: ``$KINDLING_HOME/hooks.log``)."""
    log_file = hooks_log if hooks_log is not None else Path(kindling_home()) / "hooks.log"
    source = MemorySource(memory, hooks_log=log_file)

    async def enter(request: Request) -> tuple[Source, str]:
        cookie = request.cookies.get(cookie_name(LOCAL_COOKIE, request))
        if cookie is None or not login.valid(cookie):
            raise Refused("open the address that 'kindling ui' printed (it carries a code)")
        return source, cookie

    ui = Ui("", enter, team=False)

    async def welcome(request: Request) -> Response:
        """``?code=``: spend the code for a session cookie, and drop it from the address bar."""
        params = dict(request.query_params)
        code = params.pop("code", None)
        path = request.url.path
        target = path + (f"?{urlencode(params)}" if params else "")
        target = target if path in READS else "/"
        name = cookie_name(LOCAL_COOKIE, request)
        session = login.redeem(code)
        if session is not None:
            # A page that moves on, not a redirect: a browser sent here by another site (the
            # file 'kindling ui' opens is one) withholds a SameSite=Strict cookie for the
            # rest of the navigation, redirects included; this page's own is same-site.
            onward = tag("meta", {"http_equiv": "refresh", "content": f"0; url={target}"})
            body = tag("p", None, tag("a", {"href": target}, "Open the memory browser"))
            page = HTMLResponse(f"<!doctype html><title>Kindling</title>{onward}{body}")
            page.set_cookie(name, session, httponly=True, samesite="strict", path="/")
            return page
        if login.valid(request.cookies.get(name)):
            return RedirectResponse(target, 303)  # already in: an old address from the history
        return refused(
            "this address's code is spent or wrong: each code opens the page once; "
            "run 'kindling ui' again for a new address"
        )

    inner = Starlette(routes=ui.routes())

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and "code" in Request(scope).query_params:
            response = await welcome(Request(scope, receive))
            await response(scope, receive, send)
            return
        await inner(scope, receive, send)

    return Secured(app, loopback_only=True)


def add_team_ui(app: Starlette, api: Api) -> None:
    """Mount the page at ``/ui`` on ``kindling serve``'s application: a bearer token logs in
    for a session of this process (``guard.TeamSessions``), whose token is checked again on
    every request."""
    sessions = TeamSessions()

    async def enter(request: Request) -> tuple[Source, str]:
        cookie = request.cookies.get(cookie_name(TEAM_COOKIE, request))
        known = sessions.token_hash(cookie)
        if cookie is None or known is None:
            raise NeedLogin("no session: log in")
        try:
            who = await api.run(lambda: authenticate_hash(api.tokens, known))
        except UnauthorizedError:  # revoked (or its user name no longer valid): session over
            sessions.end(cookie)
            raise NeedLogin("the session ended: log in again") from None
        return TeamSource(api, who), cookie

    ui = Ui("/ui", enter, team=True, read_timeout_s=app.state.read_timeout_s)

    async def login_form(request: Request) -> Response:
        return HTMLResponse(_login_page(None))

    async def login(request: Request) -> Response:
        try:
            ui.csrf.check_origin(request)
            form = await read_form(request, ui.read_timeout_s)
            token = form.get("token", "").strip()
            await api.run(lambda: authenticate(api.tokens, f"Bearer {token}"))
        except Refused as exc:
            return refused(str(exc))
        except UnauthorizedError as exc:
            return HTMLResponse(_login_page(exc.message), exc.http_status)
        except KindlingError as exc:  # a bad form (400), or the store failed (503, no detail)
            status, message = ui.told(request, exc)
            return HTMLResponse(_login_page(message), status)
        response = RedirectResponse("/ui/", 303)
        secure = request.url.scheme == "https"
        name = cookie_name(TEAM_COOKIE, request)
        sessions.end(request.cookies.get(name))  # this browser's session before, if any
        session = sessions.open(token_hash(token))
        response.set_cookie(
            name, session, httponly=True, samesite="strict", path="/ui", secure=secure
        )
        return response

    async def logout(request: Request) -> Response:
        async def out() -> Response:
            await ui._begin(request)
            sessions.end(request.cookies.get(cookie_name(TEAM_COOKIE, request)))
            response = RedirectResponse("/ui/login", 303)
            response.delete_cookie(cookie_name(TEAM_COOKIE, request), path="/ui")
            return response

        return await ui.answer(request, out)

    routes = [
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        *ui.routes(),
    ]
    app.router.routes.append(Mount("/ui", Secured(Starlette(routes=routes), loopback_only=False)))

    async def to_ui(request: Request) -> Response:
        return RedirectResponse("/ui/", 307)

    app.router.routes.append(Route("/ui", to_ui, methods=["GET"]))


def _login_page(error: str | None) -> str:
    ctx = Ctx("/ui", "", "", team=False)
    field = tag(
        "input",
        {
            "type": "password",
            "name": "token",
            "required": True,
            "autocomplete": "off",
            "placeholder": "bearer token",
        },
    )
    form = tag(
        "form",
        {"method": "post", "action": "/ui/login", "class": "login"},
        field,
        tag("button", {"type": "submit"}, "Log in"),
    )
    note = tag(
        "p",
        {"class": "muted"},
        "The token 'kindling token create' gave you. It opens a session of this server "
        "(an HttpOnly cookie that is not the token), which ends when you log out, after "
        f"{TEAM_IDLE_S // 3600} hours unused, or when the server restarts.",
    )
    err = tag("p", {"class": "error"}, error) if error else ""
    return str(layout(ctx, "Log in", err, form, note))
