"""The page-type classifier: one ensemble per type, the most probable type wins."""

from __future__ import annotations

import gzip
import math
from array import array
from pathlib import Path

import pytest

from scrapy_boilerplate.classifiers.gbdt import TreeEnsemble
from scrapy_boilerplate.classifiers.page_type import (
    PAGE_TYPES,
    PageTypeClassifier,
    PageTypeModel,
    classify_page_type,
    dump_page_type_model,
    load_page_type_model,
)
from scrapy_boilerplate.features.page import PAGE_FEATURE_NAMES
from scrapy_boilerplate.model.document import TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

ROW = [0.0] * len(PAGE_FEATURE_NAMES)


def _constant(margin: float, names: tuple[str, ...] = PAGE_FEATURE_NAMES) -> TreeEnsemble:
    leaf = {"split_feature": array("i", [-1]), "left": array("i", [-1]), "right": array("i", [-1])}
    return TreeEnsemble(names, margin, array("i", [0]), threshold=array("d", [0.0]), **leaf)


def _sigmoid(margin: float) -> float:
    return 1 / (1 + math.exp(-margin))


def test_the_most_probable_type_wins_with_its_share_of_the_probabilities() -> None:
    model = PageTypeModel({"article": _constant(-1.0), "listing": _constant(2.0)})
    name, confidence = classify_page_type(model, ROW)
    assert name == "listing"
    assert confidence == pytest.approx(_sigmoid(2.0) / (_sigmoid(2.0) + _sigmoid(-1.0)))


def test_a_tie_goes_to_the_type_listed_first() -> None:
    model = PageTypeModel(
        {"forum": _constant(-3.0), "listing": _constant(1.0), "article": _constant(1.0)}
    )
    name, confidence = classify_page_type(model, ROW)
    assert name == "listing"
    assert confidence == pytest.approx(_sigmoid(1.0) / (2 * _sigmoid(1.0) + _sigmoid(-3.0)))


def test_a_model_of_other_features_is_refused() -> None:
    with pytest.raises(ValueError, match="other page features"):
        PageTypeModel({"article": _constant(0.0, ("words",))})
    with pytest.raises(ValueError, match="at least one"):
        PageTypeModel({})


@pytest.mark.parametrize("name", ["model.json", "model.json.gz"])
def test_a_written_model_reads_back_the_same(tmp_path: Path, name: str) -> None:
    model = PageTypeModel({"article": _constant(0.5), "forum": _constant(-0.25)}, {"pages": 3})
    dump_page_type_model(model, tmp_path / name)
    again = load_page_type_model(str(tmp_path / name))
    assert again.metadata == {"pages": 3}
    assert classify_page_type(again, ROW) == classify_page_type(model, ROW)


def test_a_file_that_is_not_a_page_type_model_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"format": "other"}')
    (tmp_path / "bad.json.gz").write_bytes(gzip.compress(b"{not json"))
    for name in ("bad.json", "bad.json.gz"):
        with pytest.raises(ValueError, match="not a page-type model"):
            load_page_type_model(str(tmp_path / name))


def test_the_shipped_model_knows_the_seven_types_and_tells_an_article_from_a_listing() -> None:
    model = load_page_type_model()
    assert set(model.ensembles) == set(PAGE_TYPES)
    words = "The council voted to rebuild the old bridge before winter. " * 15
    article = segment(
        parse_html(f"<html><body><h1>Bridge to be rebuilt</h1><p>{words}</p><p>{words}</p>"),
        url="https://news.example/2025/04/11/council-votes-to-rebuild-the-bridge",
    )
    links = "".join(f'<li><a href="/p/{i}">Story headline {i} today</a></li>' for i in range(40))
    listing = segment(
        parse_html(f"<html><body><ul>{links}</ul></body></html>"),
        url="https://news.example/category/local/",
    )
    PageTypeClassifier(model)(article)
    PageTypeClassifier(model)(listing)
    assert article.page_type == "article"
    assert listing.page_type != "article"
    for doc in (article, listing):
        assert doc.page_type_confidence is not None and 0 < doc.page_type_confidence <= 1


def test_the_classifier_changes_no_block() -> None:
    doc = TextDocument(blocks=[])
    model = PageTypeModel({"article": _constant(1.0)})
    assert PageTypeClassifier(model)(doc) is False
    assert (doc.page_type, doc.page_type_confidence) == ("article", 1.0)
