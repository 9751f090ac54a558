"""The curated public API in ``kindling.__all__`` is real and complete."""

from __future__ import annotations

import kindling
from kindling import KindlingError


def test_all_names_exist_and_are_sorted() -> None:
    for name in kindling.__all__:
        assert hasattr(kindling, name), name
    assert list(kindling.__all__) == sorted(kindling.__all__, key=lambda n: (not n.isupper(), n))


def test_errors_share_one_root_with_stable_codes() -> None:
    codes = {}
    for name in kindling.__all__:
        obj = getattr(kindling, name)
        if isinstance(obj, type) and issubclass(obj, KindlingError):
            codes[name] = obj.code
    assert codes == {
        "ConflictError": "conflict",
        "DatabaseLockedError": "database_locked",
        "InvalidInputError": "invalid_input",
        "KindlingError": "kindling_error",
        "NotFoundError": "not_found",
        "SchemaError": "schema",
        "StoreError": "store",
    }
    assert kindling.NotFoundError("x").to_dict() == {"code": "not_found", "message": "x"}
