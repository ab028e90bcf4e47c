"""Victor's CRF: attribute templates, the model file, tagging (python-crfsuite)."""

from __future__ import annotations

import gzip
import json
import sys

import pytest

from scrapy_boilerplate.classifiers.crf import (
    CRFSUITE_HINT,
    FEATURE_VERSION,
    VictorModel,
    block_attributes,
    dump_victor_model,
    load_victor_model,
    require_crfsuite,
    window_of,
)
from scrapy_boilerplate.features.victor import FEATURE_NAMES

pytest.importorskip("pycrfsuite")

from victor_support import synthetic_model, synthetic_pages


@pytest.mark.parametrize(
    ("name", "window"),
    [
        ("split.br", (-2, -1, 0, 1, 2)),
        ("container.class-header", (-2, -1, 0, 1, 2)),
        ("sentence-end", (-2, -1, 0, 1, 2)),
        ("glued", (-2, -1, 0, 1, 2)),
        ("container.p", (-1, 0, 1)),
        ("char.alpha-rel", (-1, 0, 1)),
        ("bullet", (-1, 0, 1)),
        ("position", (0,)),
        ("document.word-count", (0,)),
    ],
)
def test_windows(name: str, window: tuple[int, ...]) -> None:
    assert window_of(name) == window


def _rows(*values: dict[str, int]) -> list[list[int]]:
    return [[v.get(name, 0) for name in FEATURE_NAMES] for v in values]


def test_attributes_skip_zero_values_and_mark_the_edges() -> None:
    rows = _rows({"split.br": 1, "position": 3}, {"container.p": 1}, {"glued": 1})
    first, middle, last = block_attributes(rows)
    assert "bias" in first
    assert "0:split.br=1" in first and "0:position=3" in first
    assert "-1:BOS" in first and "-2:BOS" in first
    assert "1:container.p=1" in first and "2:glued=1" in first
    assert not any(a.startswith("0:container.p=") for a in first)  # zero: no attribute
    assert "-1:split.br=1" in middle and "-1:position=3" not in middle
    assert "1:EOS" in last and "2:EOS" in last and "-2:split.br=1" in last


def test_conjunctions() -> None:
    rows = _rows({"sentence-end": 0}, {"sentence-begin": 0, "glued": 1, "bullet": 11})
    _, second = block_attributes(rows)
    assert "-1:sentence-end=0/0:sentence-begin=0/0:split.class-block=0/0:glued=1" in second
    assert "-1:bullet=0/0:bullet=11" in second


def test_disabled_features_give_no_attributes() -> None:
    rows = _rows({"split.br": 1, "bullet": 11})
    (only,) = block_attributes(rows, [n for n in FEATURE_NAMES if n != "bullet"])
    assert "0:split.br=1" in only
    assert not any("bullet" in attribute for attribute in only)


def test_round_trip_from_bytes_tags_the_training_pages() -> None:
    data = synthetic_model()
    model = load_victor_model(data)
    page = synthetic_pages(7)[-1]  # a page the model never saw
    assert model.tag(page.rows) == page.codes
    assert model.tag([]) == []
    assert set(page.codes) >= {"h", "p", "c", "l", "o"}


def test_model_file_header_is_checked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    data = synthetic_model()
    path = tmp_path / "model.crf.gz"
    path.write_bytes(data)
    assert load_victor_model(str(path)).features == FEATURE_NAMES
    header, model_bytes = gzip.decompress(data).split(b"\n", 1)
    old = json.loads(header) | {"feature_version": "victor-features-0"}
    stale = gzip.compress(json.dumps(old).encode() + b"\n" + model_bytes)
    with pytest.raises(ValueError, match="retrain"):
        load_victor_model(stale)
    with pytest.raises(ValueError, match="not a victor model"):
        load_victor_model(b"not gzip")
    assert json.loads(gzip.decompress(dump_victor_model(b"x", {})).split(b"\n")[0]) == {
        "format": "scrapy-boilerplate-victor-crf",
        "feature_version": FEATURE_VERSION,
    }


def test_a_model_with_fewer_features_tags_with_them() -> None:
    data = synthetic_model()
    _, model_bytes = gzip.decompress(data).split(b"\n", 1)
    model = VictorModel(model_bytes, {"features": ["container.p"]})
    assert model.features == ("container.p",)
    assert len(model.tag(synthetic_pages(1)[0].rows)) == len(synthetic_pages(1)[0].rows)


def test_missing_crfsuite_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pycrfsuite", None)
    with pytest.raises(ImportError, match=r"\[victor\]"):
        require_crfsuite()
    assert "pip install 'scrapy-boilerplate[victor]'" in CRFSUITE_HINT


def test_the_shipped_model_loads_and_was_trained_on_wcxb_only() -> None:
    model = load_victor_model()
    assert model.metadata["trained_on"] == "wcxb-dev"
    assert model.features == FEATURE_NAMES
