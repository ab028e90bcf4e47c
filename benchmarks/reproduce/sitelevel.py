"""SiteLevel(θ) on L3S-GN1 (Chakrabarti et al. 2007, §3/§5.1) and a crawl replay.

* **Label precision**: per site with at least ``MIN_SITE_PAGES`` pages, SiteLevel over all its
  annotated pages (annotation spans unwrapped first, so they do not change hashes); a block is
  *template* when its element lies inside a template node; precision = words of template
  blocks the assessors left unselected (``x-nc-sel0``, not content) / words of template blocks,
  counted per annotation piece; recall = those words / all not-content words.
* **Crawl replay**: the *original* pages of each such site extracted in order by each of
  :data:`REPLAY_EXTRACTORS` with ``site_templates=True`` through the crawl's learner
  (:mod:`scrapy_boilerplate.site.learning`, in memory): page k carries the templates learnt
  from pages 1..k-1 (none while fewer than ``min_pages`` were seen); its shingle F1 is
  compared with the same extractor without site state on the same page. Also on the demo
  news sites of ``example_project`` (article pages in generation order, the listing and
  static pages of the site learnt from as a crawl would).
"""

from __future__ import annotations

import sys
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from lxml import etree

from scrapy_boilerplate import ExtractionContext, Extractor, get_extractor
from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.evaluation.l3s import L3SLabel, annotated_html, segment_annotated
from scrapy_boilerplate.evaluation.metrics import (
    Counts,
    benchmark_scores,
    shingle_counts,
)
from scrapy_boilerplate.page.tokens import is_word, tokenize
from scrapy_boilerplate.site.hashing import hash_tree
from scrapy_boilerplate.site.learning import LearningConfig, SiteTemplateLearner, site_key
from scrapy_boilerplate.site.sitelevel import COVER, mark_templates, site_level
from scrapy_boilerplate.site.store import MemoryStore
from scrapy_boilerplate.site.templates import SITE_TEMPLATES_KEY

from .data import REPO, l3s_root

#: Sites with fewer pages are left out (the acceptance asks for sites with >= 5 pages).
MIN_SITE_PAGES = 5
#: Pages a site must have shown before its templates are used (the crawl's default).
MIN_PAGES = LearningConfig().min_pages
_SPAN_TAG = "x-annotation-span"


def sites_of(pages: Iterable[Page], min_pages: int = MIN_SITE_PAGES) -> dict[str, list[Page]]:
    """Pages grouped by site, in the order given; sites with fewer than ``min_pages`` dropped."""
    groups: dict[str, list[Page]] = defaultdict(list)
    for page in pages:
        groups[site_key(page.url)].append(page)
    return {site: group for site, group in sorted(groups.items()) if len(group) >= min_pages}


def _words(text: str) -> int:
    return sum(1 for token in tokenize(text) if is_word(token))


def _unwrap_annotation_spans(root: etree._Element) -> None:
    for span in root.iter("span"):
        if "x-nc-sel" in (span.get("class") or ""):
            span.tag = _SPAN_TAG
    etree.strip_tags(root, _SPAN_TAG)


@dataclass
class LabelPrecision:
    """Word counts of one SiteLevel variant over the sites."""

    name: str
    template_words: int = 0
    not_content_words: int = 0  # of the template words, x-nc-sel0
    boilerplate_words: int = 0  # of the template words, x-nc-sel0 or related content
    all_not_content_words: int = 0
    per_site: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def precision(self) -> float:
        return self.not_content_words / self.template_words if self.template_words else 0.0

    @property
    def precision_boilerplate(self) -> float:
        return self.boilerplate_words / self.template_words if self.template_words else 0.0

    @property
    def recall(self) -> float:
        total = self.all_not_content_words
        return self.not_content_words / total if total else 0.0


#: The variants measured: (name, text_cover).
VARIANTS = (("paper (HTML cover)", None), ("+ text cover (filter default)", COVER))


