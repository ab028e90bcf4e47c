"""Reproduction of Chakrabarti, Kumar, Punera 2007, Table 1 and Figure 2: PageLevel Basic vs
PageLevel Smooth, template F1 on words, anchor-text words and links, and the penalty sweep.

Data: WCXB-dev (gold text; 5-fold cross-validation grouped by domain: every page is scored by
a model that never saw its domain) and the *annotated* L3S-GN1 pages (labels: text in
``x-nc-sel0`` or no span, and related content, is template). L3S-GN1's table rows come from a
model trained on all of WCXB-dev, with the parameters chosen on WCXB-dev; a second estimate
trains the node classifier and chooses the parameters by 5-fold cross-validation grouped by
domain on L3S-GN1 itself, as the paper trained and tested on one collection (nested: each
fold's c and thresholds are chosen on the other folds; nothing of it ships); a third follows
the paper's protocol (§5.1): the same cross-validation, but the node classifier learns from
SiteLevel(0.10) labels of L3S-GN1's sites with at least 5 pages, not from human labels.

Run alone (updates only this section of ``docs/reproduction.md``)::

    python -m benchmarks.reproduce.isotonic [--limit N]
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from scrapy_boilerplate.classifiers.template import page_nodes, template_scores
from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import load_pages
from scrapy_boilerplate.evaluation.l3s import (
    annotated_html,
    page_ids,
    read_url_mapping,
    segment_annotated,
    two_class,
)
from scrapy_boilerplate.extractors import get_extractor
from scrapy_boilerplate.model.document import Element, TextDocument
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment
from scrapy_boilerplate.site.hashing import TreeHashes, hash_tree
from scrapy_boilerplate.site.learning import site_key
from scrapy_boilerplate.site.sitelevel import mark_templates, site_level
from scrapy_boilerplate.training.dataset import domain_of
from scrapy_boilerplate.training.labels import MIN_GOLD_SHARE, gold_shares
from scrapy_boilerplate.training.template import (
    MEASURES,
    PENALTY_GRID,
    F1Counts,
    SmoothingChoice,
    TemplatePage,
    decide,
    fit_template_model,
    out_of_fold_template_scores,
    template_f1,
    template_folds,
    template_page,
    tune_smoothing,
)

from .data import DATASETS_ROOT, l3s_root
from .sitelevel import MIN_SITE_PAGES

REPO = Path(__file__).resolve().parents[2]
START, END = "<!-- isotonic:start -->", "<!-- isotonic:end -->"
#: Extractors whose block decisions are shown for context.
BASELINES = ("numwords", "article")
#: Paper Table 1 (F1 on words, anchor text, links): Common and Random.
PAPER = {
    "Basic": ((0.56, 0.65, 0.69), (0.63, 0.71, 0.75)),
    "Smooth": ((0.60, 0.71, 0.73), (0.66, 0.73, 0.77)),
}
_SELECTION_CLASS = re.compile(r"\bx-nc-sel[0-5]\b")
BOOTSTRAP = 200


@dataclass
class Collection:
    """One dataset's records, node scores and the baselines' block decisions."""

    name: str
    pages: list[TemplatePage]
    scores: list[list[float]]
    baselines: dict[str, list[list[float]]]
    #: Per page, node labels from SiteLevel(0.10) (all -1 on sites with too few pages).
    sitelevel_labels: list[list[int]] | None = None


def _baseline_decisions(doc: TextDocument, decisions: dict[str, list[list[float]]]) -> None:
    """Append each baseline's block templateness (1 = boilerplate) on ``doc``'s blocks."""
    for name in BASELINES:
        for block in doc.blocks:
            block.is_content = False
        get_extractor(name).process(doc)
        decisions.setdefault(name, []).append([0.0 if b.is_content else 1.0 for b in doc.blocks])


def _unwrap(element: Element) -> None:
    """Replace ``element`` by its text and children (the assessors' spans must not become
    nodes of the tree)."""
    parent = element.getparent()
    if parent is None:
        return
    index = parent.index(element)
    text, tail = element.text or "", element.tail or ""
    if index:
        before = parent[index - 1]
        before.tail = (before.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    children = list(element)
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    if children:
        children[-1].tail = (children[-1].tail or "") + tail
    elif index:
        parent[index - 1].tail = (parent[index - 1].tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(element)


@dataclass
class _SiteNodes:
    """What SiteLevel labelling needs of one page: its hashes and the hash-tree position of
    each visible node (None: not under ``<body>``)."""

    tree: TreeHashes
    node_positions: list[int | None]


def _site_nodes(doc: TextDocument) -> _SiteNodes:
    assert doc.root is not None
    tree = hash_tree(doc.root)
    positions = tree.positions()
    nodes = page_nodes(doc)
    elements = nodes.table.elements
    return _SiteNodes(tree, [positions.get(elements[j]) for j in nodes.tree.nodes])


def sitelevel_labels(sites: Sequence[str], site_nodes: Sequence[_SiteNodes]) -> list[list[int]]:
    """Node labels of the paper's training data (§5.1), per page: SiteLevel(0.10) over the
    pages of each site with at least :data:`MIN_SITE_PAGES` pages; a visible node inside a
    template (on more than 10% of the site's pages, or more than 85% of its HTML in such
    nodes, or under one) is 1, every other node 0; pages of smaller sites are unlabelled (-1)."""
    members: dict[str, list[int]] = {}
    for k, site in enumerate(sites):
        members.setdefault(site, []).append(k)
    labels = [[-1] * len(nodes.node_positions) for nodes in site_nodes]
    for group in members.values():
        if len(group) < MIN_SITE_PAGES:
            continue
        templates = site_level(site_nodes[k].tree for k in group)
        for k in group:
            inside = mark_templates(site_nodes[k].tree, templates).inside
            labels[k] = [
                -1 if position is None else int(inside[position])
                for position in site_nodes[k].node_positions
            ]
    return labels


def l3s_collection(
    limit: int | None,
) -> tuple[list[TemplatePage], dict[str, list[list[float]]], list[list[int]]]:
    """Records of the annotated L3S-GN1 pages (2-class labels, which also give the node labels
    of the cross-validation on L3S-GN1), spans unwrapped, and their SiteLevel node labels."""
    root = l3s_root()
    urls = read_url_mapping(root)
    pages, baselines = [], {}  # type: ignore[var-annotated]
    sites, site_nodes = [], []
    for page_id in page_ids(root)[:limit]:
        try:
            annotated = segment_annotated(annotated_html(root, page_id), urls.get(page_id))
        except BoilerplateError:
            continue
        doc = annotated.doc
        if doc.root is not None:
            for span in list(doc.root.iter("span")):
                if _SELECTION_CLASS.search(span.get("class") or ""):
                    _unwrap(span)
        gold = [two_class(label) for label in annotated.labels]
        shares = [float(label) for label in gold]
        pages.append(
            template_page(doc, gold, shares, page_id=page_id, domain=domain_of(doc.url, page_id))
        )
        sites.append(site_key(doc.url))
        site_nodes.append(_site_nodes(doc))
        _baseline_decisions(doc, baselines)
    return pages, baselines, sitelevel_labels(sites, site_nodes)


def wcxb_collection(limit: int | None) -> tuple[list[TemplatePage], dict[str, list[list[float]]]]:
    """Records of the WCXB-dev pages (node labels from gold), with the baselines' decisions."""
    pages, baselines = [], {}  # type: ignore[var-annotated]
    for page in load_pages(DATASETS_ROOT / "wcxb-dev", limit=limit):
        try:
            doc = segment(parse_html(page.html), url=page.url)
        except BoilerplateError:
            continue
        shares = gold_shares(doc.blocks, page.gold_text)
        gold = [int(share >= MIN_GOLD_SHARE) for share in shares]
        pages.append(
            template_page(
                doc,
                gold,
                shares,
                page_id=page.id,
                domain=domain_of(page.url, page.id),
                page_type=page.page_type,
            )
        )
        _baseline_decisions(doc, baselines)
    return pages, baselines


