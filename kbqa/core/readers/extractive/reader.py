"""The offline default: answers by quoting the sources' own sentences, cited, or declines.

For ``answer``/``answer_json`` it takes every quotable sentence of the blocks
(``extractive_text.candidates``: original text without the sentences addressed to the
assistant, ``grounding.evidence.evidence_blocks``; table rows paired with their headers) and
scores each by the question terms it contains (``extractive_question.question_terms``; a
Chinese word and its parts once), weighted by rarity across the sentences
(``log((N + 1) / (sdf + 0.5))``; a term in more than half of 3+ blocks keeps
``COMMON_FACTOR``), terms only in its section heading or title counting ``CONTEXT_WEIGHT``
(fully for the first sentence under a heading), terms of its label (``商业版：``) counting
``LEAD_WEIGHT`` more, each term times its salience (``scoring.salience``: stop-list, time
and measure words keep ``LIGHT_FACTOR`` unless the sentence's heading uses them), plus the
rarest term's weight when it states what the question asks for (``answer_kind``: an amount
for a price, a non-year number for "how long", a name for "who", "iOS 16" for a version),
times ``(1 + coverage) / 2``, half of it without a span of the asked type; fragments and
bare intros are penalised, a sentence naming another place or plan ("Rotterdam office" for
the "Chengdu office") scores 0; ties go to the block retrieval ranked higher, then reading order. It
returns the best sentence that has a key (rarest) term or states the asked kind, with its
list items when it ends with a colon, then up to ``MAX_SENTENCES`` in all: first the
sentence right after the best, then others scoring at least ``KEEP_RATIO`` of the best,
with a key term and a specific question term, about the best's subject (its block, or a
key noun both state), and adding new terms. Each is followed by its block number.

It declines (outputs only a ``Not covered:`` / ``资料未涵盖：`` sentence, which the pipeline
turns into a "no support" refusal) when the question's ask clause (``focus.ask_clause``:
context before the question never counts) names things no block mentions
(``too_specific``), when its absent specific words outweigh the ones present
(``outweighed``, unless only verbs are absent and the best sentence states the answer),
when the best sentence is off the topic (``on_topic``), or when the quoted sentences do not
answer (``binding.answers``: no span of the asked type the question does not already hold,
a missing identifier such as a year, only a name shared, or another kind of the asked
thing: "annual leave" for "paternity leave"; a span about another edition, a forecast, a
bare year for "when", or the asked role unstated: ``event.py``, ``asks.py``; a noun of the
ask that another passage names but the answer's passage never does: ``nouns.py``). Question
words that no block mentions are named in a final gap sentence, only nouns the verifier
accepts (``gap_names``, ``nameable``). ``compress`` keeps the block's sentences that share
any question term, verbatim, one per line. ``rewrite`` is not supported.

A how-to question ("How do I set up 2FA?", 怎么开启两步验证, 电脑丢了应该怎么办: a procedure,
``text.procedures.asks_procedure``) is answered only from sentences that give an action
for its task (``steps.action_pool``: an imperative, a modal with a verb, a step under a task
heading; never reported speech or a meeting note); with none it declines.

A message asking several things ("年假有几天？病假要不要证明？") is answered for each ask,
with a gap sentence quoting an ask none of the choices answers (``several_asks``).

With semantic recall on, sentence similarity may choose the answer instead
(``meaning.py``): a sentence whose meaning stands out from all the others answers when it
passes the checks of what it says; nothing changes with it off.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Sequence
from typing import ClassVar

from kbqa.core.errors import ProviderError
from kbqa.core.grounding.evidence import evidence_blocks
from kbqa.core.providers.base import Prompt, Provider, ProviderCall, word_deltas
from kbqa.core.readers.extractive.follow_ups import about_new_words
from kbqa.core.readers.extractive.question import question_terms
from kbqa.core.readers.extractive.selection import select
from kbqa.core.readers.extractive.several_asks import each_ask
from kbqa.core.readers.extractive.standing import current_first
from kbqa.core.readers.extractive.text import (
    Selection,
    cite,
    folded_terms,
    gap_sentence,
    unanswered_sentence,
    unwrap,
)
from kbqa.core.text.normalise import detect_language
from kbqa.core.text.sentences import split_sentences
from kbqa.core.text.tokens import count_tokens
from kbqa.core.types import Block, Language

__all__ = ["ExtractiveProvider", "Selection", "select"]


def _declined(selection: Selection) -> bool:
    return selection.declined


def _select_each(question: str, blocks: Sequence[Block]) -> Selection:
    return each_ask(question, blocks, select)


def gaps(selection: Selection, language: Language) -> list[str]:
    """The gap sentences after the answer: one per unanswered ask of a message asking
    several things, then the question words no source uses (or, declining, the gap alone)."""
    found = [unanswered_sentence(language, ask) for ask in selection.unanswered]
    if selection.declined or selection.uncovered:
        found.append(gap_sentence(language, selection.uncovered))
    return found


def render_stream(selection: Selection, language: Language) -> str:
    """The plain-text draft: one cited sentence per line, a paragraph (blank line) per
    source block, then the gap sentence if any as a paragraph of its own."""
    text = ""
    for i, c in enumerate(selection.chosen):
        if i:
            text += "\n\n" if c.n != selection.chosen[i - 1].n else "\n"
        text += cite(c.text, c.n)
    for gap in gaps(selection, language):
        text += ("\n\n" if text else "") + gap
    return text


def render_json(selection: Selection, language: Language) -> str:
    """The JSON draft (``{"claims": [...], "not_covered": ...}``, the citations contract)."""
    data: dict[str, object] = {
        "claims": [{"text": c.text, "citations": [c.n]} for c in selection.chosen]
    }
    if found := gaps(selection, language):
        data["not_covered"] = " ".join(found)
    return json.dumps(data, ensure_ascii=False)


def compress_text(question: str, block: Block) -> str:
    """The block's sentences sharing any question term, verbatim, one per line ("" if none)."""
    qterms = set(question_terms(question))
    kept = [
        s for s in split_sentences(unwrap(block.chunk.text)) if qterms & folded_terms(s)
    ]
    return "\n".join(kept)


