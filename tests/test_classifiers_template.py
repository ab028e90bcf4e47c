"""Node templateness: feature rows, the logistic model and its file, the filter and the
``page-template`` extractor."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
from array import array
from pathlib import Path

import pytest
from template_pages import PAGE, STORY

from scrapy_boilerplate.classifiers import template as template_module
from scrapy_boilerplate.classifiers.template import (
    PageTemplateFilter,
    TemplateModel,
    dump_template_model,
    load_template_model,
    node_weights,
    page_nodes,
    page_template_scores,
    penalties,
    template_scores,
    template_scores_pure,
)
from scrapy_boilerplate.features.node_features import node_feature_names
from scrapy_boilerplate.model.document import Element, TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import PURE_PYTHON_ENV, segment


def link_model(**metadata: float) -> TemplateModel:
    """Template when the node's text is mostly anchor text (one bucket, two features)."""
    return TemplateModel(
        feature_names=("anchor_frac", "links_per_word"),
        area_cuts=(),
        intercepts=(-5.0,),
        coefs=((10.0, 0.0),),
        metadata=dict(metadata),
    )


def nodes_of(html: str, url: str = "https://town.example/a"):  # type: ignore[no-untyped-def]
    return page_nodes(segment(parse_html(html), url=url))


def test_feature_rows() -> None:
    nodes = nodes_of(PAGE)
    names = node_feature_names()
    assert len(names) == len(set(names))
    assert all(len(row) == len(names) for row in nodes.rows)
    column = {name: k for k, name in enumerate(names)}
    tags = [nodes.table.elements[i].tag for i in nodes.tree.nodes]
    nav, article, footer = (nodes.rows[tags.index(tag)] for tag in ("nav", "article", "footer"))
    assert nav[column["margin"]] == 0.0  # the text starts with the menu
    assert footer[column["margin"]] == 0.0  # and ends with the footer
    assert article[column["margin"]] > 0.0
    assert nav[column["anchor_frac"]] == 1.0 and article[column["anchor_frac"]] == 0.0
    assert nav[column["links_per_word"]] == 4 / 8
    assert nav[column["internal_link_frac"]] == 1.0
    assert article[column["title_overlap"]] == 1.0  # title words met, capped at 1
    assert nav[column["tag_nav"]] == 1.0 and nav[column["tag_other"]] == 0.0
    assert nav[column["own_class_navigation"]] == 1.0
    menu_list = nodes.rows[tags.index("ul")]
    assert menu_list[column["in_class_navigation"]] == 1.0
    assert menu_list[column["own_class_navigation"]] == 0.0
    assert footer[column["own_class_footer"]] == 1.0
    body = nodes.rows[0]
    assert body[column["area_share"]] == 1.0 and body[column["tag_body"]] == 1.0


def test_scores_follow_the_logistic_model() -> None:
    nodes = nodes_of(PAGE)
    scores = template_scores(link_model(), nodes.rows)
    anchor_frac = node_feature_names().index("anchor_frac")
    for row, score in zip(nodes.rows, scores, strict=True):
        assert score == pytest.approx(1 / (1 + math.exp(5.0 - 10.0 * row[anchor_frac])))
    assert template_scores(link_model(), nodes.rows) == scores  # deterministic


@pytest.mark.parametrize("model", [link_model(), load_template_model()], ids=["two", "shipped"])
def test_page_scores_are_the_scores_of_the_rows(model: TemplateModel) -> None:
    """Flat feature matrix (shipped model, every feature) or rows (other models): same scores."""
    nodes = nodes_of(PAGE)
    assert page_template_scores(model, nodes) == template_scores_pure(model, nodes.rows)


def test_area_buckets_pick_their_regression() -> None:
    model = TemplateModel(("log_area",), (2.0,), (-1.0, 1.0), ((0.0,), (0.0,)))
    log_area = node_feature_names().index("log_area")
    small, large = [0.0] * len(node_feature_names()), [0.0] * len(node_feature_names())
    small[log_area], large[log_area] = 1.0, 2.0  # a cut belongs to the bucket above it
    low, high = template_scores(model, [small, large])
    assert low == pytest.approx(1 / (1 + math.e)) and high == pytest.approx(1 / (1 + math.exp(-1)))


