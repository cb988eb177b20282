"""What a file really holds, decided once from its first bytes: every engine reads it the same way.

Two questions, answered before any reader opens the file:

* :func:`refuse_non_table` — is this a table at all? Magic bytes name what a file of the wrong kind is (an
  old binary Excel .xls, a zip or gzip archive, a Parquet, Feather or PDF file, an HTML page or a JSON
  document saved with a table's suffix, a binary file) and the custodian gets a plain sentence saying what
  to do, rather than a parser's traceback.
* :func:`sniff_text` — for delimited text (.csv, .tsv, .tab): its encoding (a byte-order mark, UTF-16
  without one, else UTF-8 whose bytes that are not UTF-8 read as Windows-1252, see below) and its
  delimiter (comma, semicolon, tab or pipe: the one that splits the first lines into the same number of
  fields, at least two; else the suffix's own). The memory, embedded and Spark engines all read with the
  :class:`TextFormat` returned, so they see the same columns, numbers and verdicts.

A number's decimal mark follows from the delimiter, cell by cell, never from the other cells: a point in a
comma-separated file (an unquoted comma separates fields), a point or a comma in any other (12.5 and 12,5
both read 12.5, as spreadsheets in most of Europe save a semicolon file). A mark guessed from the sample's
numbers (a comma when some cell held 12,5 and none 12.5) let one record holding 0.5, even in a column no
release read, make every other record's 1,3 text, and move them all to another category.

The format is a fact about the file's layout, not its content; the app shows it on the Data page.

Why no file-wide guess of a code page: a release must read every record the same way whatever the other
records hold (replace one). A guess from the content (charset-normalizer's) flipped a UTF-8 file to cp1250
when one record held a Windows-1252 byte, and every other record's "Zürich" then read as another text and
left its category. So a file without a byte-order mark is UTF-8, and a byte sequence that is not UTF-8 is
read byte by byte as Windows-1252 (:data:`FALLBACK_ERRORS`, a codec error handler): each cell's text
depends on its own bytes alone, and a Windows-1252 file reads as it should. charset-normalizer's guess of
such bytes is kept for the Data page's words only (``TextFormat.looks_like``): a file that looks like
another code page is told to be saved as UTF-8, or to be opened with its encoding declared.

A declared encoding (``--encoding``, the Data page's choice; :func:`declared_encoding`) is the custodian's
fact about the file, like a declared domain: the file is read with it, strictly, whatever its records
hold. A byte-order mark still names its own encoding: it is the file's layout, not its content.
"""

from __future__ import annotations

import codecs
import csv
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from dpgui.data.domain import POINT, POINT_OR_COMMA
from dpgui.data.errors import DataError

SNIFF_BYTES = 1 << 16
SNIFF_LINES = 20
DELIMITED_SUFFIXES: dict[str, str] = {".csv": ",", ".tsv": "\t", ".tab": "\t"}
"""Delimited-text suffixes and the delimiter each implies when sniffing finds no better one."""
CANDIDATE_DELIMITERS = (",", ";", "\t", "|")
PREFERRED_SINGLE_BYTE = "cp1252"
"""Windows' Western code page, the usual non-UTF-8 export of spreadsheets: chosen whenever it reads the
bytes as cleanly as charset-normalizer's best guess (on a table's short cells its language scores tie or
favour rarer code pages such as the Baltic cp775)."""
UNNAMED_CODE_PAGE = "non-UTF-8"
"""``TextFormat.looks_like`` of text that is not UTF-8 and that charset-normalizer cannot name."""
_DELIMITER_NAMES = {",": "comma", ";": "semicolon", "\t": "tab", "|": "pipe"}
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),  # before UTF-16's, which its mark starts with (FF FE 00 00)
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
"""Byte-order marks and the codec that reads past them; UTF-32 was read as UTF-16 (a loader fuzz: the
column 'x' came out as '\x00x\x00')."""

