"""The access rule of a request: every handler reads and writes through the view of its
token's principal (``ServedMemory.view_for``, a ``PrincipalView``), which applies the rule of
``model.access`` to every verb; this adds the owner's view of ids (``http.idspace``), through
which a handler maps what a client names before the view sees it.

Must not import the CLI or other adapters.
"""

from __future__ import annotations

from kindling.http.auth import Principal
from kindling.http.idspace import IdSpace, IdView
from kindling.memory import PrincipalView, ServedMemory
from kindling.model.access import distinct_refs, found

__all__ = ["AccessRules", "distinct_refs", "found"]


class AccessRules:
    """What every handler of ``Api`` starts from."""

    kd: ServedMemory
    idspace: IdSpace

    def _view(self, who: Principal) -> PrincipalView:
        """The memory as ``who`` may see and change it."""
        return self.kd.view_for(who)

    def _ids(self, who: Principal) -> IdView:
        """The caller's view of ids (``http.idspace``)."""
        return self.idspace.view(who, self._view(who).sees)
