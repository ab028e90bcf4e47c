"""The ``scrapy-boilerplate`` command line.

``extract FILE|-`` prints a page's title and article text (``--metadata`` adds a ``name: value``
line per metadata field the page has, after the title); ``--format markdown`` prints Markdown
under the title (``--metadata``: front matter), ``--format html`` a clean HTML page,
``--format json`` (or ``--json``) the full result; ``--highlight OUT.html`` also writes the page
with its blocks marked; ``--cleaneval`` reads a CleanEval input and prints the CleanEval format
(``<p>``/``<h>``/``<l>`` segments) unless another format is asked for. ``extract-dir DIR --out
PRED.json`` runs an extractor over a dataset folder (``DIR/html/<id>.html[.gz]``) and writes
``{"<id>": {"articleBody": ..., "headline": ...}}`` (``--format markdown|html``: the body in
that format); ``extract-warc FILE.warc.gz ... --out
PAGES.jsonl`` extracts the HTML responses of WARC files (the ``[warc]`` extra), one JSON line
per page, and prints a summary (:mod:`scrapy_boilerplate.batch`).

More subcommands come from the ``scrapy_boilerplate.commands`` entry point group (``evaluate``
is one): each entry point names a function ``add(subparsers)`` that adds its subcommand. A
plugin is imported only when its subcommand runs, or for ``--help``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from .errors import BoilerplateError
from .extractors import available_extractors, get_extractor, get_spec
from .model.metadata import ArticleMetadata
from .model.result import ExtractionResult
from .output.cleaneval import cleaneval_document
from .output.documents import FORMAT_OPTIONS, OUTPUT_FORMATS, html_document, markdown_document
from .output.highlight import highlight_html
from .output.stdout import run_printing
from .page.cleaneval import cleaneval_page_html
from .page.files import html_files, read_html
from .page.responses import DEFAULT_MAX_BODY_SIZE

if TYPE_CHECKING:
    from .batch.run import Failure

__all__ = ["main", "build_parser", "read_page", "COMMANDS_GROUP"]

#: Entry point group of the subcommands other packages (or stages) add.
COMMANDS_GROUP = "scrapy_boilerplate.commands"


def read_page(path: str) -> bytes:
    """Read a page from a file (``.gz`` is decompressed) or from standard input (``-``)."""
    if path == "-":
        return sys.stdin.buffer.read()
    return read_html(Path(path))


def _parse_option(text: str) -> tuple[str, Any]:
    name, sep, value = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def _add_extractor_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--extractor", default="article", help="extractor name (default: article)")
    parser.add_argument(
        "-o",
        "--option",
        action="append",
        type=_parse_option,
        default=[],
        metavar="NAME=VALUE",
        help="extractor option, e.g. -o ancestor_depth=3 (repeatable)",
    )


def _cmd_extract(args: argparse.Namespace) -> int:
    output = _output_format(args)
    options = {**dict(args.option), **FORMAT_OPTIONS[output]}
    if output in ("json", "html") or args.metadata:  # the html page gives the language
        options.setdefault("metadata", True)
    extractor = get_extractor(args.extractor, **options)
    if args.highlight and len(args.files) != 1:
        raise ValueError("--highlight takes exactly one FILE")
    status = 0
    for path in args.files:
        url = args.url or (None if path == "-" else Path(path).resolve().as_uri())
        try:
            page = read_page(path)
            if args.cleaneval:
                page, wrapped_url = cleaneval_page_html(page)
                url = args.url or wrapped_url or url
            result = extractor.extract(page, url)
        except (OSError, BoilerplateError) as exc:
            print(f"scrapy-boilerplate: {path}: {exc}", file=sys.stderr)
            status = 1
            continue
        if args.highlight:
            base = None if url is None or url.startswith("file:") else url
            Path(args.highlight).write_text(highlight_html(result, page, base), encoding="utf-8")
        _print_result(result, output, args, url)
    return status


def _output_format(args: argparse.Namespace) -> str:
    """``--format``, or ``json`` for ``--json`` (the two must agree)."""
    if args.json and args.format not in (None, "json"):
        raise ValueError(f"--json contradicts --format {args.format}")
    return "json" if args.json else (args.format or "text")


def _print_result(
    result: ExtractionResult, output: str, args: argparse.Namespace, url: str | None
) -> None:
    if output == "json":
        print(json.dumps(result.to_dict(include_blocks=not args.no_blocks), ensure_ascii=False))
    elif output == "markdown":
        print(markdown_document(result, front_matter=args.metadata))
    elif output == "html":
        print(html_document(result))
    elif args.cleaneval:
        sys.stdout.write(cleaneval_document(result.blocks, url))
    else:
        print(result.title or "")
        if args.metadata:
            _print_metadata(result.metadata)
        print()
        print(result.text)


def _print_metadata(metadata: ArticleMetadata | None) -> None:
    """One ``name: value`` line per field with a value (authors joined by ``; ``)."""
    for name, value in (metadata.to_dict() if metadata else {}).items():
        if value:
            print(f"{name}: {'; '.join(value) if isinstance(value, list) else value}")


def _extract_one(job: tuple[str, str, str, dict[str, Any], str]) -> tuple[str, dict[str, Any]]:
    page_id, path, name, options, output = job
    try:
        result = get_extractor(name, **options).extract(read_page(path))
    except (OSError, BoilerplateError) as exc:
        return page_id, {"articleBody": "", "headline": None, "error": str(exc)}
    body = {"markdown": result.markdown, "html": result.html}.get(output, result.text)
    return page_id, {"articleBody": body or "", "headline": result.title}


def _progress(items: Iterator[Any], total: int, enabled: bool) -> Iterator[Any]:
    if not enabled:
        return items
    from tqdm import tqdm

    return iter(tqdm(items, total=total, unit="page"))


def _cmd_extract_dir(args: argparse.Namespace) -> int:
    options = {**dict(args.option), **FORMAT_OPTIONS[args.format]}
    get_extractor(args.extractor, **options)  # fail fast on a bad name or option
    jobs = [
        (pid, str(path), args.extractor, options, args.format)
        for pid, path in html_files(Path(args.directory)).items()
    ]
    show = sys.stderr.isatty() and not args.quiet
    predictions: dict[str, dict[str, Any]] = {}
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = pool.map(_extract_one, jobs, chunksize=8)
            for page_id, prediction in _progress(results, len(jobs), show):
                predictions[page_id] = prediction
    else:
        for page_id, prediction in _progress(map(_extract_one, jobs), len(jobs), show):
            predictions[page_id] = prediction
    Path(args.out).write_text(
        json.dumps(predictions, ensure_ascii=False, indent=1), encoding="utf-8"
    )
    errors = sum(1 for p in predictions.values() if "error" in p)
    print(f"{len(predictions)} pages, {errors} errors -> {args.out}", file=sys.stderr)
    return 0


def _default_jobs() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


@contextlib.contextmanager
def _output(path: str) -> Iterator[TextIO]:
    """The output file (UTF-8), or standard output for ``-``."""
    if path == "-":
        yield sys.stdout
        return
    with open(path, "w", encoding="utf-8") as handle:
        yield handle


@contextlib.contextmanager
def _byte_progress(total: int, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    """A progress bar over ``total`` file bytes on standard error, as a callback taking the bytes
    read since its last call; None when disabled."""
    if not enabled:
        yield None
        return
    from tqdm import tqdm

    with tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, leave=False) as bar:

        def advance(count: int) -> None:
            bar.update(count)

        yield advance


#: Failed pages named on standard error; the others are only counted.
_FAILURES_SHOWN = 5


def _cmd_extract_warc(args: argparse.Namespace) -> int:
    try:
        from .batch.run import WarcRun, extract_warcs
    except ModuleNotFoundError as exc:
        if exc.name != "warcio":
            raise
        print(
            "scrapy-boilerplate: extract-warc needs warcio: pip install 'scrapy-boilerplate[warc]'",
            file=sys.stderr,
        )
        return 2
    options = dict(args.option)
    get_extractor(args.extractor, **options)  # fail fast on a bad name or option
    if args.jobs < 1 or args.max_body_size < 1:
        raise ValueError("--jobs and --max-body-size take a positive number")
    paths = [Path(name) for name in args.files]
    run = WarcRun(args.extractor, options, args.jobs, args.max_body_size, args.sniff_text)
    total = sum(path.stat().st_size for path in paths if path.is_file())
    try:
        with _output(args.out) as out, _byte_progress(total, _show_progress(args)) as progress:
            summary = extract_warcs(
                paths, out, run, progress=progress, on_failure=_failure_reporter()
            )
    except KeyboardInterrupt:
        print("scrapy-boilerplate: interrupted", file=sys.stderr)
        return 130
    except (OSError, BoilerplateError) as exc:
        print(f"scrapy-boilerplate: error: {exc}", file=sys.stderr)
        return 1
    for line in [*(f"scrapy-boilerplate: {e}" for e in summary.file_errors), *summary.lines()]:
        print(line, file=sys.stderr)
    return 1 if summary.file_errors else 0


def _failure_reporter() -> Callable[[Failure], None]:
    """A callback that names the first :data:`_FAILURES_SHOWN` failed pages on stderr."""
    shown = 0

    def report(failure: Failure) -> None:
        nonlocal shown
        if shown < _FAILURES_SHOWN:
            shown += 1
            print(
                f"scrapy-boilerplate: {failure.url}: {failure.reason}: {failure.message}",
                file=sys.stderr,
            )

    return report


def _show_progress(args: argparse.Namespace) -> bool:
    return sys.stderr.isatty() and not args.quiet


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser with its subcommands (plugins: those ``argv`` needs, see above)."""
    parser = argparse.ArgumentParser(prog="scrapy-boilerplate", description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)

    extract = commands.add_parser("extract", help="print the title and article text of pages")
    extract.add_argument(
        "files", nargs="+", metavar="FILE", help="HTML file (.gz ok) or - for stdin"
    )
    extract.add_argument("--url", help="the page's URL")
    extract.add_argument(
        "--format",
        choices=OUTPUT_FORMATS,
        help="text (default: title, blank line, text), markdown (under a # title heading),"
        " html (a clean page) or json (the full result)",
    )
    extract.add_argument("--json", action="store_true", help="the same as --format json")
    extract.add_argument(
        "--metadata",
        action="store_true",
        help="also print the metadata, after the title (markdown: as front matter)",
    )
    extract.add_argument(
        "--no-blocks", action="store_true", help="with --format json: leave out the blocks"
    )
    extract.add_argument(
        "--highlight", metavar="OUT.html", help="also write the page with its blocks marked"
    )
    extract.add_argument(
        "--cleaneval",
        action="store_true",
        help="read CleanEval inputs (<text> wrapper) and print the CleanEval format"
        " (URL line, <p>/<h>/<l> segments; best with --extractor victor)",
    )
    _add_extractor_arguments(extract)
    extract.set_defaults(handler=_cmd_extract)

    extract_dir = commands.add_parser("extract-dir", help="extract every page of a dataset folder")
    extract_dir.add_argument("directory", metavar="DIR")
    extract_dir.add_argument("--out", required=True, metavar="PRED.json")
    extract_dir.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    extract_dir.add_argument(
        "--format",
        choices=OUTPUT_FORMATS[:3],
        default="text",
        help="the articleBody written: text (default), markdown or html",
    )
    extract_dir.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_extractor_arguments(extract_dir)
    extract_dir.set_defaults(handler=_cmd_extract_dir)

    extract_warc = commands.add_parser(
        "extract-warc", help="extract the HTML responses of WARC files to JSON lines"
    )
    extract_warc.add_argument("files", nargs="+", metavar="FILE", help="WARC file (.warc.gz ok)")
    extract_warc.add_argument(
        "--out", required=True, metavar="PAGES.jsonl", help="output file, or - for stdout"
    )
    extract_warc.add_argument(
        "--jobs",
        type=int,
        default=_default_jobs(),
        help="worker processes (default: the CPUs available, here %(default)s)",
    )
    extract_warc.add_argument(
        "--max-body-size",
        type=int,
        default=DEFAULT_MAX_BODY_SIZE,
        metavar="BYTES",
        help="skip bodies larger than this once decoded (default %(default)s, as in a crawl)",
    )
    extract_warc.add_argument(
        "--sniff-text",
        action="store_true",
        help="also extract text/* responses whose body looks like HTML",
    )
    extract_warc.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_extractor_arguments(extract_warc)
    extract_warc.set_defaults(handler=_cmd_extract_warc)

    extractors = commands.add_parser("extractors", help="list the extractors and their options")
    extractors.set_defaults(handler=_cmd_extractors)

    words = sys.argv[1:] if argv is None else list(argv)
    command = words[0] if words else None
    if command not in commands.choices:
        for plugin in _plugins(command):
            plugin.load()(commands)
    return parser


def _plugins(command: str | None) -> list[EntryPoint]:
    """The plugin that adds ``command``, or every plugin when none does (``--help``, a typo:
    argparse then lists all subcommands)."""
    plugins = list(entry_points(group=COMMANDS_GROUP))
    return [p for p in plugins if p.name == command] or plugins


def _cmd_extractors(args: argparse.Namespace) -> int:
    for name in available_extractors():
        spec = get_spec(name)
        print(f"{name}: {spec.description}")
        for option in spec.all_options:
            kind = option.type.__name__
            print(f"    {option.name} ({kind}, default {option.default!r}): {option.help}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = build_parser(argv).parse_args(argv)
    try:
        return run_printing(lambda: int(args.handler(args)))
    except ValueError as exc:  # bad extractor name or option
        print(f"scrapy-boilerplate: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
