"""The house stays in order: no import circle anywhere, and every import runs down the layers of
``adjudicator/__init__.py`` and design.md ("Layers"). Imports are read from the source (those inside
functions too, since a lazy import is still a dependency), so nothing is run to draw the graph."""

from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("events", "adjudicator", "cli", "server")

#: The sub-packages of ``adjudicator`` from the bottom up: each may import only those before it.
ADJUDICATOR_LAYERS = ("engine", "games", "records", "presentation", "service", "authority")


def _modules() -> dict[str, pathlib.Path]:
    out = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


MODULES = _modules()


def _imports(name: str, path: pathlib.Path) -> set[str]:
    """The project modules ``name`` imports, anywhere in its source."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in MODULES:  # ``import a.b.c`` of a name inside a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan), and self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1 or v in graph.get(v, ()):
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def _layer(name: str) -> tuple[str, ...]:
    """Where a module stands: its top-level package, and within ``adjudicator`` its sub-package."""
    parts = name.split(".")
    if parts[0] == "adjudicator" and len(parts) > 1:
        return ("adjudicator", parts[1])
    return (parts[0],)


def _package_graph() -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for src, targets in GRAPH.items():
        a = ".".join(_layer(src))
        for t in targets:
            b = ".".join(_layer(t))
            if a != b:
                out.setdefault(a, set()).add(b)
    return out


def test_the_graph_is_read_from_the_code():
    # a check that cannot fail is no check: the graph holds the edges every layer is known to have
    assert "adjudicator.engine.protocol" in GRAPH["adjudicator.engine.kit"]
    assert "adjudicator.service" in GRAPH["adjudicator.authority.audit"]
    assert "cli.app" in GRAPH["cli.main"]
    assert "events.envelope" in GRAPH["events.chain"]
    assert len(MODULES) > 150


def test_cycles_are_found_when_there_are_some():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"a"}}) == [["a"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_between_modules():
    assert _cycles(GRAPH) == []


def test_no_import_circle_between_layers():
    assert _cycles(_package_graph()) == []


def test_events_knows_nothing_above_it():
    bad = {m: sorted(t for t in ts if not t.startswith("events")) for m, ts in GRAPH.items() if m.startswith("events")}
    assert {m: ts for m, ts in bad.items() if ts} == {}


def test_the_adjudicator_never_imports_a_front_end():
    bad = {m: sorted(t for t in ts if t.split(".")[0] in ("cli", "server"))
           for m, ts in GRAPH.items() if m.startswith("adjudicator")}
    assert {m: ts for m, ts in bad.items() if ts} == {}


#: cli may start the server, nothing else: ``adj serve`` (cli/serve.py) imports it inside its command.
STARTS_THE_SERVER = {"cli.serve"}


def test_the_front_ends_do_not_import_each_other():
    for a, b in (("cli", "server"), ("server", "cli")):
        bad = {m: sorted(t for t in ts if t.split(".")[0] == b) for m, ts in GRAPH.items()
               if m.split(".")[0] == a and m not in STARTS_THE_SERVER}
        assert {m: ts for m, ts in bad.items() if ts} == {}, f"{a} imports {b}"


def test_only_the_serve_command_imports_the_server_and_nothing_imports_it_back():
    assert any(t.startswith("server") for t in GRAPH["cli.serve"])
    assert sorted(m for m, ts in GRAPH.items() if "cli.serve" in ts) == []


@pytest.mark.parametrize("layer", ADJUDICATOR_LAYERS)
def test_each_adjudicator_layer_imports_only_those_below(layer):
    below = set(ADJUDICATOR_LAYERS[: ADJUDICATOR_LAYERS.index(layer)])
    bad = {}
    for m, ts in GRAPH.items():
        if _layer(m) != ("adjudicator", layer):
            continue
        up = sorted(t for t in ts if t.startswith("adjudicator.") and _layer(t)[1] not in below | {layer})
        if up:
            bad[m] = up
    assert bad == {}


def test_a_game_imports_only_the_contract_and_its_own_modules():
    allowed = {"adjudicator.engine.kit", "adjudicator.engine.protocol", "adjudicator.engine.decklist"}
    bad = {}
    for m, ts in GRAPH.items():
        parts = m.split(".")
        if parts[:2] != ["adjudicator", "games"] or len(parts) < 3:
            continue
        own = ".".join(parts[:3])
        out = sorted(t for t in ts if t not in allowed and not t.startswith(own) and t != "adjudicator.games")
        if out:
            bad[m] = out
    assert bad == {}


def test_the_contract_imports_nothing_above_it():
    contract = {"adjudicator.engine.kit", "adjudicator.engine.protocol"}
    low = {"adjudicator.engine.protocol", "adjudicator.engine.words", "adjudicator.engine.decklist",
           "adjudicator.engine.inputs"}
    for m in contract:
        assert GRAPH[m] <= low, f"{m} imports {sorted(GRAPH[m] - low)}"


def test_nothing_in_a_game_imports_its_game_module_back():
    games = {m.rpartition(".")[0] for m in GRAPH if m.startswith("adjudicator.games.") and m.endswith(".game")}
    assert len(games) >= 5
    for pkg in games:
        top = f"{pkg}.game"
        back = sorted(m for m, ts in GRAPH.items() if m.startswith(pkg + ".") and m != top and top in ts)
        assert back == [], f"{top} is imported back by {back}"


def test_nothing_imports_the_cli_entry_point_back():
    back = sorted(m for m, ts in GRAPH.items() if "cli.main" in ts)
    assert back == []
