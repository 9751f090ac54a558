"""``kindling token``: API tokens of ``kindling serve`` (create, list, revoke) and team grants.

Must not be imported by the core (model, store, retrieval, capture).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from kindling.cli.shared import canonical_repo, library_errors
from kindling.cli.state import State, emit_json, json_option, pass_state
from kindling.errors import RemoteModeError

if TYPE_CHECKING:
    from kindling.memory import ServedMemory

NO_TOKENS = (
    "tokens are managed on the server's database: run `kindling --db <its database> token ...`"
    " there, without KINDLING_URL"
)


@contextmanager
def _database(state: State, *, create: bool = True) -> Iterator[ServedMemory]:
    """The database, whose team directory (``ServedMemory.team``) these commands manage; in
    remote mode a one-line ``RemoteModeError``, never the local file instead."""
    if state.server is not None:
        raise RemoteModeError(NO_TOKENS)
    with state.open_local(create=create) as kd:
        yield kd


def _name(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and (not value.strip() or "\x00" in value or len(value) > 200):
        raise click.BadParameter("must be 1-200 characters of text")
    return value


def _user(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and "/" in value:  # identities are team/user (http.auth.identity)
        raise click.BadParameter("may not contain '/'")
    return _name(ctx, param, value)


@click.group("token")
def command() -> None:
    """API tokens for 'kindling serve': one per developer, stored only as a hash.

    \b
    Example:
      kindling --db postgresql://db.internal/kindling token create --user alice --team web
      kindling --db postgresql://db.internal/kindling token grant --team web --repo /src/webapp
    """


@command.command("create")
@click.option("--user", "user", required=True, callback=_user, help="The token's user id.")
@click.option("--team", "team", callback=_name, help="Team whose repositories it may use.")
@json_option
@pass_state
@library_errors
def create(state: State, /, user: str, team: str | None, as_json: bool) -> None:
    """Create a token; it is printed once, as the last word of the output.

    \b
    Example:
      kindling token create --user alice --team web
    """
    with _database(state) as kd:
        record, token = kd.team.create_token(user=user, team=team)
    token_id = record.id
    if as_json:
        emit_json({"id": token_id, "user": user, "team": team, "token": token})
    else:
        click.echo(f"token {token_id} for {user}{f' (team {team})' if team else ''}: {token}")


@command.command("list")
@json_option
@pass_state
@library_errors
def list_(state: State, /, as_json: bool) -> None:
    """List tokens (ids, users, teams; never the tokens themselves).

    \b
    Example:
      kindling token list --json
    """
    with _database(state, create=False) as kd:
        tokens = kd.team.list_tokens()
    if as_json:
        emit_json([t.to_dict() for t in tokens])
        return
    for t in tokens:
        status = "revoked" if t.revoked_at is not None else "active"
        click.echo(f"{t.id}  {t.user_id}  {t.team or '-'}  {status}")


@command.command("revoke")
@click.argument("token_id", metavar="ID")
@json_option
@pass_state
@library_errors
def revoke(state: State, /, token_id: str, as_json: bool) -> None:
    """Revoke a token by id: the server refuses it from the next request on.

    \b
    Example:
      kindling token revoke 3f9a0c1b2d4e
    """
    with _database(state) as kd:
        kd.team.revoke_token(token_id)
    if as_json:
        emit_json({"revoked": token_id})
    else:
        click.echo(token_id)


@command.command("grant")
@click.option("--team", "team", required=True, callback=_name, help="The team.")
@click.option("--repo", "repo", required=True, callback=_name, help="Repository id to grant.")
@json_option
@pass_state
@library_errors
def grant(state: State, /, team: str, repo: str, as_json: bool) -> None:
    """Let a team's tokens read and write one repository (its id as agents record it).

    \b
    Example:
      kindling token grant --team web --repo /home/alice/src/webapp
    """
    repo = canonical_repo(repo)  # '.' and paths become the git root, as agents record it
    with _database(state) as kd:
        kd.team.grant_repo(team=team, repo=repo)
    if as_json:
        emit_json({"team": team, "repo": repo})
    else:
        click.echo(f"team {team} may use {repo}")
