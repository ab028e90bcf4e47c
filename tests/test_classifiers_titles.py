"""The title ranker: candidates, their features, the choice and the model files."""

from __future__ import annotations

import gzip
import json
from array import array
from pathlib import Path

import pytest

from scrapy_boilerplate.classifiers.gbdt import TreeEnsemble, model_to_json
from scrapy_boilerplate.classifiers.titles import (
    TITLE_FEATURE_NAMES,
    TITLE_SOURCES,
    TitlePage,
    add_candidate,
    best_candidate,
    candidate_features,
    dump_title_model,
    load_title_model,
    title_key,
)


def stump(feature: str, low: float, high: float) -> TreeEnsemble:
    """One tree: ``low`` when ``feature`` <= 0.5, else ``high``."""
    return TreeEnsemble(
        TITLE_FEATURE_NAMES,
        0.0,
        array("i", [0]),
        array("i", [TITLE_FEATURE_NAMES.index(feature), -1, -1]),
        array("d", [0.5, low, high]),
        array("i", [1, -1, -1]),
        array("i", [2, -1, -1]),
    )


def test_title_key_folds_case_width_and_spaces() -> None:
    assert title_key("  Storm\u00a0HITS   the\ncoast ") == "storm hits the coast"
    assert title_key("ＡＢＣ") == "abc"  # NFKC: full-width letters


def test_a_text_offered_twice_is_one_candidate_with_both_sources() -> None:
    page = TitlePage()
    add_candidate(page, "Storm hits the coast", "h1", h1_rank=0)
    add_candidate(page, "storm  hits the COAST", "og")
    add_candidate(page, "  ", "twitter")
    (candidate,) = page.candidates.values()
    assert candidate.text == "Storm hits the coast"  # the first spelling stays
    assert candidate.sources == {"h1", "og"} and candidate.h1_rank == 0


def test_each_candidate_gets_a_row_of_every_feature() -> None:
    page = TitlePage(title="Storm hits the coast | Daily News", og_title="Storm hits the coast")
    add_candidate(page, "Storm hits the coast", "og")
    add_candidate(page, "Daily News weather", "title_part", part_rank=1)
    page.part_count = 2
    rows = candidate_features(page)
    assert [len(row) for row in rows] == [len(TITLE_FEATURE_NAMES)] * 2
    first = dict(zip(TITLE_FEATURE_NAMES, rows[0], strict=True))
    second = dict(zip(TITLE_FEATURE_NAMES, rows[1], strict=True))
    assert first["from_og"] == 1.0 and first["from_title_part"] == 0.0
    assert first["share_in_title"] == 1.0 and first["title_starts_with_it"] == 1.0
    assert second["part_rank"] == 1.0 and second["part_rank_from_end"] == 0.0
    assert second["share_in_og"] == pytest.approx(0.0)
    assert first["share_in_first_h1"] == -1.0  # the page has no <h1>


def test_the_best_scored_candidate_wins() -> None:
    page = TitlePage()
    add_candidate(page, "Daily News", "title_part")
    add_candidate(page, "Storm hits the coast", "og")
    assert best_candidate(stump("from_og", -1.0, 1.0), page).text == "Storm hits the coast"
    assert best_candidate(stump("from_og", 1.0, -1.0), page).text == "Daily News"
    assert best_candidate(stump("from_og", 0.0, 0.0), page).text == "Daily News"  # first of equals
    assert best_candidate(stump("from_og", 0.0, 1.0), TitlePage()) is None


def test_every_source_is_a_feature() -> None:
    assert all(f"from_{source}" in TITLE_FEATURE_NAMES for source in TITLE_SOURCES)


def test_the_shipped_model_loads_and_reads_these_features() -> None:
    model = load_title_model()
    assert model.feature_names == TITLE_FEATURE_NAMES
    assert model.metadata["trained_on"] == "wcxb-dev+fundus"


def test_a_model_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "titles.json.gz"
    dump_title_model(stump("from_h1", 0.0, 2.0), path)
    loaded = load_title_model(str(path))
    assert loaded.split_feature.tolist() == [TITLE_FEATURE_NAMES.index("from_h1"), -1, -1]


def test_other_files_are_refused(tmp_path: Path) -> None:
    block_model = tmp_path / "block.json"
    block_model.write_text(json.dumps(model_to_json(stump("from_h1", 0.0, 1.0))))
    with pytest.raises(ValueError, match="not a title model file"):
        load_title_model(str(block_model))
    other_features = tmp_path / "old.json.gz"
    document = {"format": "scrapy-boilerplate-titles", "version": 1}
    ensemble = model_to_json(stump("from_h1", 0.0, 1.0))
    ensemble["feature_names"] = ["words", *TITLE_FEATURE_NAMES[1:]]
    other_features.write_bytes(gzip.compress(json.dumps({**document, "model": ensemble}).encode()))
    with pytest.raises(ValueError, match="other title features"):
        load_title_model(str(other_features))
