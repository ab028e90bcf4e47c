"""Page bytes to text: byte-order mark, declared charset, or detection.

Bytes are decoded (:func:`decode_html`) by the first of these rules that applies:

1. A byte-order mark (UTF-8, UTF-16 or UTF-32), read by w3lib. Such bytes are never binary.
2. The charset of the HTTP ``Content-Type``, else of the first ``<meta>`` or XML declaration
   (w3lib's rules: a charset Python does not know is passed over), with two exceptions:

   * UTF-16 and UTF-32 are impossible in a declaration that could be read as ASCII: a
     ``<meta>`` declaring one means UTF-8 (as in HTML), and a header declaring one is passed over
     when the first 4 KiB hold no NUL byte (UTF-16 or UTF-32 HTML has one in every ASCII
     character).
   * A UTF-8 declaration on bytes that are not valid UTF-8 gives way to detection (rule 3) when
     the detection sample holds at least 4 invalid sequences and they are over 20% of its
     non-ASCII sequences (valid multi-byte characters plus invalid sequences): the page is in a
     legacy charset. Fewer invalid sequences become U+FFFD.

3. No declaration: valid UTF-8 is UTF-8, without detection. Other bytes go to
   charset-normalizer, limited to the legacy encodings of the WHATWG Encoding Standard, in a
   sample of at most 64 KiB that starts at most 1 KiB before the first byte that is not UTF-8
   and is cut only at ``<``, ``>``, space or newline (never inside a multi-byte character).
   cp1252 (the web's commonest legacy charset) wins over the best guess when a cp1252 reading
   is about as orderly (mess within 0.02) and reads as the same language; it is also the
   answer when nothing fits.

Bytes that look binary (:func:`looks_binary`) raise :class:`InvalidInputError`, except under
rule 1 and under a header's UTF-16 or UTF-32 charset. NUL characters are dropped.
"""

from __future__ import annotations

import charset_normalizer
from w3lib.encoding import (
    html_body_declared_encoding,
    html_to_unicode,
    http_content_type_encoding,
    read_bom,
    resolve_encoding,
    to_unicode,
)

from ..errors import InvalidInputError

__all__ = ["decode_html", "decode_page", "looks_binary"]

_WIDE_UNICODE = frozenset({"utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be"})
#: Without a BOM, "utf-16" and "utf-32" are big-endian (as w3lib reads them).
_BIG_ENDIAN = {"utf-16": "utf-16-be", "utf-32": "utf-32-be"}

# -- binary sniffing
_BINARY_SAMPLE = 4096
#: Share of control bytes in the first 4 KiB above which bytes are taken as binary.
_MAX_CONTROL_SHARE = 0.05
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27))
_BINARY_SIGNATURES = (
    b"%PDF-",
    b"\x89PNG\r\n\x1a\n",
    b"GIF87a",
    b"GIF89a",
    b"\xff\xd8\xff",  # JPEG
    b"\x1f\x8b",  # gzip
    b"PK\x03\x04",  # zip
    b"\x28\xb5\x2f\xfd",  # zstd
)

# -- charset detection
_DETECTION_SAMPLE = 64 * 1024
_DETECTION_LEAD = 1024
#: ASCII bytes below 0x40: never part of a multi-byte character in an ASCII-compatible
#: encoding (UTF-8 continuation bytes are 0x80 and above; Shift_JIS, GBK and Big5 trail bytes
#: 0x40 and above), so a sample cut after one holds whole characters.
_SAFE_CUTS = (b"<", b">", b"\n", b" ")
_MIN_INVALID_UTF8 = 4
_MAX_INVALID_UTF8_SHARE = 0.2
_FALLBACK_ENCODING = "cp1252"
_CP1252_MESS_MARGIN = 0.02
#: The legacy encodings of the WHATWG Encoding Standard, as Python names them.
_WEB_ENCODINGS = [
    "cp1252", "cp1250", "cp1251", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257", "cp1258",
    "cp874", "iso8859_2", "iso8859_3", "iso8859_4", "iso8859_5", "iso8859_6", "iso8859_7",
    "iso8859_8", "iso8859_10", "iso8859_13", "iso8859_14", "iso8859_15", "iso8859_16",
    "koi8_r", "koi8_u", "cp866", "mac_roman", "mac_cyrillic", "gb18030", "big5", "euc_jp",
    "iso2022_jp", "shift_jis", "cp932", "euc_kr", "cp949",
]  # fmt: skip


