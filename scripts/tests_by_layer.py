"""Put the tests in folders by layer, and their helpers in ``tests/support/`` (issue 33, item 7).

Run from the repository root, on a clean work tree, after every branch that touches tests has
been merged:

    python scripts/tests_by_layer.py            # helpers, then test files (git mv)
    python scripts/tests_by_layer.py --helpers  # only the helpers and the imports of them
    python scripts/tests_by_layer.py --check    # say what would move; change nothing

Re-runnable and idempotent: a file already in place is left alone, and each rewrite replaces a
spelling that no longer occurs once rewritten. What it does:

1. moves each helper module (``tests/pgutil.py``...) to ``tests/support/`` under one naming
   style, and rewrites ``tests.pgutil`` / ``tests/pgutil.py`` wherever they are spelled (tests,
   src, scripts, bench, docs);
2. in top-level test files and helpers, replaces paths computed from ``__file__`` (which change
   meaning when a file moves) with ``tests.support.paths`` (``ROOT``, ``TESTS``, ``SUPPORT``);
3. moves each ``tests/test_*.py`` to the folder of its layer (``LAYERS``; a few get a name
   saying what they test instead of a version), adds the folder's ``__init__.py``, and rewrites
   ``tests.test_x`` imports and ``tests/test_x.py`` mentions;
4. runs ``ruff check --fix --select I`` and ``ruff format`` on the files it changed.

A test file the mapping does not know stays where it is, and the script names it at the end
(exit status 1), so that a test added in parallel is placed by a person, not guessed.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import re
import shutil
import subprocess
import sys
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
SUPPORT = TESTS / "support"

# old helper module -> its name in tests/support/
HELPERS = {
    "agentutil": "agents",
    "bridge_support": "bridge",
    "browser": "browser",
    "clitools": "cli",
    "fake_anthropic": "fake_anthropic",
    "fake_gemini": "fake_gemini",
    "fake_openai": "fake_openai",
    "hookutil": "hooks",
    "paritylib": "parity",
    "pgutil": "pg",
    "procs": "procs",
    "secret_corpus": "secret_corpus",
    "secret_samples": "secret_samples",
    "semantic_util": "semantic",
    "serverutil": "server",
    "uiutil": "ui",
}

# folder -> test modules (without ``test_`` and ``.py``); "old=new" renames the file too
LAYERS: dict[str, list[str]] = {
    "agents": [
        "agents", "agents_cli", "agents_cursor", "agents_payloads", "agents_sessions",
        "agents_team", "agents_setup", "claude_headless", "cursor_sdk", "init_claude_code",
        "opencode_plugin",
    ],
    "hooks": [
        "hook_storm", "hooks_parity", "hooks_process", "hooks_reconcile", "hooks_sdk_shapes",
        "hooks_units", "inflight", "inject_filter", "locks", "outbox_lock", "records", "spool",
        "start_cache",
    ],
    "store": [
        "migrations", "pg_store", "pg_search_contract", "pg_forget", "store_dialect",
        "store_summary_details", "plain_sqlite_writes", "concurrency", "crash", "file_safety",
        "local_files", "private_files", "private_modes", "identifiers", "id_aliases", "segments",
        "fts_query", "pages_contract", "cjk_search", "v5_fixture=typescript_database",
        "late_steps", "scope_column",
    ],
    "retrieval": [
        "orchestrator", "rank_window", "retrieval_contract", "retrieval_plans", "scoring",
        "snippets_budget", "retrieval_v2=relevance_and_context",
        "retrieval_v3=calibration_and_need", "retrieval_v4=rare_terms_and_first_page",
        "neighbour_ties",
    ],
    "engine": [
        "capture", "determinism", "disclosure", "engine_memories", "bundle", "forget",
        "forget_every_copy", "hostile_input", "open_options", "wire", "checks",
        "canonical_paths", "errors", "public_api", "connect", "view",
    ],
    "parity": ["parity", "parity_cli", "parity_errors"],
    "cli": [
        "cli_bundle", "cli_capture", "cli_demo", "cli_disclosure", "cli_errors", "cli_read",
        "cli_shared", "remote_cli",
    ],
    "http": [
        "server_access", "server_api", "server_architecture", "server_bodies",
        "server_forget_match", "server_hooks", "server_idspace", "server_process",
        "server_reads", "server_remote", "server_shedding", "server_trust", "routes",
    ],
    "ui": [
        "ui_backends", "ui_browser", "ui_http", "ui_login", "ui_markup", "ui_team",
        "ui_team_failures", "ui_team_sessions", "ui_memory_source", "ui_remote",
    ],
    "mcp": ["mcp_front", "mcp_npm", "mcp_server"],
    "bridge": [
        "bridge_architecture", "bridge_cli", "bridge_docs", "bridge_errors", "bridge_flowbaby",
        "bridge_flowbaby_launcher", "bridge_fuzz", "bridge_units",
    ],
    "secrets": [
        "privacy_guard", "regex_cache", "scrub", "scrub_context", "scrub_data", "scrub_encoded",
        "scrub_gate", "scrub_generated", "scrub_keywords", "scrub_places", "scrub_restated",
        "secret_corpora_files", "secret_corpus", "secrets_on_disk", "session_secrets",
        "scrub_typed", "scrub_forms", "scrub_written", "scrub_bare", "scrub_code_keys",
        "scrub_compared", "scrub_loose_base64", "scrub_drawn_password", "scrub_near_password",
        "scrub_other_languages", "scrub_printed", "scrub_mixed_alphabets", "scrub_nested_values",
        "scrub_sql", "scrub_tables", "scrub_written_forms", "scrub_fake_leaks",
        "scrub_rule_examples", "scrub_url_paths", "scrub_fixture_forms", "scrub_json_escaped",
        "scrub_signs_in_draw", "scrub_der_keys", "scrub_padded_base64url", "scrub_client_literal",
        "scrub_public_ids", "scrub_grouped_keys", "scrub_keyed_draws", "scrub_left_in_place",
        "scrub_wallets", "scrub_selfnamed", "scrub_headers", "scrub_glued_tails", "scrub_refs",
        "scrub_envline", "scrub_labels", "scrub_copies", "scrub_masked_parts",
        "scrub_keyboard_draws", "scrub_short_encoded", "scrub_code_forms",
        "scrub_letter_draws", "scrub_k8s_secrets", "scrub_short_draws", "scrub_encoded_tokens",
        "scrub_self_identifying", "scrub_credential_types", "scrub_short_basic",
        "scrub_public", "scrub_patterns", "scrub_literals", "scrub_templates",
        "scrub_tool_output", "scrub_mail_admin", "scrub_daemons",
    ],
    "semantic": [
        "semantic_cli", "semantic_install", "semantic_model_memory", "semantic_quality",
        "semantic_retrieval", "semantic_spread", "semantic_store", "semantic_threads",
        "semantic_union",
    ],
    "bench": [
        "bench_corpus", "bench_injection", "bench_smoke", "quality", "quality_coding",
        "quality_coding_floor",
    ],
    "docs": [
        "agents_docs", "architecture", "bench_docs", "cli_docs", "glossary", "performance_docs",
        "python_api_docs", "contributing",
    ],
    "suite": ["temp_files", "requires", "tests_by_layer"],  # the test suite's own rules
}  # fmt: skip

# Where mentions of a test or helper file are rewritten (data files are left alone: they quote
# file names of imagined projects).
TEXT_GLOBS = ("*.md", "*.py", "*.sh", "*.toml", "Makefile")
TEXT_DIRS = ("tests", "src", "scripts", "bench", "docs", ".ci")
TEXT_TOP = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "Makefile", "pyproject.toml", ".ci/run")


def moves() -> dict[str, tuple[str, str]]:
    """test module stem (``test_x``) -> (folder, new stem)."""
    out: dict[str, tuple[str, str]] = {}
    for folder, names in LAYERS.items():
        for entry in names:
            old, _, new = entry.partition("=")
            out[f"test_{old}"] = (folder, f"test_{new or old}")
    return out


def git(*args: str) -> None:
    subprocess.run(["git", *args], cwd=ROOT, check=True)


def tracked(path: Path) -> bool:
    rel = str(path.relative_to(ROOT))
    proc = subprocess.run(["git", "ls-files", "--error-unmatch", rel], cwd=ROOT,
                          capture_output=True, check=False)  # fmt: skip
    return proc.returncode == 0


def move(src: Path, dst: Path) -> None:
    dst.parent.mkdir(parents=True, exist_ok=True)
    if tracked(src):
        git("mv", str(src.relative_to(ROOT)), str(dst.relative_to(ROOT)))
    else:
        shutil.move(src, dst)


def text_files() -> list[Path]:
    files: set[Path] = {ROOT / name for name in TEXT_TOP if (ROOT / name).is_file()}
    for folder in TEXT_DIRS:
        base = ROOT / folder
        for pattern in TEXT_GLOBS:
            files.update(p for p in base.rglob(pattern) if ".venv" not in p.parts)
    files.discard(Path(__file__).resolve())
    return sorted(p for p in files if p.is_file())


def ensure_package(folder: Path, doc: str) -> None:
    init = folder / "__init__.py"
    if not init.exists():
        folder.mkdir(parents=True, exist_ok=True)
        init.write_text(f'"""{doc}"""\n', encoding="utf-8")
        git("add", str(init.relative_to(ROOT)))


# Paths computed from ``__file__`` in a module of tests/ or an old helper (depth one):
# (pattern, replacement, the name of tests.support.paths it needs)
PATH_RULES: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"^ROOT = Path\(__file__\)\.resolve\(\)\.(?:parents\[1\]|parent\.parent)\n", re.M),
     "", "ROOT"),
    (re.compile(r"Path\(__file__\)(?:\.resolve\(\))?\.(?:parents\[1\]|parent\.parent)"),
     "ROOT", "ROOT"),
    (re.compile(r'str\(Path\(__file__\)\.with_name\("procs\.py"\)\)'),
     'str(SUPPORT / "procs.py")', "SUPPORT"),
    (re.compile(r"Path\(__file__\)(?:\.resolve\(\))?\.parent(?= /)"), "TESTS", "TESTS"),
]  # fmt: skip


def add_import(text: str, names: set[str]) -> str:
    """``from tests.support.paths import ...`` for the names not yet imported, after the last
    top-level import (ruff sorts it afterwards)."""
    have = set(re.findall(r"^from tests\.support\.paths import (.+)$", text, re.M))
    imported = {n.strip() for line in have for n in line.split(",")}
    missing = sorted(names - imported)
    if not missing:
        return text
    tree = ast.parse(text)
    last = max((n.end_lineno or 0 for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)),
               default=0)  # fmt: skip
    lines = text.splitlines(keepends=True)
    # after a guarded import (``pytest.importorskip`` first), the same waiver as its neighbours
    noqa = "  # noqa: E402" if last and "noqa: E402" in lines[last - 1] else ""
    lines.insert(last, f"from tests.support.paths import {', '.join(missing)}{noqa}\n")
    return "".join(lines)


def rewrite_paths(path: Path) -> bool:
    text = path.read_text(encoding="utf-8")
    new, needed = text, set()
    for pattern, replacement, name in PATH_RULES:
        new, count = pattern.subn(replacement, new)
        if count:
            needed.add(name)
    if needed:
        new = add_import(new, needed)
    if new != text:
        path.write_text(new, encoding="utf-8")
        return True
    return False


def rewrite_names(files: list[Path], table: dict[str, str], patterns: list[str]) -> set[Path]:
    """Apply ``old -> new`` to every file, for each regex template (``{old}`` is filled in)."""
    changed: set[Path] = set()
    if not table:
        return changed
    alternation = "|".join(sorted(map(re.escape, table), key=len, reverse=True))
    regexes = [re.compile(p.format(old=f"(?P<old>{alternation})")) for p in patterns]
    for path in files:
        text = path.read_text(encoding="utf-8")
        new = text
        for regex in regexes:
            new = regex.sub(lambda m: m.group(0).replace(m["old"], table[m["old"]], 1), new)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.add(path)
    return changed


def do_helpers(check: bool) -> set[Path]:
    changed: set[Path] = set()
    pending = {old: new for old, new in HELPERS.items() if (TESTS / f"{old}.py").exists()}
    if check:
        for old, new in pending.items():
            print(f"tests/{old}.py -> tests/support/{new}.py")
        return changed
    ensure_package(SUPPORT, "Helpers shared by the tests (never collected: no test_ prefix).")
    # paths from __file__, while each file is still at depth one
    for path in [*(TESTS / f"{old}.py" for old in pending), *TESTS.glob("test_*.py")]:
        if rewrite_paths(path):
            changed.add(path)
    for old, new in pending.items():
        move(TESTS / f"{old}.py", SUPPORT / f"{new}.py")
        changed.add(SUPPORT / f"{new}.py")
    # imports and mentions, in every file (idempotent: the old spelling is gone once rewritten)
    dotted = {f"tests.{old}": f"tests.support.{new}" for old, new in HELPERS.items()}
    slashed = {f"tests/{old}": f"tests/support/{new}" for old, new in HELPERS.items()}
    changed |= rewrite_names(text_files(), dotted, [r"(?<![\w.]){old}\b"])
    changed |= rewrite_names(text_files(), slashed, [r"(?<![\w/]){old}\b"])
    return changed


def do_layers(check: bool) -> set[Path]:
    changed: set[Path] = set()
    table = moves()
    pending = {stem: table[stem] for stem in table if (TESTS / f"{stem}.py").exists()}
    if check:
        for stem, (folder, new) in pending.items():
            print(f"tests/{stem}.py -> tests/{folder}/{new}.py")
        return changed
    for stem, (folder, new) in pending.items():
        path = TESTS / f"{stem}.py"
        if rewrite_paths(path):  # a test added since the helpers were moved
            changed.add(path)
        ensure_package(TESTS / folder, f"Tests of the {folder} layer.")
        move(path, TESTS / folder / f"{new}.py")
        changed.add(TESTS / folder / f"{new}.py")
    dotted = {f"tests.{stem}": f"tests.{folder}.{new}" for stem, (folder, new) in table.items()}
    slashed = {
        f"tests/{stem}.py": f"tests/{folder}/{new}.py" for stem, (folder, new) in table.items()
    }
    changed |= rewrite_names(text_files(), dotted, [r"(?<![\w.]){old}\b"])
    changed |= rewrite_names(text_files(), slashed, [r"(?<![\w/]){old}"])
    return changed


LINE = 100  # ruff's line-length


def prose_lines(text: str) -> set[int]:
    """Line numbers (1-based) inside docstrings and comments, where a line may be rewrapped."""
    lines: set[int] = set()
    with contextlib.suppress(SyntaxError, tokenize.TokenError):
        for node in ast.walk(ast.parse(text)):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
                value = body[0].value
                if isinstance(value, ast.Constant) and isinstance(value.value, str):
                    lines.update(range(value.lineno, (value.end_lineno or value.lineno) + 1))
        tokens = tokenize.generate_tokens(io.StringIO(text).readline)
        lines.update(  # a comment alone on its line, not one after code
            t.start[0]
            for t in tokens
            if t.type == tokenize.COMMENT and not t.line[: t.start[1]].strip()
        )
    return lines


def rewrap(path: Path) -> None:
    """A mention made longer by a rewrite can push prose past the line length: break such a
    line of a docstring or comment at its last space that fits (a comment keeps its ``# ``)."""
    text = path.read_text(encoding="utf-8")
    prose = prose_lines(text)
    out: list[str] = []
    for number, line in enumerate(text.splitlines(keepends=True), start=1):
        body = line.rstrip("\n")
        if len(body) <= LINE or number not in prose:
            out.append(line)
            continue
        indent = body[: len(body) - len(body.lstrip())]
        comment = body.lstrip().startswith("#")
        lead = indent + ("# " if comment else "")
        cut = body.rfind(" ", len(lead) + 1, LINE + 1)
        if cut <= len(lead):
            out.append(line)
            continue
        out.append(body[:cut] + "\n")
        out.append(lead + body[cut + 1 :] + "\n")
    new = "".join(out)
    if new != text:
        path.write_text(new, encoding="utf-8")


def tidy(changed: set[Path]) -> None:
    """Sort the imports the rewrites touched and format the Python files (ruff of the venv)."""
    ruff = ROOT / ".venv" / "bin" / "ruff"
    command = str(ruff) if ruff.exists() else shutil.which("ruff")
    files = sorted(str(p) for p in changed if p.suffix == ".py" and p.exists())
    for name in files:
        rewrap(Path(name))
    if not files or command is None:
        return
    subprocess.run([command, "check", "--quiet", "--fix", "--select", "I,F401", *files], cwd=ROOT,
                   check=False)  # fmt: skip
    subprocess.run([command, "format", "--quiet", *files], cwd=ROOT, check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--helpers", action="store_true", help="only tests/support/ and imports")
    parser.add_argument("--check", action="store_true", help="print the moves; change nothing")
    args = parser.parse_args(argv)
    changed = do_helpers(args.check)
    if not args.helpers:
        changed |= do_layers(args.check)
    if not args.check:
        tidy(changed)
    known = set(moves())
    unknown = sorted(p.name for p in TESTS.glob("test_*.py") if p.stem not in known)
    if unknown and not args.helpers:
        print("not moved (add them to LAYERS):", ", ".join(unknown), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
