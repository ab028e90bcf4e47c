from collections.abc import Sequence
from typing import Any

from ..model.document import Element

def node_columns(
    body: Element, host: str, vocabulary: set[str], keep_hidden: bool
) -> tuple[list[Any], ...] | None: ...
def feature_rows(table: Any, tree: Any, area: Sequence[float]) -> list[list[float]]: ...
