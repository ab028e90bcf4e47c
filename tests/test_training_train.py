"""``training.train``: cross-validation folds and the pages each fold's model learns from."""

from __future__ import annotations

from typing import Any

import pytest

from scrapy_boilerplate.evaluation.datasets import Page
from scrapy_boilerplate.training import train
from scrapy_boilerplate.training.dataset import PageRows

pytest.importorskip("sklearn")


class _Constant:
    """A stand-in booster: every row scores the number of pages it was trained on."""

    def __init__(self, pages: list[PageRows]) -> None:
        self.trained = len(pages)

    def predict(self, rows: Any) -> Any:
        import numpy

        return numpy.full(len(rows), float(self.trained))


def _page(n: int, page_type: str) -> PageRows:
    page = Page(id=str(n), html=b"", url=None, gold_text="", page_type=page_type)
    return PageRows(page, f"site{n}.example", [[0.0]], [0], [("text", 1, 0)], None)


def test_out_of_fold_models_learn_from_the_other_folds_and_only_the_accepted_pages(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    trained_on: list[list[str]] = []

    def fit(pages: list[PageRows], *, num_trees: int) -> _Constant:
        trained_on.append([page.page.id for page in pages])
        return _Constant(pages)

    monkeypatch.setattr(train, "fit", fit)
    pages = [_page(n, "article" if n % 2 else "listing") for n in range(10)]
    ids = {page.page.id for page in pages}
    scores = train.out_of_fold_scores(pages, folds=5)
    assert scores == [[8.0]] * 10  # each fold's model saw the 8 pages of the other folds
    held_out = [ids - set(trained) for trained in trained_on]
    assert sorted(i for fold in held_out for i in fold) == sorted(ids)
    trained_on.clear()

    articles = train.out_of_fold_scores(
        pages, folds=5, train_on=lambda page: page.page.page_type == "article"
    )
    for fold, trained in zip(held_out, trained_on, strict=True):
        assert set(trained) == {i for i in ids - fold if int(i) % 2}  # the others' articles
        for i in fold:  # listings are scored too, by that model
            assert articles[int(i)] == [float(len(trained))]


def test_a_fold_without_a_page_to_train_on_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(train, "fit", lambda pages, *, num_trees: _Constant(pages))
    pages = [_page(0, "article")] + [_page(n, "listing") for n in range(1, 4)]
    with pytest.raises(ValueError, match="no page to train on"):
        train.out_of_fold_scores(pages, folds=2, train_on=lambda page: page.page.id == "0")