_SAVE_AS = "save the table as .csv, .xlsx, .parquet or .feather"

FALLBACK_ERRORS = "dpgui-windows-1252"
"""The codec error handler that reads a byte sequence UTF-8 refuses as Windows-1252, byte by byte (its five
undefined bytes as the Latin-1 control characters, as the WHATWG encoding standard reads them)."""
_UNDEFINED_IN_1252 = (0x81, 0x8D, 0x8F, 0x90, 0x9D)
_WINDOWS_1252 = tuple(
    chr(byte) if byte in _UNDEFINED_IN_1252 else bytes([byte]).decode("cp1252") for byte in range(256)
)


def _as_windows_1252(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    return "".join(_WINDOWS_1252[byte] for byte in error.object[error.start : error.end]), error.end


codecs.register_error(FALLBACK_ERRORS, _as_windows_1252)
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
"""The compound-file header of old .xls workbooks, and of password-protected .xlsx ones."""
_ENCRYPTED_PACKAGE = "EncryptedPackage".encode("utf-16-le")
"""The stream an encrypted Office file keeps its workbook in, named in the compound file's directory."""
_MAGIC: tuple[tuple[bytes, str], ...] = (
    (
        _OLE2,
        "an Excel 97-2003 workbook (.xls), which dpgui cannot read; open it in Excel or LibreOffice and "
        "save it as .xlsx or .csv",
    ),
    (b"\x1f\x8b", "compressed with gzip; decompress it first (gunzip) and open the table inside"),
    (b"PAR1", "a Parquet file; give it the .parquet suffix"),
    (b"ARROW1", "a Feather (Arrow) file; give it the .feather suffix"),
    (b"%PDF", f"a PDF document, not a table; {_SAVE_AS}"),
)


@dataclass(frozen=True)
class TextFormat:
    """How to read a delimited text file."""

    encoding: str
    """A Python codec name (pandas' ``encoding=``, Spark's ``encoding`` option)."""
    delimiter: str
    looks_like: str | None = None
    """The code page the first 64 KiB's bytes that are not UTF-8 look like (charset-normalizer's guess,
    cp1252 when it fits as well), None when they are all UTF-8 or the encoding is declared. Words only: the
    readers decode such bytes as Windows-1252 whatever it says (module doc)."""
    declared: str | None = None
    """The encoding the custodian declared (a codec name), None for the automatic reading; ``encoding``
    differs from it only when a byte-order mark names another."""
    blank_lines_are_records: bool = False
    """Whether an empty line is a record (pandas' ``skip_blank_lines=False``): in a file of one column, where
    a record whose cell is missing is written as an empty line. With several columns such a record is a
    line of delimiters, and an empty line is no record. Skipping them in a one-column file made the row
    count n, which every release states, count the records with a missing cell (replace one record by one
    with a missing cell, and n fell by one)."""

    @property
    def decimal_marks(self) -> str:
        """The decimal marks a number's cell may use (``domain.canonical_text``): a point in a comma-separated
        file, a point or a comma in any other. The readers parse with pandas' point and read the cells it
        leaves as text one by one, so both spellings of a number give the same float64."""
        return POINT if self.delimiter == "," else POINT_OR_COMMA

    @property
    def skip_blank_lines(self) -> bool:
        """pandas' ``skip_blank_lines=`` for this file."""
        return not self.blank_lines_are_records

    @property
    def encoding_errors(self) -> str:
        """The codec error handler of every reader (pandas' ``encoding_errors=``): UTF-8's bytes that are
        not UTF-8 read as Windows-1252, byte by byte; any other encoding decodes strictly."""
        return FALLBACK_ERRORS if _is_utf8(self.encoding) else "strict"

    def open_text(self, path: Path) -> TextIO:
        """The file opened as text the way the readers decode it (for Python's ``csv`` module)."""
        return path.open(newline="", encoding=self.encoding, errors=self.encoding_errors)

    @property
    def encoding_name(self) -> str:
        """The encoding as the user knows it ("UTF-8 with BOM", "cp1252")."""
        if self.looks_like is not None:
            return self.looks_like
        names = {
            "utf-8-sig": "UTF-8 with BOM",
            "utf-8": "UTF-8",
            "utf-16": "UTF-16",
            "utf-16-le": "UTF-16 (little-endian, no BOM)",
            "utf-16-be": "UTF-16 (big-endian, no BOM)",
        }
        return names.get(self.encoding, self.encoding)

    @property
    def delimiter_name(self) -> str:
        """The delimiter as the user knows it ("comma", "tab")."""
        return _DELIMITER_NAMES.get(self.delimiter, repr(self.delimiter))

    def describe(self) -> str:
        declared = " (declared)" if self.declared is not None else ""  # a mark of another family is refused
        described = f"{self.encoding_name} text{declared}, {self.delimiter_name}-separated"
        described += "" if self.decimal_marks == POINT else ", decimal point or comma"
        if self.looks_like not in (None, PREFERRED_SINGLE_BYTE):
            guess = "" if self.looks_like == UNNAMED_CODE_PAGE else f" ({self.looks_like}?)"
            described += (
                f"; dpgui reads its letters outside UTF-8 as cp1252: declare its encoding{guess} or save it "
                "as UTF-8 to keep them"
            )
        return described


def _first_bytes(path: Path) -> bytes:
    try:
        with path.open("rb") as handle:
            return handle.read(SNIFF_BYTES)
    except OSError as exc:
        raise DataError(f"{path.name}: could not be opened ({exc.strerror or exc}); check the path") from exc


NOT_FILE_ENCODINGS = frozenset({"idna", "punycode"})
"""Text codecs of internet domain names, not of files: they decode no table (idna refuses the error
handlers a reader needs)."""


def declared_encoding(name: str) -> str:
    """The codec name of an encoding the custodian declares ("cp1251", "shift_jis", "latin-1"), or a
    ``DataError`` naming what is wrong with it."""
    try:
        codec = codecs.lookup(name.strip())
    except LookupError:
        codec = None
    if codec is None or not getattr(codec, "_is_text_encoding", True) or codec.name in NOT_FILE_ENCODINGS:
        raise DataError(
            f"{name!r} is not a text encoding dpgui knows; name one such as cp1251, latin-1, shift_jis or "
            "utf-8 (Python's codec names)"
        )
    return codec.name


def refuse_non_table(path: Path, encoding: str | None = None) -> None:
    """Raise ``DataError`` with a plain sentence when the file is not the table its suffix promises
    (``encoding``: the declared encoding of delimited text, None for the automatic reading)."""
    suffix = path.suffix.lower()
    head = _first_bytes(path)
    if not head.strip():  # blanks only: read as one column named '   ' (a loader fuzz)
        raise DataError(f"{path.name}: the file is empty; choose a file with a header row and data")
    if head.startswith(_OLE2) and _ENCRYPTED_PACKAGE in head:
        raise DataError(
            f"{path.name}: the workbook is password-protected (encrypted), which dpgui cannot read; remove "
            f"the password in Excel (File > Info > Protect Workbook) and save again, or {_SAVE_AS}"
        )
    for magic, what in _MAGIC:
        if head.startswith(magic) and not (magic == b"PAR1" and suffix in (".parquet", ".pq")):
            if magic == b"ARROW1" and suffix in (".feather", ".arrow"):
                continue
            raise DataError(f"{path.name}: the file is {what}")
    zipped = head.startswith(b"PK\x03\x04")
    if suffix in (".xlsx", ".xls"):
        if not zipped:
            looks = "text (perhaps a CSV file)" if _decodes(head) else "not an Excel workbook"
            raise DataError(
                f"{path.name}: the file is {looks}, not an .xlsx workbook; give it the suffix of its real "
                f"format or {_SAVE_AS}"
            )
        return
    if zipped and suffix in DELIMITED_SUFFIXES:
        raise DataError(
            f"{path.name}: the file is a zip archive (an .xlsx workbook or a zipped file), not delimited "
            "text; give a workbook the .xlsx suffix, or unzip the file and open the table inside"
        )
    if suffix in DELIMITED_SUFFIXES:
        declared = None if encoding is None else declared_encoding(encoding)
        text = _decoded(head, _encoding_of(head, path, declared)[0])
        start = text.lstrip().lower()
        if start.startswith(("<!doctype html", "<html", "<?xml", "<head", "<body")):
            raise DataError(
                f"{path.name}: the file is a web page (HTML/XML), not a table: a download link may have "
                f"saved the page instead of the data; download the file itself or {_SAVE_AS}"
            )
        if start.startswith(("{", "[")) and _is_json(path, text):
            raise DataError(f"{path.name}: the file is a JSON document, not a table; {_SAVE_AS}")


def _decodes(head: bytes) -> bool:
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start >= len(head) - 3  # only a character cut at the end of the sample
    return not _looks_binary(head)


BINARY_NUL_SHARE = 0.01
"""A sample with more NUL bytes than this share is binary; a stray NUL in text is a bad cell, which the
data check counts and names in its column."""


def _looks_binary(head: bytes) -> bool:
    return head.count(b"\x00") > BINARY_NUL_SHARE * len(head)


def _is_json(path: Path, sample: str) -> bool:
    """A JSON document, or JSON Lines (one object per line: a loader fuzz read its lines as a table whose
    columns were named '{"x": 17')."""
    whole = len(sample) < SNIFF_BYTES // 2  # the whole file is in the sample
    if whole:
        try:
            json.loads(sample)
        except ValueError:
            return _is_json_lines(sample.splitlines())
        return True
    return sample.lstrip().startswith(('{"', "[{", "[\n", "{\n")) or _is_json_lines(sample.splitlines()[:-1])


def _is_json_lines(lines: list[str]) -> bool:
    """Whether every non-blank line is a JSON object or array (at least two lines)."""
    records = [line for line in lines if line.strip()]
    try:
        return len(records) >= 2 and all(isinstance(json.loads(line), dict | list) for line in records)
    except ValueError:
        return False


def _is_utf8(encoding: str) -> bool:
    """UTF-8, with or without a byte-order mark."""
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def _family(encoding: str) -> str:
    """A codec's name without its byte order or signature: 'utf-16-le' and 'utf-16' are both 'utf-16'."""
    name = codecs.lookup(encoding).name
    for suffix in ("-sig", "-le", "-be"):
        name = name.removesuffix(suffix)
    return name


def _decoded(head: bytes, encoding: str) -> str:
    """The sample as text (a character the sample's end cut is dropped)."""
    if _is_utf8(encoding) and not _decodes(head):
        return head.decode(encoding, errors=FALLBACK_ERRORS)
    return head.decode(encoding, errors="ignore")


def _encoding_of(head: bytes, path: Path, declared: str | None = None) -> tuple[str, str | None]:
    """The file's encoding (a byte-order mark's, else the declared one, UTF-16 without a mark, else
    UTF-8), and the code page its bytes that are not UTF-8 look like (``TextFormat.looks_like``).

    A declared encoding of another family than the byte-order mark's is refused: the mark decides how the
    file reads, and the manifest would state an encoding its cells were not read in."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            family = _family(encoding)
            if declared is not None and _family(declared) != family:
                raise DataError(
                    f"{path.name}: the file starts with a {family.upper()} byte-order mark, so it is "
                    f"{family.upper()} text, not the declared {declared}; declare {family}, or leave the "
                    "encoding undeclared"
                )
            return encoding, None
    if declared is not None:
        return declared, None
    utf16 = _utf16_without_bom(head)
    if utf16 is not None:
        return utf16, None
    if _looks_binary(head):
        raise DataError(
            f"{path.name}: the file holds binary data (NUL bytes), not text; check that it is the table you "
            f"meant, or {_SAVE_AS}"
        )
    return "utf-8", None if _decodes(head) else _code_page_guess(head, path)


CONTROL_SHARE = 0.01
"""A sample that is not UTF-8 and holds more control bytes than this share (other than tab and line ends)
is binary, not text in some code page."""
_CONTROL_BYTES = bytes([*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])


def _code_page_guess(head: bytes, path: Path) -> str:
    """charset-normalizer's guess of a sample that is not UTF-8 (cp1252 when it reads it as cleanly;
    :data:`UNNAMED_CODE_PAGE` when it names none), or a refusal of a binary sample."""
    from charset_normalizer import from_bytes  # lazy: only for files that are not UTF-8

    matches = list(from_bytes(head))
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    if not matches and controls <= CONTROL_SHARE * len(head):
        return PREFERRED_SINGLE_BYTE if _western_in_cp1252(head) else UNNAMED_CODE_PAGE
    if not matches:
        raise DataError(
            f"{path.name}: the file is not text in any encoding dpgui recognises (it may be binary); "
            f"{_SAVE_AS}"
        )
    least_chaos = min(match.chaos for match in matches)
    plausible = [match for match in matches if match.chaos == least_chaos]
    if any(PREFERRED_SINGLE_BYTE in match.could_be_from_charset for match in plausible):
        return PREFERRED_SINGLE_BYTE
    guess = codecs.lookup(plausible[0].encoding).name
    if guess in DOS_CODE_PAGES and _western_in_cp1252(head):
        return PREFERRED_SINGLE_BYTE
    return guess


DOS_CODE_PAGES = frozenset({"cp437", "cp850", "cp852", "cp858", "cp860", "cp863", "cp865"})
"""DOS code pages, which charset-normalizer may name for a short Latin-1 sample: a few accented letters
read as well in cp437 as in cp1252 (an audit's Latin-1 file was called cp437, and declaring cp437, as
advised, turned every é into Θ and refused the column)."""

_LATIN_LETTERS = re.compile(r"[À-ɏ]{1,2}")
"""One or two accented Latin letters (À to ɏ: é, ü, ñ, ß, the öß of Größe): a Western word's letters
outside ASCII come alone or in pairs, where cp1251's Cyrillic read as cp1252 makes whole words of them."""


