"""Thesaurus expansion: a question in the user's words meets the documents' words, and a
word's other sense never turns a refusal into an answer."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kbqa.core.pipeline import AnswerRequest, PipelineConfig, answer
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.readers.extractive.selection import select
from kbqa.core.readers.extractive.synonyms import only_expanded
from kbqa.core.readers.extractive.text import candidates
from kbqa.core.records import TraceRecorder
from kbqa.core.retrieval import synonyms
from kbqa.core.retrieval.bm25 import Bm25Index, InMemoryRetriever
from kbqa.core.types import Chunk, Sentence
from tests.fakes import make_block


def _chunk(n: int, title: str, section: str, text: str) -> Chunk:
    return Chunk(chunk_id=f"doc-{n:03d}#c01", doc_id=f"doc-{n:03d}", title=title,
                 section=section, updated="2025-04-03", text=text)


RETRIES = _chunk(1, "Open API: rate limits and webhooks", "Retries", (
    "Your endpoint should answer with a 2xx status within 10 seconds. If it fails or times "
    "out, NimbusDrive tries the delivery again up to 5 more times with growing pauses in "
    "between. After the last failed attempt, the delivery is dropped and shown as failed in "
    "the webhook log."))
BOARD = _chunk(2, "Annual report", "Governance",
               "The president of the board is paid EUR 200,000 per year.")
KB = [
    RETRIES,
    BOARD,
    _chunk(3, "Expense reimbursement policy", "Meals", (
        "While travelling for work you may claim your own meals up to EUR 55 per day. Meals "
        "with customers or partners are reimbursed up to EUR 80 per person.")),
    _chunk(4, "Recycle bin", "Recycle bin",
           "Deleted files stay in the recycle bin for 30 days. After that they are purged."),
    _chunk(5, "Plans", "Free trial",
           "Every new workspace starts with a free trial that lasts 90 days."),
]
# The deployed thresholds (settings: KBQA_MIN_RELEVANCE, KBQA_READER_RELEVANCE).
CONFIG = PipelineConfig(min_relevance=0.13, reader_relevance=0.05)


@pytest.fixture(autouse=True)
def _switch() -> Iterator[None]:
    yield
    synonyms.set_enabled(True)


async def _ask(question: str, kb: list[Chunk] = KB) -> tuple[list[str], str]:
    trace = TraceRecorder(trace_id="01TEST", question=question)
    events = [ev async for ev in answer(
        AnswerRequest(question=question), retriever=InMemoryRetriever(kb),
        provider=ExtractiveProvider(), config=CONFIG, trace=trace)]
    return [ev.text for ev in events if isinstance(ev, Sentence)], trace.status


async def test_a_paraphrase_is_answered_with_the_sentence_that_answers_it() -> None:
    question = "If our webhook endpoint is down, will NimbusDrive keep trying to deliver?"
    said, status = await _ask(question)
    assert status == "answered"
    # "deliver" meets "delivery" (WordNet: derivationally related): the retry rule leads
    assert said[0] == ("If it fails or times out, NimbusDrive tries the delivery again up to "
                       "5 more times with growing pauses in between.")
    # Off, retrieval adds no synonym; the yes/no check still reads "deliver" and "delivery"
    # as one predicate (a derivational variant, like an inflection: ``readers.predicate``).
    synonyms.set_enabled(False)
    said, _ = await _ask(question)
    assert said[0].startswith("If it fails or times out, NimbusDrive tries the delivery again")


async def test_another_sense_of_a_word_does_not_flip_a_refusal() -> None:
    # "chair" (furniture) shares a WordNet synset with "president": retrieval finds the
    # board's pay through it, and still nothing answers what a chair costs.
    question = "How much is a new chair?"
    assert BOARD in [h.chunk for h in Bm25Index(KB).search(question, 3)]
    said, status = await _ask(question)
    assert said == []
    assert status.startswith("refused")


def test_expansions_weigh_half_a_users_own_word() -> None:
    index = Bm25Index(KB)
    own = index.search("customers", 1)[0]
    expanded = index.search("clients", 1)[0]  # no chunk says "client"
    assert expanded.chunk == own.chunk
    assert expanded.score == pytest.approx(synonyms.SYNONYM_WEIGHT * own.score)


def test_a_word_the_knowledge_base_uses_is_not_expanded() -> None:
    # "meals" is in the index: its other WordNet senses must not add terms
    assert synonyms.synonym_terms("meals with clients", Bm25Index(KB).knows) == {
        "client": ["customer"]}


def test_expansion_off_changes_nothing() -> None:
    synonyms.set_enabled(False)
    assert Bm25Index(KB).search("clients", 3) == []


def test_a_sentence_met_only_through_one_synonym_is_no_answer() -> None:
    block = make_block(1, "The president of the board is paid EUR 200,000 per year.")
    found = {"chair": ("president",)}
    assert only_expanded(candidates((block,)), ["chair", "president"], found)
    assert not only_expanded(candidates((block,)), ["board", "chair", "president"], found)
    assert select("How much is a new chair?", (block,)).declined


def test_a_choice_without_synonyms_is_left_to_the_other_checks() -> None:
    block = make_block(1, "The president of the board is paid EUR 200,000 per year.")
    assert not only_expanded(candidates((block,)), ["salary"], {})


def test_a_word_for_people_is_expanded_only_to_words_for_people() -> None:
    # WordNet relates "contractor" to "contract" by derivation: an employment contract is
    # no contractor, so the search does not look for it
    known = {"contract", "declare", "employee"}.__contains__
    assert synonyms.synonym_terms("Can contractors claim a taxi?", known) == {}


EQUIPMENT = [
    _chunk(70, "Equipment policy", "Looking after equipment",
           "Keep laptops locked with a password. Lost or stolen equipment must be reported to "
           "the IT helpdesk within 24 hours."),
    _chunk(60, "Expense policy", "Receipts",
           "If you lose a receipt, fill in the missing-receipt declaration."),
    _chunk(63, "Leave policy", "Parental leave",
           "The partner receives 5 weeks of paid leave, to be taken within 6 months."),
]


def test_an_irregular_verb_meets_its_other_form() -> None:
    # before: "lose" met only the receipt rule; the laptop rule says "lost"
    hits = Bm25Index(EQUIPMENT).search("What if I lose my laptop?", 2)
    assert hits[0].chunk.doc_id == "doc-070"


def test_another_verb_form_weighs_as_a_synonym_and_stays_out_of_the_ideal() -> None:
    known = {"lose", "lost", "laptop", "taken", "client"}.__contains__
    query = synonyms.lexical_query("What if I lose my laptop?", known, lambda t: 1.0,
                                   ["lose", "laptop"])
    assert query.weights == {"lost": synonyms.SYNONYM_WEIGHT}
    assert query.ideal_terms == ["lose", "laptop"]
    # a stop-list verb's forms say nothing ("take clients out" is no "taken within")
    take = synonyms.lexical_query("Can I take a client out?", known, lambda t: 1.0, ["client"])
    assert "taken" not in take.terms


LEAVE = [
    _chunk(80, "Leave policy", "Other leave",
           "Employees receive 2 days of paid leave for their own wedding and 3 days of "
           "compassionate leave when a close family member dies."),
    _chunk(81, "Leave policy", "Sick leave",
           "Employees receive up to 10 days of fully paid sick leave per year."),
    _chunk(82, "Office guide", "Parking",
           "The garage charges EUR 12 per day; pass holders park for free."),
    _chunk(83, "Travel policy", "Daily allowances",
           "The daily meal allowance is paid for each travel day and covers lunch and dinner."),
    _chunk(84, "Leave policy", "Annual leave",
           "Unused days expire on 31 March of the next year."),
]


async def test_a_phrasal_verb_is_searched_and_answered_by_what_it_means() -> None:
    # "passed away" is "dies" in the policy: before, the search looked for "passed" (a pass
    # for the garage) and the reader refused or quoted another day count
    question = "my grandmother passed away, how many days can I take off?"
    assert Bm25Index(LEAVE).search(question, 1)[0].chunk.doc_id == "doc-080"
    said = " ".join((await _ask(question, LEAVE))[0])
    assert "3 days of compassionate leave" in said
    assert "sick leave" not in said


def test_a_phrasal_verb_is_expanded_through_the_phrase_not_its_verb() -> None:
    known = {"die", "dy", "death", "expire", "travel", "grandmother"}.__contains__
    found = synonyms.synonym_terms("my grandmother passed away", known)
    # "expire" is one of the phrase's WordNet lemmas, but its own first sense is another
    assert found == {"passed": ["die", "dy", "death"]}
