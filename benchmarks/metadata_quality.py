#!/usr/bin/env python
"""Article metadata against gold: publication date, authors and title, beside the specialists.

Scores this project's metadata (``extract(..., metadata=True)``: ``metadata.published``,
``metadata.authors`` and the result's ``title``) on WCXB-dev (gold ``publish_date``, ``author``,
``title``) and fundus (gold ``published``, ``authors``, ``title``), with htmldate
(``find_date``, ``original_date=True``), trafilatura (``extract_metadata``) and newspaper4k
(``Article.parse``) in the same run. Each field is scored on the pages whose gold has it:

* date, same day: the prediction is an ISO 8601 date (anything else counts as wrong) whose
  calendar day equals the gold's as written, or, both having a zone, in UTC; exact instant
  (pages whose gold has a time): both times within 60 s (wall clocks when either lacks a zone).
* authors: names split on ``,`` ``;`` ``&`` ``|`` and `` and ``, credentials (``PhD``,
  ``MS, RD``) dropped, accents and case folded; name F1 is the page's F1 of the sets of names
  (a name is its set of words), token F1 the F1 of the bags of words of all names.
* title: exact after Unicode (NFKC), whitespace and case normalisation; token F1 of words.

Figures are means over pages. Cost: median CPU milliseconds per page (``time.process_time``:
other processes on the machine do not count) of our metadata reader (``read_metadata``) and
of the title finder on the parsed, segmented page (the fastest of three runs per page);
peers' cost is their whole call (one run). ``--before REF`` also runs
the package as it was at the git commit ``REF`` (in a subprocess, from ``git archive``) so the
table shows before and after.

    python benchmarks/metadata_quality.py --before 57719bf --write-doc   # about 25 minutes
    python benchmarks/metadata_quality.py --limit 200                    # a quick look
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

if "--predict-ours" not in sys.argv:  # the package of an older commit may lack what it needs
    from run_benchmarks import DATASETS_ROOT, DOC, REPO, write_doc

DATASETS = ("wcxb-dev", "fundus")
PEERS = ("htmldate", "trafilatura", "newspaper4k")
SECTION = "metadata"
#: Our metadata and title are timed this many times per page; the fastest counts (the others
#: are the machine's noise: other processes, the garbage collector).
REPEATS = 3


# -- pages and gold ---------------------------------------------------------------------------


@dataclass
class Page:
    """One page and its gold (None or empty where the gold lacks a field)."""

    dataset: str
    page_id: str
    url: str | None
    page_type: str
    html: str
    title: str | None
    authors: list[str]
    published: str | None


def wcxb_pages(root: Path) -> Iterator[Page]:
    for path in sorted((root / "ground-truth").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        gold = data["ground_truth"]
        page_id = path.name.removesuffix(".json")
        html = gzip.decompress((root / "html" / f"{page_id}.html.gz").read_bytes())
        author = gold.get("author")
        yield Page(
            "wcxb-dev",
            page_id,
            data.get("url"),
            data["_internal"]["page_type"]["primary"],
            html.decode("utf-8", "replace"),
            gold.get("title"),
            [author] if author else [],
            gold.get("publish_date"),
        )


def fundus_pages(root: Path) -> Iterator[Page]:
    gold = json.loads((root / "ground-truth.json").read_text(encoding="utf-8"))
    for page_id in sorted(gold):
        entry = gold[page_id]
        html = gzip.decompress((root / "html" / f"{page_id}.html.gz").read_bytes())
        yield Page(
            "fundus",
            page_id,
            entry.get("url"),
            entry.get("page_type") or "article",
            html.decode("utf-8", "replace"),
            entry.get("title"),
            list(entry.get("authors") or []),
            entry.get("published"),
        )


def load_pages(limit: int | None, datasets_root: Path | None = None) -> list[Page]:
    readers: dict[str, Callable[[Path], Iterator[Page]]] = {
        "wcxb-dev": wcxb_pages,
        "fundus": fundus_pages,
    }
    pages: list[Page] = []
    for name, reader in readers.items():
        root = (datasets_root or DATASETS_ROOT) / name
        if not root.is_dir():
            print(f"skipped {name}: {root} not found", file=sys.stderr)
            continue
        for count, page in enumerate(reader(root)):
            if limit is not None and count >= limit:
                break
            pages.append(page)
    return pages


# -- systems ----------------------------------------------------------------------------------


@dataclass
class Prediction:
    """What one system says of one page; ``ms`` its cost, ``title_ms`` our title finder's."""

    title: str | None = None
    authors: list[str] = field(default_factory=list)
    published: str | None = None
    ms: float = 0.0
    title_ms: float | None = None