def looks_binary(data: bytes) -> bool:
    """Whether ``data`` is not text: True if it starts with the signature of a common binary
    format (PDF, PNG, GIF, JPEG, gzip, zip, zstd) or if over 5% of its first 4 KiB are control
    bytes (NUL and the C0 controls other than TAB, LF, FF, CR and ESC).

    Compressed or random bytes hold about 10.5% control bytes (27 of the 256 byte values), text
    next to none: a few stray NULs pass (:func:`~.parsing.parse_html` drops them). Bytes that
    start with a byte-order mark are text (UTF-16 and UTF-32 hold NULs): False.
    """
    if data.startswith(_BINARY_SIGNATURES):
        return True
    if read_bom(data)[0] is not None:
        return False
    sample = data[:_BINARY_SAMPLE]
    if not sample:
        return False
    controls = len(sample) - len(sample.translate(None, _CONTROL_BYTES))
    return controls > _MAX_CONTROL_SHARE * len(sample)


def decode_html(data: bytes, content_type: str | None = None) -> str:
    """Decode page bytes to text by the rules of the module docstring.

    Raises :class:`InvalidInputError` for bytes that look binary.
    """
    return decode_page(data, content_type)[0]


def decode_page(data: bytes, content_type: str | None) -> tuple[str, bool]:
    """The text of ``data``, and whether it is valid UTF-8 decoded as such (BOM aside)."""
    bom_encoding, _ = read_bom(data)
    if bom_encoding is not None:
        encoding, text = html_to_unicode(content_type, data)
        return text, encoding == "utf-8" and "\ufffd" not in text
    declared = _declared_encoding(data, content_type)
    if declared in _WIDE_UNICODE:  # from the header, with NULs where ASCII would be
        return to_unicode(data, _BIG_ENDIAN.get(declared, declared)), False
    if looks_binary(data):
        raise InvalidInputError(
            "input looks binary, not HTML (a binary format's signature, NUL or control bytes)"
        )
    if declared is not None and declared != "utf-8":
        text = to_unicode(data, declared)
        # ASCII read as ASCII (as Scrapy's "cp1252" for undeclared ASCII) is UTF-8 as well.
        return text, data.isascii() and text == data.decode("ascii")
    try:
        return str(data, "utf-8"), True
    except UnicodeDecodeError as error:
        sample = _detection_sample(data, error.start)
    if declared == "utf-8" and not _mostly_invalid_utf8(sample):
        return to_unicode(data, "utf-8"), False
    return to_unicode(data, _detect_encoding(sample)), False


def _declared_encoding(data: bytes, content_type: str | None) -> str | None:
    """The header's charset, else the first ``<meta>`` or XML declaration's (rule 2)."""
    header = http_content_type_encoding(content_type)
    if header is not None and (header not in _WIDE_UNICODE or b"\x00" in data[:_BINARY_SAMPLE]):
        return header
    declared = html_body_declared_encoding(data)
    return "utf-8" if declared in _WIDE_UNICODE else declared


def _detection_sample(data: bytes, first_invalid: int) -> bytes:
    """At most 64 KiB from at most 1 KiB before ``first_invalid``, cut at :data:`_SAFE_CUTS`."""
    start = max(0, first_invalid - _DETECTION_LEAD)
    if start:
        cuts = [data.find(cut, start, first_invalid) for cut in _SAFE_CUTS]
        start = min((cut + 1 for cut in cuts if cut >= 0), default=first_invalid)
    end = start + _DETECTION_SAMPLE
    if end < len(data):
        last_cut = max(data.rfind(cut, start, end) for cut in _SAFE_CUTS)
        end = last_cut + 1 if last_cut > start else end
    return data[start:end]


def _mostly_invalid_utf8(sample: bytes) -> bool:
    """At least 4 invalid UTF-8 sequences, over 20% of the sample's non-ASCII sequences."""
    text = sample.decode("utf-8", "replace")
    invalid = text.count("\ufffd") - sample.count("\ufffd".encode())
    non_ascii = len(text) - len(text.encode("ascii", "ignore"))
    return invalid >= _MIN_INVALID_UTF8 and invalid > _MAX_INVALID_UTF8_SHARE * non_ascii


def _detect_encoding(sample: bytes) -> str:
    """charset-normalizer's reading of ``sample``, preferring cp1252 (rule 3)."""
    matches = charset_normalizer.from_bytes(sample, cp_isolation=_WEB_ENCODINGS)
    best = matches.best()
    if best is None:
        return _FALLBACK_ENCODING
    for match in matches:
        if (
            _FALLBACK_ENCODING in match.could_be_from_charset
            and match.chaos <= best.chaos + _CP1252_MESS_MARGIN
            and match.language == best.language
        ):
            return _FALLBACK_ENCODING
    return resolve_encoding(best.encoding) or _FALLBACK_ENCODING
