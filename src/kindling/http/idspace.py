"""Each owner's own view of the ids its clients choose (issue 18), behind one seam.

Ids are one namespace in the store (its tables are the local ones, and the TypeScript tool's),
so a create under an id another team already holds would fail, and that failure would
confirm the other team's id. The server instead gives each owner, a team for a team token
(``team:<name>``) or the user for a personal one (``user:<identity>``), its own view:

- a create under a client's id ``X`` that only entities the owner may not touch hold is
  stored under a derived id (``X~`` and 16 hex of a keyed SHA-256 of owner and ``X``) and
  the pair is recorded in ``id_aliases``; the answer is the one an unknown id gets, with
  ``X`` in it. An id the owner holds itself (or may touch) keeps its own 409.
- every id a request names goes through the owner's aliases before the access checks
  (``stored``), and every answer comes back through them (``out``; error messages and an
  import's ``skipped`` lines through ``text``). An owner without aliases (the usual case)
  costs one indexed read per request, and its answers are not walked
  (``bench/idspace_cost.py``).

The key is this process's own (random): nobody can predict a derived id, so nobody can
probe whether an id of theirs was moved. It is stable while the server runs, so a dry-run
import and the real one decide alike; an alias, once recorded, holds across restarts.
Aliases are never dropped: one whose entity is gone (an unpin) only points at nothing, so the
id stays unknown to its owner until it creates under it again, at the same stored id. An
alias is one per (owner, id), whatever the kind: in the one case where the owner already
holds an entity under the id itself and another team holds one of the kind it creates (only
a later grant makes that), the new alias shadows the older entity (docs/server.md).

Must not import the CLI or other adapters.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import secrets
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import replace
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from kindling.errors import ConflictError, InvalidInputError, KindlingError, NotFoundError
from kindling.http.auth import Principal
from kindling.memory import ServedMemory
from kindling.model import AnyEntity, Visible
from kindling.model.access import TAKEN as TAKEN  # the handlers and tests read it here
from kindling.model.bundle import Bundle
from kindling.model.checks import MAX_ID_CHARS, require_id
from kindling.model.reports import EntityType

MARK = "~"  # between a client's id and the hex of its derived id
HEX_CHARS = 16  # 64 bits of the keyed hash: a collision is stepped over anyway (``TRIES``)
TRIES = 4  # derived ids tried for one client id before giving up (each must be free)

P = ParamSpec("P")
R = TypeVar("R")


def owner_of(who: Principal) -> str:
    """Whose view of ids a token works in: its team's, or its user's (identity is (team,
    user), so a personal ``alice`` and team web's ``alice`` are different owners)."""
    return f"team:{who.team}" if who.team is not None else f"user:{who.user_id}"


class IdSpace:
    """The server's: the key of derived ids, and a view of them per request."""

    def __init__(self, kd: ServedMemory, key: bytes | None = None) -> None:
        self.kd = kd
        self._key = key if key is not None else secrets.token_bytes(32)

    def view(self, who: Principal, visible: Visible) -> IdView:
        """The view of the owner of ``who`` (one read: its aliases); ``visible`` is the
        access rule of ``who`` for entities named by id."""
        owner = owner_of(who)
        return IdView(self, owner, self.kd.team.id_aliases(owner), visible)

    def derive(self, owner: str, wire_id: str, attempt: int) -> str:
        message = f"{attempt}\0{owner}\0{wire_id}".encode("utf-8", "surrogatepass")
        digest = hmac.new(self._key, message, hashlib.sha256).hexdigest()[:HEX_CHARS]
        room = MAX_ID_CHARS - len(MARK) - HEX_CHARS  # a derived id is a valid id too
        return f"{wire_id[:room]}{MARK}{digest}"


class IdView:
    """One owner's ids during one request: ``stored`` maps what a client names in, ``out``
    and ``text`` map what it is shown back, ``new_id`` decides where a create goes, and
    ``saving`` records the aliases a create made, in the create's own transaction."""

    def __init__(
        self, space: IdSpace, owner: str, aliases: dict[str, str], visible: Visible
    ) -> None:
        self.space, self.owner, self.visible = space, owner, visible
        self._load(aliases)

    def _load(self, aliases: dict[str, str]) -> None:
        self.to_stored = dict(aliases)
        self.to_wire = {stored: wire for wire, stored in aliases.items()}
        self.pending: dict[str, str] = {}
        self._looked_up: set[str] = set()  # ids ``taken`` holds the answer for
        self._taken: set[str] = set()  # ... those an entity is stored under

    def reload(self) -> None:
        """Read the owner's aliases again (after a race), forgetting unsaved ones."""
        self._load(self.space.kd.team.id_aliases(self.owner))

    # ------------------------------------------------------------------ inbound

    def stored(self, value: Any) -> Any:
        """The stored id of an id a client names (anything else as it is)."""
        if isinstance(value, str) and self.to_stored:
            return self.to_stored.get(value, value)
        return value

    def stored_all(self, value: Any) -> Any:
        """``stored`` of each id of a list (anything else as it is)."""
        if isinstance(value, list | tuple) and self.to_stored:
            return type(value)(self.stored(v) for v in value)
        return value

    def look_up(self, values: Iterable[Any]) -> None:
        """Learn at once which of the client's ids ``values`` are taken (a batch, a bundle):
        ``new_id`` then looks at the holders of those only."""
        fresh = []
        for value in values:
            if not isinstance(value, str) or value in self._looked_up or value in self.to_stored:
                continue
            try:
                fresh.append(require_id(value))
            except InvalidInputError:
                continue  # the library refuses it, in its own words
        if fresh:
            self._taken |= self.space.kd.team.taken_ids(fresh)
            self._looked_up.update(fresh)

    def new_id(self, kind: EntityType, value: Any) -> Any:
        """Where a create of a ``kind`` under the client's id ``value`` goes: the owner's
        alias; else ``value`` itself, unless only entities the owner may not touch hold it,
        or such an entity of this ``kind`` does: then a derived id, a new alias
        (``saving``)."""
        if not isinstance(value, str):
            return value
        if value in self.to_stored:
            return self.to_stored[value]
        self.look_up([value])
        if value not in self._taken:
            return value  # free (an invalid id too: the library refuses it)
        holders = self._holders(value)
        foreign = [(k, e) for k, e in holders if not self.visible(e)]
        if not foreign:
            return value  # free, or the owner's own (its duplicate is its own 409)
        if len(foreign) < len(holders) and all(k != kind for k, _ in foreign):
            return value  # the owner holds the id too, and the slot of this kind is free
        for attempt in range(TRIES):
            derived = self.space.derive(self.owner, value, attempt)
            if derived not in self.to_wire and not self.space.kd.team.taken_ids([derived]):
                self.to_stored[value] = self.pending[value] = derived
                self.to_wire[derived] = value
                return derived
        raise ConflictError(TAKEN)

    def _holders(self, entity_id: str) -> list[tuple[EntityType, AnyEntity]]:
        """The entities, of every kind, stored under ``entity_id``."""
        kd = self.space.kd
        getters: tuple[tuple[EntityType, Callable[[str], AnyEntity]], ...] = (
            ("observation", kd.get_observation),
            ("capsule", kd.get_capsule),
            ("summary", kd.get_summary),
            ("pin", kd.get_pin),
        )
        held = []
        for kind, get in getters:
            with suppress(NotFoundError):
                held.append((kind, get(entity_id)))
        return held

    def bundle(self, bundle: Bundle) -> Bundle:
        """A bundle as stored: its entities' ids through ``new_id`` first, then every id it
        names (links, capsules, evidence, pin targets) through ``stored``."""
        lists = (bundle.observations, bundle.capsules, bundle.summaries, bundle.pins)
        self.look_up(entity.id for entities in lists for entity in entities)
        with_ids = replace(
            bundle,
            observations=tuple(
                replace(o, id=self.new_id("observation", o.id)) for o in bundle.observations
            ),
            capsules=tuple(replace(c, id=self.new_id("capsule", c.id)) for c in bundle.capsules),
            summaries=tuple(replace(s, id=self.new_id("summary", s.id)) for s in bundle.summaries),
            pins=tuple(replace(p, id=self.new_id("pin", p.id)) for p in bundle.pins),
        )
        if not self.to_stored:
            return with_ids
        return replace(
            with_ids,
            capsules=tuple(
                replace(c, observation_ids=self.stored_all(c.observation_ids))
                for c in with_ids.capsules
            ),
            summaries=tuple(
                replace(
                    s,
                    capsule_id=self.stored(s.capsule_id),
                    evidence_refs=self.stored_all(s.evidence_refs),
                )
                for s in with_ids.summaries
            ),
            pins=tuple(replace(p, target_id=self.stored(p.target_id)) for p in with_ids.pins),
        )

    @contextmanager
    def saving(self, write: bool = True) -> Iterator[None]:
        """Run a create with the aliases it made recorded in its transaction (all or
        nothing); ``write=False`` (a dry run) records nothing."""
        if not self.pending or not write:
            yield
            return
        kd = self.space.kd
        with kd.batch():
            for wire, stored in self.pending.items():
                if kd.team.add_id_alias(self.owner, wire, stored) != stored:
                    raise ConflictError(TAKEN)  # a concurrent create of the owner's won
            yield
        self.pending.clear()

    # ------------------------------------------------------------------ outbound

    def out(self, value: R) -> R:
        """An answer as the owner sees it: every string (value or key) that is one of its
        stored ids becomes the id it chose. Text is never rewritten inside."""
        if not self.to_wire:
            return value
        get = self.to_wire.get

        def walk(value: Any) -> Any:  # exact types: twice as fast as isinstance here
            kind = type(value)
            if kind is str:
                return get(value, value)
            if kind is dict:
                return {(get(k, k) if type(k) is str else k): walk(v) for k, v in value.items()}
            if kind is list or kind is tuple:
                return [walk(v) for v in value]
            return value

        return walk(value)  # type: ignore[no-any-return]

    def text(self, message: str) -> str:
        """A message of the server's own (an error, an import's skipped line) with the
        owner's stored ids shown as its own: as written, and as ``repr`` writes them."""
        for stored in sorted(self.to_wire, key=len, reverse=True):
            wire = self.to_wire[stored]
            message = message.replace(stored, wire)
            message = message.replace(repr(stored)[1:-1], repr(wire)[1:-1])
        return message


class HasIds(Protocol):
    def _ids(self, who: Principal) -> IdView: ...


S = TypeVar("S", bound=HasIds)


def owned_ids(
    handler: Callable[Concatenate[S, Principal, IdView, P], R],
) -> Callable[Concatenate[S, Principal, P], R]:
    """A handler that works in the caller's view of ids: it gets the view, and its answer
    and its errors' messages are mapped back (``IdView.out``, ``IdView.text``)."""

    @functools.wraps(handler)
    def run(self: S, who: Principal, /, *args: P.args, **kwargs: P.kwargs) -> R:
        ids = self._ids(who)
        try:
            return ids.out(handler(self, who, ids, *args, **kwargs))
        except KindlingError as exc:
            if ids.to_wire:
                exc.message = ids.text(exc.message)
                exc.args = (exc.message,)
            raise

    return run
