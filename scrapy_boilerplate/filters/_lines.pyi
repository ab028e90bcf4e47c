from collections.abc import Sequence

MAX_GROUPS: int

class WordMasks:
    def __init__(self, groups: Sequence[Sequence[str]]) -> None: ...
    def __call__(self, texts: list[str]) -> list[int]: ...
