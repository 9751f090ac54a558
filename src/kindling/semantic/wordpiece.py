"""BERT's WordPiece tokenizer (uncased), in pure Python: the one both pinned models use.

The steps are the reference tokenizer's: drop control characters, put spaces around CJK
ideographs, split on white space, lower-case and strip accents, split off punctuation, then the
longest vocabulary pieces from the left (``##`` marking a piece inside a word; a word that
cannot be split is the unknown token). Special tokens in the text are plain text here: a
``[SEP]`` typed by someone never ends the input. Tokenizing stops once ``max_tokens`` pieces
are found, so a 1 MiB observation costs what its beginning costs.

Must not import anything from Kindling.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

MAX_WORD_CHARS = 100


def _is_punctuation(ch: str) -> bool:
    cp = ord(ch)
    if 33 <= cp <= 47 or 58 <= cp <= 64 or 91 <= cp <= 96 or 123 <= cp <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(cp: int) -> bool:
    return (
        0x4E00 <= cp <= 0x9FFF
        or 0x3400 <= cp <= 0x4DBF
        or 0x20000 <= cp <= 0x2A6DF
        or 0x2A700 <= cp <= 0x2B73F
        or 0x2B740 <= cp <= 0x2B81F
        or 0x2B820 <= cp <= 0x2CEAF
        or 0xF900 <= cp <= 0xFAFF
        or 0x2F800 <= cp <= 0x2FA1F
    )


def _clean(text: str) -> str:
    out = []
    for ch in text:
        cp = ord(ch)
        if cp == 0 or cp == 0xFFFD:
            continue
        if ch in " \t\n\r" or unicodedata.category(ch) == "Zs":
            out.append(" ")
        elif unicodedata.category(ch).startswith("C"):
            continue
        elif _is_cjk(cp):
            out.append(f" {ch} ")
        else:
            out.append(ch)
    return "".join(out)


def basic_words(text: str) -> Iterator[str]:
    """Lower-cased, accent-stripped words and punctuation marks, in order."""
    for token in _clean(text).split():
        token = unicodedata.normalize("NFD", token.lower())
        token = "".join(c for c in token if unicodedata.category(c) != "Mn")
        word = ""
        for ch in token:
            if _is_punctuation(ch):
                if word:
                    yield word
                    word = ""
                yield ch
            else:
                word += ch
        if word:
            yield word


class WordPiece:
    """Text to token ids, with the model's special tokens around them."""

    def __init__(self, vocab: dict[str, int], special: tuple[str, str, str, str]) -> None:
        self.vocab = vocab
        cls, sep, pad, unk = special
        missing = [t for t in special if t not in vocab]
        if missing:
            raise ValueError(f"the vocabulary lacks the special tokens {missing}")
        self.cls, self.sep, self.pad, self.unk = (vocab[cls], vocab[sep], vocab[pad], vocab[unk])

    @classmethod
    def from_file(cls, path: Path, special: tuple[str, str, str, str]) -> WordPiece:
        lines = path.read_text(encoding="utf-8").splitlines()
        return cls({token: i for i, token in enumerate(lines)}, special)

    def pieces(self, word: str) -> list[int]:
        if len(word) > MAX_WORD_CHARS:
            return [self.unk]
        out: list[int] = []
        start = 0
        while start < len(word):
            end = len(word)
            found = None
            while start < end:
                piece = word[start:end] if start == 0 else "##" + word[start:end]
                found = self.vocab.get(piece)
                if found is not None:
                    break
                end -= 1
            if found is None:
                return [self.unk]
            out.append(found)
            start = end
        return out

    def encode(self, text: str, max_tokens: int) -> list[int]:
        """``[cls] pieces [sep]``, at most ``max_tokens`` ids."""
        room = max(0, max_tokens - 2)
        ids: list[int] = []
        for word in basic_words(text):
            if len(ids) >= room:
                break
            ids.extend(self.pieces(word))
        return [self.cls, *ids[:room], self.sep]
