from array import array

def smooth_levels(
    parent: array[int], x: array[float], w: array[float], gamma: array[float], grid: array[float]
) -> tuple[list[int], float]: ...
