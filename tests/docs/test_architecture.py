"""The layer rules, read from the table in docs/architecture.md and checked on every module.

One test file for every import rule: the allowed imports per layer, adapters that never import
each other, no import cycle, one size limit, a docstring per module, a complete ``__all__``.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

import kindling
from tests.support.paths import ROOT

SRC = ROOT / "src" / "kindling"
DOC = ROOT / "docs" / "architecture.md"
LIMIT = 400
# Modules still over the limit, with their size today: they may shrink, never grow. Splitting
# them by job is the open part of issue 13; remove a line once its module is under the limit.
OVER_LIMIT: dict[str, int] = {}


@dataclass(frozen=True)
class Layer:
    layer: str
    prefix: str
    allowed: tuple[str, ...]
    forbidden: tuple[str, ...]


def _layers() -> list[Layer]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## Layers and import rules", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 4 or not cells[1].startswith("`"):
            continue
        names = [re.findall(r"`([^`]+)`", c) for c in cells[1:]]
        rows.append(Layer(cells[0], names[0][0], tuple(names[1]), tuple(names[2])))
    return rows


LAYERS = _layers()


def _under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts == ["kindling", "__init__"]:
        return "kindling.__init__"
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _target(module: str) -> str:
    return "kindling.__init__" if module == "kindling" else module


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports_in(
    source: str, module: str, *, runtime_only: bool = False, namespaces: bool = False
) -> set[str]:
    """Every module that ``source`` (the module ``module``) imports, wherever the import sits:
    at module level, inside a function or class, under ``TYPE_CHECKING``. ``from
    kindling.store.sqlite import doctor`` names ``kindling.store.sqlite.doctor``; a relative
    import is resolved against ``module``. ``importlib.import_module`` counts too: a literal
    name is that module, and a name looked up at run time (``_LAZY[name]``) is every module
    of ours the source spells out as a string; a name built at run time (the CLI's commands and
    the agents, found by package) is not seen. With ``runtime_only``, the imports under ``if
    TYPE_CHECKING:`` are left out: they never run. With ``namespaces``, ``from package import
    module`` also names ``package`` itself: it reads the package's namespace, so the package's
    ``__init__`` must have run (what ``engine/capture.py`` did with ``from kindling.engine
    import validate`` while ``kindling.engine`` was importing it)."""
    package = module.removesuffix(".__init__").split(".")
    if not SRC.parent.joinpath(*package).is_dir():
        package = package[:-1]  # a module's package is its parent; a package is its own
    found: set[str] = set()
    tree = ast.parse(source)
    spelled = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and re.fullmatch(r"kindling(\.\w+)+", node.value)
    }

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and runtime_only and _is_type_checking(child):
                for other in child.orelse:
                    visit_one(other)
                continue
            visit_one(child)

    def visit_one(node: ast.AST) -> None:
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                as_path = SRC.parent.joinpath(*sub.split("."))
                is_module = as_path.with_suffix(".py").exists() or as_path.is_dir()
                found.add(sub if sub.startswith("kindling.") and is_module else base)
                if namespaces:
                    found.add(base)
        elif isinstance(node, ast.Call) and _calls_import_module(node) and node.args:
            name = node.args[0]
            if isinstance(name, ast.Constant) and isinstance(name.value, str):
                found.add(name.value)
            elif not isinstance(name, ast.JoinedStr):
                found.update(spelled)
        visit(node)

    visit(tree)
    return found


def _calls_import_module(node: ast.Call) -> bool:
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "import_module") or (
        isinstance(func, ast.Attribute) and func.attr == "import_module"
    )


def _imports(path: Path, *, runtime_only: bool = False, namespaces: bool = False) -> set[str]:
    return _imports_in(
        path.read_text(encoding="utf-8"),
        _module_name(path),
        runtime_only=runtime_only,
        namespaces=namespaces,
    )


def _layer_of(name: str) -> Layer:
    matching = [row for row in LAYERS if _under(name, row.prefix)]
    assert matching, f"{name} has no row in the layer table of docs/architecture.md"
    return max(matching, key=lambda row: len(row.prefix))


MODULES = sorted(SRC.rglob("*.py"))


def test_the_table_is_read() -> None:
    assert len(LAYERS) >= 15
    assert {row.layer for row in LAYERS} >= {"base", "store", "retrieval", "engine", "adapter"}
    assert _layer_of("kindling.store.sqlite").allowed == (
        "kindling.errors",
        "kindling.config",
        "kindling.model",
        "kindling.private_files",
        "kindling.store",
    )


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_every_module_imports_only_what_its_layer_allows(path: Path) -> None:
    name = _module_name(path)
    row = _layer_of(name)
    bad = []
    for imported in _imports(path):
        target = _target(imported)
        if target.startswith("kindling."):
            if not any(_under(target, allowed) for allowed in row.allowed) and not _under(
                target, row.prefix
            ):
                bad.append(target)
        elif any(_under(imported, outside) for outside in row.forbidden):
            bad.append(imported)
    assert sorted(bad) == [], f"{name} ({row.layer}) imports what docs/architecture.md forbids"


def _one_way_in() -> tuple[str, ...]:
    """The adapters of the rule "One way in", read from docs/architecture.md."""
    text = DOC.read_text(encoding="utf-8")
    paragraph = text.split("**One way in.**", 1)[1].split("\n\n", 1)[0]
    return tuple(re.findall(r"`(kindling\.\w+)`", paragraph.split(")", 1)[0]))


def _engine_imports(source: str, module: str) -> set[str]:
    """What of the engine ``source`` imports: a module under ``kindling.engine``, or
    ``Kindling`` from ``kindling`` (the public name of the engine), wherever the import sits."""
    found = {m for m in _imports_in(source, module) if _under(m, "kindling.engine")}
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module == "kindling" and not node.level:
            found.update("kindling.Kindling" for a in node.names if a.name == "Kindling")
    return found


def test_the_engine_check_sees_both_spellings() -> None:
    assert _engine_imports("from kindling import Kindling, Scope\n", "kindling.cli.x") == {
        "kindling.Kindling"
    }
    lazy = "def f():\n    from kindling.engine.drain import drain\n"
    assert _engine_imports(lazy, "kindling.hooks.x") == {"kindling.engine.drain"}
    assert _engine_imports("from kindling.entry import connect\n", "kindling.cli.x") == set()


def test_no_adapter_imports_the_engine_but_through_entry() -> None:
    adapters = _one_way_in()
    assert adapters == (
        "kindling.cli",
        "kindling.mcp",
        "kindling.bridge",
        "kindling.hooks",
        "kindling.ui",
        "kindling.http",
    )
    found = {}
    for path in MODULES:
        name = _module_name(path)
        if any(_under(name, a) for a in adapters):
            engine = _engine_imports(path.read_text(encoding="utf-8"), name)
            if engine:
                found[name] = sorted(engine)
    assert found == {}, "get the memory from kindling.entry, and name the protocol's types"


def test_no_adapter_imports_another_adapter_except_the_cli_hosting_them() -> None:
    adapters = [row.prefix for row in LAYERS if row.layer == "adapter"]
    crossings = set()
    for path in MODULES:
        name = _module_name(path)
        own = _layer_of(name)
        if own.layer != "adapter" or own.prefix == "kindling.cli":
            continue
        for imported in _imports(path):
            other = next((a for a in adapters if _under(_target(imported), a)), None)
            if other is not None and other != own.prefix:
                crossings.add(f"{name} -> {imported}")
    assert crossings == set()


def _owner(name: str, modules: set[str]) -> str | None:
    """The module of ours that an imported name lands in (``kindling.hooks.log_problem`` ->
    ``kindling.hooks``), or None outside Kindling."""
    name = _target(name)
    while name not in modules:
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, or of one that imports
    itself (Tarjan), each sorted: every import cycle, whatever its length."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in graph.get(node, ()):
                found.append(sorted(component))

    for start in sorted(graph):
        if start not in index:
            connect(start)
    return found


def _runtime_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports when its code runs (at import time or inside
    a function); a package's ``__init__`` is the package's name."""
    names = {_module_name(p): p for p in MODULES}
    modules = set(names)
    graph: dict[str, set[str]] = {}
    for name, path in names.items():
        found = _imports(path, runtime_only=True, namespaces=True)
        targets = {_owner(m, modules) for m in found}
        graph[name] = {t for t in targets if t is not None and t != name}
    return graph


