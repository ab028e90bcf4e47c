"""Viterbi tagging with a CRFsuite model, computed as CRFsuite computes it, from feature rows.

CRFsuite's tagger (``crf1d_tag.c``) gives each item a score per label: the weights of the
state features of the item's attributes, added in the item's attribute order (attributes the
model does not know are skipped); then Viterbi over those scores and the label-transition
weights, keeping the first (lowest label id) of equal scores. Here the same sums in the same
order, in doubles, give the same labels, without building attribute strings and CRFsuite
item sequences (most of the time of ``Tagger.tag``):

* :func:`read_crfsuite_model` reads the weights from the model bytes (CRFsuite's ``lCRF``
  format: labels and attributes in CQDB string tables, features as ``(type, src, dst,
  weight)``, per attribute and per label the ids of its features);
* :class:`TaggingTables` maps each attribute template (an offset and a feature of the row,
  its value; the page-edge markers; the conjunctions) to the model's attribute id, so a block's
  attributes become ids straight from the feature rows;
* :func:`tag_pure` is the reference: :func:`block_items`, :func:`state_scores`,
  :func:`viterbi`. The compiled twin ``_crf`` does the same in C and gives the same labels;
  it runs when built, unless :data:`~scrapy_boilerplate.page.segmentation.PURE_PYTHON_ENV` is
  set.
"""

from __future__ import annotations

import os
import struct
import sys
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Final

from ..page.segmentation import PURE_PYTHON_ENV

__all__ = [
    "CrfWeights",
    "TaggingTables",
    "read_crfsuite_model",
    "block_items",
    "state_scores",
    "viterbi",
    "tag_pure",
    "tag",
    "ACCELERATED",
]

#: A template: (offset, feature index, attribute prefix ``"<offset>:<name>="``).
Template = tuple[int, int, str]
#: A conjunction: its parts (offset, feature name), and the feature index of each part.
Conjunction = tuple[tuple[tuple[int, str], ...], tuple[int, ...]]

_MODEL_MAGIC: Final = b"lCRF"
_CQDB_MAGIC: Final = b"CQDB"
_CHUNK_SIZE: Final = 12  # chunk id, size, count
_FEATURE: Final = struct.Struct("<IIId")  # type, src, dst, weight
_TRANSITION_FEATURE: Final = 1
_LOWEST: Final = -sys.float_info.max  # CRFsuite's -FLOAT_MAX


@dataclass(frozen=True)
class CrfWeights:
    """A CRFsuite model's labels, attributes and weights.

    ``state_labels`` / ``state_weights`` hold, attribute by attribute (ids in the model's
    order, ``state_starts`` delimiting them), the label id and weight of each of its state
    features, in the model's order; ``transitions`` is the ``labels × labels`` matrix of
    transition weights, row = previous label.
    """

    labels: tuple[str, ...]
    attributes: dict[str, int]
    state_starts: array[int]
    state_labels: array[int]
    state_weights: array[float]
    transitions: array[float]


def _u32(data: bytes, offset: int) -> int:
    value: int = struct.unpack_from("<I", data, offset)[0]
    return value


def _cqdb_strings(data: bytes, start: int, count: int) -> list[str]:
    """The ``count`` strings of the CQDB at ``start``, by id (its backward links)."""
    if data[start : start + 4] != _CQDB_MAGIC:
        raise ValueError("not a CRFsuite model (no string table)")
    backward = start + _u32(data, start + 20)
    strings = []
    for number in range(count):
        record = start + _u32(data, backward + 4 * number)
        size = _u32(data, record + 4)  # the id, then the size with the final NUL
        strings.append(data[record + 8 : record + 7 + size].decode("utf-8"))
    return strings


def _feature_refs(data: bytes, chunk: int, count: int) -> list[list[int]]:
    """Per label or attribute, the ids of its features (a ``LFRF`` / ``AFRF`` chunk)."""
    refs = []
    for number in range(count):
        offset = _u32(data, chunk + _CHUNK_SIZE + 4 * number)
        size = _u32(data, offset)
        refs.append(list(struct.unpack_from(f"<{size}I", data, offset + 4)))
    return refs


