"""Training records of the template model: node labels from block labels, folds by domain."""

from __future__ import annotations

from collections import Counter

import pytest

from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment
from scrapy_boilerplate.training.template import (
    SmoothingChoice,
    TemplatePage,
    out_of_fold_template_scores,
    source_template_report,
    template_folds,
    template_page,
    tune_smoothing,
)

HTML = (
    "<body><nav><ul><li><a href=/>Front page of Example Media</a></li>"
    "<li><a href=/world>Latest world news and analysis</a></li></ul></nav>"
    "<article><p>The council approved the new bridge over the river on Monday evening.</p>"
    "<p>Work starts in spring and should take two years, the mayor said.</p></article>"
    "<footer><p>Copyright 2026 Example Media</p></footer></body>"
)


def _page(domain: str) -> TemplatePage:
    return TemplatePage(domain, domain, None, [], [], [], [], [], [], [])


def test_block_labels_give_the_labels_of_the_nodes_owning_the_blocks() -> None:
    doc = segment(parse_html(HTML))
    gold = [int("council" in block.text or "mayor" in block.text) for block in doc.blocks]
    assert sum(gold) == 2 and len(gold) > 2
    page = template_page(doc, gold, [float(g) for g in gold], page_id="p", domain="example.com")
    # every block here is large enough to own its node (smaller ones fold into their parent)
    assert len(set(page.owners)) == len(gold)
    for owner, label in zip(page.owners, gold, strict=True):
        assert page.labels[owner] == 1 - label  # 1 = template


def test_without_shares_no_node_is_labelled() -> None:
    doc = segment(parse_html(HTML))
    page = template_page(doc, [0] * len(doc.blocks), None, page_id="p", domain="example.com")
    assert set(page.labels) == {-1}


def test_folds_keep_each_domain_in_one_fold_and_balance_the_pages() -> None:
    domains = ["a"] * 5 + ["b"] * 4 + ["c"] * 3 + ["d"] * 2 + ["e"] * 2 + ["f"]
    pages = [_page(domain) for domain in domains]
    fold_of = template_folds(pages, 3)
    by_domain: dict[str, set[int]] = {}
    for page, fold in zip(pages, fold_of, strict=True):
        by_domain.setdefault(page.domain, set()).add(fold)
    assert all(len(folds) == 1 for folds in by_domain.values())
    # largest domain first, each into the least loaded fold: a | b | c+d, then e and f
    assert sorted(Counter(fold_of).values()) == [5, 6, 6]


def test_tuning_picks_the_threshold_with_the_best_template_f1() -> None:
    # one node per block; words 10, 10, 80; gold: only the last block is content
    page = TemplatePage(
        "p", "example.com", None, [[], [], []], [-1, -1, -1], [-1, 0, 0], [1.0] * 3,
        [1.0] * 3, [10, 10, 80], [0, 1, 2],
        {"words": [10, 10, 80], "anchor_words": [0, 0, 0], "links": [0, 0, 0]}, [0, 0, 1],
    )  # fmt: skip
    choice = tune_smoothing([page], [[0.9, 0.4, 0.2]], smooth=False)
    # thresholds up to 0.4 catch both template blocks and leave the content: F1 1; ties go
    # to the first in grid order above 0.2 (at 0.2 the content block would be template)
    assert (choice.threshold, choice.words_f1) == (0.25, 1.0)
    assert choice.c == 0.0 and not choice.smooth


def _labelled(domain: str, source: str, inverted: bool) -> TemplatePage:
    """:data:`HTML` with its story as content, or (``inverted``) its menu and footer."""
    doc = segment(parse_html(HTML))
    gold = [int(("council" in b.text or "mayor" in b.text) != inverted) for b in doc.blocks]
    page = template_page(doc, gold, [float(g) for g in gold], page_id=domain, domain=domain)
    page.source = source
    return page


def test_out_of_fold_models_train_only_on_the_pages_train_on_accepts() -> None:
    pytest.importorskip("sklearn")
    right = [_labelled(f"r{n}.example", "right", False) for n in range(4)]
    wrong = [_labelled(f"w{n}.example", "wrong", True) for n in range(8)]
    pages = right + wrong
    story = next(
        k for k, block in enumerate(segment(parse_html(HTML)).blocks) if "council" in block.text
    )
    menu = 0

    def ranks_story_below_menu(scores: list[list[float]]) -> bool:
        return all(
            s[p.owners[story]] < s[p.owners[menu]] for p, s in zip(pages, scores, strict=True)
        )

    assert ranks_story_below_menu(
        out_of_fold_template_scores(pages, 2, train_on=lambda p: p.source == "right")
    )
    assert not ranks_story_below_menu(out_of_fold_template_scores(pages, 2))  # the majority wins


def test_the_source_report_pools_each_source_and_all() -> None:
    pages = [_labelled("a.example", "right", False), _labelled("b.example", "wrong", True)]
    everything_template = [[1.0] * len(page.rows) for page in pages]
    report = source_template_report(
        pages, everything_template, SmoothingChoice(False, 0.0, 0.5, 0.0)
    )

    def precision(chosen: list[TemplatePage]) -> float:
        words = [
            (w, g)
            for p in chosen
            for w, g in zip(p.block_counts["words"], p.block_gold, strict=True)
        ]
        return sum(w for w, g in words if not g) / sum(w for w, _ in words)

    for name, chosen in (("all", pages), ("right", pages[:1]), ("wrong", pages[1:])):
        p = precision(chosen)
        assert f"| {name} | {len(chosen)} | {p:.4f} | 1.0000 | {2 * p / (1 + p):.4f} |" in report