def test_the_import_walk_sees_every_level() -> None:
    source = (
        "import kindling.errors\n"
        "from kindling.store import fts\n"
        "if TYPE_CHECKING:\n    from kindling.engine import Kindling\n"
        "def f():\n    from kindling.retrieval.scoring import relevance\n"
        "class C:\n    def g(self):\n        from . import budget\n"
        "LAZY = {'x': 'kindling.model.memories'}\n"
        "def h(n):\n    return importlib.import_module(LAZY[n])\n"
        "def k():\n    return import_module('kindling.timefmt')\n"
    )
    everything = _imports_in(source, "kindling.retrieval.provider")
    assert everything == {
        "kindling.errors",
        "kindling.store.fts",
        "kindling.engine",
        "kindling.retrieval.scoring",
        "kindling.retrieval.budget",
        "kindling.model.memories",
        "kindling.timefmt",
    }
    running = _imports_in(source, "kindling.retrieval.provider", runtime_only=True)
    assert running == everything - {"kindling.engine"}
    # ``from kindling.store import fts`` reads the package ``kindling.store`` (its __init__)
    read = _imports_in(source, "kindling.retrieval.provider", runtime_only=True, namespaces=True)
    assert read == running | {"kindling.store", "kindling.retrieval", "kindling.retrieval.scoring"}