def run_label_precision(sites: dict[str, list[Page]]) -> list[LabelPrecision]:
    """SiteLevel label precision and recall of each of :data:`VARIANTS` (see module doc)."""
    results = [LabelPrecision(name) for name, _ in VARIANTS]
    for site, pages in sites.items():
        annotated = [segment_annotated(annotated_html(l3s_root(), page.id)) for page in pages]
        trees = []
        for document in annotated:
            assert document.doc.root is not None
            _unwrap_annotation_spans(document.doc.root)
            trees.append(hash_tree(document.doc.root))
        templates = site_level(trees)
        for result, (_, text_cover) in zip(results, VARIANTS, strict=True):
            site_counts = [0, 0]
            for document, tree in zip(annotated, trees, strict=True):
                inside = mark_templates(tree, templates, text_cover=text_cover).inside
                positions = tree.positions()
                for block, pieces in zip(document.doc.blocks, document.pieces, strict=True):
                    spots = [positions.get(element) for element in block.elements]
                    is_template = bool(spots) and all(
                        spot is not None and inside[spot] for spot in spots
                    )
                    for label, text in pieces:
                        words = _words(text)
                        if label == L3SLabel.NOT_CONTENT:
                            result.all_not_content_words += words
                        if not is_template:
                            continue
                        result.template_words += words
                        site_counts[0] += words
                        if label == L3SLabel.NOT_CONTENT:
                            result.not_content_words += words
                            site_counts[1] += words
                        if label in (L3SLabel.NOT_CONTENT, L3SLabel.RELATED_CONTENT):
                            result.boilerplate_words += words
            result.per_site[site] = (site_counts[0], site_counts[1])
        print(f"  label precision: {site} ({len(pages)} pages)", file=sys.stderr)
    return results


def label_precision_markdown(results: list[LabelPrecision], sites: dict[str, list[Page]]) -> str:
    pages = sum(len(group) for group in sites.values())
    lines = [
        f"{len(sites)} sites, {pages} pages.",
        "",
        "| SiteLevel(0.10) variant | template words | precision (not content) |"
        " precision (not content + related) | recall of not-content words |",
        "|---|---:|---:|---:|---:|",
    ]
    for result in results:
        lines.append(
            f"| {result.name} | {result.template_words:,} | {result.precision:.3f} |"
            f" {result.precision_boilerplate:.3f} | {result.recall:.3f} |"
        )
    lines += ["", "Per site (paper variant): template words, precision.", ""]
    lines += ["| site | pages | template words | precision |", "|---|---:|---:|---:|"]
    for site, (words, correct) in results[0].per_site.items():
        precision = f"{correct / words:.3f}" if words else "-"
        lines.append(f"| {site} | {len(sites[site])} | {words:,} | {precision} |")
    return "\n".join(lines)


# -- crawl replay ---------------------------------------------------------------------------


@dataclass
class ReplayPage:
    site: str
    position: int  # 1-based
    with_states: dict[str, Counts]  # per variant (extractor with site state)
    without_state: Counts
    templates: int  # template hashes the page was extracted with

    @property
    def with_state(self) -> Counts:
        """The counts of the first variant."""
        return next(iter(self.with_states.values()))