def _western_in_cp1252(head: bytes) -> bool:
    """Whether cp1252 reads ``head``'s bytes outside ASCII as the accented letters of a Western European
    language: Latin letters, at most two in a row (Cyrillic, Greek or box drawing read so does not)."""
    try:
        text = head.decode(PREFERRED_SINGLE_BYTE)
    except UnicodeDecodeError:
        return False
    runs = re.findall(r"[^\x00-\x7f]+", text)
    return bool(runs) and all(run.isalpha() and _LATIN_LETTERS.fullmatch(run) for run in runs)


def _utf16_without_bom(head: bytes) -> str | None:
    """UTF-16 text saved without a byte-order mark ("utf-16-le" or "utf-16-be"), else None: its ASCII
    characters (the digits, delimiters and line ends of a table) leave every other byte NUL, and no other."""
    sample = head[: len(head) - len(head) % 2]
    if len(sample) < 8:
        return None
    even, odd = sample[0::2], sample[1::2]
    for zeros, others, encoding in ((odd, even, "utf-16-le"), (even, odd, "utf-16-be")):
        if zeros.count(0) >= 0.9 * len(zeros) and others.count(0) == 0:
            try:
                sample.decode(encoding)
            except UnicodeDecodeError:  # a character cut at the end of the sample is fine, not others
                if len(sample) < SNIFF_BYTES:
                    continue
            return encoding
    return None


