"""Citations in the code resolve to something in the repository, and the docs speak of the
software, not of the project's issue tracker."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUIRKS_DOC = REPO / "docs" / "reference-quirks.md"
_SECTION_CITE = re.compile(r"reference §(\d+(?:\.\d+)?)(?:\s*[-–]\s*§(\d+(?:\.\d+)?))?")
_EXTRA_SECTION = re.compile(r"(?<=, )§(\d+(?:\.\d+)?)")
_QUIRK = re.compile(r"\bQ(\d+)\b")


def sources() -> list[Path]:
    folders = ("scrapy_boilerplate", "tests", "benchmarks", "example_project")
    return [
        path
        for folder in folders
        for path in (REPO / folder).rglob("*")
        if path.suffix in (".py", ".pyx") and path != Path(__file__)
    ]


def doc_sections() -> set[str]:
    return set(re.findall(r"^#+ §(\d+(?:\.\d+)?) ", QUIRKS_DOC.read_text("utf-8"), re.M))


def doc_quirks() -> set[str]:
    return set(re.findall(r"^\| Q(\d+) ", QUIRKS_DOC.read_text("utf-8"), re.M))


def test_cited_reference_sections_and_quirks_exist() -> None:
    sections, quirks = doc_sections(), doc_quirks()
    assert {"1.7", "4", "5.8", "9"} <= sections and {"1", "20"} <= quirks
    missing = []
    for path in sources():
        text = path.read_text(encoding="utf-8")
        cited = {n for pair in _SECTION_CITE.findall(text) for n in pair if n}
        if cited:
            cited |= set(_EXTRA_SECTION.findall(text))
        for number in sorted(cited - sections):
            missing.append(f"{path.relative_to(REPO)}: reference §{number}")
        for number in sorted(set(_QUIRK.findall(text)) - quirks):
            missing.append(f"{path.relative_to(REPO)}: Q{number}")
    assert not missing, "\n".join(missing)


def test_files_citing_the_reference_name_the_document() -> None:
    unnamed = [
        str(path.relative_to(REPO))
        for path in sources()
        if (_SECTION_CITE.search(path.read_text("utf-8")) or _QUIRK.search(path.read_text("utf-8")))
        and "reference-quirks.md" not in path.read_text("utf-8")
    ]
    assert not unnamed


def test_docs_do_not_speak_of_issues() -> None:
    pages = [REPO / "README.md", *(REPO / "docs").glob("*.md")]
    mentions = [
        f"{page.name}: {line.strip()}"
        for page in pages
        for line in page.read_text(encoding="utf-8").splitlines()
        if re.search(r"\bissues?\b|GitHub issue|#\d+\b", line, re.I)
    ]
    assert not mentions, "\n".join(mentions)
