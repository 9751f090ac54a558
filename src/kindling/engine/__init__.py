"""The front door: ``Kindling`` wires a store, a provider and a tokenizer behind domain verbs.

One module per job: ``kindling.py`` (opening, closing, ``batch()``), ``base.py`` (what every
verb shares: the store, the clock, the scrub switch, the lazily built provider and tokenizer),
``validate.py`` (the checks before a write), ``capture.py`` (the capture verbs),
``reads.py`` (getters and listings), ``retrieval.py`` (``retrieve()``), ``memories.py`` (the chat
memories of the bridge); the forget verbs in ``forget.py``.

Must not import the CLI, servers or adapters.
"""

from kindling.engine.base import Clock
from kindling.engine.kindling import Kindling

__all__ = ["Clock", "Kindling"]
