"""What every engine verb shares: the (scrubbing) store, the clock and the retrieval parts.

The provider and tokenizer are built on first use, so capture (hooks) never imports retrieval.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from kindling.errors import InvalidInputError
from kindling.model import AnyEntity
from kindling.model.sanitize import wall_clock_ms
from kindling.secrets.privacy import scrub_text
from kindling.secrets.session_secrets import SessionSecrets, secrets_dir
from kindling.store.base import Store

if TYPE_CHECKING:  # retrieval is imported on first use: capture (hooks) never pays for it
    from kindling.retrieval.budget import Tokenizer
    from kindling.retrieval.provider import RetrievalProvider
    from kindling.retrieval.scoring import ScoringWeights

Clock = Callable[[], int]


def everything(_: AnyEntity) -> bool:
    """The rule of a whole store (``Kindling``'s own verbs): every entity is seen. A view
    (``Kindling.view_for``) passes its principal's rule instead."""
    return True


SEMANTIC_RECHECK_S = 30.0


class EngineBase:
    """The state the verb groups of ``Kindling`` read: ``store`` (each verb scrubs what it
    writes unless ``scrub_secrets=False``), ``clock``, ``scrubs_secrets``, ``provider``,
    ``tokenizer``, ``location`` (where the database is)."""

    def __init__(
        self,
        store: Store,
        *,
        provider: RetrievalProvider | None = None,
        tokenizer: Tokenizer | None = None,
        clock: Clock = wall_clock_ms,
        weights: ScoringWeights | None = None,
        scrub_secrets: bool = True,
        redact_secrets: bool | None = None,
        semantic: bool | str = False,
    ) -> None:
        scrub_secrets = scrub_switch(scrub_secrets, redact_secrets)
        self.semantic_mode = semantic_switch(semantic)
        self.store = store  # only the verbs write to it, and each scrubs its values once
        self.scrubs_secrets = scrub_secrets
        self.location: str | None = None  # the database's path or URL (``Kindling.open``)
        self.clock = clock
        self._provider = provider
        self._tokenizer = tokenizer
        self._weights = weights
        self._semantic_checked = 0.0

    @property
    def session_secrets(self) -> SessionSecrets:
        """Keyed hashes of the values masked in each session (``secrets.session_secrets``):
        the hooks' files beside a SQLite database, read-only, plus this process's own."""
        memory = self.__dict__.get("_session_secrets")
        if memory is None:
            path = self.store.capabilities.local_path
            memory = SessionSecrets(None if path is None else secrets_dir(path))
            self.__dict__["_session_secrets"] = memory
        return memory

    @property
    def backend(self) -> str:
        """The store's backend: ``sqlite`` or ``postgres``."""
        return self.store.capabilities.backend

    @property
    def thread_safe(self) -> bool:
        """May several threads call this engine at once? (PostgreSQL's store is safe across
        threads; SQLite's one connection is not.)"""
        return self.store.capabilities.thread_safe

    @property
    def weights(self) -> ScoringWeights:
        """The scoring weights this engine ranks with (``retrieval.scoring.DEFAULT_WEIGHTS``
        unless given)."""
        if self._weights is None:
            from kindling.retrieval.scoring import DEFAULT_WEIGHTS

            self._weights = DEFAULT_WEIGHTS
        return self._weights

    @property
    def provider(self) -> RetrievalProvider:
        if self._provider is None or self._semantic_due():
            from kindling.retrieval.provider import LocalFtsProvider
            from kindling.retrieval.union import DEFAULT_UNION

            scorer = None
            if self.semantic_mode is not None:  # the optional extra: imported only when asked
                from kindling.semantic.setup import scorer_for

                scorer = scorer_for(self.store, self.semantic_mode)
                self._semantic_checked = time.monotonic()
            self._provider = LocalFtsProvider(
                self.store, self.weights, semantic=scorer, union=DEFAULT_UNION
            )
        return self._provider

    def _semantic_due(self) -> bool:
        """In ``auto`` mode without the signal yet, look again now and then: a long-running
        server or MCP process picks it up once the model is installed and vectors indexed."""
        if self.semantic_mode != "auto" or self._provider is None:
            return False
        if getattr(self._provider, "semantic", True) is not None:
            return False
        return time.monotonic() - self._semantic_checked >= SEMANTIC_RECHECK_S

    @property
    def tokenizer(self) -> Tokenizer:
        if self._tokenizer is None:
            from kindling.retrieval.budget import CharTokenizer

            self._tokenizer = CharTokenizer()
        return self._tokenizer

    def clean(self, text: str) -> str:
        """``text`` scrubbed of secrets when this engine scrubs; call it before any cut, so a
        cut never leaves half a secret."""
        return scrub_text(text) if self.scrubs_secrets else text


def semantic_switch(value: bool | str) -> Literal["auto", "on"] | None:
    """``semantic``: False (lexical only, the default), ``"auto"`` (the signal when its extra,
    model and vectors are there) or True / ``"on"`` (an error when one is missing)."""
    if value is False:
        return None
    if value is True or value == "on":
        return "on"
    if value == "auto":
        return "auto"
    raise InvalidInputError("semantic must be False, True, 'on' or 'auto'")


def scrub_switch(scrub_secrets: bool, redact_secrets: bool | None) -> bool:
    """``scrub_secrets``, or its deprecated old name ``redact_secrets`` (docs/glossary.md:
    on the wire ``redacted`` means forgotten, so the switch of secret masking says scrub);
    only a real bool: a truthy string must not turn scrubbing off by accident."""
    if redact_secrets is None:
        if not isinstance(scrub_secrets, bool):
            raise InvalidInputError("scrub_secrets must be True or False")
        return scrub_secrets
    warnings.warn(
        "redact_secrets is deprecated; use scrub_secrets", DeprecationWarning, stacklevel=3
    )
    if scrub_secrets is not True and scrub_secrets != redact_secrets:
        raise InvalidInputError("give scrub_secrets only (redact_secrets is its old name)")
    if not isinstance(redact_secrets, bool):
        raise InvalidInputError("redact_secrets must be True or False")
    return redact_secrets
