"""Questions in a language kbqa does not read (it reads English and Chinese).

A tester asked in Japanese (年次休暇は何日ありますか？), German, Spanish and Arabic: the
Japanese one got a Chinese refusal about the documents' words, the others "No passage …
matched the words", and none said that only English and Chinese are read.
``other_language`` names such a question's language, for the refusal to say so:

- by its script: kana (Japanese; Chinese has none), Hangul, Cyrillic, Greek, Hebrew,
  Arabic, Thai, Devanagari (at least ``MIN_SCRIPT_LETTERS`` letters, more than its Latin
  ones);
- in Latin script, by function words: at least ``MIN_FUNCTION_WORDS`` distinct stop words
  of one of ``LATIN_LANGUAGES`` that are no English stop words (stopwords-iso, MIT, the
  lists kbqa already reads for English and Chinese), making at least ``MIN_SHARE`` of the
  question's words. On the test sets' 792 distinct English questions none is flagged
  ("car" is a French stop word, "door" a Dutch one).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

MIN_SCRIPT_LETTERS = 2
MIN_FUNCTION_WORDS = 2
MIN_SHARE = 0.2
LATIN_LANGUAGES = ("de", "fr", "es", "it", "pt", "nl")
# ISO 639-1 code -> the language's name in English and in Chinese
NAMES: dict[str, tuple[str, str]] = {
    "de": ("German", "德语"), "fr": ("French", "法语"), "es": ("Spanish", "西班牙语"),
    "it": ("Italian", "意大利语"), "pt": ("Portuguese", "葡萄牙语"), "nl": ("Dutch", "荷兰语"),
    "ja": ("Japanese", "日语"), "ko": ("Korean", "韩语"), "ru": ("Russian", "俄语"),
    "el": ("Greek", "希腊语"), "he": ("Hebrew", "希伯来语"), "ar": ("Arabic", "阿拉伯语"),
    "th": ("Thai", "泰语"), "hi": ("Hindi", "印地语"),
}
_SCRIPTS = (
    ("ja", re.compile(r"[\u3040-\u30ff]")), ("ko", re.compile(r"[\uac00-\ud7af\u1100-\u11ff]")),
    ("ru", re.compile(r"[\u0400-\u04ff]")), ("el", re.compile(r"[\u0370-\u03ff]")),
    ("he", re.compile(r"[\u0590-\u05ff]")), ("ar", re.compile(r"[\u0600-\u06ff]")),
    ("th", re.compile(r"[\u0e00-\u0e7f]")), ("hi", re.compile(r"[\u0900-\u097f]")),
)
_LATIN_RE = re.compile(r"[A-Za-z]")
_WORD_RE = re.compile(r"[^\W\d_]+")


@lru_cache(maxsize=1024)
def other_language(question: str) -> str | None:
    """The ISO 639-1 code of the language ``question`` is written in when kbqa does not
    read it (a key of ``NAMES``; module docstring), None for English, Chinese, or a
    question too short to tell."""
    latin = len(_LATIN_RE.findall(question))
    for code, script in _SCRIPTS:
        letters = len(script.findall(question))
        if letters >= MIN_SCRIPT_LETTERS and (code == "ja" or letters > latin):
            return code
    words = [w.lower() for w in _WORD_RE.findall(question)]
    if not words or not latin:
        return None
    best, found = None, 0
    for code in LATIN_LANGUAGES:
        own = len(set(words) & _function_words(code))
        if own > found:
            best, found = code, own
    return best if found >= MIN_FUNCTION_WORDS and found >= MIN_SHARE * len(words) else None


@cache
def _function_words(code: str) -> frozenset[str]:
    """Stop words of ``code`` that are no English stop words (stopwords-iso)."""
    import stopwordsiso

    return frozenset(stopwordsiso.stopwords(code) - stopwordsiso.stopwords("en"))