def test_the_cycle_finder_finds_cycles_of_any_length() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == []
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"a"}}) == [["a"]]


def test_a_module_that_reads_its_own_package_is_a_cycle() -> None:
    """The cycle of issue 33: ``kindling.engine`` (its ``__init__``) imports ``engine.kindling``,
    which imports ``engine.capture``, which read ``validate`` from the package
    (``from kindling.engine import validate``) while the package was still importing it."""
    modules = {"kindling.engine", "kindling.engine.capture", "kindling.engine.validate"}
    capture = _imports_in(
        "from kindling.engine import validate\n",
        "kindling.engine.capture",
        runtime_only=True,
        namespaces=True,
    )
    graph = {
        "kindling.engine": {"kindling.engine.capture"},
        "kindling.engine.capture": {t for m in capture if (t := _owner(m, modules))},
        "kindling.engine.validate": set(),
    }
    assert _cycles(graph) == [["kindling.engine", "kindling.engine.capture"]]
    direct = _imports_in(
        "from kindling.engine.validate import clean_text\n",
        "kindling.engine.capture",
        runtime_only=True,
        namespaces=True,
    )
    assert direct == {"kindling.engine.validate"}


def test_no_import_cycle_at_any_level() -> None:
    """No module imports, through any chain of imports that run (module level or inside a
    function), one that imports it back. A package's ``__init__`` counts as a module like any
    other. Only ``TYPE_CHECKING`` imports, which never run, may point back (the layer rules
    still apply to them)."""
    graph = _runtime_graph()
    found = {
        " <-> ".join(cycle): sorted(f"{a} -> {b}" for a in cycle for b in graph[a] if b in cycle)
        for cycle in _cycles(graph)
    }
    assert found == {}


def test_the_cli_commands_loaded_by_name_do_not_import_the_group_back() -> None:
    """``cli.app`` loads ``cli.commands.<name>`` by a name built at run time, which the import
    walk cannot see; so no command may import ``cli.app`` (they share ``cli.state``)."""
    commands = sorted((SRC / "cli" / "commands").glob("*.py"))
    assert len(commands) > 10
    back = [p.name for p in commands if "kindling.cli.app" in _imports(p)]
    assert back == []


def _rank(name: str) -> int:
    """The position of ``name``'s row in the table: lower layers come first."""
    return LAYERS.index(_layer_of(name))


def test_the_table_has_no_upward_arrow() -> None:
    """Every row may import only rows above it (and its own prefix): the table is in layer
    order, from the leaves (errors, model) down to the CLI."""
    upward = [
        f"{row.prefix} may import {allowed}"
        for row in LAYERS
        for allowed in row.allowed
        if not _under(allowed, row.prefix) and _rank(allowed) > LAYERS.index(row)
    ]
    assert upward == []


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_import_points_up_a_layer(path: Path) -> None:
    name = _module_name(path)
    own = _rank(name)
    modules = {_module_name(p) for p in MODULES}
    targets = {_owner(m, modules) for m in _imports(path)}
    upward = sorted(t for t in targets if t is not None and _rank(t) > own)
    assert upward == [], f"{name} imports a layer below it in docs/architecture.md's table"


