from collections.abc import Sequence

from ..model.document import Element

def group_keys(elements: Sequence[Element | None], depth: int) -> list[Element | None]: ...