def test_penalties_and_weights() -> None:
    assert penalties([100.0, 50.0, 16.0], 0.01) == [0.01, 0.02, 0.0625]
    assert node_weights([1.0, 3.0], [4, 0], "paper") == [1.0, 3.0]
    assert node_weights([1.0, 3.0], [4, 0], "words") == [3.0, 3.0]
    with pytest.raises(ValueError, match="weighting"):
        node_weights([1.0], [1], "area")


def test_the_filter_drops_link_lists_and_keeps_the_story() -> None:
    doc = segment(parse_html(PAGE), url="https://town.example/a")
    assert PageTemplateFilter(link_model(), threshold=0.5)(doc)
    assert STORY in doc.content_text
    assert "Privacy policy" not in doc.content_text and "Sport" not in doc.content_text
    for block in doc.blocks:
        assert block.score is not None and block.is_content == (block.score > 0.5)


def test_evidence_only_raises_the_scores_of_its_nodes() -> None:
    """Evidence naming the story's paragraphs: their nodes score at least 0.95 (Basic, so the
    raw scores decide); the other blocks keep their scores."""
    plain = segment(parse_html(PAGE), url="https://town.example/a")
    PageTemplateFilter(link_model(), smooth=False)(plain)
    doc = segment(parse_html(PAGE), url="https://town.example/a")

    def story_paragraphs(page: TextDocument) -> set[Element]:
        return {el for block in page.blocks if STORY in block.text for el in block.elements}

    PageTemplateFilter(link_model(), smooth=False, evidence=story_paragraphs)(doc)
    assert STORY not in doc.content_text
    for before, after in zip(plain.blocks, doc.blocks, strict=True):
        assert before.score is not None and after.score is not None
        if STORY in after.text:
            assert after.score == 1.0 - max(1.0 - before.score, 0.95)
        else:
            assert after.score == before.score and after.is_content == before.is_content


def test_smoothing_pulls_a_stray_node_to_its_neighbours() -> None:
    """A link-heavy line inside the story scores template alone (Basic) but its segment would
    cost more than it saves: smoothing keeps it with the story."""
    html = PAGE.replace(
        f"<p>{STORY}</p><p>{STORY}</p>",
        f'<p>{STORY}</p><p><a href="/x">Read the full council budget report</a></p><p>{STORY}</p>',
    )
    basic = segment(parse_html(html))
    PageTemplateFilter(link_model(), smooth=False)(basic)
    smooth = segment(parse_html(html))
    PageTemplateFilter(link_model(), c=0.5, weighting="words")(smooth)
    assert "Read the full council" not in basic.content_text
    assert "Read the full council" in smooth.content_text
    assert "Privacy policy" not in smooth.content_text


