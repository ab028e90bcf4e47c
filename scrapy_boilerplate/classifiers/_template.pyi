from collections.abc import Sequence

def template_scores(
    rows: Sequence[Sequence[float]],
    log_area: int,
    cuts: tuple[float, ...],
    intercepts: tuple[float, ...],
    coefs: tuple[tuple[float, ...], ...],
) -> list[float] | None: ...
def matrix_scores(
    matrix: Sequence[float],
    log_area: int,
    cuts: tuple[float, ...],
    intercepts: tuple[float, ...],
    coefs: tuple[tuple[float, ...], ...],
) -> list[float] | None: ...
