"""Canonical subtree hashes: which DOM nodes of a page are "the same node" as on another page.

SiteLevel (Chakrabarti et al. 2007, §3; Gibson et al. 2005) counts on how many pages of a site
each DOM node occurs; "the same node" needs a hash of a node that is equal on two pages exactly
when the node shows the same thing. The hash of an element is a 64-bit BLAKE2b digest of its
*canonical subtree*, built bottom-up:

* its tag name;
* its own text, *normalised*: whitespace runs collapsed to one space, case folded, ASCII
  digits replaced by ``0`` (dates, counters and prices change from page to page inside an
  unchanged menu, footer or "3 comments" link);
* for ``<a href>``: the href's *path* only, digits as ``0``. Scheme and host are dropped (one
  site links to itself both ways), query string and fragment too (session ids, tracking
  parameters), so a menu link hashes alike on every page;
* then, in order, each child's digest followed by the child's normalised tail text.

Every other attribute is left out (class and id values change with A/B tests and generated
ids, ``src`` with CDN hosts and cache busters), and so are the subtrees of the tags the
segmenter ignores (``script``, ``style``, ``svg``, ``iframe``, ...: ad slots and per-page
data live there) and comments. Two elements with equal digests thus show the same tags, text
and link targets in the same order. The walk is iterative (pages nest 10,000 deep).

Only *signed* elements (whose subtree holds text, a link or an image) take part in learning:
an empty ``<div class="clear">`` is on every page of the web and says nothing about a site.

The walk has a compiled twin (``_hashing``, built with Cython when the package is installed
from source; same results, about eight times faster); :func:`hash_tree_pure` is the reference.
"""

from __future__ import annotations

import re
import sys
from array import array
from dataclasses import dataclass
from hashlib import blake2b
from typing import Final

from lxml import etree

from ..model.document import Element
from ..page.segmentation import compiled_twin
from ..page.tags import EXTRA_IGNORABLE_TAGS, IGNORABLE_TAGS

__all__ = [
    "TreeHashes",
    "hash_tree",
    "hash_tree_pure",
    "normalise_text",
    "href_path",
    "page_fingerprint",
    "fingerprint_hashes",
    "MAX_FINGERPRINT_HASHES",
    "encode_hashes",
    "decode_hashes",
    "body_of",
    "remember_fingerprint",
    "ACCELERATED",
]

_SKIPPED_TAGS: Final = IGNORABLE_TAGS | EXTRA_IGNORABLE_TAGS
_DIGITS: Final = str.maketrans("123456789", "000000000")
_HREF_PATH: Final = re.compile(r"^\s*(?:[A-Za-z][A-Za-z0-9+.-]*:)?(?://[^/?#]*)?([^?#]*)")
_SIGNAL_TAGS: Final = frozenset({"img", "a"})
#: Hashes a fingerprint holds at most (8 bytes each): the first ones in document order.
MAX_FINGERPRINT_HASHES: Final = 20_000
#: Bytes a start/end tag pair adds to the HTML size estimate, beside twice the tag name.
_TAG_OVERHEAD: Final = 5


def normalise_text(text: str | None) -> str:
    """``text`` with whitespace runs collapsed (ends stripped), case folded, digits as ``0``."""
    if not text:
        return ""
    return " ".join(text.split()).casefold().translate(_DIGITS)


def href_path(href: str) -> str:
    """The path of ``href`` (no scheme, host, query or fragment), digits as ``0``."""
    match = _HREF_PATH.match(href)
    path = match.group(1) if match else href
    return path.strip().translate(_DIGITS)


@dataclass(frozen=True, slots=True, eq=False)
class TreeHashes:
    """The canonical hashes of a page's ``<body>`` elements, in document order (pre-order).

    ``elements[0]`` is ``<body>``; ``parents[i]`` is the position of element i's parent (-1 for
    ``<body>``), always below i; ``sizes[i]`` estimates the HTML bytes of element i's subtree
    (2 x tag name + 5 per element, plus its text and tail characters; attributes and skipped
    subtrees not counted); ``chars[i]`` counts the normalised text characters of the subtree
    (tails of its descendants included, its own tail not); ``signed[i]`` tells whether the
    subtree holds text, a link or an image.
    """

    elements: list[Element]
    hashes: list[int]
    sizes: list[int]
    chars: list[int]
    parents: list[int]
    signed: list[bool]

    def __len__(self) -> int:
        return len(self.elements)

    def positions(self) -> dict[Element, int]:
        """Element -> its position (lxml elements compare by identity)."""
        return {element: position for position, element in enumerate(self.elements)}


def body_of(root: Element) -> Element | None:
    """The first ``<body>`` of ``root`` in document order (``root`` itself, or inside it).

    Child by child: lxml's iterators look one match ahead, so ``root.iter("body")`` would
    walk the whole body for a second one."""
    if root.tag == "body":
        return root
    for child in root:
        if child.tag == "body":
            return child
        found = next(child.iter("body"), None)
        if found is not None:
            return found
    return None


# The last tree hashed (lxml elements take no weak references): a filter and the learning
# step of one extraction hash a tree once.
_MEMO: list[tuple[Element, TreeHashes]] = []
# The last fingerprint computed along another walk (:func:`remember_fingerprint`).
_FINGERPRINT_MEMO: list[tuple[Element, bytes]] = []


