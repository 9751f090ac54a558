"""Scripts written without spaces, as the search index spells them: Han, Kana, Hangul and
Thai runs cut into overlapping bigrams (pure functions, no database).

A word tokenizer keeps ``東京のデータベース移行は金曜日に決定`` as one token, so no word of it
can be found. Both sides of the search therefore spell such runs as the same bigrams:

- at write time ``index_segments(text)`` is added to what an item is searchable by (the
  observation index's parts, the summary index, the PostgreSQL documents): for each run, its
  bigrams in order (``東京 京の のデ ...``; a one-letter run is itself), then every letter of
  the runs once (so a one-letter query finds a letter anywhere, also at a run's end);
- at query time ``segment_query(word)`` spells a word the same way: its runs become the
  sequence of their bigrams, which the backends read as a phrase (``データベース移行`` finds
  ``... データベース移行 ...``: the phrase ``デー ータ タベ ベー ース ス移 移行``), and a one-letter
  run stays one letter (which matches the per-letter tokens);
- ``query_words(word)`` cuts a question into the words it asks for (a Japanese one at its
  hiragana: ``東京のデータベース移行はいつ`` asks for ``東京`` and ``データベース移行``, not for
  the whole sentence as one phrase; Chinese and Korean rules in its docstring).

Letters and digits of other scripts inside a run's word (``DB移行``) are kept as they are, so a
mixed word matches as the phrase ``DB 移行``. Combining marks are dropped and text is NFC
normalised, as FTS5's ``unicode61`` folds them, so both backends see the same letters. Text
without a letter of these scripts is returned unchanged, and cheaply (``str.isascii`` first):
Latin-script writes and queries do no more work than before.

Must not import anything from Kindling.
"""

from __future__ import annotations

import re
import unicodedata

# Scripts written without spaces between words (Han, Kana, Hangul) or with spaces only between
# phrases (Thai), by Unicode block. Only letters and digits of them count (not ``・`` or ``。``).
_RANGES = (
    ("\u0e00", "\u0e7f"),  # Thai
    ("\u1100", "\u11ff"),  # Hangul Jamo
    ("\u3005", "\u3007"),  # 々 〆 〇
    ("\u3040", "\u30ff"),  # Hiragana, Katakana
    ("\u3100", "\u312f"),  # Bopomofo
    ("\u3130", "\u318f"),  # Hangul Compatibility Jamo
    ("\u31f0", "\u31ff"),  # Katakana Phonetic Extensions
    ("\u3400", "\u4dbf"),  # CJK Unified Ideographs Extension A
    ("\u4e00", "\u9fff"),  # CJK Unified Ideographs
    ("\ua960", "\ua97f"),  # Hangul Jamo Extended-A
    ("\uac00", "\ud7ff"),  # Hangul Syllables, Jamo Extended-B
    ("\uf900", "\ufaff"),  # CJK Compatibility Ideographs
    ("\uff66", "\uff9f"),  # Halfwidth Katakana
    ("\U00020000", "\U0003134f"),  # CJK Unified Ideographs Extensions B-G, Compatibility Supp.
)
SCRIPT_CLASS = "".join(f"{lo}-{hi}" for lo, hi in _RANGES)
_SCRIPT = re.compile(f"[{SCRIPT_CLASS}]")
# A word as FTS5's unicode61 reads it (letters, digits and marks), holding a segmented letter.
_WORD = re.compile(r"(?:[^\W_]|[\u0300-\u036f\u0e31\u0e34-\u0e3a\u0e47-\u0e4e\u3099\u309a])+")
_HIRAGANA = re.compile("[\u3040-\u309f]+")


def has_segments(text: str) -> bool:
    """True when ``text`` holds a letter of a segmented script (so ``index_segments`` is not
    empty). False for any ASCII text without looking at it twice."""
    return not text.isascii() and _SCRIPT.search(text) is not None


def _is_letter(ch: str) -> bool:
    return _SCRIPT.match(ch) is not None and unicodedata.category(ch)[0] in "LN"


def _pieces(word: str) -> list[tuple[bool, str]]:
    """A word cut into (segmented script?, text) pieces; combining marks dropped."""
    pieces: list[tuple[bool, str]] = []
    for ch in unicodedata.normalize("NFC", word):
        if unicodedata.category(ch)[0] == "M":
            continue
        seg = _is_letter(ch)
        if pieces and pieces[-1][0] == seg:
            pieces[-1] = (seg, pieces[-1][1] + ch)
        else:
            pieces.append((seg, ch))
    return pieces


def _bigrams(run: str) -> list[str]:
    if len(run) < 2:
        return [run]
    return [run[i : i + 2] for i in range(len(run) - 1)]


