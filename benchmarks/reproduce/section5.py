"""Reproduction of Kohlschütter et al. 2010, Section 5 (Figures 4-5, random-writer models).

* Figure 4: blocks by number of words, content vs not content;
* Figure 5: words by rounded text density, per class (anchor-text boilerplate = link density
  above 0.33);
* the 1-displaced geometric model (Eq. 2) and the two-state mixture (Eq. 3) fitted by least
  squares to the share of blocks with x words, x = 1 … 100.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from scrapy_boilerplate.evaluation.l3s import L3SLabel

from .data import LabelledBlocks

MAX_WORDS = 100
#: Paper values (§5.1-5.2).
PAPER_SIMPLE = {"p_t_n": 0.3145, "r2_adj": 96.7}
PAPER_MIXED = {"p_n_s": 0.7586, "p_s_n": 0.3968, "p_l_n": 0.04369, "r2_adj": 98.81}


@dataclass(frozen=True)
class Fit:
    """Fitted parameters, adjusted R² (percent) and root mean square error."""

    params: dict[str, float]
    r2_adj: float
    rmse: float


def word_distribution(data: LabelledBlocks) -> tuple[np.ndarray, np.ndarray]:
    """x = 1 … MAX_WORDS and the share of blocks (with ≥ 1 word) having x words."""
    words = data.words[data.words > 0].astype(int)
    x = np.arange(1, MAX_WORDS + 1)
    counts = np.bincount(words, minlength=MAX_WORDS + 1)[1 : MAX_WORDS + 1]
    return x, counts / len(words)


def _geometric(x: np.ndarray, p: float) -> np.ndarray:
    return (1 - p) ** (x - 1) * p


def _mixed(x: np.ndarray, a: float, s: float, l: float) -> np.ndarray:  # noqa: E741
    return a * _geometric(x, s) + (1 - a) * _geometric(x, l)


def _fit(function, x: np.ndarray, y: np.ndarray, start: list[float], names: list[str]) -> Fit:
    from scipy.optimize import curve_fit

    params, _ = curve_fit(function, x, y, p0=start, bounds=(0, 1))
    residual = y - function(x, *params)
    ss_res = float((residual**2).sum())
    ss_tot = float(((y - y.mean()) ** 2).sum())
    n, k = len(y), len(params)
    r2 = 1 - ss_res / ss_tot
    r2_adj = 1 - (1 - r2) * (n - 1) / (n - k - 1)
    return Fit(dict(zip(names, map(float, params), strict=True)), 100 * r2_adj, (ss_res / n) ** 0.5)


def fit_models(data: LabelledBlocks) -> tuple[Fit, Fit]:
    """The simple (Eq. 2) and the mixed (Eq. 3) random-writer fits."""
    x, y = word_distribution(data)
    simple = _fit(_geometric, x, y, [0.3], ["p_t_n"])
    mixed = _fit(_mixed, x, y, [0.75, 0.4, 0.05], ["p_n_s", "p_s_n", "p_l_n"])
    return simple, mixed


def density_words(data: LabelledBlocks, threshold: int = 11) -> tuple[int, int]:
    """Words in blocks with ≥ ``threshold`` words, and in blocks with text density ≥ it."""
    density = data.columns(["curr_text_density"])[:, 0]
    by_words = int(data.words[data.words >= threshold].sum())
    by_density = int(data.words[density >= threshold].sum())
    return by_words, by_density


_CLASS_ORDER = [
    ("Not content (plain text)", "#bbbbbb"),
    ("Not content (anchor text)", "#777777"),
    ("Related content", "#ffa142"),
    ("Headlines", "#42ffa1"),
    ("Supplemental text", "#ff42ff"),
    ("User comments", "#00c0ff"),
    ("Main article", "#e0d000"),
]


def _figure_class(label: int, link_density: float) -> str:
    mapping = {
        L3SLabel.RELATED_CONTENT: "Related content",
        L3SLabel.HEADLINE: "Headlines",
        L3SLabel.SUPPLEMENTAL: "Supplemental text",
        L3SLabel.COMMENTS: "User comments",
        L3SLabel.FULL_TEXT: "Main article",
    }
    if label == L3SLabel.NOT_CONTENT:
        return "Not content (anchor text)" if link_density > 0.33 else "Not content (plain text)"
    return mapping[L3SLabel(label)]


def plot_figures(data: LabelledBlocks, mixed: Fit, out_dir: Path) -> list[Path]:
    """Write Figure 4 and Figure 5 analogues as PNG files; return their paths."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    words = data.words.astype(int)
    content = data.y2 == 1
    x = np.arange(1, 61)
    fig, ax = plt.subplots(figsize=(7, 4))
    not_counts = np.bincount(words[~content], minlength=61)[1:61]
    content_counts = np.bincount(words[content], minlength=61)[1:61]
    ax.bar(x, not_counts, color="#999999", label="Not content")
    ax.bar(x, content_counts, bottom=not_counts, color="#e0b000", label="Content")
    total = int((words > 0).sum())
    params = mixed.params
    ax.plot(
        x,
        total * _mixed(x, params["p_n_s"], params["p_s_n"], params["p_l_n"]),
        "k-",
        lw=1,
        label="mixed geometric fit",
    )
    ax.set_xlabel("Number of words")
    ax.set_ylabel("Number of blocks")
    ax.set_title("L3S-GN1: number of words distribution (cf. paper Fig. 4)")
    ax.legend()
    path = out_dir / "l3s_number_of_words.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    paths.append(path)

    density = np.rint(data.columns(["curr_text_density"])[:, 0]).astype(int)
    link = data.columns(["curr_link_density"])[:, 0]
    classes = [_figure_class(int(label), ld) for label, ld in zip(data.labels, link, strict=True)]
    xs = np.arange(0, 21)
    fig, ax = plt.subplots(figsize=(7, 4))
    bottom = np.zeros(len(xs))
    for name, colour in _CLASS_ORDER:
        mask = np.array([c == name for c in classes])
        heights = np.array(
            [data.words[mask & (np.minimum(density, 20) == value)].sum() for value in xs]
        )
        ax.bar(xs, heights, bottom=bottom, color=colour, label=name)
        bottom += heights
    ax.set_xlabel("Text density (rounded; 20 = 20 or more)")
    ax.set_ylabel("Number of words")
    ax.set_title("L3S-GN1: text density distribution by class (cf. paper Fig. 5)")
    ax.legend(fontsize=8)
    path = out_dir / "l3s_text_density_by_class.png"
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    paths.append(path)
    return paths
