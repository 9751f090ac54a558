"""What every engine verb shares: the (scrubbing) store, the clock and the retrieval parts.

The provider and tokenizer are built on first use, so capture (hooks) never imports retrieval.

Must not import the CLI, servers or adapters.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

from kindling.capture.privacy import guard_store, scrub_text
from kindling.capture.sanitize import wall_clock_ms
from kindling.capture.session_secrets import SessionSecrets, secrets_dir
from kindling.errors import InvalidInputError
from kindling.store.base import Store

if TYPE_CHECKING:  # retrieval is imported on first use: capture (hooks) never pays for it
    from kindling.retrieval.budget import Tokenizer
    from kindling.retrieval.provider import RetrievalProvider
    from kindling.retrieval.scoring import ScoringWeights

Clock = Callable[[], int]


class EngineBase:
    """The state the verb groups of ``Kindling`` read: ``store`` (every write scrubbed unless
    ``scrub_secrets=False``), ``clock``, ``scrubs_secrets``, ``provider``, ``tokenizer``."""

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
    ) -> None:
        scrub_secrets = scrub_switch(scrub_secrets, redact_secrets)
        self.store = guard_store(store, scrub_secrets)  # every write, not just these verbs
        self.scrubs_secrets = scrub_secrets
        self.clock = clock
        self._provider = provider
        self._tokenizer = tokenizer
        self._weights = weights

    @property
    def session_secrets(self) -> SessionSecrets:
        """Keyed hashes of the values masked in each session (``capture.session_secrets``):
        the hooks' files beside a SQLite database, read-only, plus this process's own."""
        memory = self.__dict__.get("_session_secrets")
        if memory is None:
            path = self.store.capabilities.local_path
            memory = SessionSecrets(None if path is None else secrets_dir(path))
            self.__dict__["_session_secrets"] = memory
        return memory

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
        if self._provider is None:
            from kindling.retrieval.provider import LocalFtsProvider

            self._provider = LocalFtsProvider(self.store, self.weights)
        return self._provider

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
