from ..model.document import Element

def hash_body(
    body: Element,
) -> tuple[list[Element], list[int], list[int], list[int], list[int], list[bool]]: ...
def fingerprint(body: Element, limit: int) -> bytes: ...
def blake2b_64(data: bytes) -> int: ...
def fingerprint_of(hashes: list[int], signed: list[bool], limit: int) -> bytes: ...
def mark_inside(
    hashes: list[int],
    sizes: list[int],
    chars: list[int],
    parents: list[int],
    signed: list[bool],
    templates: frozenset[int] | set[int],
    cover: float,
    text_cover: float | None,
) -> tuple[list[bool], list[bool], list[bool]]: ...
def groups_inside(
    body: Element,
    groups: list[list[Element]],
    templates: frozenset[int] | set[int],
    cover: float,
    text_cover: float | None,
    limit: int,
) -> tuple[list[bool], bytes]: ...