def _complete_lines(text: str) -> list[str]:
    """The sample's non-blank lines, without a last line the sample may have cut."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1 and len(text) >= SNIFF_BYTES - 4:
        lines = lines[:-1]
    return lines


def _delimiter_of(text: str, default: str) -> str:
    lines = _complete_lines(text)[:SNIFF_LINES]
    if not lines:
        return default

    def consistent_fields(delimiter: str) -> int:
        counts = {len(row) for row in csv.reader(lines, delimiter=delimiter)}
        return counts.pop() if len(counts) == 1 else 0

    if consistent_fields(default) >= 2:
        return default
    best = max(CANDIDATE_DELIMITERS, key=consistent_fields)
    return best if consistent_fields(best) >= 2 else default


_THOUSANDS = {mark: re.compile(rf"[+-]?\d{{1,3}}{re.escape(mark)}\d{{3}}") for mark in POINT_OR_COMMA}
_SMALL_INTEGER = re.compile(r"[+-]?\d{1,3}")


@dataclass(frozen=True)
class SampledColumns:
    """A file's format and, per column of its header, the non-empty fields of its first 64 KiB's rows: what
    the data check's warnings about how cells are written read (``sampled_columns``), sniffed once."""

    text_format: TextFormat
    columns: tuple[tuple[str, tuple[str, ...]], ...]