def test_model_file_round_trip(tmp_path: Path) -> None:
    model = TemplateModel(
        ("margin", "log_area"), (1.5, 3.25), (0.1, -0.2, 1e-17), ((1.0, 2.0),) * 3, {"c": 0.02}
    )
    path = tmp_path / "m.json"
    dump_template_model(model, path)
    again = load_template_model(str(path))
    assert again == model
    assert again.metadata == {"c": 0.02}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "format"),
        ({"version": 9}, "version"),
        ({"feature_names": ["nope", "log_area"]}, "unknown features"),
        ({"intercepts": [0.0]}, "one more bucket"),
        ({"coefs": [[1.0], [1.0], [1.0]]}, "do not match"),
        ({"area_cuts": [3.0, 1.0]}, "ascend"),
    ],
)
def test_bad_model_files_are_refused(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    document = {
        "format": "scrapy-boilerplate-template-lr",
        "version": 1,
        "feature_names": ["margin", "log_area"],
        "area_cuts": [1.0, 2.0],
        "intercepts": [0.0, 0.0, 0.0],
        "coefs": [[1.0, 2.0]] * 3,
    }
    path = tmp_path / "m.json"
    path.write_text(json.dumps(document | change))
    with pytest.raises(ValueError, match=message):
        load_template_model(str(path))


def test_the_shipped_model_loads_and_names_its_operating_point() -> None:
    model = load_template_model()
    assert set(model.feature_names) <= set(node_feature_names())
    assert len(model.area_cuts) == 3
    assert {"c", "threshold", "basic_threshold", "trained_on"} <= set(model.metadata)
    assert model.metadata["trained_on"] == "wcxb-dev"


# -- the compiled twin of the scores -------------------------------------------------------

needs_twin = pytest.mark.skipif(
    template_module._template is None and not os.environ.get("BOILERPLATE_REQUIRE_SPEEDUPS"),
    reason="the compiled _template is not built",
)


def full_model(rng: random.Random, scale: float) -> TemplateModel:
    """A model on every feature, in order, with random cuts and coefficients."""
    width = len(node_feature_names())
    return TemplateModel(
        feature_names=tuple(node_feature_names()),
        area_cuts=tuple(sorted(rng.uniform(0.0, 6.0) for _ in range(3))),
        intercepts=tuple(rng.uniform(-5.0, 5.0) for _ in range(4)),
        coefs=tuple(
            tuple(
                rng.choice([0.0, -0.0, rng.uniform(-1, 1), rng.uniform(-scale, scale)])
                for _ in range(width)
            )
            for _ in range(4)
        ),
    )


@needs_twin
@pytest.mark.parametrize("seed", range(5))
def test_compiled_scores_equal_pure_on_random_rows(seed: int) -> None:
    """Large and cancelling terms too: the twin sums as the interpreter's ``sum`` does."""
    rng = random.Random(seed)
    width = len(node_feature_names())
    for scale in (1.0, 1e8, 1e16):
        model = full_model(rng, scale)
        rows = [
            [
                rng.choice([0.0, -0.0, 1.0, rng.random(), rng.uniform(-1e9, 1e9)])
                for _ in range(width)
            ]
            for _ in range(200)
        ]
        rows += [[0.0] * width, [1e6] * width, [-1e6] * width]
        fast = template_scores(model, rows)
        assert repr(fast) == repr(template_scores_pure(model, rows))
        assert template_module._template is not None
        matrix = array("d", [value for row in rows for value in row])
        args = (model.area_cuts, model.intercepts, model.coefs)
        log_area = node_feature_names().index("log_area")
        assert repr(template_module._template.matrix_scores(matrix, log_area, *args)) == repr(fast)


@needs_twin
def test_the_compiled_scores_leave_other_rows_to_the_reference() -> None:
    model = full_model(random.Random(7), 1.0)
    width = len(node_feature_names())
    assert template_module._template is not None
    twin = template_module._template.template_scores
    args = (model.area_cuts, model.intercepts, model.coefs)
    log_area = node_feature_names().index("log_area")
    assert twin([[0.5] * width], log_area, *args) is not None
    assert twin([[1] * width], log_area, *args) is None  # ints
    assert twin([(0.5,) * width], log_area, *args) is None  # tuples
    assert twin([[0.5] * (width - 1)], log_area, *args) is None  # short rows
    matrix_scores = template_module._template.matrix_scores
    assert matrix_scores(array("d", [0.5] * width * 2), log_area, *args) is not None
    assert matrix_scores(array("d"), log_area, *args) == []
    assert matrix_scores(array("d", [0.5] * (width + 1)), log_area, *args) is None  # ragged
    int_rows = [[1] * width, [0] * width]
    assert template_scores(model, int_rows) == template_scores_pure(model, int_rows)
    assert template_scores(link_model(), [[0.5] * width]) == template_scores_pure(
        link_model(), [[0.5] * width]
    )


def test_the_environment_variable_selects_the_pure_scores() -> None:
    code = "from scrapy_boilerplate.classifiers import template\nassert not template.ACCELERATED\n"
    env = {**os.environ, PURE_PYTHON_ENV: "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
