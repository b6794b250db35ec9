"""Sentence splitting for English and Chinese, whole-text and streaming.

A sentence ends at:

- ``。！？；`` (Chinese full stop, full-width ``！？``, full-width semicolon), always;
- ``. ! ?`` when followed by whitespace, a citation marker, a CJK character or the end of
  the text; so decimals (``3.5``), versions (``2.1.0``), URLs and e-mail addresses
  (``example.com/a?b=1``) never split;
- a line break: each list item or non-empty line is its own sentence.

Exceptions: ``e.g. i.e. Dr. Mr. Mrs. Ms. Prof. vs. approx. cf. fig. Co.`` never end a
sentence; ``etc. No. a.m. p.m. Inc. Ltd. Jr.``, the short forms written before a number
or a date (``ext. 5555``, ``Tel.``, ``Rm.``, ``p.``, ``15 Jan. 2025``), dotted initials
(``B.V.``, ``U.S.``) and an ellipsis (``...``, ``…``) end one only when the next word
starts with a capital letter (or the text ends), or for a Latin ``... `` between two
Chinese characters (a snippet's cut); a full stop followed by a lower-case Latin letter
never ends one (English sentences start with a capital); ``1.`` at the start of a line is
a list number.

What follows the final punctuation stays with the sentence: closing quotes and brackets
(``."``, ``。」``, ``.)``) and citation markers (``... 30 days. [2]``, ``... 30 天。【2】``,
``... 30 days. (Source 2)``, ``... 30 days.²``), numbered or not (``[Source: Recycle bin]``).

Streaming (``SentenceBuffer``) releases a sentence only once the text after it proves it
ended: the next non-space character exists and is not a marker or a closing character, or a
line break came. A marker split across deltas (``[`` then ``2]``, ``(Sour`` then ``ce 1)``, ``¹``
then ``,²``) is therefore never cut, and
the buffer returns exactly what ``split_sentences`` returns for the concatenated text, however
the text is cut into deltas.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from kbqa.core.text.normalise import has_cjk

_CJK_TERMINATORS = frozenset("。！？；")
_TERMINATORS = frozenset(".!?…") | _CJK_TERMINATORS
_CLOSERS = frozenset("\"'”’」』)）]】》〉*")
_HSPACE = frozenset(" \t\r\u3000\u00a0")

_D = "[0-9０-９]"
_SEP = "[,，、\\-–—~～]"
# The word some models and gateways put before the number: [ID:1], [S1], [source 1], [来源1].
_KEY = r"(?:ids?|sources?|src|ref|s|来源|出处)\s*[:：#]?\s*"
_ITEM = rf"\^?(?:{_KEY})?{_D}+"
_LIST = rf"\s*{_ITEM}(?:\s*{_SEP}\s*{_ITEM})*\s*"
_SOURCE_LIST = rf"\s*(?:sources?|来源|出处)\s*[:：]?\s*{_D}+(?:\s*{_SEP}\s*{_D}+)*\s*"
_SUP = "[⁰¹²³⁴-⁹]"
# Superscript digits as footnote markers, never an exponent: not after a digit (10⁶) or a
# length unit (m², cm³, ft²).
_SUPERSCRIPT = (
    rf"(?<![0-9⁰¹²³⁴-⁹^])(?<!\bm)(?<!\b[kcdm]m)(?<!\bft){_SUP}+(?:[,，]\s*{_SUP}+)*"
)
#: A citation marker: ``[2]``, ``[1, 3]``, ``[1-3]``, ``[^2]``, ``【2】``, ``［２］``, and the
#: forms models and gateways also write: ``[ID:1]``, ``[S1]``, ``[source 1]``, ``[来源1]``,
#: ``(Source 1)``, ``（来源1）`` and superscript digits ``¹``.
MARKER_RE = re.compile(
    rf"\[{_LIST}\]|【{_LIST}】|［{_LIST}］|[(（]{_SOURCE_LIST}[)）]|{_SUPERSCRIPT}", re.IGNORECASE
)
#: Text that looks like a citation marker but names no number: ``[Source: Upload Policy]``,
#: ``[ID:abc]``, ``【来源：上传制度】``, or a chunk id ``[doc-010#c02]``. The verifier reports it
#: as a citation of a source that was not issued, not as a sentence without citation. In
#: parentheses only a numbered one is a marker: news text writes "（来源：澎湃新闻）" itself.
LOOSE_MARKER_RE = re.compile(
    r"[\[【［]\s*(?:ids?|sources?|src|ref|来源|出处)\s*[:：#]?\s*[^\]】］\n]{1,60}[\]】］]"
    r"|\[[\w.-]+#c\d+(?:v\d+)?\]",
    re.IGNORECASE,
)
# What stays with the sentence before it: any marker, numbered or not.
_ATTACHED_RE = re.compile(f"{MARKER_RE.pattern}|{LOOSE_MARKER_RE.pattern}", re.IGNORECASE)
# A marker (numbered or not) that has not finished arriving yet: ``[``, ``[2``, ``【1,``,
# ``[^``, ``(Sour``, ``[ID:``. Anything opened and not yet closed may still become one.
_PARTIAL_MARKER_RE = re.compile(r"[\[【［(（][^\]】］)）\n]{0,64}|" + _SUP + "+[,，]?\\s*")

_HARD_ABBREVIATIONS = frozenset(
    "e.g. i.e. dr. mr. mrs. ms. prof. vs. approx. cf. fig. st. co.".split()
)
# ...and the short forms that stand before a number or a date in documents ("ext. 5555",
# "Tel. +65 …", "by 15 Jan. 2025", "Rm. 1203", "p. 4", "Mon.–Fri."): a sentence does not
# start with a digit after them.
_SOFT_ABBREVIATIONS = frozenset(
    "etc. no. nos. nr. a.m. p.m. inc. ltd. jr. sr. ext. tel. fax. mob. p. pp. vol. art. sec. "
    "para. ch. rm. bldg. ca. incl. excl. dept. est. min. max. hr. hrs. mins. "
    "jan. feb. mar. apr. jun. jul. aug. sep. sept. oct. nov. dec. "
    "mon. tue. tues. wed. thu. thur. thurs. fri. sat. sun.".split()
)
_OPENERS = "([{\"'“‘（「『《【"


@dataclass(frozen=True)
class _Undecided:
    """The buffer ends before the text could prove whether a sentence ended here."""


_UNDECIDED = _Undecided()


_QUOTE_MARK_RE = re.compile(r"^[ \t]*(?:>[ \t]?)+")


def join_quote_lines(text: str) -> str:
    """``text`` with each Markdown quote as one line without its ``>`` markers: "> This page
    is archived. … and is kept" / "> only as a historical reference." read as one paragraph
    (a sentence split at the wrapped line was quoted cut off, and its second half then read
    as a claim the source did not make), a paragraph of its own. Other lines are unchanged."""
    out: list[str] = []
    quoting = False
    for line in text.split("\n"):
        mark = _QUOTE_MARK_RE.match(line)
        if mark is None:
            quoting = False
            out.append(line)
            continue
        body = line[mark.end():].strip()
        if quoting and body and out and out[-1]:
            out[-1] += ("" if _joins_tight(out[-1][-1], body[0]) else " ") + body
        else:
            if not quoting and out and out[-1].strip():
                out.append("")  # a quote is a paragraph of its own
            out.append(body)
        quoting = bool(body)
    return "\n".join(out)


def joined(sentences: Sequence[str]) -> str:
    """``sentences`` as one text: a space after each, except after a sentence ending in a
    full-width character (。！？), as Chinese is written: "…保存 180 天。NimbusDrive…"."""
    out = ""
    for s in sentences:
        if out and s:
            out += "" if wide(out[-1]) else " "
        out += s
    return out


def _joins_tight(left: str, right: str) -> bool:
    """CJK characters and full-width punctuation join without a space."""
    return wide(left) and wide(right)


def wide(char: str) -> bool:
    """Whether ``char`` is a CJK character or full-width punctuation (East Asian Width W/F)."""
    return unicodedata.east_asian_width(char) in ("W", "F")


def split_sentences(text: str) -> list[str]:
    """Split ``text`` into stripped, non-empty sentences (rules in the module docstring)."""
    sentences, _, _ = _scan(text, final=True)
    return sentences


class SentenceBuffer:
    """Collects streamed deltas and releases sentences once they have provably ended.

    ``feed`` returns the sentences completed by this delta (often none); ``flush`` returns
    the rest at the end of the stream. Concatenating everything returned equals
    ``split_sentences`` of the whole text.
    """

    def __init__(self) -> None:
        self._pending = ""
        # Offset in ``_pending`` up to which the last ``feed`` scanned: the next one resumes
        # there instead of rescanning the unfinished sentence from its start. After a release
        # it is 0, since cutting ``_pending`` can change how its first word reads ("。.!X.").
        self._scanned = 0

    @property
    def pending(self) -> str:
        """Text received but not yet released."""
        return self._pending

    def feed(self, delta: str) -> list[str]:
        """Add ``delta``; return the sentences now safe to release, in order."""
        self._pending += delta
        sentences, used, scanned = _scan(self._pending, final=False, resume=self._scanned)
        self._pending = self._pending[used:]
        self._scanned = 0 if used else scanned
        return sentences

    def flush(self) -> list[str]:
        """Return whatever is left as sentences and empty the buffer."""
        sentences, _, _ = _scan(self._pending, final=True)
        self._pending = ""
        self._scanned = 0
        return sentences


def _scan(text: str, *, final: bool, resume: int = 0) -> tuple[list[str], int, int]:
    """Sentences found in ``text``, the offset up to which text was consumed, and the offset
    a later scan of ``text`` plus more may resume from.

    ``resume`` is such an offset from a scan of a prefix of ``text`` that consumed nothing:
    no newline precedes it, and each terminator run before it was decided "no end" from text
    that appending more cannot change.
    """
    out: list[str] = []
    start, i = 0, resume
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            _emit(out, text[start:i])
            start = i = i + 1
            continue
        if ch not in _TERMINATORS:
            i += 1
            continue
        run_end = i
        while run_end < n and text[run_end] in _TERMINATORS:
            run_end += 1
        decided = _decide(text, i, run_end, final=final)
        if isinstance(decided, _Undecided):
            return out, start, i
        if decided is None:
            i = run_end
            continue
        _emit(out, text[start:decided])
        start = i = decided
    if final:
        _emit(out, text[start:])
        start = n
    return out, start, n


def _emit(out: list[str], sentence: str) -> None:
    stripped = sentence.strip()
    if stripped:
        out.append(stripped)


def _decide(text: str, i: int, run_end: int, *, final: bool) -> int | None | _Undecided:
    """For the terminator run ``text[i:run_end]``: the sentence's end offset, or None when
    the run does not end a sentence, or _UNDECIDED when more text is needed."""
    n = len(text)
    j = run_end
    while j < n and text[j] in _CLOSERS:
        j += 1
    run = text[i:run_end]
    if not any(c in _CJK_TERMINATORS for c in run):
        if j == n:
            return n if final else _UNDECIDED
        follower = text[j]
        if not (follower.isspace() or has_cjk(follower) or follower in "[【［"
                or _ATTACHED_RE.match(text, j)):
            if final or not _PARTIAL_MARKER_RE.fullmatch(text, j) or follower.isalnum():
                return None  # 3.5, 2.1.0, example.com, a?b=1
            return _UNDECIDED  # "200 MB.(" may still become "200 MB.(Source 1)"
    tail = _tail(text, j, final=final)
    if isinstance(tail, _Undecided):
        return tail
    end, next_char = tail
    if any(c in _CJK_TERMINATORS for c in run) or "!" in run or "?" in run:
        return end
    return end if _full_stop_ends(text, i, run, next_char) else None


def _tail(text: str, j: int, *, final: bool) -> tuple[int, str | None] | _Undecided:
    """Attach markers after offset ``j``; return (sentence end, next character) where the
    next character is the first that proves the end (None at the end of the final text)."""
    n = len(text)
    end = j
    while True:
        p = end
        while p < n and text[p] in _HSPACE:
            p += 1
        if p == n:
            return (end, None) if final else _UNDECIDED
        marker = _ATTACHED_RE.match(text, p)
        if marker:
            end = marker.end()
            continue
        if not final and _PARTIAL_MARKER_RE.fullmatch(text, p):
            return _UNDECIDED
        return end, text[p]


def _snippet_break(text: str, i: int, run: str, next_char: str | None) -> bool:
    """Whether a Latin ellipsis between Chinese words ends a sentence: "拍的是... 还是《曾经》
    的导演". Chinese writes its own ellipsis (……); a Latin ``...`` and a space between two
    Chinese characters is where a search engine cut a snippet (RGB's passages are such
    snippets), and what follows it is another text."""
    end = i + len(run)
    return ("…" not in run and next_char is not None and has_cjk(next_char) and i > 0
            and has_cjk(text[i - 1]) and end < len(text) and text[end] in _HSPACE)


def _full_stop_ends(text: str, i: int, run: str, next_char: str | None) -> bool:
    """Whether a run of ``.``/``…`` at ``i`` ends the sentence, given the next character."""
    capital_next = next_char is None or next_char == "\n" or next_char.isupper()
    if len(run) > 1 or "…" in run:  # ellipsis: mid-sentence unless a new sentence starts
        return capital_next or _snippet_break(text, i, run, next_char)
    word_start = i
    while word_start > 0 and not text[word_start - 1].isspace():
        word_start -= 1
    word = text[word_start : i + 1].lstrip(_OPENERS).lower()
    if word in _HARD_ABBREVIATIONS:
        return False
    if word in _SOFT_ABBREVIATIONS or "." in word[:-1]:  # "B.V.", "U.S.": dotted initials
        return capital_next or (next_char is not None and has_cjk(next_char))
    if next_char is not None and next_char.isascii() and next_char.islower():
        return False  # an English sentence does not start in lower case: "approx. five"
    line_start = text.rfind("\n", 0, word_start) + 1
    if word[:-1].isdigit() and not text[line_start:word_start].strip():
        return False  # "1. Upload the file" is a list number
    return True