class ExtractiveProvider(Provider):
    """Offline answers quoted from the blocks; no network, no model."""

    name: ClassVar[str] = "extractive"
    supports_rewrite: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__(model="extractive", fast_model="extractive")

    @property
    def label(self) -> str:
        return "offline extractive"

    def compose(self, prompt: Prompt) -> str:
        """The whole output for ``prompt``; raises ``ProviderError`` for ``rewrite``."""
        if prompt.task == "rewrite":
            raise ProviderError("the offline extractive provider cannot rewrite questions")
        # It quotes only what a block says as evidence: never an instruction sentence.
        blocks = evidence_blocks(prompt.blocks)
        if prompt.task == "compress":
            return compress_text(prompt.question, blocks[0]) if blocks else ""
        # Feedback needs no special handling: every sentence is quoted from its block.
        # An archived document answers only when no current one does (``standing``).
        # Each ask of a message asking several things is answered (``several_asks``).
        selection = current_first(prompt.question, blocks, _select_each, _declined)
        # ...and a follow-up about what it adds, never with the earlier answer
        selection = about_new_words(prompt.question, prompt.history, blocks, selection,
                                    lambda q, b: current_first(q, b, _select_each, _declined))
        language = detect_language(prompt.question)
        if prompt.task == "answer_json":
            return render_json(selection, language)
        return render_stream(selection, language)

    async def stream(self, prompt: Prompt, call: ProviderCall) -> AsyncIterator[str]:
        """Yield the composed output a word (or 4 CJK characters) at a time."""
        call.model = call.model_version = "extractive"
        text = self.compose(prompt)
        for delta in word_deltas(text):
            await asyncio.sleep(0)
            yield delta
        call.input_tokens = count_tokens(prompt.system) + sum(
            count_tokens(m["content"]) for m in prompt.messages
        )
        call.output_tokens = count_tokens(text)
        call.stop_reason = "end_turn"