@dataclass
class IsotonicResults:
    collections: list[Collection]
    basic: SmoothingChoice
    smooth: SmoothingChoice
    paper_weights: SmoothingChoice
    seconds: float


def run_isotonic(limit: int | None = None) -> IsotonicResults:
    """Build the records, cross-validate on WCXB-dev, choose parameters there, score both."""
    started = time.time()
    wcxb_pages, wcxb_baselines = wcxb_collection(limit)
    print(
        f"isotonic: {len(wcxb_pages)} WCXB pages at {time.time() - started:.0f}s", file=sys.stderr
    )
    oof = out_of_fold_template_scores(wcxb_pages, 5)
    print(f"isotonic: CV done at {time.time() - started:.0f}s", file=sys.stderr)
    basic = tune_smoothing(wcxb_pages, oof, smooth=False)
    smooth = tune_smoothing(wcxb_pages, oof, smooth=True)
    paper_weights = tune_smoothing(wcxb_pages, oof, smooth=True, weighting="paper")
    collections = [Collection("WCXB-dev (CV by domain)", wcxb_pages, oof, wcxb_baselines)]
    if (l3s_root() / "annotated").is_dir():
        model = fit_template_model(wcxb_pages)
        l3s_pages, l3s_baselines, l3s_sitelevel = l3s_collection(limit)
        scores = [template_scores(model, page.rows) for page in l3s_pages]
        collections.append(
            Collection("L3S-GN1 annotated", l3s_pages, scores, l3s_baselines, l3s_sitelevel)
        )
    print(f"isotonic: done at {time.time() - started:.0f}s", file=sys.stderr)
    return IsotonicResults(collections, basic, smooth, paper_weights, time.time() - started)


