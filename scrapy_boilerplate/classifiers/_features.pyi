from array import array
from typing import Any

from ..features.metadata import PageTexts

def feature_matrix(
    blocks: list[Any], decisions: list[list[bool]], n_structure: int, texts: PageTexts
) -> array[float]: ...
