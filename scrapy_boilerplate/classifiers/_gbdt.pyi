from array import array

from .gbdt import TreeEnsemble

def predict_margins(model: TreeEnsemble, rows: array[float], n_rows: int) -> list[float]: ...