def ours(page: Page) -> Prediction:
    """Our values, by the steps of ``Extractor.extract``, with the metadata and title timed."""
    from scrapy_boilerplate import get_extractor
    from scrapy_boilerplate.page.metadata import read_metadata
    from scrapy_boilerplate.page.parsing import parse_html
    from scrapy_boilerplate.page.segmentation import segment

    extractor = get_extractor("article", metadata=True)
    doc = segment(parse_html(page.html), url=page.url)
    extractor.process(doc)
    anchor = next((b.element for b in doc.blocks if b.is_content and b.element is not None), None)
    find_title, memo_key = _find_title()
    metadata_ms, title_ms = [], []
    for _ in range(REPEATS):
        started = time.process_time()
        metadata = read_metadata(doc.root, doc.url, anchor=anchor)
        between = time.process_time()
        doc.memo.pop(memo_key, None)
        title = find_title(doc)
        metadata_ms.append((between - started) * 1000)
        title_ms.append((time.process_time() - between) * 1000)
    return Prediction(
        title, list(metadata.authors), metadata.published, min(metadata_ms), min(title_ms)
    )


def _find_title() -> tuple[Callable[[Any], str | None], str]:
    """The title finder ``extract`` reports with (``find_title`` before ``article_title``) and
    the key of its memo in ``doc.memo``."""
    from scrapy_boilerplate.extractors import title

    if hasattr(title, "article_title"):
        return title.article_title, "article_title"
    return title.find_title, "find_title"


def htmldate_peer(page: Page) -> Prediction:
    from htmldate import find_date

    started = time.process_time()
    found = find_date(page.html, url=page.url, original_date=True, extensive_search=True)
    return Prediction(published=found, ms=(time.process_time() - started) * 1000)


def trafilatura_peer(page: Page) -> Prediction:
    from trafilatura.metadata import extract_metadata

    started = time.process_time()
    found = extract_metadata(page.html, default_url=page.url)
    authors = [name.strip() for name in (found.author or "").split(";") if name.strip()]
    return Prediction(found.title, authors, found.date, (time.process_time() - started) * 1000)


def newspaper_peer(page: Page) -> Prediction:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from newspaper import Article

    started = time.process_time()
    article = Article(page.url or "https://example.com/", fetch_images=False)
    article.download(input_html=page.html)
    article.parse()
    published = article.publish_date
    text = published.isoformat() if isinstance(published, datetime) else None
    return Prediction(
        article.title or None, list(article.authors), text, (time.process_time() - started) * 1000
    )


SYSTEMS: dict[str, Callable[[Page], Prediction]] = {
    "ours": ours,
    "htmldate": htmldate_peer,
    "trafilatura": trafilatura_peer,
    "newspaper4k": newspaper_peer,
}


def predict(system: str, pages: Sequence[Page]) -> list[Prediction]:
    """``system``'s prediction of each page (an empty one when it fails)."""
    run = SYSTEMS[system]
    predictions = []
    for page in pages:
        try:
            predictions.append(run(page))
        except Exception as exc:  # a peer's failure is its empty answer, not the run's end
            print(f"{system} failed on {page.page_id}: {exc!r}", file=sys.stderr)
            predictions.append(Prediction())
    return predictions