def replay_site(
    site: str,
    pages: Sequence[tuple[bytes, str | None, str | None]],
    min_pages: int = MIN_PAGES,
    learn_from: Sequence[tuple[bytes, str | None]] = (),
    extractor: str = "article",
    variants: Mapping[str, Extractor] | None = None,
) -> list[ReplayPage]:
    """Extract ``pages`` (html, url, gold) in order as a crawl with site templates does: each
    with the context the crawl's :class:`SiteTemplateLearner` gives it, whose state holds the
    pages before it; ``learn_from`` pages (html, url) are met first and not scored.

    ``variants`` (name -> extractor with the ``site_templates`` option on; default
    ``extractor`` with it on) are each scored on every page; a page extracted without
    templates scores the same as ``extractor`` alone (it is extracted once)."""
    plain = get_extractor(extractor)
    with_site = variants or {"state": get_extractor(extractor, site_templates=True)}
    learner = SiteTemplateLearner(MemoryStore(), LearningConfig(min_pages=min_pages))
    rows: list[ReplayPage] = []
    scored = 0
    for html, url, gold in [(html, url, None) for html, url in learn_from] + list(pages):
        data = learner.site_data(url)
        context = ExtractionContext(site=site, site_data=data)
        alone = plain.extract(html, url, context=context)  # node hashes, no templates used
        learner.learn(url, alone.site_fingerprint)
        if gold is None:
            continue
        scored += 1
        templates = data.get(SITE_TEMPLATES_KEY)
        without = shingle_counts(gold, alone.text)
        states = {
            name: without
            if templates is None
            else shingle_counts(gold, variant.extract(html, url, context=context).text)
            for name, variant in with_site.items()
        }
        rows.append(ReplayPage(site, scored, states, without, len(templates) if templates else 0))
    return rows


#: The extractors the crawl replay runs: the default chain, and the templateness one whose
#: node scores the site evidence raises before smoothing.
REPLAY_EXTRACTORS: tuple[str, ...] = ("article", "page-template")


def run_replay(
    sites: dict[str, list[Page]], min_pages: int = MIN_PAGES, extractor: str = "article"
) -> list[ReplayPage]:
    rows: list[ReplayPage] = []
    for site, pages in sites.items():
        pages_of_site = [(p.html, p.url, p.gold_text) for p in pages]
        rows += replay_site(site, pages_of_site, min_pages, extractor=extractor)
    return rows


def demo_sites() -> tuple[
    dict[str, list[tuple[bytes, str | None, str | None]]], dict[str, list[tuple[bytes, str | None]]]
]:
    """The example project's demo sites: per host, its article pages in order (html, url,
    gold) and its listing and static pages (html, url), which a crawl meets first."""
    sys.path.insert(0, str(REPO / "example_project"))
    from demo_site.generator import build_pages

    pages, articles = build_pages()
    truth = {article.url: article.truth_text for article in articles}
    scored: dict[str, list[tuple[bytes, str | None, str | None]]] = {}
    learnt: dict[str, list[tuple[bytes, str | None]]] = {}
    for host in sorted({page.host for page in pages}):
        html_pages = [p for p in pages if p.host == host and p.content_type.startswith("text/html")]
        learnt[host] = [
            (p.body, f"http://{p.host}{p.path}") for p in html_pages if p.kind != "article"
        ]
        scored[host] = [
            (p.body, url, truth[url])
            for p in html_pages
            if p.kind == "article" and (url := f"http://{p.host}{p.path}") in truth
        ]
    return scored, learnt


def demo_replay(min_pages: int = MIN_PAGES, extractor: str = "article") -> list[ReplayPage]:
    """The replay on the example project's demo sites (:func:`demo_sites`)."""
    scored, learnt = demo_sites()
    rows: list[ReplayPage] = []
    for host, pages in scored.items():
        rows += replay_site(host, pages, min_pages, learn_from=learnt[host], extractor=extractor)
    return rows


def _f1(rows: Iterable[ReplayPage], state: Callable[[ReplayPage], Counts]) -> float:
    counts = [state(row) for row in rows]
    return benchmark_scores(counts).f1 if counts else float("nan")


def _with(row: ReplayPage) -> Counts:
    return row.with_state


def _without(row: ReplayPage) -> Counts:
    return row.without_state


@dataclass(frozen=True)
class ReplaySummary:
    name: str
    extractor: str
    sites: int
    pages: int
    first_f1: float  # position 1 (never any state)
    late_with: float  # positions >= 5, with the state of the earlier pages
    late_without: float  # the same pages, the extractor without site state
    worst_site: tuple[str, float]  # the site whose late pages lost most F1 with the state

    @property
    def gain(self) -> float:
        return self.late_with - self.late_without


