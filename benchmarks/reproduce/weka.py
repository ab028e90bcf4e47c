"""Weka-style word-weighted classification scores (the paper's Table 2 columns).

Weka's "weighted avg." row: every per-class score (precision, recall, F1, false-positive rate,
ROC AUC one-vs-rest) averaged with the class's share of the (word-weighted) instances. A class
never predicted has precision 0 (this is why ZeroR's precision is the content share squared).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from sklearn.metrics import roc_auc_score


@dataclass(frozen=True)
class WekaScores:
    """Weighted-average scores in percent."""

    precision: float
    recall: float
    f1: float
    fp_rate: float
    auc: float


def weka_scores(
    gold: np.ndarray,
    predicted: np.ndarray,
    weights: np.ndarray,
    classes: list[int],
    scores: np.ndarray | None = None,
) -> WekaScores:
    """Word-weighted Weka averages; ``scores[:, k]`` ranks class ``classes[k]`` (hard
    predictions are used for AUC when ``scores`` is None)."""
    total = weights.sum()
    precision = recall = f1 = fp_rate = auc = 0.0
    for column, cls in enumerate(classes):
        is_gold = gold == cls
        is_pred = predicted == cls
        support = weights[is_gold].sum()
        if support == 0:
            continue
        share = support / total
        tp = weights[is_gold & is_pred].sum()
        predicted_weight = weights[is_pred].sum()
        p = tp / predicted_weight if predicted_weight else 0.0
        r = tp / support
        negatives = weights[~is_gold].sum()
        fp = weights[~is_gold & is_pred].sum() / negatives if negatives else 0.0
        ranking = scores[:, column] if scores is not None else is_pred.astype(float)
        area = roc_auc_score(is_gold, ranking, sample_weight=weights) if negatives else 0.5
        precision += share * p
        recall += share * r
        f1 += share * (2 * p * r / (p + r) if p + r else 0.0)
        fp_rate += share * fp
        auc += share * area
    return WekaScores(*(100 * value for value in (precision, recall, f1, fp_rate, auc)))