def test_every_module_stays_under_the_size_limit() -> None:
    sizes = {
        str(p.relative_to(SRC)): len(p.read_text(encoding="utf-8").splitlines()) for p in MODULES
    }
    over = {name: n for name, n in sizes.items() if n > LIMIT}
    assert set(over) <= set(OVER_LIMIT), "split it by job (docs/architecture.md)"
    grown = {name: n for name, n in over.items() if n > OVER_LIMIT[name]}
    assert grown == {}
    stale = {name for name in OVER_LIMIT if sizes.get(name, 0) <= LIMIT}
    assert stale == set(), "under the limit now: remove it from OVER_LIMIT"


def test_every_module_has_a_docstring() -> None:
    missing = [
        str(p.relative_to(SRC))
        for p in MODULES
        if ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) is None
        and p.stat().st_size > 0
    ]
    assert missing == []


def test_all_is_complete_and_every_name_imports() -> None:
    public = {
        name
        for name in dir(kindling)
        if not name.startswith("_") and name != "TYPE_CHECKING"
        if not inspect.ismodule(getattr(kindling, name))
    }
    assert public == set(kindling.__all__)
    namespace: dict[str, object] = {}
    exec(f"from kindling import {', '.join(kindling.__all__)}", namespace)
    assert set(kindling.__all__) <= set(namespace)


def _on_self(node: ast.Attribute) -> bool:
    return isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")


def _own_names(tree: ast.Module) -> set[str]:
    """Names a module defines itself: functions, classes, assignments, ``self.x = ...``; a
    declaration under ``if TYPE_CHECKING`` defines nothing (it only promises another module's)."""
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child):
                continue
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(child.name)
            elif isinstance(child, ast.Assign | ast.AnnAssign | ast.AugAssign):
                targets = child.targets if isinstance(child, ast.Assign) else [child.target]
                for sub in (n for t in targets for n in ast.walk(t)):
                    if isinstance(sub, ast.Name):
                        names.add(sub.id)
                    elif isinstance(sub, ast.Attribute) and _on_self(sub):
                        names.add(sub.attr)
            visit(child)

    visit(tree)
    return names


def _private_access(source: str) -> list[str]:
    """Every use of another module's underscore name in ``source``: ``from m import _x``,
    ``obj._x`` on anything but ``self``/``cls``, and ``self._x`` where this module does not
    define ``_x`` (a mixin calling its host's private helper). Dunders are public."""
    tree = ast.parse(source)
    own = _own_names(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"from {node.module} import {a.name}" for a in node.names if a.name[0] == "_"]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_"):
            if node.attr.startswith("__") and node.attr.endswith("__"):
                continue
            if not _on_self(node) or node.attr not in own:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_the_private_access_check_sees_a_violation() -> None:
    assert _private_access("def f(store):\n    return store._read('x')\n") == [
        "line 2: store._read"
    ]
    assert _private_access("from kindling.store.rows import _json_obj\n") == [
        "from kindling.store.rows import _json_obj"
    ]
    mixin = "class M:\n    if TYPE_CHECKING:\n        def _read(self): ...\n    def f(self):\n"
    assert _private_access(mixin + "        return self._read()\n") == ["line 5: self._read"]
    own = "class C:\n    def __init__(self):\n        self._n = 0\n    def f(self):\n"
    assert _private_access(own + "        return self._n + len(self.__dict__)\n") == []


STORE_MODULES = [p for p in MODULES if _under(_module_name(p), "kindling.store")]


@pytest.mark.parametrize("path", STORE_MODULES, ids=lambda p: str(p.relative_to(SRC)))
def test_no_store_module_uses_another_modules_private_names(path: Path) -> None:
    name = str(path.relative_to(SRC))
    found = _private_access(path.read_text(encoding="utf-8"))
    assert found == [], f"{name} reaches into another module's private names"
