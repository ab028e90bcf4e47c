"""Tagging without CRFsuite: the model reader, attribute ids, scores, Viterbi, the compiled twin.

The labels must be CRFsuite's own: checked against ``pycrfsuite`` on synthetic pages and, as a
dataset test (skipped without ``../shared``), on every shared page. The compiled tests are
skipped when ``_crf`` is not built, unless ``BOILERPLATE_REQUIRE_SPEEDUPS`` is set.
"""

from __future__ import annotations

import gzip
import os
import random
from array import array
from types import ModuleType

import pytest
from shared_datasets import SHARED_DATASETS
from victor_support import synthetic_model, synthetic_pages

from scrapy_boilerplate.classifiers import crf_tagging
from scrapy_boilerplate.classifiers.crf import VictorModel, block_attributes, load_victor_model
from scrapy_boilerplate.classifiers.crf_tagging import (
    block_items,
    read_crfsuite_model,
    state_scores,
    tag_pure,
    viterbi,
)
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.features.victor import FEATURE_NAMES, victor_features
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.victor import victor_blocks

pycrfsuite = pytest.importorskip("pycrfsuite")

_crf: ModuleType | None
try:
    from scrapy_boilerplate.classifiers import _crf
except ImportError:
    if os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"):
        raise
    _crf = None

needs_compiled = pytest.mark.skipif(_crf is None, reason="the compiled _crf is not built")


def synthetic() -> VictorModel:
    return load_victor_model(synthetic_model())


def random_rows(seed: int, count: int) -> list[list[int]]:
    """Rows of plausible values (mostly small, some 0, a few large)."""
    rng = random.Random(seed)
    choices = [0, 0, 0, 1, 1, 2, 3, 5, 8, 10, 11, 13, 21, 40, 100, 3000]
    return [[rng.choice(choices) for _ in FEATURE_NAMES] for _ in range(count)]


def test_the_reader_gives_the_weights_crfsuite_reports() -> None:
    model = synthetic()
    weights = read_crfsuite_model(model.model_bytes)
    tagger = pycrfsuite.Tagger()
    tagger.open_inmemory(model.model_bytes)
    info = tagger.info()
    assert set(weights.labels) == set(info.labels) == set("hplco")
    assert set(weights.attributes) == {name for name, _ in info.state_features}
    state = {}
    for name, number in weights.attributes.items():
        for feature in range(weights.state_starts[number], weights.state_starts[number + 1]):
            label = weights.labels[weights.state_labels[feature]]
            state[name, label] = weights.state_weights[feature]
    assert state.keys() == info.state_features.keys()
    for key, weight in info.state_features.items():  # the dump prints 6 decimals
        assert state[key] == pytest.approx(weight, abs=1e-6)
    n_labels = len(weights.labels)
    for (before, after), weight in info.transitions.items():
        at = weights.labels.index(before) * n_labels + weights.labels.index(after)
        assert weights.transitions[at] == pytest.approx(weight, abs=1e-6)


def test_not_a_model_is_refused() -> None:
    with pytest.raises(ValueError, match="CRFsuite"):
        read_crfsuite_model(b"not a model at all, but long enough to have a header .....")
    with pytest.raises(ValueError, match="CRFsuite"):
        read_crfsuite_model(b"lCRF")


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("enabled", ["all", "some"])
def test_items_are_the_known_attributes_in_template_order(seed: int, enabled: str) -> None:
    features = FEATURE_NAMES if enabled == "all" else FEATURE_NAMES[::3]
    _, model_bytes = gzip.decompress(synthetic_model()).split(b"\n", 1)
    model = VictorModel(model_bytes, {"features": list(features)})
    rows = random_rows(seed, 7) + [row[:] for row in synthetic_pages(1)[0].rows]
    ids = model.tables.weights.attributes
    expected = [
        [ids[name] for name in attributes if name in ids]
        for attributes in block_attributes(rows, features)
    ]
    assert block_items(rows, model.tables) == expected


