from collections.abc import Sequence

from ..model.document import Element
from .tokens import WordStats

def walk(
    root: Element, strict_reference: bool
) -> tuple[str | None, list[tuple[str, str, int, set[str], Element | None]]]: ...
def block_word_stats(buffers: Sequence[str], in_link: bool = False) -> list[WordStats]: ...
def tag_class(name: str, strict: bool) -> int: ...
