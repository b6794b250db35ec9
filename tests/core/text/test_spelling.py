"""Spelling correction of question words that are no words (``kbqa.core.text.spelling``)."""

from __future__ import annotations

import pytest

from kbqa.core.text.spelling import corrected, misspelt
from kbqa.core.text.thesaurus import known_word

INDEX = {"expense": 40, "annual": 12, "recycle": 5, "password": 9, "variation": 2,
         "location": 7, "cap": 3, "spot": 4, "expanse": 1, "user": 6, "log": 30}


def _correct(query: str) -> tuple[str, dict[str, str]]:
    return corrected(query, INDEX.__contains__,
                     lambda letter: sorted(w for w in INDEX if w.startswith(letter)),
                     lambda w: INDEX.get(w, 0))


@pytest.mark.parametrize(("query", "expected"), [
    ("how long do i have to submit an expence claim?",
     "how long do i have to submit an expense claim?"),  # substitution; the common one wins
    ("anual leave carry over limit?", "annual leave carry over limit?"),  # a letter left out
    ("how long does the recyle bin keep files", "how long does the recycle bin keep files"),
    ("whats the pasword rule", "what's the password rule"),
])
def test_a_word_that_is_no_word_is_read_as_the_index_word_it_misspells(
    query: str, expected: str
) -> None:
    assert _correct(query)[0] == expected


@pytest.mark.parametrize("query", [
    "How many vacation days do I get?",  # a real word the index lacks ("variation", "location")
    "Can I take a cab?",  # 3 letters: too short to correct
    "Can I expense my Spotify subscription?",  # a name: nothing within reach
    "Is the VPNN down?",  # capitals: an acronym, never corrected
    "Is my Uber home covered?",  # a capital inside a sentence: a name, not "user"
])
def test_real_words_names_and_acronyms_are_left_as_typed(query: str) -> None:
    assert _correct(query) == (query, {})


def test_the_corrections_are_reported_as_typed() -> None:
    assert _correct("Expence limits?")[1] == {"Expence": "expense"}


@pytest.mark.parametrize(
    ("word", "typo"),
    [
        ("lenght", True),  # a transposition of "length"
        ("recyle", True),
        ("passwrod", True),
        ("webhook", False),  # two edits from "webfoot": a word of its own
        ("vacation", False),  # a word WordNet knows
        ("Okta", False),  # a capital marks a name
        ("sso", False),  # too short to tell
    ],
)
def test_a_typo_is_told_from_a_word_of_its_own(word: str, typo: bool) -> None:
    assert misspelt(word) is typo


def test_a_misspelled_function_word_is_read_as_it_not_as_a_content_word_one_edit_away(
) -> None:
    # "lnog" is one edit from the index's frequent "log" (a letter left out) and from
    # "long" (two letters swapped): the question meant "how long", not "how log".
    assert _correct("How lnog is the notice period?")[0] == "How long is the notice period?"


@pytest.mark.parametrize(("query", "expected"), [
    ("whats the yearly cap", "what's the yearly cap"),
    ("Cant I expense it? i dont think so", "Can't I expense it? i don't think so"),
    ("im new here, hows the log kept", "i'm new here, how's the log kept"),
    ("its log and the lets", "its log and the lets"),  # words of their own stay
    ("Can I use IM on my phone?", "Can I use IM on my phone?"),  # an acronym, not "I'm"
])
def test_a_contraction_typed_without_its_apostrophe_gets_it_back(query: str,
                                                                  expected: str) -> None:
    # "whats" was read as a word the documents lack, not as a "what is" question
    assert _correct(query)[0] == expected


@pytest.mark.parametrize(("query", "expected"), [
    ("whats the it helpdesk email?", "what's the IT helpdesk email?"),
    ("how do I reach our it team", "how do I reach our IT team"),
    ("is it open on weekends?", "is it open on weekends?"),  # the pronoun stays
])
def test_it_after_a_determiner_is_the_acronym_when_the_index_has_it(query: str,
                                                                     expected: str) -> None:
    index = {**INDEX, "it": 12}
    fixed, _ = corrected(query, index.__contains__,
                         lambda letter: sorted(w for w in index if w.startswith(letter)),
                         lambda w: index.get(w, 0))
    assert fixed == expected
    assert _correct("whats the it helpdesk email?")[0] == "what's the it helpdesk email?"


def test_an_impossible_es_form_is_a_typo_not_a_word() -> None:
    # WordNet's detachment rule read "employes" as "employ" + "es" (English writes
    # "employs"), so the typo was kept and the question refused as missing "employes"
    assert known_word("employs") and known_word("watches") and known_word("goes")
    assert not known_word("employes")
    fixed, fixes = corrected(
        "how many days do full time employes get?", {"employee", "day"}.__contains__,
        lambda letter: sorted(t for t in ("employee", "day") if t[0] == letter),
        lambda term: 1)
    assert fixes == {"employes": "employee"}