def predict_before(ref: str, limit: int | None) -> list[Prediction]:
    """Our predictions with the package as of git commit ``ref`` (a subprocess)."""
    with tempfile.TemporaryDirectory() as work:
        archive = subprocess.run(
            ["git", "-C", str(REPO), "archive", ref, "scrapy_boilerplate"],
            check=True,
            capture_output=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", work], input=archive, check=True)
        output = Path(work) / "predictions.json"
        command = [sys.executable, __file__, "--predict-ours", str(output)]
        command += ["--datasets-root", str(DATASETS_ROOT)]
        if limit is not None:
            command += ["--limit", str(limit)]
        env = {"PYTHONPATH": work, "PATH": "/usr/bin:/bin"}
        subprocess.run(command, check=True, env=env)
        rows = json.loads(output.read_text(encoding="utf-8"))
    return [Prediction(**row) for row in rows]


# -- scoring ----------------------------------------------------------------------------------

_WORD = re.compile(r"\w+")
_SPACES = re.compile(r"\s+")
_NAME_SPLIT = re.compile(r"\s*(?:[,;&|]|\band\b|\bund\b|\by\b|\bet\b)\s*", re.IGNORECASE)
_CREDENTIALS = frozenset(
    (
        "phd",
        "md",
        "ms",
        "ma",
        "mba",
        "mph",
        "rd",
        "rn",
        "dds",
        "do",
        "jr",
        "sr",
        "ii",
        "iii",
        "cfa",
        "cpa",
        "esq",
        "bsc",
        "msc",
        "llm",
        "mfa",
    )
)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _is_credential(part: str) -> bool:
    words = [word for word in re.split(r"[\s.\-]+", part) if word]
    joined = part.replace(".", "").replace(" ", "").lower()
    return joined in _CREDENTIALS or all(
        word.lower() in _CREDENTIALS or word.isdigit() or (word.isupper() and len(word) <= 5)
        for word in words
    )


def names(values: Sequence[str]) -> list[frozenset[str]]:
    """Normalised names: each value split into names, credentials dropped (unless every part
    of the value looks like one: "JWU" alone is a name), words folded."""
    found = []
    for value in values:
        parts = [part.strip() for part in _NAME_SPLIT.split(value or "") if part.strip()]
        named = [part for part in parts if not _is_credential(part)] or parts
        for part in named:
            words = frozenset(_WORD.findall(_fold(part)))
            if words and words not in found:
                found.append(words)
    return found


def f1(predicted: Sequence[Any], gold: Sequence[Any]) -> float:
    """F1 of two bags (lists; duplicates count)."""
    if not predicted or not gold:
        return 0.0
    remaining = list(gold)
    common = 0
    for item in predicted:
        if item in remaining:
            remaining.remove(item)
            common += 1
    return 2 * common / (len(predicted) + len(gold)) if common else 0.0


def author_scores(predicted: Sequence[str], gold: Sequence[str]) -> tuple[float, float]:
    """(name F1, token F1) of a page."""
    predicted_names, gold_names = names(predicted), names(gold)
    predicted_words = [word for name in predicted_names for word in sorted(name)]
    gold_words = [word for name in gold_names for word in sorted(name)]
    return f1(predicted_names, gold_names), f1(predicted_words, gold_words)


def _normal_title(text: str | None) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text or "")).strip().casefold()


def title_scores(predicted: str | None, gold: str) -> tuple[float, float]:
    """(exact, token F1) of a page."""
    exact = float(bool(predicted) and _normal_title(predicted) == _normal_title(gold))
    words = _WORD.findall
    return exact, f1(words(_normal_title(predicted)), words(_normal_title(gold)))


def parse_iso(text: str | None) -> datetime | date | None:
    """An ISO 8601 date or date-time, else None."""
    if not text:
        return None
    text = text.strip()
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def _days(value: datetime | date) -> set[date]:
    if not isinstance(value, datetime):
        return {value}
    days = {value.date()}
    if value.tzinfo is not None:
        days.add(value.astimezone(timezone.utc).date())
    return days


def date_scores(predicted: str | None, gold: str) -> tuple[float, float | None]:
    """(same day, exact instant or None when the gold has no time) of a page."""
    gold_value, value = parse_iso(gold), parse_iso(predicted)
    if gold_value is None:
        return 0.0, None
    has_time = isinstance(gold_value, datetime)
    if value is None:
        return 0.0, 0.0 if has_time else None
    both_zoned = (
        isinstance(value, datetime)
        and isinstance(gold_value, datetime)
        and value.tzinfo is not None
        and gold_value.tzinfo is not None
    )
    if both_zoned:
        assert isinstance(value, datetime) and isinstance(gold_value, datetime)
        same_day = value.astimezone(timezone.utc).date() == gold_value.astimezone(
            timezone.utc
        ).date() or (value.date() == gold_value.date())
    else:
        same_day = bool(_days(value) & _days(gold_value))
    if not has_time:
        return float(same_day), None
    assert isinstance(gold_value, datetime)
    if not isinstance(value, datetime):
        return float(same_day), 0.0
    if not both_zoned:
        value, gold_value = value.replace(tzinfo=None), gold_value.replace(tzinfo=None)
    return float(same_day), float(abs((value - gold_value).total_seconds()) <= 60)


