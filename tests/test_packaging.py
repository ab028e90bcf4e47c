"""Packaging: prebuilt wheels for the usual platforms (cibuildwheel), the source build, and the
CI steps that build a wheel with and without a C compiler."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

REPO = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def test_wheels_are_built_for_cpython_3_10_to_3_13_on_the_usual_platforms() -> None:
    config = PYPROJECT["tool"]["cibuildwheel"]
    assert config["build"].split() == ["cp310-*", "cp311-*", "cp312-*", "cp313-*"]
    assert set(config["linux"]["archs"]) == {"x86_64", "aarch64"}
    assert config["macos"]["archs"] and config["windows"]["archs"] == ["AMD64"]
    assert "--require-speedups" in config["test-command"]  # a wheel without its twins fails
    script = re.search(r"\{project\}/(\S+\.py)", config["test-command"])
    assert script is not None and (REPO / script.group(1)).is_file()


def test_the_source_distribution_carries_every_compiled_twin() -> None:
    built = re.findall(r'"scrapy_boilerplate\.([\w.]+)"\)', (REPO / "setup.py").read_text())
    manifest = (REPO / "MANIFEST.in").read_text(encoding="utf-8")
    assert len(built) == 11
    for module in built:
        assert f"include scrapy_boilerplate/{module.replace('.', '/')}.pyx" in manifest


def test_ci_builds_a_wheel_and_a_package_without_a_compiler() -> None:
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash .ci/wheel-check.sh" in ci and "bash .ci/no-compiler-check.sh" in ci
    check = (REPO / ".ci" / "no-compiler-check.sh").read_text(encoding="utf-8")
    assert "CC=/bin/false" in check and "assert not compiled" in check