# -- tables ----------------------------------------------------------------------------------


def _values(
    collection: Collection, choice: SmoothingChoice, weighting: str = "words"
) -> list[list[float]]:
    return [
        decide(page, scores, smooth=choice.smooth, c=choice.c, weighting=weighting)
        for page, scores in zip(collection.pages, collection.scores, strict=True)
    ]


def _f1_difference_se(
    pages: Sequence[TemplatePage],
    first: Sequence[Sequence[float]],
    first_threshold: float,
    second: Sequence[Sequence[float]],
    second_threshold: float,
) -> float:
    """Paired bootstrap standard error of word F1(first) - F1(second) over pages."""
    rng = random.Random(7)
    differences = []
    for _ in range(BOOTSTRAP):
        sample = [rng.randrange(len(pages)) for _ in pages]
        chosen = [pages[k] for k in sample]
        a = template_f1(chosen, [first[k] for k in sample], first_threshold)["words"].f1
        b = template_f1(chosen, [second[k] for k in sample], second_threshold)["words"].f1
        differences.append(a - b)
    mean = sum(differences) / len(differences)
    return (sum((d - mean) ** 2 for d in differences) / (len(differences) - 1)) ** 0.5


def _row(label: str, counts: dict[str, F1Counts]) -> str:
    cells = " | ".join(
        f"{counts[m].precision:.3f} | {counts[m].recall:.3f} | {counts[m].f1:.3f}" for m in MEASURES
    )
    return f"| {label} | {cells} |"


def isotonic_markdown(results: IsotonicResults) -> str:
    """The section, between :data:`START` and :data:`END`."""
    basic, smooth, paper = results.basic, results.smooth, results.paper_weights
    lines = [START, ""]
    summary = []
    for collection in results.collections:
        basic_values = _values(collection, basic)
        smooth_values = _values(collection, smooth)
        paper_values = _values(collection, paper, "paper")
        rows = {
            f"PageLevel Basic (threshold {basic.threshold})": template_f1(
                collection.pages, basic_values, basic.threshold
            ),
            f"PageLevel Smooth, paper weights (c = {paper.c:g}, threshold {paper.threshold})": (
                template_f1(collection.pages, paper_values, paper.threshold)
            ),
            f"PageLevel Smooth, word weights (c = {smooth.c:g}, threshold {smooth.threshold})": (
                template_f1(collection.pages, smooth_values, smooth.threshold)
            ),
        }
        for name, decisions in collection.baselines.items():
            rows[f"`{name}` (its block decisions)"] = template_f1(collection.pages, decisions, 0.5)
        lines += [
            f"**{collection.name}** ({len(collection.pages)} pages; template share of words "
            f"{_template_share(collection.pages):.2f})",
            "",
            "| | words P | R | F1 | anchor words P | R | F1 | links P | R | F1 |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
            *(_row(label, counts) for label, counts in rows.items()),
            "",
        ]
        labels = list(rows)
        gain = rows[labels[2]]["words"].f1 - rows[labels[0]]["words"].f1
        paper_gain = rows[labels[1]]["words"].f1 - rows[labels[0]]["words"].f1
        se = _f1_difference_se(
            collection.pages, smooth_values, smooth.threshold, basic_values, basic.threshold
        )
        others = ", ".join(
            f"{m.replace('_', ' ')} {rows[labels[2]][m].f1 - rows[labels[0]][m].f1:+.3f}"
            for m in MEASURES[1:]
        )
        same = _values(collection, SmoothingChoice(False, 0.0, smooth.threshold, 0.0))
        same_f1 = template_f1(collection.pages, same, smooth.threshold)["words"].f1
        same_se = _f1_difference_se(
            collection.pages, smooth_values, smooth.threshold, same, smooth.threshold
        )
        summary.append(
            f"* {collection.name}: Smooth (word weights) − Basic = **{gain:+.3f}** ± {se:.3f} "
            f"on words ({others}); with the paper's weights {paper_gain:+.3f}; at the same "
            f"threshold ({smooth.threshold}) Smooth − Basic = "
            f"{rows[labels[2]]['words'].f1 - same_f1:+.3f} ± {same_se:.3f}."
        )
        if collection is not results.collections[0]:
            summary.append(_tuned_on_itself(collection))
            summary.append(_cross_validated_on_itself(collection))
            sitelevel = _trained_on_sitelevel(collection)
            if sitelevel is not None:
                summary.append(sitelevel)
    lines += ["Smooth − Basic, template word F1 (± paired bootstrap SE over pages):", "", *summary]
    lines += ["", *_sweep(results), "", END]
    return "\n".join(lines)