def read_crfsuite_model(data: bytes) -> CrfWeights:
    """The weights of CRFsuite model bytes (``ValueError`` if they are not one)."""
    if len(data) < 48 or data[:4] != _MODEL_MAGIC:
        raise ValueError("not a CRFsuite model")
    (n_labels, n_attributes, off_features, off_labels, off_attributes, off_label_refs,
     off_attribute_refs) = struct.unpack_from("<7I", data, 20)  # fmt: skip
    n_features = _u32(data, off_features + 8)
    features = [
        _FEATURE.unpack_from(data, off_features + _CHUNK_SIZE + _FEATURE.size * number)
        for number in range(n_features)
    ]
    if any(not (src < n_labels or kind != _TRANSITION_FEATURE) or dst >= n_labels
           for kind, src, dst, _ in features):  # fmt: skip
        raise ValueError("not a CRFsuite model (a feature's label is out of range)")
    labels = _cqdb_strings(data, off_labels, n_labels)
    attributes = _cqdb_strings(data, off_attributes, n_attributes)
    transitions = array("d", [0.0] * (n_labels * n_labels))
    for previous, ids in enumerate(_feature_refs(data, off_label_refs, n_labels)):
        for fid in ids:
            kind, _, label, weight = features[fid]
            if kind == _TRANSITION_FEATURE:
                transitions[previous * n_labels + label] = weight
    starts, state_labels, weights = array("i", [0]), array("i"), array("d")
    for ids in _feature_refs(data, off_attribute_refs, n_attributes):
        for fid in ids:
            _, _, label, weight = features[fid]
            state_labels.append(label)
            weights.append(weight)
        starts.append(len(state_labels))
    return CrfWeights(
        tuple(labels),
        {name: number for number, name in enumerate(attributes)},
        starts,
        state_labels,
        weights,
        transitions,
    )


@dataclass(frozen=True)
class TaggingTables:
    """Attribute ids of the templates of one feature set, for one model (-1: unknown).

    ``offsets`` are the window offsets that have templates, in order; ``edges`` their
    page-edge attribute (``"<offset>:BOS"`` before the page, ``"<offset>:EOS"`` after it);
    ``template_starts`` delimits each offset's templates; per template, ``template_features``
    is the row's feature index and ``value_starts`` / ``value_counts`` its slice of
    ``value_ids`` (the attribute id of each value; value 0 never gives an attribute).
    ``conjunctions`` are the feature-index parts (offset, index) of each conjunction and
    ``conjunction_ids`` the attribute id of each tuple of values (-1 off the page).
    """

    weights: CrfWeights
    bias: int
    offsets: tuple[int, ...]
    edges: array[int]
    template_starts: array[int]
    template_features: array[int]
    value_starts: array[int]
    value_counts: array[int]
    value_ids: array[int]
    conjunctions: tuple[tuple[tuple[int, int], ...], ...]
    conjunction_ids: tuple[dict[tuple[int, ...], int], ...]

    @classmethod
    def build(
        cls,
        weights: CrfWeights,
        templates: Sequence[Sequence[Template]],
        conjunctions: Sequence[Conjunction],
    ) -> TaggingTables:
        """Tables for ``templates`` (per offset, in attribute order) and ``conjunctions``."""
        attributes = weights.attributes
        known_values: dict[str, dict[int, int]] = {}
        for name, number in attributes.items():
            prefix, sep, value = name.rpartition("=")
            if sep and "/" not in name and value.isdigit():
                known_values.setdefault(prefix + "=", {})[int(value)] = number
        offsets, edges, starts = [], array("i"), array("i", [0])
        features, value_starts, value_counts = array("i"), array("i"), array("i")
        value_ids: list[int] = []
        for offset_templates in templates:
            if not offset_templates:
                continue
            offset = offset_templates[0][0]
            offsets.append(offset)
            edge = f"{offset}:BOS" if offset < 0 else f"{offset}:EOS"
            edges.append(attributes.get(edge, -1) if offset else -1)
            for _, index, prefix in offset_templates:
                known = known_values.get(prefix, {})
                table = [-1] * (max(known, default=0) + 1)
                for level, number in known.items():
                    if level:
                        table[level] = number
                features.append(index)
                value_starts.append(len(value_ids))
                value_counts.append(len(table))
                value_ids.extend(table)
            starts.append(len(features))
        conjunction_ids = []
        for parts, _ in conjunctions:
            ids: dict[tuple[int, ...], int] = {}
            for name, number in attributes.items():
                key = _conjunction_values(name, parts)
                if key is not None:
                    ids[key] = number
            conjunction_ids.append(ids)
        return cls(
            weights,
            attributes.get("bias", -1),
            tuple(offsets),
            edges,
            starts,
            features,
            value_starts,
            value_counts,
            array("i", value_ids),
            tuple(
                tuple(zip((o for o, _ in parts), indices, strict=True))
                for parts, indices in conjunctions
            ),
            tuple(conjunction_ids),
        )