def sampled_columns(path: Path, encoding: str | None = None) -> SampledColumns:
    """The sample of a delimited file; none (and a point as the decimal mark) for another file, or one
    whose sample does not parse."""
    if path.suffix.lower() not in DELIMITED_SUFFIXES or not path.is_file():
        return SampledColumns(TextFormat("utf-8", ","), ())
    text_format, text = _sniffed(path, encoding)
    try:
        header, *rows = csv.reader(_complete_lines(text), delimiter=text_format.delimiter)
    except (csv.Error, ValueError):
        return SampledColumns(text_format, ())
    return SampledColumns(
        text_format,
        tuple(
            (
                name.strip(),
                tuple(row[position].strip() for row in rows if position < len(row) and row[position].strip()),
            )
            for position, name in enumerate(header)
        ),
    )


def thousands_separator_columns(sample: SampledColumns) -> tuple[str, ...]:
    """The columns of a delimited file whose sampled numbers all look like integers written with a
    decimal mark between the thousands: 1.047 or 12.500 (one to three digits, the mark, exactly three
    digits; a comma too where it is a decimal mark, outside comma-separated files), and plain integers
    below 1,000.

    German and Dutch spreadsheets write 1047 as 1.047, English ones as 1,047; the file cannot say whether
    the mark is a decimal mark or a thousands separator, and dpgui reads a decimal mark, 1,000 times too
    small if the other was meant. The data check turns these columns into a warning before anything is
    charged."""
    separated = [_THOUSANDS[mark] for mark in sample.text_format.decimal_marks]
    suspects = []
    for name, fields in sample.columns:
        marked = sum(1 for field in fields if any(pattern.fullmatch(field) for pattern in separated))
        plain = sum(1 for field in fields if _SMALL_INTEGER.fullmatch(field))
        if marked and marked + plain == len(fields) >= 2:
            suspects.append(name)
    return tuple(suspects)