METRICS = (
    ("date_day", "date, same day"),
    ("date_instant", "date, exact instant (gold with a time)"),
    ("author_names", "authors, name F1"),
    ("author_tokens", "authors, token F1"),
    ("title_exact", "title, exact"),
    ("title_tokens", "title, token F1"),
)


def page_scores(page: Page, prediction: Prediction) -> dict[str, float]:
    """The page's score per metric it has gold for."""
    scores: dict[str, float] = {}
    if page.published:
        day, instant = date_scores(prediction.published, page.published)
        scores["date_day"] = day
        if instant is not None:
            scores["date_instant"] = instant
    if names(page.authors):
        scores["author_names"], scores["author_tokens"] = author_scores(
            prediction.authors, page.authors
        )
    if page.title and page.title.strip():
        scores["title_exact"], scores["title_tokens"] = title_scores(prediction.title, page.title)
    return scores


# -- tables -----------------------------------------------------------------------------------


def mean_scores(
    pages: Sequence[Page], predictions: Sequence[Prediction], keep: Callable[[Page], bool]
) -> dict[str, tuple[float, int]]:
    """metric -> (mean, pages) over the pages ``keep`` selects."""
    collected: dict[str, list[float]] = defaultdict(list)
    for page, prediction in zip(pages, predictions, strict=True):
        if keep(page):
            for metric, value in page_scores(page, prediction).items():
                collected[metric].append(value)
    return {metric: (statistics.fmean(values), len(values)) for metric, values in collected.items()}


def _cell(scores: dict[str, tuple[float, int]], metric: str, applies: bool) -> str:
    return f"{scores[metric][0]:.3f}" if applies and metric in scores else "—"


_FIELDS_OF = {
    "ours": {"date", "author", "title"},
    "ours (before)": {"date", "author", "title"},
    "htmldate": {"date"},
    "trafilatura": {"date", "author", "title"},
    "newspaper4k": {"date", "author", "title"},
}
_DAY_ONLY = {"htmldate", "trafilatura"}


def _applies(system: str, metric: str) -> bool:
    if metric == "date_instant" and system in _DAY_ONLY:
        return False
    return metric.split("_")[0] in _FIELDS_OF[system]


def dataset_table(
    dataset: str, pages: Sequence[Page], runs: dict[str, list[Prediction]]
) -> list[str]:
    """Rows: metrics; columns: systems."""
    keep = lambda page: page.dataset == dataset  # noqa: E731
    scored = {name: mean_scores(pages, predictions, keep) for name, predictions in runs.items()}
    count = sum(map(keep, pages))
    systems = list(runs)
    lines = [
        f"### {dataset} ({count} pages)",
        "",
        "| field | pages with gold | " + " | ".join(f"`{s}`" for s in systems) + " |",
        "|---|---:|" + "---:|" * len(systems),
    ]
    for metric, label in METRICS:
        gold_pages = max(scores.get(metric, (0.0, 0))[1] for scores in scored.values())
        cells = [_cell(scored[s], metric, _applies(s, metric)) for s in systems]
        lines.append(f"| {label} | {gold_pages} | " + " | ".join(cells) + " |")
    lines.append(cost_row(pages, runs, keep))
    return lines


def cost_row(
    pages: Sequence[Page], runs: dict[str, list[Prediction]], keep: Callable[[Page], bool]
) -> str:
    cells = []
    for predictions in runs.values():
        costs = [p.ms for page, p in zip(pages, predictions, strict=True) if keep(page)]
        titles = [
            p.title_ms
            for page, p in zip(pages, predictions, strict=True)
            if keep(page) and p.title_ms is not None
        ]
        cell = f"{statistics.median(costs):.2f}" if costs else "—"
        if titles:
            cell += f" (+ title {statistics.median(titles):.2f})"
        cells.append(cell)
    return "| cost, CPU ms/page (median) | | " + " | ".join(cells) + " |"


