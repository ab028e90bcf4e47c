"""Reproduction of Viveros-Jiménez et al. 2018, Tables 1 and 2 (grandparent filter).

The paper filters Boilerpipe's highlighted text nodes; here the reference ArticleExtractor
(``boilerpipe-article``) runs on a page, every atomic block whose element belongs to one of its
content blocks is selected, and :class:`AncestorGroupingFilter` (``min_share = 0``, the paper's
plain rule) keeps the group of the n-th ancestor with the most text. Scores are character level
(:func:`scrapy_boilerplate.evaluation.metrics.character_counts`), mean over pages.
"""

from __future__ import annotations

from dataclasses import dataclass

from scrapy_boilerplate.errors import BoilerplateError
from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.evaluation.metrics import Counts, character_counts, mean_page_scores
from scrapy_boilerplate.extractors import get_extractor
from scrapy_boilerplate.filters.tree import AncestorGroupingFilter
from scrapy_boilerplate.page.parsing import parse_html
from scrapy_boilerplate.page.segmentation import segment

DEPTHS = (1, 2, 3, 4, 5)
#: Paper Table 2 (English) P, R, F by depth and Table 1 (English) P, R, F.
PAPER_DEPTHS = {
    1: (0.96, 0.82, 0.89),
    2: (0.95, 0.84, 0.89),
    3: (0.90, 0.88, 0.89),
    4: (0.87, 0.88, 0.87),
    5: (0.85, 0.89, 0.87),
}
PAPER_TABLE1 = {
    "Boilerpipe": (0.76, 0.92, 0.83),
    "jusText": (0.85, 0.84, 0.84),
    "Boilerpipe + grandparent filter": (0.95, 0.84, 0.89),
}


@dataclass
class GrandparentResult:
    dataset: str
    pages: int
    scores: dict[str, tuple[float, float, float]]


def _predictions(page: Page) -> dict[str, str]:
    """Boilerpipe text and the filtered text at every depth for one page."""
    root = parse_html(page.html)
    fused = segment(root, url=page.url)
    get_extractor("boilerpipe-article").process(fused)
    selected = {
        id(element) for block in fused.blocks if block.is_content for element in block.elements
    }
    out = {"Boilerpipe": fused.content_text}
    for depth in DEPTHS:
        atomic = segment(root, url=page.url)
        for block in atomic.blocks:
            block.is_content = block.element is not None and id(block.element) in selected
        AncestorGroupingFilter(depth, 0.0)(atomic)
        out[f"depth {depth}"] = atomic.content_text
    return out


def _justext(page: Page) -> str | None:
    try:
        import justext
    except ImportError:
        return None
    try:
        paragraphs = justext.justext(page.html, justext.get_stoplist("English"))
    except Exception:
        return ""
    return "\n".join(p.text for p in paragraphs if not p.is_boilerplate)


def run_grandparent(dataset: str, pages: list[Page]) -> GrandparentResult:
    counts: dict[str, list[Counts]] = {}
    for page in pages:
        try:
            predictions = _predictions(page)
        except BoilerplateError:
            predictions = {"Boilerpipe": "", **{f"depth {d}": "" for d in DEPTHS}}
        justext_text = _justext(page)
        if justext_text is not None:
            predictions["jusText"] = justext_text
        for name, text in predictions.items():
            counts.setdefault(name, []).append(character_counts(page.gold_text, text))
    scores = {}
    for name, page_counts in counts.items():
        s = mean_page_scores(page_counts)
        scores[name] = (s.precision, s.recall, s.f1)
    return GrandparentResult(dataset, len(pages), scores)


def _fmt(values: tuple[float, float, float]) -> str:
    return " | ".join(f"{v:.2f}" for v in values)


def grandparent_markdown(results: list[GrandparentResult]) -> str:
    head = (
        "| Ancestor depth | "
        + " | ".join(f"{r.dataset} P | R | F" for r in results)
        + " | paper (English) P | R | F |"
    )
    lines = [head, "|---" * (1 + 3 * len(results) + 3) + "|"]
    for depth in DEPTHS:
        cells = " | ".join(_fmt(r.scores[f"depth {depth}"]) for r in results)
        lines.append(f"| {depth} | {cells} | {_fmt(PAPER_DEPTHS[depth])} |")
    lines.append("")
    lines.append(
        "| Approach | "
        + " | ".join(f"{r.dataset} P | R | F" for r in results)
        + " | paper (English) P | R | F |"
    )
    lines.append("|---" * (1 + 3 * len(results) + 3) + "|")
    for name, key in (
        ("Boilerpipe", "Boilerpipe"),
        ("jusText", "jusText"),
        ("Boilerpipe + grandparent filter", "depth 2"),
    ):
        if not all(key in r.scores for r in results):
            continue
        cells = " | ".join(_fmt(r.scores[key]) for r in results)
        lines.append(f"| {name} | {cells} | {_fmt(PAPER_TABLE1[name])} |")
    return "\n".join(lines)