def _tuned_on_itself(collection: Collection) -> str:
    """Basic and Smooth with c and thresholds chosen on the collection itself (optimistic for
    both; nothing of it ships)."""
    basic = tune_smoothing(collection.pages, collection.scores, smooth=False)
    smooth = tune_smoothing(collection.pages, collection.scores, smooth=True)
    gain = smooth.words_f1 - basic.words_f1
    return (
        f"* {collection.name}, c and thresholds chosen on it (optimistic for both): Basic "
        f"{basic.words_f1:.3f} (threshold {basic.threshold}), Smooth {smooth.words_f1:.3f} "
        f"(c = {smooth.c:g}, threshold {smooth.threshold}): **{gain:+.3f}**."
    )


def _nested_decisions(
    pages: Sequence[TemplatePage], training: Sequence[TemplatePage], folds: int
) -> dict[bool, list[list[float]]]:
    """Basic (False) and Smooth (True) block decisions by cross-validation grouped by domain:
    a page is scored by a model fitted on the node labels of ``training`` (same pages, maybe
    other labels) of the other folds, and decided with the c and threshold that do best on
    the other folds' out-of-fold scores, judged by ``pages``' block labels."""
    scores = out_of_fold_template_scores(training, folds)
    fold_of = template_folds(pages, folds)
    decisions: dict[bool, list[list[float]]] = {
        False: [[] for _ in pages],
        True: [[] for _ in pages],
    }
    for fold in range(folds):
        inside = [k for k, f in enumerate(fold_of) if f == fold]
        others = [k for k, f in enumerate(fold_of) if f != fold]
        for smooth in (False, True):
            choice = tune_smoothing(
                [pages[k] for k in others], [scores[k] for k in others], smooth=smooth
            )
            for k in inside:
                values = decide(pages[k], scores[k], smooth=smooth, c=choice.c)
                decisions[smooth][k] = [float(v >= choice.threshold) for v in values]
    return decisions


def _cross_validated_on_itself(collection: Collection, folds: int = 5) -> str:
    """Basic and Smooth with the node classifier trained on the collection's own node labels,
    and c and thresholds chosen, by cross-validation grouped by domain (nothing of it ships)."""
    pages = collection.pages
    decisions = _nested_decisions(pages, pages, folds)
    basic = template_f1(pages, decisions[False], 0.5)["words"].f1
    smooth = template_f1(pages, decisions[True], 0.5)["words"].f1
    se = _f1_difference_se(pages, decisions[True], 0.5, decisions[False], 0.5)
    return (
        f"* {collection.name}, node classifier trained and c and thresholds chosen by "
        f"{folds}-fold CV by domain on it (nested; nothing of it ships): Basic {basic:.3f}, "
        f"Smooth {smooth:.3f}: **{smooth - basic:+.3f}** ± {se:.3f}."
    )