def test_state_scores_add_in_item_order() -> None:
    weights = read_crfsuite_model(synthetic().model_bytes)
    item = list(range(min(6, len(weights.attributes))))
    (scores,) = state_scores([item], weights)
    expected = [0.0] * len(weights.labels)
    for attribute in item:
        for feature in range(weights.state_starts[attribute], weights.state_starts[attribute + 1]):
            expected[weights.state_labels[feature]] += weights.state_weights[feature]
    assert scores == expected


def test_viterbi_by_hand_and_ties_go_to_the_first_label() -> None:
    transitions = [0.0, -1.0, -1.0, 0.0]  # staying costs nothing, switching costs 1
    assert viterbi([[0.5, 0.0], [0.0, 0.5], [0.0, 3.0]], transitions) == [1, 1, 1]
    # [0, 1, 1] and [1, 1, 1] both score 3.5: the back link keeps the first label
    assert viterbi([[1.0, 0.0], [0.0, 0.5], [0.0, 3.0]], transitions) == [0, 1, 1]
    assert viterbi([[1.0, 0.0], [0.0, 0.5], [0.0, 0.5]], transitions) == [0, 0, 0]
    assert viterbi([[0.0, 0.0], [0.0, 0.0]], [0.0] * 4) == [0, 0]
    assert viterbi([[0.0, 2.0]], transitions) == [1]
    assert viterbi([], transitions) == []


@pytest.mark.parametrize("count", [0, 1, 6])
def test_the_labels_are_crfsuites_on_synthetic_pages(count: int) -> None:
    model = synthetic()
    pages = synthetic_pages(count)
    for page in pages:
        assert model.tag(page.rows) == model.tag_crfsuite(page.rows) == page.codes
    for seed in range(5):
        rows = random_rows(seed, 1 + seed * 5)
        labels = [model.tables.weights.labels[i] for i in tag_pure(rows, model.tables)]
        assert labels == model.tag_crfsuite(rows)


@needs_compiled
@pytest.mark.parametrize("seed", range(8))
def test_compiled_equals_pure(seed: int) -> None:
    assert _crf is not None
    model = synthetic()
    rows = random_rows(seed, 1 + 9 * seed)
    assert _crf.tag(rows, model.tables) == tag_pure(rows, model.tables)
    assert _crf.tag([], model.tables) == []


@needs_compiled
def test_compiled_refuses_what_it_would_read_outside() -> None:
    assert _crf is not None
    model = synthetic()
    rows = random_rows(1, 4)
    with pytest.raises(ValueError, match="widths"):
        _crf.tag([rows[0], rows[1][:-1]], model.tables)
    bad_feature = array("i", model.tables.template_features)
    bad_feature[0] = len(FEATURE_NAMES)
    with pytest.raises(ValueError, match="template feature"):
        _crf.tag(rows, _replace(model, template_features=bad_feature))
    bad_ids = array("i", model.tables.value_ids)
    bad_ids[0] = len(model.tables.weights.attributes)
    with pytest.raises(ValueError, match="value attribute"):
        _crf.tag(rows, _replace(model, value_ids=bad_ids))


def _replace(model: VictorModel, **changes: object) -> crf_tagging.TaggingTables:
    import dataclasses

    return dataclasses.replace(model.tables, **changes)  # type: ignore[arg-type]


@pytest.mark.parametrize("dataset", ["wcxb-dev", "l3s-gn1", "cleaneval/dev", "cleaneval/final"])
def test_the_shipped_model_tags_every_shared_page_as_crfsuite(dataset: str) -> None:
    """Compiled (when built), pure and CRFsuite labels are equal on every page."""
    if not (SHARED_DATASETS / dataset).is_dir():
        pytest.skip(f"{dataset} not under {SHARED_DATASETS}")
    limit = int(os.environ.get("BOILERPLATE_EQUIVALENCE_LIMIT", "0")) or None
    model = load_victor_model()
    checked = 0
    for page in load_pages(SHARED_DATASETS / dataset, limit=limit):
        try:
            rows = victor_features(victor_blocks(parse_html(page.html)))
        except BoilerplateError:
            continue
        expected = model.tag_crfsuite(rows)
        assert [model.tables.weights.labels[i] for i in tag_pure(rows, model.tables)] == expected
        assert model.tag(rows) == expected, page.id
        checked += 1
    assert checked