def mixed_decimal_mark_columns(sample: SampledColumns) -> tuple[str, ...]:
    """The columns of a file whose decimal mark may be a point or a comma (not comma-separated) whose
    sampled numbers use both: 4,898 beside 915.0 is 4.898 and 915 to dpgui, and 4898 and 915 to the English
    spreadsheet that wrote the comma as a thousands separator (a loader fuzz released quantiles 6, 13, 501
    of a column whose median is about 1,000). The data check warns of them before anything is charged."""
    if sample.text_format.decimal_marks != POINT_OR_COMMA:
        return ()
    return tuple(
        name
        for name, fields in sample.columns
        if any(_WITH_MARK[","].fullmatch(field) for field in fields)
        and any(_WITH_MARK["."].fullmatch(field) for field in fields)
    )


_WITH_MARK = {mark: re.compile(rf"[+-]?\d*{re.escape(mark)}\d+") for mark in POINT_OR_COMMA}
"""A number written with one decimal mark: 4,898 or .5."""


_SEPARATOR_LINE = re.compile(r"sep=(.)\s*$")


def _refuse_separator_line(text: str, path: Path) -> None:
    """Excel's "sep=;" first line names the delimiter; no engine's reader skips it, so the header would be
    read as one column called "sep=;". Refuse in words."""
    first = text.lstrip("\ufeff").split("\n", 1)[0].strip().strip('"')
    match = _SEPARATOR_LINE.fullmatch(first)
    if match:
        raise DataError(
            f"{path.name}: the first line, {first!r}, is Excel's hint that the file is "
            f"{_DELIMITER_NAMES.get(match.group(1), repr(match.group(1)))}-separated, not the header; delete "
            "that line (the delimiter is found without it) and open the file again"
        )