def _spell(word: str) -> list[str]:
    """The tokens a word holding a segmented letter is spelled with, in order."""
    tokens: list[str] = []
    for seg, piece in _pieces(word):
        if seg:
            tokens.extend(_bigrams(piece))
        elif any(ch.isalnum() for ch in piece):
            tokens.append(piece)
    return tokens


def index_segments(text: str) -> str:
    """What the index adds to ``text`` so its segmented runs can be found by their parts: per
    word that holds a segmented letter, its bigrams (and its other letters as they are), in
    order; then every segmented letter once. Space separated; ``""`` when there is none."""
    if not has_segments(text):
        return ""
    out: list[str] = []
    letters: dict[str, None] = {}
    for word in dict.fromkeys(w for w in _WORD.findall(text) if _SCRIPT.search(w)):
        out.extend(_spell(word))
        for seg, piece in _pieces(word):
            if seg:
                letters.update(dict.fromkeys(piece))
    single = set(out)  # a one-letter run is already its own token
    out.extend(ch for ch in letters if ch not in single)
    return " ".join(out)


def segment_query(text: str) -> str:
    """``text`` with each word holding a segmented letter spelled as its tokens (space
    separated), everything else unchanged: quoted, FTS5 and PostgreSQL read it as the phrase of
    those tokens. Text without such a letter is returned as it is."""
    if not has_segments(text):
        return text
    return _WORD.sub(
        lambda m: " ".join(_spell(m.group())) if _SCRIPT.search(m.group()) else m.group(), text
    )


# Chinese function words that cut a long question (``数据库迁移是什么时候进行的`` asks for
# ``数据库迁移`` and ``进行``); only runs of CHINESE_CUT_FROM letters or more are cut, so a
# short word (``现在``, ``目的``) is never split.
_CHINESE_FUNCTION = re.compile(
    "为什么|什么|怎么样|怎么|怎样|如何|哪里|哪个|哪些|时候|是否|已经|还是|或者|因为|所以|但是|"
    "然后|我们|你们|他们|这个|那个|[是的了吗呢吧在和与把被就也都还有我你他她它这那]"
)
CHINESE_CUT_FROM = 5
_HAN_ONLY = re.compile("[\u3400-\u4dbf\u4e00-\u9fff]+")
# Korean particles at a word's end (``데이터베이스를`` asks for ``데이터베이스``), longest first.
_KOREAN_PARTICLE = re.compile(
    "(에서|으로|에게|까지|부터|처럼|보다|이나|이랑|을|를|이|가|은|는|에|로|의|와|과|도|만)$"
)
_HANGUL_WORD = re.compile("[\uac00-\ud7a3]{3,}")


def query_words(word: str) -> list[str]:
    """The words a typed word asks for; the word itself unless a rule below cuts it. Each rule
    only shortens or splits, so a document holding the whole word is still found.

    - Japanese: cut at hiragana when the word also holds other letters
      (``東京のデータベース移行は`` -> ``東京``, ``データベース移行``): hiragana are particles and
      verb endings there, and the whole question is no phrase any document holds.
    - Chinese: a run of ``CHINESE_CUT_FROM`` or more Han letters is cut at question and
      function words (``数据库迁移是什么时候进行的`` -> ``数据库迁移``, ``进行``).
    - Korean: a word of three or more syllables loses a particle at its end
      (``데이터베이스를`` -> ``데이터베이스``)."""
    if not has_segments(word):
        return [word]
    if _HIRAGANA.search(word) is not None:
        parts = [p for p in _HIRAGANA.split(word) if any(ch.isalnum() for ch in p)]
        return parts or [word]
    if _HAN_ONLY.fullmatch(word) and len(word) >= CHINESE_CUT_FROM:
        parts = [p for p in _CHINESE_FUNCTION.split(word) if p]
        return parts or [word]
    if _HANGUL_WORD.fullmatch(word):
        return [_KOREAN_PARTICLE.sub("", word)]
    return [word]


def segment_spans(content: str, words: tuple[str, ...] | list[str]) -> list[tuple[int, int]]:
    """Where the segmented runs of ``words`` occur in ``content`` (for snippets): every
    occurrence of each run of two or more letters, or of a one-letter run."""
    if not has_segments(content):
        return []
    runs = {piece for w in words if has_segments(w) for seg, piece in _pieces(w) if seg and piece}
    spans: list[tuple[int, int]] = []
    for run in sorted(runs, key=len, reverse=True):
        for m in re.finditer(re.escape(run), content):
            spans.append((m.start(), m.end()))
    return spans
