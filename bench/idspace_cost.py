"""What does each owner's view of ids (``kindling.http.idspace``) cost a request?

    .venv/bin/python bench/idspace_cost.py [--db postgresql://...] [--aliases 100]

Calls the server's handlers in process (no HTTP), as team ``web`` (no aliases, the usual
case) and as team ``billing`` (``--aliases`` ids that web held, stored under derived ids),
each handler with its view (what the server runs) and without (``__wrapped__`` with a view
made once: the handler alone). Prints the median microseconds of each and the difference,
plus the creates under a client's id (none, fresh, one that only another team holds) and a
batch of 1000 with and without ids.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kindling import Kindling, Scope
from kindling.http.api import Api
from kindling.http.auth import authenticate

REPO, OTHER = "/bench/web", "/bench/billing"


def median_us(call: Callable[[], Any], repeat: int) -> float:
    call()  # warm
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def measure(db: str, aliases: int, repeat: int) -> None:
    with Kindling.open(db) as kd:
        api = Api(kd)
        tokens = {}
        for team, repo in (("web", REPO), ("billing", OTHER)):
            _, tokens[team] = kd.team.create_token(user="u", team=team)
            kd.team.grant_repo(team=team, repo=repo)
        who = {t: authenticate(kd.team, f"Bearer {token}") for t, token in tokens.items()}
        words = ["login", "token", "refresh", "cache", "build", "failed", "deploy"]
        with kd.batch():
            held = [
                kd.append_observation(
                    kind="message",
                    content=f"{words[i % 7]} {words[(i * 3) % 7]} note {i}",
                    scope=Scope(repo_id=REPO, user_id="web/u"),
                ).id
                for i in range(2000)
            ]
        for i, ident in enumerate(held[:aliases]):  # billing creates under web's ids
            body = {"kind": "message", "content": f"login mine {i}", "id": ident,
                    "scope": {"repoId": OTHER}}  # fmt: skip
            api.append_observation(who["billing"], body)
        assert len(kd.team.id_aliases("team:billing")) == aliases
        print(f"backend {kd.backend}, 2000 observations, billing has {aliases} aliases")
        for team, repo in (("web", REPO), ("billing", OTHER)):
            w = who[team]
            view = api._ids(w)
            own = held[0]  # web's own, and billing's alias of it
            cases: dict[str, tuple[Callable[[], Any], Callable[[], Any]]] = {
                "GET /v1/observations/{id}": (
                    lambda w=w, own=own: api.get_entity(w, "observations", own),
                    lambda w=w, own=own, v=view: Api.get_entity.__wrapped__(  # type: ignore[attr-defined]
                        api, w, v, "observations", own
                    ),
                ),
                "GET /v1/observations (50)": (
                    lambda w=w, repo=repo: api.list_observations(w, {"repo": repo}),
                    lambda w=w, repo=repo, v=view: Api.list_observations.__wrapped__(  # type: ignore[attr-defined]
                        api, w, v, {"repo": repo}
                    ),
                ),
                "POST /v1/retrieve": (
                    lambda w=w, repo=repo: api.retrieve(
                        w, {"query": "login", "scope": {"repoId": repo}}
                    ),
                    lambda w=w, repo=repo, v=view: Api.retrieve.__wrapped__(  # type: ignore[attr-defined]
                        api, w, v, {"query": "login", "scope": {"repoId": repo}}
                    ),
                ),
            }
            for name, (served, alone) in cases.items():
                full, bare = median_us(served, repeat), median_us(alone, repeat)
                print(
                    f"  {team:8} {name:28} {full:8.0f} us with the view, {bare:8.0f} without,"
                    f" +{full - bare:5.0f} us"
                )
        w = who["billing"]

        def create(ident: str | None) -> None:
            body: dict[str, Any] = {"kind": "message", "content": "x", "scope": {"repoId": OTHER}}
            if ident is not None:
                body["id"] = ident
            api.append_observation(w, body)

        fresh = iter(uuid.uuid4().hex for _ in range(repeat + 1))
        foreign = iter(held[aliases : aliases + repeat + 1])
        print(f"  create, no id            {median_us(lambda: create(None), repeat):8.0f} us")
        print(
            f"  create, a fresh id       {median_us(lambda: create(next(fresh)), repeat):8.0f} us"
        )
        print(
            f"  create, another team's   {median_us(lambda: create(next(foreign)), repeat):8.0f} us"
        )
        for with_ids in (False, True):
            items = [
                {"kind": "message", "content": f"n {i}", "scope": {"repoId": OTHER}}
                | ({"id": uuid.uuid4().hex} if with_ids else {})
                for i in range(1000)
            ]
            start = time.perf_counter()
            api.append_many(w, {"observations": items})
            took = (time.perf_counter() - start) * 1e3
            print(f"  batch of 1000, {'fresh ids' if with_ids else 'no ids   '} {took:8.0f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(prog="bench/idspace_cost.py", description=__doc__)
    parser.add_argument("--db", help="a postgresql:// URL (default: a temp SQLite file)")
    parser.add_argument("--aliases", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    if args.db:
        measure(args.db, args.aliases, args.repeat)
        return
    with tempfile.TemporaryDirectory() as tmp:
        measure(str(Path(tmp) / "ids.db"), args.aliases, args.repeat)


if __name__ == "__main__":
    main()
