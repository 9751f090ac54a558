"""False positives of the scrubber on real text: the share of lines it alters, and certificates.

    .venv/bin/python bench/secret_fp.py [--max-lines N] [--show N] [--lock FILE] [--repo DIR]
        [--docs DIR]

Real text found on this machine (nothing is committed; the figure depends on what is installed):
the Python sources of this virtualenv's site-packages, the CSS and minified JavaScript there,
lockfiles (``--lock``: package-lock.json, go.sum, Cargo.lock, poetry.lock, ...), git logs
with stats of ``--repo`` clones (default: this repository), and the Markdown, shell and YAML
files under ``--docs`` folders (command examples: tldr-pages' pages are a good one). Each
file's lines are scrubbed as one text (as a tool's output would be) and a line counts as
altered when it differs after.
Then every certificate of certifi's bundle, one block at a time and the whole file at once:
none may be altered. ``--naive`` gives the same figures for ``bench.secret_heldout``'s naive
baseline; ``--bare-hex`` those of masking every bare one-case hex run of 32+ digits and UUID
(why bare hex is left: it cannot be told from a digest or an id).
"""

from __future__ import annotations

import argparse
import difflib
import re
import subprocess
import sys
import sysconfig
from collections import Counter
from pathlib import Path

from kindling.secrets.scrub import Scrubbed, scrub_secrets

ROOT = Path(__file__).resolve().parent.parent


def _venv_files(suffixes: tuple[str, ...]) -> list[Path]:
    site = Path(sysconfig.get_paths()["purelib"])
    return sorted(p for p in site.rglob("*") if p.suffix in suffixes and p.is_file())


def _texts(args: argparse.Namespace) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {
        **{"code": [], "css/min.js": [], "lockfiles": [], "git logs": []},
        "docs/scripts": [],
    }
    for p in _venv_files((".py",)):
        groups["code"].append(p.read_text("utf-8", "replace"))
    for p in _venv_files((".css", ".js")):
        if p.suffix == ".css" or p.name.endswith(".min.js"):
            groups["css/min.js"].append(p.read_text("utf-8", "replace"))
    for lock in args.lock or []:
        groups["lockfiles"].append(Path(lock).read_text("utf-8", "replace"))
    for folder in args.docs or []:  # Markdown, shell and YAML: where commands are shown
        for p in sorted(Path(folder).rglob("*")):
            if p.is_file() and p.suffix in (".md", ".sh", ".yml", ".yaml", ".rst", ".txt"):
                groups["docs/scripts"].append(p.read_text("utf-8", "replace"))
    for repo in args.repo or [str(ROOT)]:
        log = subprocess.run(
            ["git", "-C", repo, "log", "--stat", "--format=fuller", "-n", "3000"],
            capture_output=True,
            text=True,
            check=False,
        ).stdout
        groups["git logs"].append(log)
    return groups


def _chunks(text: str, size: int = 200) -> list[str]:
    # A tool shows a file a screen at a time: scrub 200 lines per text.
    lines = text.splitlines()
    return ["\n".join(lines[i : i + size]) for i in range(0, len(lines), size)]


def _naive(text: str) -> Scrubbed:
    from bench.secret_heldout import naive

    masked = naive(text)
    return Scrubbed(masked, ("naive",) if masked != text else ())


# What a rule masking bare hex and UUIDs would alter (``--bare-hex``): a one-case hex run of
# 32+ digits or a UUID, standing alone as the random-token rule's tokens do.
_BARE_HEX = re.compile(
    r"(?<![A-Za-z0-9_+/=.,:~%@$\\\[-])(?:[0-9a-f]{32,}|[0-9A-F]{32,}"
    r"|[0-9a-fA-F]{8}-(?:[0-9a-fA-F]{4}-){3}[0-9a-fA-F]{12})(?![A-Za-z0-9_+/=~%@$-])"
)


def _bare_hex(text: str) -> Scrubbed:
    masked = _BARE_HEX.sub("[REDACTED:hex]", text)
    return Scrubbed(masked, ("hex",) if masked != text else ())


_SCRUB = scrub_secrets


def measure(groups: dict[str, list[str]], max_lines: int, show: int) -> None:
    scrub_secrets = _SCRUB
    total = altered = 0
    shown = 0
    kinds: Counter[str] = Counter()
    for name, texts in groups.items():
        g_total = g_altered = 0
        for text in texts:
            for chunk in _chunks(text):
                if g_total >= max_lines:
                    break
                result = scrub_secrets(chunk)
                before = chunk.split("\n")
                g_total += len(before)
                if result.text == chunk:
                    continue
                kinds.update(result.kinds)
                after = result.text.split("\n")
                matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
                diff = [
                    line
                    for tag, i1, i2, _, _ in matcher.get_opcodes()
                    if tag != "equal"
                    for line in before[i1:i2]
                ]
                g_altered += len(diff)
                for line in diff[: max(0, show - shown)]:
                    shown += 1
                    print(f"  [{name}] {line.strip()[:160]!r}")
        print(f"{name:11} {g_altered}/{g_total} lines altered = {g_altered / max(1, g_total):.4%}")
        total += g_total
        altered += g_altered
    print(f"{'all':11} {altered}/{total} lines altered = {altered / max(1, total):.4%}")
    print("kinds:", dict(kinds.most_common(10)))


def certificates() -> None:
    import certifi

    scrub_secrets = _SCRUB
    bundle = Path(certifi.where()).read_text("ascii")
    blocks = re.findall(r"-----BEGIN CERTIFICATE-----.*?-----END CERTIFICATE-----", bundle, re.S)
    altered = sum(scrub_secrets(b).text != b for b in blocks)
    scrubbed = scrub_secrets(bundle).text
    whole = scrubbed == bundle
    for a, b in zip(bundle.splitlines(), scrubbed.splitlines(), strict=False):
        if a != b:
            print(f"  certifi altered: {a[:120]!r}")
            break
    print(f"certifi: {altered}/{len(blocks)} certificates altered; whole bundle unaltered: {whole}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--max-lines", type=int, default=400_000, help="per group")
    parser.add_argument("--show", type=int, default=0, help="print N altered lines")
    parser.add_argument("--lock", action="append", help="a lockfile to include")
    parser.add_argument("--repo", action="append", help="a git clone whose log to include")
    parser.add_argument(
        "--docs", action="append", help="a folder of Markdown, shell and YAML files to include"
    )
    parser.add_argument("--naive", action="store_true", help="the naive baseline's figures")
    parser.add_argument(
        "--bare-hex", action="store_true", help="what masking bare hex and UUIDs would alter"
    )
    args = parser.parse_args()
    if args.naive:
        global _SCRUB
        _SCRUB = _naive
    if args.bare_hex:
        _SCRUB = _bare_hex
    measure(_texts(args), args.max_lines, args.show)
    certificates()
    return 0


if __name__ == "__main__":
    sys.exit(main())
