"""Code stays readable: no function in ``solver/`` or ``web/`` has more than 60 statements
(counted with ``ast``, nested functions included), no file in ``solver/`` has more than 600
lines, no module imports another module's private (``_name``) names, and the library's imports
run one way down its floors (CONTRIBUTING.md, "Layout")."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_STATEMENTS = 60
MAX_LINES = 600
# the exceptions, each with its reason
ALLOWED = {
    "solver/search/engine.py::value": "the readable Python engine: the twin of the compiled "
    "core's search, kept whole so that it reads as one algorithm",
    "solver/search/engine.py::win": "the readable Python engine (as value)",
}
LONG_FILES = {
    "solver/search/engine.py": "the readable Python engine, one algorithm",
}


def statements(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    return sum(1 for node in ast.walk(fn) if isinstance(node, ast.stmt) and node is not fn)


def long_functions(folder: str) -> dict[str, int]:
    out = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                n = statements(node)
                if n > MAX_STATEMENTS:
                    out[f"{path.relative_to(ROOT).as_posix()}::{node.name}"] = n
    return out


def test_the_counter_counts_nested_statements() -> None:
    tree = ast.parse("def f():\n    x = 1\n    if x:\n        y = 2\n    return x\n")
    fn = tree.body[0]
    assert isinstance(fn, ast.FunctionDef) and statements(fn) == 4


def test_no_function_over_60_statements_in_the_library_and_the_board() -> None:
    found = long_functions("solver") | long_functions("web")
    assert set(found) <= set(ALLOWED), found


def test_no_library_file_over_600_lines() -> None:
    found = {
        path.relative_to(ROOT).as_posix(): n
        for path in sorted((ROOT / "solver").rglob("*.py"))
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert set(found) <= set(LONG_FILES), found


def test_no_module_imports_another_modules_private_names() -> None:
    found = []
    for folder in ("solver", "cli"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    found += [
                        f"{path.relative_to(ROOT)}: {a.name}"
                        for a in node.names
                        if a.name.startswith("_") and a.name != "_native"
                    ]
    assert found == []


# ---------------------------------------------------------------------- one-way imports
#: The library's floors, lowest first (CONTRIBUTING.md, "Layout"): a module imports only from
#: its own floor or below. An entry names a module or a package (every module under it).
FLOORS: tuple[tuple[str, ...], ...] = (
    ("errors", "goals", "limits", "pool"),
    ("cards",),
    ("board", "rules"),
    ("position",),
    ("answers", "scoring", "deal", "record", "game", "puzzle", "sampling", "formats", "svg"),
    ("matching", "coop", "cpsat", "search.state"),
    ("search.engine",),
    ("search.native",),
    ("search.partial",),
    ("search.session",),
    ("search.families",),
    ("search.threads",),
    ("search.api",),
    ("search",),
    ("possible",),
    ("forcing",),
    ("analysis",),
    ("solve", "review"),
    ("puzzlecheck",),
    ("puzzlegen", "puzzlesheet"),
    ("estimates",),
    ("player",),
    ("selfplay",),
    ("report",),
    ("batch.stats",),
    ("shapes",),
    ("tasks",),
    ("batch",),
    ("__init__",),
)
#: The one circle kept on purpose: a position, puzzle or record draws itself in a notebook
#: (``_repr_svg_``, python-chess's pattern), importing svg.py inside the method.
ALLOWED_UP = {
    ("position", "svg"): "_repr_svg_",
    ("puzzle", "svg"): "_repr_svg_",
    ("record", "svg"): "_repr_svg_",
}
#: Arrows still up while their owners fix them (each named; remove the entry with the fix).
PENDING_UP: dict[tuple[str, str], str] = {}


def module_name(path: Path, solver: Path) -> str:
    parts = list(path.relative_to(solver).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts) or "__init__"


def import_edges(solver: Path) -> dict[str, set[str]]:
    """Module -> the library modules it imports, anywhere in it (inside functions and under
    TYPE_CHECKING too). ``from . import x`` imports the module x, not the package."""
    paths = {module_name(p, solver): p for p in solver.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        if name == "__init__":
            package = []
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - node.level + 1]
                mod = base + (node.module.split(".") if node.module else [])
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "catbox.solver"
            ):
                mod = (node.module or "").split(".")[2:]
            else:
                continue
            subs = [".".join([*mod, a.name]) for a in node.names]
            hits = [s for s in subs if s in paths]
            folder = solver.joinpath(*mod)
            compiled = [a for a in node.names if (folder / f"{a.name}.pyi").exists()]
            if node.module or not (hits or compiled):
                hits.append(".".join(mod) or "__init__")
            found |= {h for h in hits if h in paths and h != name}
        edges[name] = found
    return edges


def floor_of(module: str) -> int:
    best, floor = -1, -1
    for i, names in enumerate(FLOORS):
        for n in names:
            if (module == n or module.startswith(n + ".")) and len(n) > best:
                best, floor = len(n), i
    assert floor >= 0, f"solver/{module}: put it on a floor (FLOORS, and CONTRIBUTING's layout)"
    return floor


def upward(edges: dict[str, set[str]]) -> list[tuple[str, str]]:
    return sorted((a, b) for a, bs in edges.items() for b in bs if floor_of(b) > floor_of(a))


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_walker_sees_lazy_and_relative_imports() -> None:
    edges = import_edges(ROOT / "solver")
    assert "svg" in edges["position"]  # inside Position._repr_svg_
    assert "search.partial" in edges["search.session"]  # under TYPE_CHECKING
    assert "search.api" not in edges["search.native"]
    assert circles({"a": {"b"}, "b": {"a", "c"}, "c": set()}) == [["a", "b"]]


def test_imports_run_one_way_down_the_floors() -> None:
    """No module imports from a floor above its own (but the ``_repr_svg_`` circle and the
    named pending arrows), and no circle is left once those arrows are taken out."""
    edges = import_edges(ROOT / "solver")
    up = [e for e in upward(edges) if e not in ALLOWED_UP and e not in PENDING_UP]
    assert up == []
    kept = {a: {b for b in bs if (a, b) not in ALLOWED_UP} for a, bs in edges.items()}
    pending = [e for e in PENDING_UP if e[1] in edges.get(e[0], ())]
    rest = {a: {b for b in bs if (a, b) not in PENDING_UP} for a, bs in kept.items()}
    assert circles(rest) == []
    assert set(pending) == {e for e in PENDING_UP if e[1] in edges.get(e[0], ())}


def test_no_test_module_imports_another() -> None:
    """Helpers shared by tests live in plain helper modules (tests/games.py, pages.py,
    searching.py ...), never in a test module: importing one runs its module code and ties two
    test files together."""
    found = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                name = node.module.rsplit(".", 1)[-1]
                if name.startswith("test_") and (node.level or node.module.startswith("tests.")):
                    found.append(f"{path.name}: {node.module}")
    assert found == []