def page_type_table(
    dataset: str, pages: Sequence[Page], runs: dict[str, list[Prediction]]
) -> list[str]:
    """Rows: page types; columns: date, author token F1 and title exact per system."""
    types = sorted({page.page_type for page in pages if page.dataset == dataset})
    if len(types) < 2:
        return []
    metrics = (("date_day", "date"), ("author_tokens", "author F1"), ("title_exact", "title"))
    header = [f"{label} `{s}`" for metric, label in metrics for s in runs if _applies(s, metric)]
    lines = [
        f"### {dataset} by page type (date same day, authors token F1, title exact; "
        "pages with gold date / authors / title)",
        "",
        "| page type | pages | " + " | ".join(header) + " |",
        "|---|---:|" + "---:|" * len(header),
    ]
    for page_type in types:
        keep = lambda page, t=page_type: page.dataset == dataset and page.page_type == t  # noqa: E731
        scored = {name: mean_scores(pages, predictions, keep) for name, predictions in runs.items()}
        any_scores = next(iter(scored.values()))
        counts = "/".join(str(any_scores.get(m, (0, 0))[1]) for m, _ in metrics)
        cells = [
            _cell(scored[s], metric, True)
            for metric, _ in metrics
            for s in runs
            if _applies(s, metric)
        ]
        lines.append(f"| {page_type} | {counts} | " + " | ".join(cells) + " |")
    return lines


def report(pages: Sequence[Page], runs: dict[str, list[Prediction]], command: str) -> str:
    lines = [
        "## Article metadata against gold",
        "",
        f"Generated {date.today().isoformat()} by `{command}` "
        f"(Python {sys.version.split()[0]}). "
        "Means over the pages whose gold has the field (see the script's docstring for the "
        "normalisation); a date that is not ISO 8601 counts as wrong. htmldate and trafilatura "
        "give days only (no instant). `ours (before)` is the package at the commit named in the "
        "command, run from its sources without the compiled speedups (same outputs, pure-Python "
        "cost: its cost row is not comparable with ours). Cost: CPU time of our metadata "
        "reader (+ our title finder) on the parsed page; a peer's whole call.",
        "",
    ]
    for dataset in DATASETS:
        if any(page.dataset == dataset for page in pages):
            lines += [*dataset_table(dataset, pages, runs), ""]
            by_type = page_type_table(dataset, pages, runs)
            lines += by_type + ([""] if by_type else [])
    return "\n".join(lines).rstrip() + "\n"


# -- main -------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="first N pages of each dataset")
    parser.add_argument("--before", metavar="REF", help="also run ours as of this git commit")
    parser.add_argument("--peers", nargs="*", default=list(PEERS), choices=PEERS)
    parser.add_argument("--write-doc", action="store_true", help="update docs/benchmarks.md")
    parser.add_argument("--dump", type=Path, help="write every page's predictions (JSON)")
    parser.add_argument("--predict-ours", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--datasets-root", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    pages = load_pages(args.limit, args.datasets_root)
    if not pages:
        print("no datasets found", file=sys.stderr)
        return 2
    if args.predict_ours:
        rows = [asdict(p) for p in predict("ours", pages)]
        args.predict_ours.write_text(json.dumps(rows), encoding="utf-8")
        return 0
    runs: dict[str, list[Prediction]] = {}
    if args.before:
        runs["ours (before)"] = predict_before(args.before, args.limit)
    runs["ours"] = predict("ours", pages)
    for peer in args.peers:
        runs[peer] = predict(peer, pages)
    command = "python benchmarks/metadata_quality.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    text = report(pages, runs, command.strip())
    print(text)
    if args.dump:
        dump = {
            name: {
                f"{page.dataset}/{page.page_id}": asdict(prediction)
                for page, prediction in zip(pages, predictions, strict=True)
            }
            for name, predictions in runs.items()
        }
        args.dump.write_text(json.dumps(dump, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.write_doc:
        write_doc(DOC, {SECTION: text})
    return 0


if __name__ == "__main__":
    sys.exit(main())
