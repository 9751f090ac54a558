"""Make captured values safe to store: text SQLite can hold, bounded sizes, JSON provenance.

The checks themselves live in ``model.checks`` (the wire parsers of ``model.wire`` use them
too); this module is their name on the write path, with the id and clock rules.

Must not import anything from Kindling except ``errors``, ``ids`` and ``model``.
"""

from __future__ import annotations

from kindling.ids import new_id as new_id  # re-exported: one id rule
from kindling.ids import wall_clock_ms as wall_clock_ms
from kindling.model.checks import (
    MAX_CONTENT_BYTES as MAX_CONTENT_BYTES,
)
from kindling.model.checks import (
    MAX_ID_CHARS as MAX_ID_CHARS,
)
from kindling.model.checks import (
    MAX_LIMIT as MAX_LIMIT,
)
from kindling.model.checks import (
    MAX_PROVENANCE_BYTES as MAX_PROVENANCE_BYTES,
)
from kindling.model.checks import (
    MAX_PROVENANCE_DEPTH as MAX_PROVENANCE_DEPTH,
)
from kindling.model.checks import (
    MAX_TS as MAX_TS,
)
from kindling.model.checks import (
    REPLACEMENT as REPLACEMENT,
)
from kindling.model.checks import (  # re-exported: one rule per value
    cap_content as cap_content,
)
from kindling.model.checks import (
    check_depth as check_depth,
)
from kindling.model.checks import (
    clean_text as clean_text,
)
from kindling.model.checks import (
    require_choice as require_choice,
)
from kindling.model.checks import (
    require_confidence as require_confidence,
)
from kindling.model.checks import (
    require_id as require_id,
)
from kindling.model.checks import (
    require_limit as require_limit,
)
from kindling.model.checks import (
    require_provenance as require_provenance,
)
from kindling.model.checks import (
    require_scope as require_scope,
)
from kindling.model.checks import (
    require_text as require_text,
)
from kindling.model.checks import (
    require_ts as require_ts,
)