def hash_tree(root: Element) -> TreeHashes:
    """The canonical hashes of the elements under ``root``'s ``<body>`` (empty without one).

    The last tree hashed is remembered (by identity, one per process) until another is hashed
    or :func:`page_fingerprint` reads it: asking again for the same tree costs nothing. Do not
    change a tree between two calls.
    """
    if _MEMO and _MEMO[0][0] is root:
        return _MEMO[0][1]
    body = body_of(root)
    if body is None:
        hashes = TreeHashes([], [], [], [], [], [])
    elif _hashing is not None:
        hashes = TreeHashes(*_hashing.hash_body(body))
    else:
        hashes = _hash_body(body)
    _MEMO[:] = [(root, hashes)]
    return hashes


def hash_tree_pure(root: Element) -> TreeHashes:
    """:func:`hash_tree` by the pure-Python walk (the reference of the compiled twin), not
    remembered."""
    body = body_of(root)
    return TreeHashes([], [], [], [], [], []) if body is None else _hash_body(body)


def _preorder(body: Element) -> list[Element]:
    """``body`` and its elements in document order, skipped subtrees and entities left out."""
    order: list[Element] = []
    walker = etree.iterwalk(body, events=("start",))
    for _, element in walker:
        tag = element.tag
        if tag.__class__ is not str:
            continue
        if tag in _SKIPPED_TAGS:
            walker.skip_subtree()
            continue
        order.append(element)
    return order


def _hash_body(body: Element) -> TreeHashes:
    elements = _preorder(body)
    count = len(elements)
    position = {element: index for index, element in enumerate(elements)}
    digests = [""] * count
    sizes = [0] * count
    chars = [0] * count
    parents = [-1] * count
    signed = [False] * count
    normalise = normalise_text
    for index in range(count - 1, -1, -1):  # children before their parent
        element = elements[index]
        tag = element.tag
        text = element.text
        own = normalise(text)
        parts = [tag, own]
        size = 2 * len(tag) + _TAG_OVERHEAD + (len(text) if text else 0)
        text_chars = len(own)
        is_signed = bool(own) or tag in _SIGNAL_TAGS
        if tag == "a":
            href = element.get("href")
            if href is not None:
                parts.append("\x01" + href_path(href))
        for child in element:
            child_index = position.get(child)
            if child_index is not None:
                parents[child_index] = index
                parts.append(digests[child_index])
                size += sizes[child_index]
                text_chars += chars[child_index]
                is_signed = is_signed or signed[child_index]
            tail = child.tail
            if tail:
                size += len(tail)
                tail = normalise(tail)
                if tail:
                    text_chars += len(tail)
                    parts.append("\x02" + tail)
                    is_signed = True
        digests[index] = blake2b(
            "\x00".join(parts).encode("utf-8", "surrogatepass"), digest_size=8
        ).hexdigest()
        sizes[index] = size
        chars[index] = text_chars
        signed[index] = is_signed
    hashes = [int(digest, 16) for digest in digests]
    return TreeHashes(elements, hashes, sizes, chars, parents, signed)


def fingerprint_hashes(tree: TreeHashes) -> list[int]:
    """The distinct hashes of the signed elements, in document order, at most
    :data:`MAX_FINGERPRINT_HASHES`: what a page tells its site's SiteLevel counts."""
    seen: set[int] = set()
    kept: list[int] = []
    for digest, is_signed in zip(tree.hashes, tree.signed, strict=True):
        if is_signed and digest not in seen:
            seen.add(digest)
            kept.append(digest)
            if len(kept) == MAX_FINGERPRINT_HASHES:
                break
    return kept


def encode_hashes(hashes: list[int]) -> bytes:
    """64-bit hashes as little-endian unsigned integers, 8 bytes each."""
    packed = array("Q", hashes)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed.tobytes()


def decode_hashes(data: bytes) -> array[int]:
    """The hashes :func:`encode_hashes` packed."""
    packed = array("Q")
    packed.frombytes(data)
    if sys.byteorder == "big":
        packed.byteswap()
    return packed


def page_fingerprint(root: Element) -> bytes:
    """:func:`fingerprint_hashes` of ``root``'s tree, :func:`encoded <encode_hashes>` (8 bytes
    per hash): small and quick to send from a worker process. Forgets the remembered tree.

    The compiled twin computes it without element objects unless the tree or the fingerprint
    is remembered."""
    if _FINGERPRINT_MEMO and _FINGERPRINT_MEMO[0][0] is root:
        fingerprint = _FINGERPRINT_MEMO[0][1]
    elif _hashing is None:
        fingerprint = encode_hashes(fingerprint_hashes(hash_tree(root)))
    elif _MEMO and _MEMO[0][0] is root:
        tree = _MEMO[0][1]
        fingerprint = _hashing.fingerprint_of(tree.hashes, tree.signed, MAX_FINGERPRINT_HASHES)
    else:
        body = body_of(root)
        fingerprint = b"" if body is None else _hashing.fingerprint(body, MAX_FINGERPRINT_HASHES)
    _MEMO.clear()
    _FINGERPRINT_MEMO.clear()
    return fingerprint


def remember_fingerprint(root: Element, fingerprint: bytes) -> None:
    """Keep ``fingerprint``, :func:`page_fingerprint` of ``root`` computed along another walk
    of the same tree, until :func:`page_fingerprint` reads it (one per process)."""
    _FINGERPRINT_MEMO[:] = [(root, fingerprint)]


#: The compiled twin of the walk (``_hashing``), None when it is not built.
_hashing = compiled_twin(f"{__package__}._hashing")
#: True when the hashes come from the compiled twin.
ACCELERATED: Final = _hashing is not None
