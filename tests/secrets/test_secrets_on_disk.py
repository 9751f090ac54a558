"""No secret on disk: planted credentials of every kind, written through every library verb,
a bundle import and the CLI, are absent from a byte search of the database files (WAL too);
the listed non-secrets are stored intact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kindling import InvalidInputError, Kindling
from kindling.bundle import import_bundle, loads
from kindling.model import ChatMemoryFields
from kindling.secrets.privacy import REDACTED_KINDS_KEY
from tests.support.cli import run, run_process
from tests.support.secret_corpus import NON_SECRETS, SECRETS, planted


def _files(db_path: Path) -> list[Path]:
    files = sorted(db_path.parent.glob(db_path.name + "*"))
    assert files
    return files


def _leaks(db_path: Path) -> dict[str, list[str]]:
    """Secret name -> the files whose bytes contain its value."""
    blobs = {f.name: f.read_bytes() for f in _files(db_path)}
    found = {
        name: [f for f, data in blobs.items() if value.encode() in data]
        for name, (value, _) in SECRETS.items()
    }
    return {k: v for k, v in found.items() if v}


def _write_everything(kd: Kindling) -> list[str]:
    """Every secret through every library write verb; returns observation ids."""
    ids = []
    for name in SECRETS:
        text = planted(name)
        capsule = kd.open_capsule(intent=f"debug {text}")
        obs = kd.append_observation(
            kind="command",
            content=f"$ env\n{text}\nexit 0",
            provenance={"cmd": text, "nested": {"argv": ["run", text]}, "n": 1},
            capsule_id=capsule.id,
        )
        ids.append(obs.id)
        kd.pin("observation", obs.id, reason=f"because {text}")
        kd.close_capsule(capsule.id, summary=f"fixed; {text}", evidence_refs=[obs.id])
        kd.add_memory(
            "/repo",
            f"remember {text}",
            ChatMemoryFields(
                topic=f"creds {text}", context=text, decisions=(text,), next_steps=(text,)
            ),
        )
    return ids


def test_planted_secrets_never_reach_the_files_through_the_library(db_path: Path) -> None:
    with Kindling.open(db_path) as kd:
        assert kd.scrubs_secrets
        ids = _write_everything(kd)
        for name in NON_SECRETS:
            kd.append_observation(kind="message", content=NON_SECRETS[name])
        assert _leaks(db_path) == {}  # WAL not yet checkpointed: it is searched too
        for obs_id, name in zip(ids, SECRETS, strict=True):
            obs = kd.get_observation(obs_id)
            assert obs.provenance[REDACTED_KINDS_KEY], name
            assert "[REDACTED:" in obs.content
            assert all(k.isidentifier() for k in obs.provenance[REDACTED_KINDS_KEY])
        stored = {o.content for o in kd.list_observations(kind="message", limit=100)}
        assert set(NON_SECRETS.values()) <= stored
    assert _leaks(db_path) == {}  # after close (checkpoint) as well
    data = b"".join(f.read_bytes() for f in _files(db_path))
    for text in NON_SECRETS.values():
        assert text.encode() in data


def test_redacted_kinds_name_the_kind_never_the_value(kd: Kindling) -> None:
    value, _ = SECRETS["github_ghp"]
    obs = kd.append_observation(kind="command", content=f"pushed with {value} today")
    assert obs.provenance[REDACTED_KINDS_KEY] == ["github_token"]
    assert value not in json.dumps(obs.to_dict())
    assert kd.get_observation(obs.id) == obs  # what the caller got is what was stored


def test_a_bundle_import_cannot_skip_scrubbing(db_path: Path, tmp_path: Path) -> None:
    raw = tmp_path / "raw.db"
    with Kindling.open(raw, scrub_secrets=False) as plain:  # explicitly off: stored as given
        assert not plain.scrubs_secrets
        _write_everything(plain)
        assert set(_leaks(raw)) == set(SECRETS)
        from kindling.bundle import dumps, export_bundle

        text = dumps(export_bundle(plain))
    with Kindling.open(db_path) as kd:
        report = import_bundle(kd, loads(text))
        assert report.added["observations"] == len(SECRETS) * 1
    assert _leaks(db_path) == {}


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_cli_log_masks_each_kind(name: str) -> None:
    result = run("log", "--kind", "command", "--json", "--", planted(name))
    assert result.code == 0, result.stderr
    assert SECRETS[name][0] not in result.stdout
    assert json.loads(result.stdout)["content"].count("[REDACTED:") >= 1


def test_cli_log_in_a_real_process_leaves_no_secret_on_disk(tmp_path: Path) -> None:
    import os

    db = Path(os.environ["KINDLING_DB"])
    everything = "\n".join(planted(n) for n in SECRETS) + "\n" + "\n".join(NON_SECRETS.values())
    result = run_process("log", "-", "--kind", "command", stdin=everything)
    assert result.code == 0, result.stderr
    assert _leaks(db) == {}
    data = b"".join(f.read_bytes() for f in _files(db))
    for text in NON_SECRETS.values():
        assert text.encode() in data


def test_scrubbing_is_off_only_when_asked_explicitly(db_path: Path) -> None:
    with pytest.raises(InvalidInputError, match="scrub_secrets"):
        Kindling.open(db_path, scrub_secrets="no")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="scrub_secrets"):
        Kindling.open(db_path, scrub_secrets=0)  # type: ignore[arg-type]
    with Kindling.open(db_path, scrub_secrets=False) as kd:
        obs = kd.append_observation(kind="command", content=planted("github_ghp"))
        assert obs.content == planted("github_ghp")
        assert REDACTED_KINDS_KEY not in obs.provenance


def test_redact_secrets_is_the_deprecated_name_of_scrub_secrets(db_path: Path) -> None:
    with pytest.warns(DeprecationWarning, match="use scrub_secrets"):
        kd = Kindling.open(db_path, redact_secrets=False)
    with kd:
        assert kd.scrubs_secrets is False
        assert kd.append_observation(kind="command", content=planted("github_ghp")).content == (
            planted("github_ghp")
        )
    with (
        pytest.warns(DeprecationWarning, match="use scrub_secrets"),
        pytest.raises(InvalidInputError, match="give scrub_secrets only"),
    ):
        Kindling.open(db_path, scrub_secrets=False, redact_secrets=True)
    with (
        pytest.warns(DeprecationWarning, match="use scrub_secrets"),
        pytest.raises(InvalidInputError, match="True or False"),
    ):
        Kindling.open(db_path, redact_secrets="no")  # type: ignore[arg-type]


_BODY = st.text(
    "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789", min_size=36, max_size=36
)
TOKEN = st.tuples(st.sampled_from(["ghp_", "gho_", "ghs_", "ghu_"]), _BODY).map("".join)
FILLER = st.text(
    st.characters(exclude_categories=("L", "N", "Cs")) | st.sampled_from(" \n\t"), max_size=30
)


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(before=FILLER, token=TOKEN, after=FILLER)
def test_any_planted_token_is_masked_wherever_it_sits(
    kd: Kindling, before: str, token: str, after: str
) -> None:
    obs = kd.append_observation(kind="command", content=f"{before} {token} {after}")
    assert token not in obs.content
    assert token not in json.dumps(kd.get_observation(obs.id).to_dict())
