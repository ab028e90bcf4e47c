from collections.abc import Sequence

from .crf_tagging import TaggingTables

def tag(rows: Sequence[Sequence[int]], tables: TaggingTables) -> list[int]: ...
