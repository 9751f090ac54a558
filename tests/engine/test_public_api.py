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


def test_memory_is_the_protocol_and_chat_memories_have_their_own_names() -> None:
    """``kindling.Memory`` names the seam (every verb), not the chat memory value (renamed
    ``ChatMemory``, see CHANGELOG.md); a local engine satisfies it at run time."""
    from kindling.memory import Memory
    from kindling.model.memories import ChatMemory, ChatMemoryFields, ChatMemoryMatch

    assert kindling.Memory is Memory
    assert (kindling.ChatMemory, kindling.ChatMemoryFields, kindling.ChatMemoryMatch) == (
        ChatMemory,
        ChatMemoryFields,
        ChatMemoryMatch,
    )
    with kindling.Kindling.open(":memory:") as kd:
        assert isinstance(kd, kindling.Memory)
    assert not isinstance(object(), kindling.Memory)