def sniff_text(path: Path, encoding: str | None = None) -> TextFormat:
    """The encoding (``encoding`` when the custodian declared one, see :func:`declared_encoding`),
    delimiter (its suffix's unless another fits) of a delimited text file."""
    return _sniffed(path, encoding)[0]


def _sniffed(path: Path, declared: str | None = None) -> tuple[TextFormat, str]:
    """The file's format and its first bytes decoded with it (the sample the format was read from)."""
    head = _first_bytes(path)
    declared = None if declared is None else declared_encoding(declared)
    encoding, looks_like = _encoding_of(head, path, declared)
    text = _decoded(head, encoding)
    _refuse_separator_line(text, path)
    delimiter = _delimiter_of(text, DELIMITED_SUFFIXES.get(path.suffix.lower(), ","))
    one_column = _header_fields(text, delimiter) == 1
    return TextFormat(encoding, delimiter, looks_like, declared, one_column), text


def _header_fields(text: str, delimiter: str) -> int:
    """The number of fields of the sample's first line (the header; 0 for an empty sample)."""
    lines = text.lstrip("\ufeff").splitlines()
    try:
        return len(next(csv.reader(lines[:1], delimiter=delimiter), []))
    except csv.Error:
        return 0


_BINARY_FORMATS = {
    ".parquet": "Parquet",
    ".pq": "Parquet",
    ".feather": "Feather (Arrow)",
    ".arrow": "Feather (Arrow)",
    ".xlsx": "Excel workbook (first sheet)",
    ".xls": "Excel workbook (first sheet)",
}


def describe_file_format(path: Path, encoding: str | None = None) -> str:
    """How the file is read, for the Data page: "cp1252 text, semicolon-separated", "Parquet", ...
    (a dash for a source that is not a local file, such as a Spark catalog table)."""
    if not path.exists():
        return "—"
    if path.is_dir():
        return "Parquet folder"
    suffix = path.suffix.lower()
    if suffix in DELIMITED_SUFFIXES:
        return sniff_text(path, encoding).describe()
    if suffix == ".xlsx":
        return _describe_workbook(path)
    return _BINARY_FORMATS.get(suffix, suffix)


def _describe_workbook(path: Path) -> str:
    """ "Excel workbook (first sheet)", naming the sheets dpgui does not read when there are others."""
    from openpyxl import load_workbook  # lazy: only for workbooks

    try:
        workbook = load_workbook(path, read_only=True)
    except Exception:  # the loader reports a damaged workbook in its own words
        return _BINARY_FORMATS[".xlsx"]
    others = workbook.sheetnames[1:]
    workbook.close()
    if not others:
        return _BINARY_FORMATS[".xlsx"]
    return (
        f"Excel workbook (first sheet {workbook.sheetnames[0]!r}; not read: {', '.join(map(repr, others))})"
    )
