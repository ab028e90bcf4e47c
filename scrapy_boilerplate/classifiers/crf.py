"""Victor's linear-chain CRF (Marek 2007, §3.5): attribute templates, the model file, tagging.

CRFsuite (``python-crfsuite``, the ``[victor]`` extra) stands in for the thesis's CRF++.
Labels: :data:`LABEL_CODES` (``h`` header, ``p`` paragraph, ``l`` list, ``c`` continuation,
``o`` other).

**Attributes** (CRF++ "U" templates; the thesis's ``templates/cleaneval.tpl`` is not
published, so the window is ours). A block's feature values (:mod:`..features.victor`) become
indicator attributes ``"<offset>:<name>=<value>"`` for the block at each offset of the
feature's window (:func:`window_of`):

* offsets -2..+2 for the boundary features (``split.*``, ``container.class-*``,
  ``sentence-begin``, ``sentence-end``, ``glued``);
* -1..+1 for the other block features;
* 0 only for the document features and ``position``.

A value of 0 gives no attribute (the reference category: a constant ``bias`` attribute stands
for it), which keeps about 60-90 attributes per block. Past the page's edges the attribute is
``"<offset>:BOS"`` / ``"<offset>:EOS"``. Three conjunctions (CRF++ ``a/b`` features):
``sentence-end[-1]/sentence-begin[0]/split.class-block[0]/glued[0]`` (continuations),
``bullet[-1]/bullet[0]`` (runs of list items), ``container.class-header[0]/token.alpha-abs[0]``.
Label transitions are learned (CRF++ "B").

**Tagging** (:mod:`.crf_tagging`): the model's weights are read from its CRFsuite bytes once,
and each block's attribute ids come straight from the feature rows; the state scores and
Viterbi are CRFsuite's, in the same order, so the labels are those of CRFsuite's own tagger
(:meth:`VictorModel.tag_crfsuite`, checked equal on every shared page by the tests).

**Model file**: gzip of a JSON header line (format, feature version, the features used, the
training parameters) and the CRFsuite model bytes. A file written for another
:data:`FEATURE_VERSION` is refused at load.
"""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

from ..features.victor import DOCUMENT_FEATURES, FEATURE_NAMES
from .crf_tagging import TaggingTables, read_crfsuite_model
from .crf_tagging import tag as tag_rows

__all__ = [
    "LABEL_CODES",
    "FEATURE_VERSION",
    "MODEL_FORMAT",
    "SHIPPED_VICTOR_MODEL",
    "VictorModel",
    "block_attributes",
    "window_of",
    "require_crfsuite",
    "load_victor_model",
    "dump_victor_model",
]

#: The five labels, as the model stores them.
LABEL_CODES: Final = ("h", "p", "l", "c", "o")
#: Bump when the features or the attribute templates change meaning.
FEATURE_VERSION: Final = "victor-features-1"
MODEL_FORMAT: Final = "scrapy-boilerplate-victor-crf"
#: The shipped model (trained on WCXB-dev labels), in ``classifiers/models/``.
SHIPPED_VICTOR_MODEL: Final = "victor-wcxb-v1.crf.gz"
CRFSUITE_HINT: Final = (
    "the victor extractor needs python-crfsuite: pip install 'scrapy-boilerplate[victor]'"
)

_WIDE: Final = ("split.", "container.class-", "sentence-begin", "sentence-end", "glued")
_NARROW_ONLY: Final = frozenset({*DOCUMENT_FEATURES})
_CONJUNCTIONS: Final = (
    ((-1, "sentence-end"), (0, "sentence-begin"), (0, "split.class-block"), (0, "glued")),
    ((-1, "bullet"), (0, "bullet")),
    ((0, "container.class-header"), (0, "token.alpha-abs")),
)


def require_crfsuite() -> Any:
    """The ``pycrfsuite`` module; ImportError naming the ``[victor]`` extra when missing."""
    try:
        import pycrfsuite
    except ImportError as exc:
        raise ImportError(CRFSUITE_HINT) from exc
    return pycrfsuite


def window_of(name: str) -> tuple[int, ...]:
    """The offsets at which feature ``name`` gives attributes (module docstring)."""
    if name in _NARROW_ONLY:
        return (0,)
    if name.startswith(_WIDE):
        return (-2, -1, 0, 1, 2)
    return (-1, 0, 1)


@lru_cache(maxsize=32)
def _templates(enabled: frozenset[str]) -> tuple[tuple[tuple[int, int, str], ...], ...]:
    """Per offset -2..+2, the (offset, feature index, attribute prefix) of the enabled
    features."""
    by_offset: dict[int, list[tuple[int, int, str]]] = {off: [] for off in range(-2, 3)}
    for index, name in enumerate(FEATURE_NAMES):
        if name in enabled:
            for off in window_of(name):
                by_offset[off].append((off, index, f"{off}:{name}="))
    return tuple(tuple(by_offset[off]) for off in range(-2, 3))


def _conjunctions(
    enabled: frozenset[str],
) -> list[tuple[tuple[tuple[int, str], ...], tuple[int, ...]]]:
    """The conjunctions whose features are all enabled, with their parts' feature indices."""
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    return [
        (parts, tuple(index[name] for _, name in parts))
        for parts in _CONJUNCTIONS
        if all(name in enabled for _, name in parts)
    ]


