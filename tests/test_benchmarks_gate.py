"""The quality gate (``benchmarks/gate.py``) on a fixture dataset laid out like the shared ones."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from scrapy_boilerplate.evaluation.datasets import Page, load_pages
from scrapy_boilerplate.evaluation.metrics import Scores

GATE = Path(__file__).resolve().parents[1] / "benchmarks" / "gate.py"
_spec = importlib.util.spec_from_file_location("gate", GATE)
assert _spec and _spec.loader
gate = importlib.util.module_from_spec(_spec)
sys.modules["gate"] = gate  # dataclasses look their module up there
_spec.loader.exec_module(gate)
MARGIN, SubsetResult, check, main = gate.MARGIN, gate.SubsetResult, gate.check, gate.main
subset_digest, update_floors = gate.subset_digest, gate.update_floors

FIXTURES = Path(__file__).parent / "fixtures" / "datasets"
EXTRACTOR = "keep-everything"  # stable: the gate's logic is under test, not an extractor


@pytest.fixture
def root(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES / "wcxb", tmp_path / "datasets" / "wcxb-dev")
    return tmp_path / "datasets"


def _baseline(root: Path, floors: dict[str, float]) -> dict[str, Any]:
    pages = list(load_pages(root / "wcxb-dev"))
    return {
        "extractor": EXTRACTOR,
        "subsets": {
            "mini": {
                "dataset": "wcxb-dev",
                "page_type": None,
                "ids": [p.id for p in pages],
                "digest": subset_digest(pages),
                "floors": floors,
            }
        },
        "history": [],
    }


def _write(path: Path, baseline: dict[str, Any]) -> Path:
    path.write_text(json.dumps(baseline), encoding="utf-8")
    return path


def test_digest_covers_ids_gold_and_order() -> None:
    a, b = Page("1", b"", None, "gold one"), Page("2", b"", None, "gold two")
    digest = subset_digest([a, b])
    assert digest == subset_digest([Page("1", b"<p>other html</p>", "u", "gold one"), b])
    assert digest != subset_digest([b, a])
    assert digest != subset_digest([Page("1", b"", None, "gold 1"), b])


def test_check_passes_and_breaks(root: Path, tmp_path: Path) -> None:
    (result,) = check(_baseline(root, {"f1": 0.0}), root)
    assert 0.0 < result.scores.f1 < 1.0  # keep-everything keeps menus: imperfect, not zero
    assert result.broken == []
    path = _write(tmp_path / "ok.json", _baseline(root, {"f1": result.scores.f1}))
    assert main(["--baseline", str(path), "--datasets", str(root)]) == 0
    too_high = round(result.scores.f1 + 0.01, 3)
    path = _write(tmp_path / "broken.json", _baseline(root, {"f1": too_high}))
    assert main(["--baseline", str(path), "--datasets", str(root)]) == 1


def test_changed_gold_is_an_error(root: Path, tmp_path: Path) -> None:
    baseline = _baseline(root, {"f1": 0.0})
    truth = root / "wcxb-dev" / "ground-truth" / "0002.json"
    data = json.loads(truth.read_text())
    data["ground_truth"]["main_content"] += " Edited."
    truth.write_text(json.dumps(data))
    path = _write(tmp_path / "b.json", baseline)
    assert main(["--baseline", str(path), "--datasets", str(root)]) == 2


def test_missing_datasets_skip_unless_required(root: Path, tmp_path: Path) -> None:
    path = _write(tmp_path / "b.json", _baseline(root, {"f1": 0.0}))
    nowhere = str(tmp_path / "nowhere")
    assert main(["--baseline", str(path), "--datasets", nowhere]) == 0
    assert main(["--baseline", str(path), "--datasets", nowhere, "--require-datasets"]) == 2


def test_lowering_needs_a_reason(root: Path, tmp_path: Path) -> None:
    path = _write(tmp_path / "b.json", _baseline(root, {"f1": 0.99}))
    with pytest.raises(SystemExit):
        main(["--baseline", str(path), "--datasets", str(root), "--lower-floor"])
    assert main(["--baseline", str(path), "--datasets", str(root), "--raise-floors"]) == 1
    assert json.loads(path.read_text())["subsets"]["mini"]["floors"]["f1"] == 0.99
    args = ["--baseline", str(path), "--datasets", str(root), "--lower-floor", "--reason", "menus"]
    assert main(args) == 0
    saved = json.loads(path.read_text())
    assert saved["subsets"]["mini"]["floors"]["f1"] < 0.99
    assert saved["history"][-1]["reason"] == "menus"


def test_update_floors_rules() -> None:
    baseline = {"subsets": {"s": {"floors": {"f1": 0.5, "precision": 0.9}}}}
    result = SubsetResult("s", Scores(precision=0.8, recall=0.7, f1=0.7456), {})
    changes = update_floors(baseline, [result], allow_lower=False, reason="r")
    floors = baseline["subsets"]["s"]["floors"]
    assert floors == {"f1": 0.740, "precision": 0.9}  # f1 raised to score - MARGIN, rounded down
    assert changes == ["s f1: 0.5 -> 0.74"]
    update_floors(baseline, [result], allow_lower=True, reason="r")
    assert floors["precision"] == pytest.approx(0.8 - MARGIN)


def test_init_pins_the_present_datasets(root: Path, tmp_path: Path) -> None:
    path = tmp_path / "new.json"
    args = ["--baseline", str(path), "--datasets", str(root), "--init", "--extractor", EXTRACTOR]
    assert main(args) == 0
    saved = json.loads(path.read_text())
    (name,) = saved["subsets"]
    subset = saved["subsets"][name]
    assert subset["ids"] == ["0001"]  # the article pages of the fixture
    assert set(subset["floors"]) == {"f1", "precision"}
    assert saved["history"][0]["reason"] == "initial floors"
