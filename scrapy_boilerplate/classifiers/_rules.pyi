from typing import Any

DENSITY: int
NUM_WORDS: int

def neighbour_decisions(blocks: list[Any], rule: int) -> list[bool]: ...