def block_attributes(
    rows: Sequence[Sequence[int]], enabled: Collection[str] | None = None
) -> list[list[str]]:
    """CRF attributes of each block from its feature ``rows`` (templates of the module
    docstring); ``enabled`` limits the features used (default: all)."""
    names = frozenset(FEATURE_NAMES if enabled is None else enabled)
    templates = _templates(names)
    index = {name: i for i, name in enumerate(FEATURE_NAMES)}
    conjunctions = [parts for parts, _ in _conjunctions(names)]
    count = len(rows)
    sequence = []
    for position in range(count):
        attributes = ["bias"]
        for offset_templates in templates:
            if not offset_templates:
                continue
            off = offset_templates[0][0]
            other = position + off
            if other < 0:
                attributes.append(f"{off}:BOS")
                continue
            if other >= count:
                attributes.append(f"{off}:EOS")
                continue
            row = rows[other]
            attributes.extend(f"{prefix}{row[i]}" for _, i, prefix in offset_templates if row[i])
        for conjunction in conjunctions:
            parts = []
            for off, name in conjunction:
                other = position + off
                value = rows[other][index[name]] if 0 <= other < count else "_"
                parts.append(f"{off}:{name}={value}")
            attributes.append("/".join(parts))
        sequence.append(attributes)
    return sequence


@dataclass(eq=False)
class VictorModel:
    """A trained CRF: its CRFsuite bytes and metadata; tags from any thread."""

    model_bytes: bytes
    metadata: dict[str, Any]
    _local: threading.local = field(default_factory=threading.local, repr=False)

    @property
    def features(self) -> tuple[str, ...]:
        """The features the model was trained on."""
        return tuple(self.metadata.get("features", FEATURE_NAMES))

    def _tagger(self) -> Any:
        tagger = getattr(self._local, "tagger", None)
        if tagger is None:
            tagger = require_crfsuite().Tagger()
            tagger.open_inmemory(self.model_bytes)
            self._local.tagger = tagger
        return tagger

    @cached_property
    def tables(self) -> TaggingTables:
        """The model's weights and the attribute ids of its feature set's templates."""
        enabled = frozenset(self.features)
        weights = read_crfsuite_model(self.model_bytes)
        return TaggingTables.build(weights, _templates(enabled), _conjunctions(enabled))

    def tag(self, rows: Sequence[Sequence[int]]) -> list[str]:
        """The label code of each block (Viterbi), from its feature ``rows``."""
        if not rows:
            return []
        labels = self.tables.weights.labels
        return [labels[label] for label in tag_rows(rows, self.tables)]

    def tag_crfsuite(self, rows: Sequence[Sequence[int]]) -> list[str]:
        """:meth:`tag` by CRFsuite's own tagger, from the attribute strings (the reference)."""
        if not rows:
            return []
        labels: list[str] = self._tagger().tag(block_attributes(rows, self.features))
        return labels


def dump_victor_model(model_bytes: bytes, metadata: dict[str, Any]) -> bytes:
    """A model file: gzip of a JSON header line and the CRFsuite bytes."""
    header = {"format": MODEL_FORMAT, "feature_version": FEATURE_VERSION, **metadata}
    return gzip.compress(json.dumps(header).encode() + b"\n" + model_bytes, mtime=0)


def _read_model(data: bytes, name: str) -> VictorModel:
    try:
        raw = gzip.decompress(data)
        header_line, model_bytes = raw.split(b"\n", 1)
        metadata = json.loads(header_line)
    except (OSError, ValueError, EOFError) as exc:
        raise ValueError(f"{name!r} is not a victor model file") from exc
    if not isinstance(metadata, dict) or metadata.get("format") != MODEL_FORMAT:
        raise ValueError(f"{name!r} is not a victor model file")
    if metadata.get("feature_version") != FEATURE_VERSION:
        raise ValueError(
            f"victor model {name!r} was trained on features {metadata.get('feature_version')!r},"
            f" this version computes {FEATURE_VERSION!r}; retrain it with"
            " `scrapy-boilerplate train --extractor victor`"
        )
    unknown = set(metadata.get("features", ())) - set(FEATURE_NAMES)
    if unknown:
        raise ValueError(f"victor model {name!r} uses unknown features {sorted(unknown)}")
    return VictorModel(model_bytes, metadata)


@lru_cache(maxsize=8)
def load_victor_model(path: str | bytes = "") -> VictorModel:
    """The victor model at ``path`` (a file), from model-file ``bytes``, or the shipped one
    (``""``), loaded once per process. Raises ``ValueError`` for a file that is not a victor
    model of this feature version and ImportError without python-crfsuite."""
    require_crfsuite()
    if isinstance(path, bytes):
        return _read_model(path, "<bytes>")
    if path:
        return _read_model(Path(path).read_bytes(), path)
    source = resources.files(__package__).joinpath("models").joinpath(SHIPPED_VICTOR_MODEL)
    return _read_model(source.read_bytes(), SHIPPED_VICTOR_MODEL)
