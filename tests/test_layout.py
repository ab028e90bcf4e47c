"""The package's layering: imports go from a stage to the stages before it, never back, and
the import graph has no circle.

Stages, lowest first (a stage may import any lower stage, and its own package's modules):
errors/model -> page -> features, filters, output -> classifiers, site -> extractors ->
api, integration, evaluation, batch -> training -> cli -> the package root.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import scrapy_boilerplate

PACKAGE = Path(scrapy_boilerplate.__file__).resolve().parent
ROOT = "scrapy_boilerplate"

#: Top-level unit (module or subpackage) -> stage.
STAGES = {
    "errors": 0,
    "model": 0,
    "page": 1,
    "features": 2,
    "filters": 2,
    "output": 2,
    "classifiers": 3,
    "site": 3,
    "extractors": 4,
    "api": 5,
    "integration": 5,
    "evaluation": 5,
    "batch": 5,
    "training": 6,
    "cli": 7,
    "": 8,  # the package root (__init__), which re-exports the public API
}
_PYX_IMPORT = re.compile(r"^\s*from\s+(\.+[\w.]*)\s+import\s+([\w, ]+)", re.MULTILINE)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join([ROOT, *parts])


def is_package(name: str) -> bool:
    return (PACKAGE.joinpath(*name.split(".")[1:]) / "__init__.py").is_file()


def is_module(name: str) -> bool:
    path = PACKAGE.joinpath(*name.split(".")[1:])
    return is_package(name) or any(path.with_suffix(suffix).is_file() for suffix in (".py", ".pyx"))


def resolve(importer: str, level: int, module: str | None) -> str:
    """The absolute name of a (possibly relative) ``from`` import's module."""
    if level == 0:
        return module or ""
    base = importer.split(".")
    if not is_package(importer):
        base = base[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def imports_of(path: Path) -> set[str]:
    """The package modules ``path`` imports (lazy imports inside functions included)."""
    importer = module_name(path)
    found: set[str] = set()

    def add(target: str, names: list[str]) -> None:
        for name in names:  # ``from pkg import submodule`` imports the submodule
            if is_module(f"{target}.{name}"):
                found.add(f"{target}.{name}")
            elif target.startswith(ROOT):
                found.add(target)

    if path.suffix == ".pyx":
        for dots, names in _PYX_IMPORT.findall(path.read_text(encoding="utf-8")):
            module = dots.lstrip(".") or None
            target = resolve(importer, len(dots) - len(dots.lstrip(".")), module)
            add(target, [n.strip() for n in names.split(",")])
        return found
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            add(resolve(importer, node.level, node.module), [a.name for a in node.names])
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith(ROOT))
    return found


def import_graph() -> dict[str, set[str]]:
    files = [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.pyx")]
    return {module_name(path): imports_of(path) for path in files}


def stage_of(module: str) -> tuple[str, int]:
    unit = module.split(".")[1] if "." in module else ""
    return unit, STAGES[unit]


def test_every_unit_has_a_stage() -> None:
    units = {stage_of(module)[0] for module in import_graph()}
    assert units <= set(STAGES)


def test_imports_go_only_to_lower_stages() -> None:
    upward = []
    for importer, targets in import_graph().items():
        unit, stage = stage_of(importer)
        for target in targets:
            target_unit, target_stage = stage_of(target)
            if target_unit != unit and target_stage >= stage:
                upward.append(f"{importer} -> {target}")
    assert not upward, "\n".join(sorted(upward))


def test_the_import_graph_has_no_circle() -> None:
    graph = import_graph()
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> None:
        if module in path:
            pytest.fail("circle: " + " -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        path.append(module)
        for target in sorted(graph.get(module, ())):
            visit(target)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)


def test_the_checker_sees_relative_and_lazy_imports(tmp_path: Path) -> None:
    graph = import_graph()
    assert "scrapy_boilerplate.page.tags" in graph["scrapy_boilerplate.page._speedups"]
    assert "scrapy_boilerplate.integration" in graph["scrapy_boilerplate"]  # lazy, in a function
    assert "scrapy_boilerplate.model.labels" in graph["scrapy_boilerplate.page.tags"]


def test_cli_imports_neither_evaluation_nor_scrapy(tmp_path: Path) -> None:
    assert not {
        t
        for t in import_graph()["scrapy_boilerplate.cli"]
        if t.startswith("scrapy_boilerplate.evaluation")
    }
    page = tmp_path / "page.html"
    page.write_text("<html><body><p>" + "Some words of a paragraph. " * 10 + "</p></body></html>")
    code = (
        "import sys\n"
        "from scrapy_boilerplate.cli import main\n"
        f"status = main(['extract', {str(page)!r}, '--highlight', {str(tmp_path / 'h.html')!r}])\n"
        "loaded = [m for m in sys.modules if m == 'scrapy' or m.startswith(('scrapy.', "
        "'scrapy_boilerplate.evaluation', 'twisted'))]\n"
        "assert status == 0 and not loaded, loaded\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Some words of a paragraph." in done.stdout
    assert "boilerplate-content" in (tmp_path / "h.html").read_text(encoding="utf-8")
