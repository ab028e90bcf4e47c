"""Regenerate ``docs/reproduction.md`` and ``docs/img/*.png``.

Usage (from the repository root, with the ``eval`` extra installed)::

    python -m benchmarks.reproduce [--skip-svm] [--limit N]

Needs the datasets under ``../shared/datasets`` (or ``$BOILERPLATE_DATASETS``); takes about
14 minutes on one core (`python -m benchmarks.reproduce.isotonic` regenerates its
section 5 alone, about 10 minutes).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

from scrapy_boilerplate.evaluation.datasets import Page, load_pages
from scrapy_boilerplate.evaluation.l3s import annotated_html

from .data import DATASETS_ROOT, l3s_root, labelled_blocks
from .grandparent import grandparent_markdown, run_grandparent
from .isotonic import isotonic_markdown, run_isotonic
from .notes import NOTES, SITELEVEL_NOTES, VICTOR_NOTES
from .section5 import PAPER_MIXED, PAPER_SIMPLE, density_words, fit_models, plot_figures
from .sitelevel import (
    REPLAY_EXTRACTORS,
    demo_replay,
    label_precision_markdown,
    replay_markdown,
    run_label_precision,
    run_replay,
    sites_of,
    summarise,
    verdicts_markdown,
)
from .strategies import run_strategies, strategies_markdown
from .table2 import run_table2, table2_markdown
from .victor import run_victor

REPO = Path(__file__).resolve().parents[2]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skip-svm", action="store_true", help="leave out the SMO row")
    parser.add_argument("--limit", type=int, default=None, help="use only the first N pages")
    parser.add_argument("--output", type=Path, default=REPO / "docs" / "reproduction.md")
    parser.add_argument(
        "--only",
        choices=("victor", "sitelevel"),
        help="regenerate only this section of the existing file (victor: about 20 minutes)",
    )
    args = parser.parse_args(argv)
    if args.only == "victor":
        return _victor_only(args.output)
    if not (l3s_root() / "annotated").is_dir():
        print(f"L3S-GN1 not found under {DATASETS_ROOT}", file=sys.stderr)
        return 2
    if args.only == "sitelevel":
        return _sitelevel_only(args.output, args.limit)
    started = time.time()
    sections: dict[str, str] = {}

    data = labelled_blocks(args.limit)
    print(f"labelled {len(data.words)} blocks in {time.time() - started:.0f}s", file=sys.stderr)
    rows = run_table2(data, skip_svm=args.skip_svm)
    sections["table2_2"] = table2_markdown(rows, 2)
    sections["table2_4"] = table2_markdown(rows, 4)
    print(f"table 2 done at {time.time() - started:.0f}s", file=sys.stderr)

    simple, mixed = fit_models(data)
    images = plot_figures(data, mixed, args.output.parent / "img")
    by_words, by_density = density_words(data)
    sections["section5"] = "\n".join(
        [
            "| Model | Parameter | ours | paper |",
            "|---|---|---:|---:|",
            f"| simple (Eq. 2) | P_T(N) | {simple.params['p_t_n']:.4f} | {PAPER_SIMPLE['p_t_n']} |",
            f"| simple (Eq. 2) | R²adj % | {simple.r2_adj:.2f} | {PAPER_SIMPLE['r2_adj']} |",
            f"| simple (Eq. 2) | RMSE | {simple.rmse:.4f} | 0.0046 |",
            f"| mixed (Eq. 3) | P_N(S) | {mixed.params['p_n_s']:.4f} | {PAPER_MIXED['p_n_s']} |",
            f"| mixed (Eq. 3) | P_S(N) | {mixed.params['p_s_n']:.4f} | {PAPER_MIXED['p_s_n']} |",
            f"| mixed (Eq. 3) | P_L(N) | {mixed.params['p_l_n']:.5f} | {PAPER_MIXED['p_l_n']} |",
            f"| mixed (Eq. 3) | R²adj % | {mixed.r2_adj:.2f} | {PAPER_MIXED['r2_adj']} |",
            f"| mixed (Eq. 3) | RMSE | {mixed.rmse:.4f} | 0.0027 |",
            f"| mixed (Eq. 3) | mean short / long block (words) | {1 / mixed.params['p_s_n']:.2f}"
            f" / {1 / mixed.params['p_l_n']:.2f} | 2.52 / 22.89 |",
            f"| §5.1 | words in blocks with ≥ 11 words | {by_words:,} | 345,175 |",
            f"| §5.1 | words in blocks with text density ≥ 11 | {by_density:,} | 358,428 |",
            f"| Table 1 | blocks / words | {len(data.words):,} / {int(data.words.sum()):,} |"
            " 72,662 / 520,483 |",
            "",
            *(f"![{path.stem}](img/{path.name})" for path in images),
        ]
    )
    print(f"section 5 done at {time.time() - started:.0f}s", file=sys.stderr)

    pages = list(load_pages(l3s_root(), limit=args.limit))
    annotated = [
        dataclasses.replace(page, html=annotated_html(l3s_root(), page.id)) for page in pages
    ]
    sections["strategies"] = strategies_markdown(run_strategies(pages))
    sections["strategies_annotated"] = strategies_markdown(run_strategies(annotated))
    print(f"strategies done at {time.time() - started:.0f}s", file=sys.stderr)

    results = [run_grandparent("L3S-GN1", pages)]
    wcxb = DATASETS_ROOT / "wcxb-dev"
    if wcxb.is_dir():
        articles = list(load_pages(wcxb, limit=args.limit, page_type="article"))
        results.append(run_grandparent("WCXB-dev articles", articles))
    sections["grandparent"] = grandparent_markdown(results)
    print(f"grandparent done at {time.time() - started:.0f}s", file=sys.stderr)

    sections["isotonic"] = isotonic_markdown(run_isotonic(args.limit))
    print(f"isotonic done at {time.time() - started:.0f}s", file=sys.stderr)

    sections["sitelevel_section"] = _sitelevel_section(pages)
    print(f"sitelevel done at {time.time() - started:.0f}s", file=sys.stderr)

    sections["victor_section"] = _victor_section()
    text = NOTES.format(**sections, limit="all" if args.limit is None else args.limit)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text, encoding="utf-8")
    print(f"wrote {args.output} in {time.time() - started:.0f}s", file=sys.stderr)
    return 0


def _log(message: str) -> None:
    print(message, file=sys.stderr)


def _victor_section() -> str:
    """Section 7 (Victor), or a note that its datasets are missing."""
    if not (DATASETS_ROOT / "cleaneval" / "dev").is_dir():
        return "## 7. Marek 2007 (Victor)\n\nCleanEval not found; section not generated.\n"
    return VICTOR_NOTES.format(**run_victor(DATASETS_ROOT, _log))


def _sitelevel_section(pages: list[Page]) -> str:
    """Section 6: SiteLevel label precision and the crawl replays (L3S-GN1, demo sites)."""
    sites = sites_of(pages)
    precision = run_label_precision(sites)
    curves = {name: run_replay(sites, extractor=name) for name in REPLAY_EXTRACTORS}
    summaries = [summarise("L3S-GN1", curves[name], name) for name in REPLAY_EXTRACTORS]
    summaries += [
        summarise("demo news sites", demo_replay(extractor=name), name)
        for name in REPLAY_EXTRACTORS
    ]
    return SITELEVEL_NOTES.format(
        sitelevel_precision=label_precision_markdown(precision, sites),
        sitelevel_replay=replay_markdown(summaries, curves),
        sitelevel_verdicts=verdicts_markdown(precision, summaries),
    )


def _sitelevel_only(output: Path, limit: int | None) -> int:
    """Replace section 6 of ``output`` (up to section 7's heading) with a fresh one."""
    text = output.read_text(encoding="utf-8")
    start, end = "## 6. Chakrabarti", "## 7. Marek 2007"
    if start not in text or end not in text:
        _log(f"{output} has no section 6 to replace: run without --only")
        return 2
    before, rest = text.split(start, 1)
    after = rest[rest.index(end) :]
    section = _sitelevel_section(list(load_pages(l3s_root(), limit=limit)))
    output.write_text(before + section + "\n\n" + after, encoding="utf-8")
    _log(f"wrote section 6 of {output}")
    return 0


def _victor_only(output: Path) -> int:
    """Replace section 7 of ``output`` (from its heading to the end) with a fresh one."""
    text = output.read_text(encoding="utf-8")
    heading = "## 7. Marek 2007"
    kept = text[: text.index(heading)] if heading in text else text.rstrip("\n") + "\n\n"
    output.write_text(kept + _victor_section(), encoding="utf-8")
    _log(f"wrote section 7 of {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