def _conjunction_values(name: str, parts: Sequence[tuple[int, str]]) -> tuple[int, ...] | None:
    """The values of conjunction attribute ``name`` of ``parts`` (-1 for ``_``), else None."""
    pieces = name.split("/")
    if len(pieces) != len(parts):
        return None
    values = []
    for piece, (offset, feature) in zip(pieces, parts, strict=True):
        prefix = f"{offset}:{feature}="
        if not piece.startswith(prefix):
            return None
        value = piece[len(prefix) :]
        if value == "_":
            values.append(-1)
        elif value.isdigit():
            values.append(int(value))
        else:
            return None
    return tuple(values)


def block_items(rows: Sequence[Sequence[int]], tables: TaggingTables) -> list[list[int]]:
    """Each block's known attribute ids, in the order of the attribute templates."""
    count = len(rows)
    items = []
    for position in range(count):
        item = [tables.bias] if tables.bias >= 0 else []
        for number, offset in enumerate(tables.offsets):
            other = position + offset
            if other < 0 or other >= count:
                if tables.edges[number] >= 0:
                    item.append(tables.edges[number])
                continue
            row = rows[other]
            for template in range(
                tables.template_starts[number], tables.template_starts[number + 1]
            ):
                value = row[tables.template_features[template]]
                if 0 < value < tables.value_counts[template]:
                    number_id = tables.value_ids[tables.value_starts[template] + value]
                    if number_id >= 0:
                        item.append(number_id)
        for parts, ids in zip(tables.conjunctions, tables.conjunction_ids, strict=True):
            key = tuple(
                rows[position + offset][index] if 0 <= position + offset < count else -1
                for offset, index in parts
            )
            number_id = ids.get(key, -1)
            if number_id >= 0:
                item.append(number_id)
        items.append(item)
    return items


def state_scores(items: Sequence[Sequence[int]], weights: CrfWeights) -> list[list[float]]:
    """Per item, per label: its attributes' state weights added in item order (as CRFsuite)."""
    n_labels = len(weights.labels)
    starts, labels, values = weights.state_starts, weights.state_labels, weights.state_weights
    scores = []
    for item in items:
        state = [0.0] * n_labels
        for attribute in item:
            for feature in range(starts[attribute], starts[attribute + 1]):
                state[labels[feature]] += values[feature]
        scores.append(state)
    return scores


def viterbi(scores: Sequence[Sequence[float]], transitions: Sequence[float]) -> list[int]:
    """The best label path (CRFsuite's ``crf1dc_viterbi``: the first of equal maxima wins)."""
    if not scores:
        return []
    n_labels = len(scores[0])
    current = list(scores[0])
    back: list[list[int]] = [[0] * n_labels]
    for state in scores[1:]:
        previous, current, links = current, [0.0] * n_labels, [0] * n_labels
        for label in range(n_labels):
            best, best_previous = _LOWEST, -1
            for before in range(n_labels):
                score = previous[before] + transitions[before * n_labels + label]
                if best < score:
                    best, best_previous = score, before
            links[label] = max(best_previous, 0)
            current[label] = best + state[label]
        back.append(links)
    path = [0]
    best = _LOWEST
    for label in range(n_labels):
        if best < current[label]:
            best, path[0] = current[label], label
    for links in reversed(back[1:]):
        path.append(links[path[-1]])
    path.reverse()
    return path


def tag_pure(rows: Sequence[Sequence[int]], tables: TaggingTables) -> list[int]:
    """The label id of each block (the reference of the compiled twin)."""
    weights = tables.weights
    return viterbi(state_scores(block_items(rows, tables), weights), weights.transitions)


def _load_compiled() -> ModuleType | None:
    """The compiled twin, unless not built or ``PURE_PYTHON_ENV`` is set."""
    if os.environ.get(PURE_PYTHON_ENV):
        return None
    try:
        from . import _crf
    except Exception:  # not built, or built for another Python
        return None
    return _crf


_crf = _load_compiled()
#: True when tagging runs the compiled twin of :func:`tag_pure`.
ACCELERATED: Final = _crf is not None


def tag(rows: Sequence[Sequence[int]], tables: TaggingTables) -> list[int]:
    """:func:`tag_pure`, by the compiled twin when :data:`ACCELERATED`."""
    if _crf is not None:
        labels: list[int] = _crf.tag(rows, tables)
        return labels
    return tag_pure(rows, tables)