def summarise(
    name: str,
    rows: list[ReplayPage],
    extractor: str = "article",
    late: int = 5,
    variant: str | None = None,
) -> ReplaySummary:
    """F1 of page 1 and of pages ``late`` onward, with ``variant``'s site state (default: the
    first) and without; the worst site by its late pages' gain."""
    state = _with if variant is None else _variant(variant)
    late_rows = [row for row in rows if row.position >= late]
    by_site: dict[str, list[ReplayPage]] = defaultdict(list)
    for row in late_rows:
        by_site[row.site].append(row)
    deltas = {site: _f1(g, state) - _f1(g, _without) for site, g in by_site.items()}
    worst = min(deltas.items(), key=lambda item: item[1]) if deltas else ("-", 0.0)
    return ReplaySummary(
        name,
        extractor,
        len({row.site for row in rows}),
        len(rows),
        _f1([row for row in rows if row.position == 1], state),
        _f1(late_rows, state),
        _f1(late_rows, _without),
        worst,
    )


def _variant(name: str) -> Callable[[ReplayPage], Counts]:
    def counts(row: ReplayPage) -> Counts:
        return row.with_states[name]

    return counts


def replay_markdown(summaries: list[ReplaySummary], curves: Mapping[str, list[ReplayPage]]) -> str:
    """The replay table, then F1 by position in the L3S-GN1 replay of each extractor."""
    lines = [
        "| pages | extractor | sites | pages scored | F1 page 1 | F1 pages >= 5, with site state |"
        " same pages, no state | gain | worst site (gain) |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|",
    ]
    for s in summaries:
        lines.append(
            f"| {s.name} | `{s.extractor}:site_templates=true` | {s.sites} | {s.pages} |"
            f" {s.first_f1:.3f} | {s.late_with:.3f} | {s.late_without:.3f} | {s.gain:+.3f} |"
            f" {s.worst_site[0]} ({s.worst_site[1]:+.3f}) |"
        )
    names = list(curves)
    lines += ["", "L3S-GN1 by position in the replay (pages at that position, F1 with / without"]
    lines += ["the state):", ""]
    lines.append("| position | pages | " + " | ".join(f"`{n}` with | alone" for n in names) + " |")
    lines.append("|---:|---:|" + "---:|---:|" * len(names))
    positions = sorted({row.position for rows in curves.values() for row in rows})
    for position in positions:
        cells = []
        for name in names:
            group = [row for row in curves[name] if row.position == position]
            cells.append(f"{_f1(group, _with):.3f} | {_f1(group, _without):.3f}")
        count = sum(1 for row in curves[names[0]] if row.position == position)
        lines.append(f"| {position} | {count} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def verdicts_markdown(precision: list[LabelPrecision], summaries: list[ReplaySummary]) -> str:
    """The acceptance lines: label precision >= 0.95; replay gain >= 0.01 with no site's late
    pages worse by more than 0.005."""
    paper = precision[0]
    lines = [
        f"* Label precision >= 0.95 (paper variant): **{_met(paper.precision >= 0.95)}** "
        f"({paper.precision:.3f})."
    ]
    for s in summaries:
        gain_met = s.gain >= 0.01
        literal_met = s.late_with - s.first_f1 >= 0.01
        no_loss = s.worst_site[1] >= -0.005
        lines.append(
            f"* Replay on {s.name}, `{s.extractor}`: pages >= 5 with the state beat the same "
            f"pages without it by {s.gain:+.3f} (>= 0.01: **{_met(gain_met)}**); against page 1 "
            f"of the sites "
            f"{s.late_with - s.first_f1:+.3f} (**{_met(literal_met)}**); no site worse by more "
            f"than 0.005: **{_met(no_loss)}** (worst {s.worst_site[1]:+.4f})."
        )
    return "\n".join(lines)


def _met(condition: bool) -> str:
    return "met" if condition else "not met"
