"""Text normalisation shared by ingestion, assembly and verification.

``normalise`` folds case, width (NFKC) and whitespace; ``fingerprint`` hashes the
letters and digits only, so two chunks that differ in case, spacing or full/half-width
punctuation (``，`` vs ``,``) get the same fingerprint; ``detect_language`` picks the
language a refusal or notice must speak.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

from kbqa.core.types import Language

# CJK Unified Ideographs (+ Extension A and compatibility ideographs).
CJK_CHARS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_CJK_RE = re.compile(f"[{CJK_CHARS}]")
# Latin letters, full-width ones too ("Ｗｈａｔ ｉｓ…" typed with a CJK input method is English)
_LATIN_RE = re.compile(r"[A-Za-z\uff21-\uff3a\uff41-\uff5a]")
# Full-width CJK punctuation (。，、？！：；「」『』【】《》（）) and the U+FFxx forms ？！，：；
_CJK_PUNCT_RE = re.compile("[\u3000-\u303f\uff01\uff0c\uff1a\uff1b\uff1f\uff08\uff09]")
_SPACE_RE = re.compile(r"\s+")
_NON_WORD_RE = re.compile(r"[\W_]+", re.UNICODE)


def normalise(text: str) -> str:
    """NFKC-fold, lower-case and collapse runs of whitespace to one space."""
    folded = unicodedata.normalize("NFKC", text).lower()
    return _SPACE_RE.sub(" ", folded).strip()


def fingerprint(text: str) -> str:
    """Hex SHA-1 (40 chars) of the normalised text with punctuation and spaces removed."""
    core = _NON_WORD_RE.sub("", normalise(text))
    return hashlib.sha1(core.encode("utf-8")).hexdigest()


def sha256(text: str) -> str:
    """Hex SHA-256 of the UTF-8 text; traces store it for each block shown."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def has_cjk(text: str) -> bool:
    """True when ``text`` contains at least one CJK ideograph."""
    return _CJK_RE.search(text) is not None


def detect_language(text: str) -> Language:
    """``zh`` when the text has any CJK ideograph and at least a fifth as many as Latin letters.

    A Chinese question often carries English product terms ("API 的默认限流是多少"), so any
    real share of ideographs makes it Chinese; a stray ideograph in English text does not.
    Text with neither letters nor ideographs is Chinese when it has full-width punctuation.
    """
    cjk = len(_CJK_RE.findall(text))
    latin = len(_LATIN_RE.findall(text))
    if not cjk and not latin:  # "？？？": only the punctuation tells
        return "zh" if _CJK_PUNCT_RE.search(text) else "en"
    return "zh" if cjk and cjk * 5 >= latin else "en"
