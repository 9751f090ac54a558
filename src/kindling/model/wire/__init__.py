"""The wire, read back: every value's ``to_dict()`` JSON parsed into the value again.

``to_dict()`` (on each value) writes the wire; the functions here are the only readers of it:
bundles (``model.bundle``), the HTTP client (``remote``) and the server's bodies all parse
with them, so a field added to a ``to_dict`` has one place to be read. Each takes the JSON and
``where`` (the place in a document, for the error message) and raises ``InvalidInputError`` on
a value that is not the shape it reads. ``tests/engine/test_wire.py`` checks that
``from_dict(to_dict(x)) == x`` for every value. ``base`` (helpers, entities), ``results``
(retrieve, timeline, items), ``reports`` (reports, tokens, the chat memories, whose
``to_dict`` is here too: their values have none).

Must not import anything from Kindling except ``model`` and ``errors``.
"""

from kindling.model.wire.base import (
    capsule,
    entity,
    get,
    new_observation,
    new_observation_to_dict,
    observation,
    pin,
    summary,
)
from kindling.model.wire.reports import (
    api_token,
    capsule_ids,
    described,
    fields_to_dict,
    forget_report,
    import_report,
    match_to_dict,
    memory,
    memory_fields,
    memory_match,
    memory_to_dict,
    repo_activity,
    store_stats,
    summary_details,
)
from kindling.model.wire.results import explanation, items, retrieve_result, timeline

__all__ = [
    "api_token",
    "capsule",
    "capsule_ids",
    "described",
    "entity",
    "explanation",
    "fields_to_dict",
    "forget_report",
    "get",
    "import_report",
    "items",
    "match_to_dict",
    "memory",
    "memory_fields",
    "memory_match",
    "memory_to_dict",
    "new_observation",
    "new_observation_to_dict",
    "observation",
    "pin",
    "repo_activity",
    "retrieve_result",
    "store_stats",
    "summary",
    "summary_details",
    "timeline",
]