def _trained_on_sitelevel(collection: Collection, folds: int = 5) -> str | None:
    """As :func:`_cross_validated_on_itself`, but the node classifier learns from SiteLevel
    labels (the paper's protocol, §5.1): no human label in training, only in choosing c and
    the thresholds (nested) and in the measure."""
    if collection.sitelevel_labels is None:
        return None
    pages = collection.pages
    training = [
        replace(page, labels=labels)
        for page, labels in zip(pages, collection.sitelevel_labels, strict=True)
    ]
    labelled = [page for page in training if any(label >= 0 for label in page.labels)]
    sites = len({page.domain for page in labelled})
    decisions = _nested_decisions(pages, training, folds)
    basic = template_f1(pages, decisions[False], 0.5)
    smooth = template_f1(pages, decisions[True], 0.5)
    words_basic, words_smooth = basic["words"], smooth["words"]
    se = _f1_difference_se(pages, decisions[True], 0.5, decisions[False], 0.5)
    others = ", ".join(
        f"{m.replace('_', ' ')} {basic[m].f1:.3f} → {smooth[m].f1:.3f}" for m in MEASURES[1:]
    )
    return (
        f"* {collection.name}, **the paper's protocol**: node classifier trained on SiteLevel"
        f"(0.10) labels (§5.1; {len(labelled)} pages of {sites} sites with at least "
        f"{MIN_SITE_PAGES} pages; no human label in training), {folds}-fold CV by domain, c "
        f"and thresholds chosen on the other folds' human labels (nested): Basic "
        f"{words_basic.f1:.3f} (P {words_basic.precision:.3f}, R {words_basic.recall:.3f}), "
        f"Smooth {words_smooth.f1:.3f} (P {words_smooth.precision:.3f}, R "
        f"{words_smooth.recall:.3f}): **{words_smooth.f1 - words_basic.f1:+.3f}** ± {se:.3f} "
        f"on words ({others})."
    )


def _template_share(pages: Sequence[TemplatePage]) -> float:
    template = sum(
        words
        for page in pages
        for words, gold in zip(page.block_counts["words"], page.block_gold, strict=True)
        if not gold
    )
    total = sum(sum(page.block_counts["words"]) for page in pages)
    return template / total if total else 0.0


def _sweep(results: IsotonicResults) -> list[str]:
    """Template F1 against the penalty multiplier c (Figure 2), threshold held."""
    header = "| c |"
    rule = "|---:|"
    for collection in results.collections:
        short = collection.name.split(" ")[0]
        header += f" {short} words | AT | links | {short} words, paper weights |"
        rule += "---:|---:|---:|---:|"
    lines = [
        "Penalty sweep (Figure 2: F1 against the multiplier c of γ_i = c·A/A_i; thresholds held at "
        f"{results.smooth.threshold} for word weights and {results.paper_weights.threshold} for "
        "the paper's weights; c = 0 is Basic at those thresholds):",
        "",
        header,
        rule,
    ]
    for c in (0.0, *PENALTY_GRID, 0.64, 2.56):
        cells = []
        for collection in results.collections:
            for weighting, threshold in (
                ("words", results.smooth.threshold),
                ("paper", results.paper_weights.threshold),
            ):
                values = [
                    decide(page, scores, smooth=c > 0, c=c, weighting=weighting)
                    for page, scores in zip(collection.pages, collection.scores, strict=True)
                ]
                counts = template_f1(collection.pages, values, threshold)
                measures = MEASURES if weighting == "words" else MEASURES[:1]
                cells += [f"{counts[m].f1:.3f}" for m in measures]
        lines.append(f"| {c:g} | " + " | ".join(cells) + " |")
    return lines


def update_section(path: Path, section: str) -> None:
    """Replace the text between the markers in ``path`` (or append it)."""
    text = path.read_text(encoding="utf-8")
    if START in text and END in text:
        before, rest = text.split(START, 1)
        after = rest.split(END, 1)[1]
        text = before + section + after
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=None, help="use only the first N pages")
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "reproduction.md")
    args = parser.parse_args(argv)
    if not (DATASETS_ROOT / "wcxb-dev").is_dir():
        print(f"WCXB-dev not found under {DATASETS_ROOT}", file=sys.stderr)
        return 2
    update_section(args.output, isotonic_markdown(run_isotonic(args.limit)))
    print(f"updated {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
