"""Generation: draft an answer, cut it into sentences, verify each, emit or drop it.

One draft, and one regeneration with per-sentence feedback when the first showed nothing
(README: How an answer is made). ``SentenceGate`` is the one verifier for both modes: "stream"
drafts are judged sentence by sentence as the text arrives; "json" drafts are judged whole
before anything is shown. Every verdict and every emitted and dropped sentence is recorded on
the ``TraceRecorder``; each draft is one model call through ``generation.calls`` (prompt, raw
output, stop reason, usage). Stop reasons are acted on: ``refusal`` ends generation (no
regeneration: the model declined, asking again with the same sources pays twice for the same
answer) and ``max_tokens`` drops the unfinished last sentence instead of verifying it.
"""

from __future__ import annotations

import re
import time
from collections.abc import AsyncIterator, Sequence

from kbqa.core.generation.calls import Deadlines, ModelResponse, call_model
from kbqa.core.generation.fabricate import FabricatingProvider
from kbqa.core.generation.prompt import build_answer_prompt, instruction_text
from kbqa.core.grounding.citations import (
    DraftFormatError,
    Verifier,
    feedback_lines,
    parse_claim,
    parse_json_draft,
)
from kbqa.core.grounding.instructions import instruction_sentences
from kbqa.core.grounding.refusals import partial_notice
from kbqa.core.providers.base import Provider
from kbqa.core.records import TraceRecorder
from kbqa.core.text.sentences import SentenceBuffer, split_sentences
from kbqa.core.types import (
    AnswerRequest,
    Block,
    Claim,
    Dropped,
    Event,
    Language,
    Sentence,
    Verdict,
)

MAX_DRAFTS = 2  # one draft plus one regeneration with feedback; never a third try
CUT_OFF = "cut off: the model reached its max_tokens limit before finishing this sentence"


def elapsed_ms(since: float) -> float:
    """Milliseconds since ``since`` (a ``time.perf_counter()`` value), rounded to 0.1."""
    return round((time.perf_counter() - since) * 1000, 1)


class SentenceGate:
    """Verifies claims, numbers the shown sentences, and records verdicts on the trace.

    Gap claims are checked against the question (the user's question and the standalone
    query, read from ``trace``). A gap that fails is recorded as failed and never shown; a
    generic gap sentence (``partial_notice``) is held in its place, so a partial answer
    still says that something is not covered without unverified text.
    """

    def __init__(
        self, blocks: Sequence[Block], min_overlap: float, trace: TraceRecorder, t0: float
    ):
        question = f"{trace.question}\n{trace.standalone_query}"
        self.verifier = Verifier(
            blocks, min_overlap=min_overlap, question=question, instructions=instruction_text()
        )
        trace.instruction_sentences = instruction_sentences(blocks)
        lang: Language = "zh" if trace.language == "zh" else "en"
        self.generic_gap = Claim(text=partial_notice(lang), citations=(), kind="gap")
        self.trace, self.t0 = trace, t0
        self.emitted = 0
        self.dropped = 0
        self.held_gaps: list[Claim] = []
        # A JSON draft rejected for a failing claim, kept in case the regeneration does worse.
        self.rejected: tuple[int, list[Verdict]] | None = None
        # A paragraph break before a sentence that is not shown moves to the next shown one.
        self.paragraph_next = False

    def verdict(self, claim: Claim, draft: int) -> Verdict:
        """The recorded verdict on ``claim``; for a failed gap, a passing verdict on the
        generic gap instead (the failure stays in the trace)."""
        v = self.verifier.verify(claim)
        self.trace.verdicts.append(
            {
                "draft": draft,
                "text": claim.text,
                "kind": claim.kind,
                "citations": list(claim.citations),
                "ok": v.ok,
                "verified": list(v.verified),
                "overlaps": {str(n): round(o, 3) for n, o in v.overlaps},
                "issues": list(v.issues),
                "unsupported": list(v.unsupported),
            }
        )
        if claim.kind == "gap" and not v.ok:
            return Verdict(claim=self.generic_gap, ok=True)
        return v

    def sentence(self, v: Verdict) -> Sentence:
        """The shown ``Sentence`` for a passing verdict, numbered from 1; the first one's
        time since ``t0`` is recorded as ``first_sentence_ms``."""
        if not self.emitted:
            self.trace.timings["first_sentence_ms"] = elapsed_ms(self.t0)
        self.emitted += 1
        ev = Sentence(
            index=self.emitted,
            text=v.claim.text,
            citations=v.verified,
            kind=v.claim.kind,
            paragraph=self.paragraph_next and self.emitted > 1,
        )
        self.paragraph_next = False
        self.trace.emitted.append(ev.to_dict())
        return ev

    def drop(self, v: Verdict, draft: int) -> Dropped:
        """The ``Dropped`` event for a failing verdict (numbered from 1), recorded on the trace."""
        self.dropped += 1
        ev = Dropped(
            index=self.dropped, text=v.claim.text, citations=v.claim.citations, reasons=v.issues
        )
        self.trace.dropped.append({"draft": draft, "text": v.claim.text, "reasons": list(v.issues)})
        return ev

    def decide(self, claim: Claim, draft: int, *, paragraph: bool = False) -> Event | None:
        """Sentence or Dropped for a claim; gap statements are held until a claim is shown.
        ``paragraph``: the draft left a blank line before this claim."""
        self.paragraph_next |= paragraph
        return self.show(self.verdict(claim, draft), draft)

    def show(self, v: Verdict, draft: int) -> Event | None:
        """Sentence or Dropped for a verdict; a passing gap is held until a claim is shown."""
        if v.ok and v.claim.kind == "gap":
            self.held_gaps.append(v.claim)
            return None
        return self.sentence(v) if v.ok else self.drop(v, draft)

    def release_gaps(self) -> list[Sentence]:
        """The held gaps, each once, the generic one only when no verified gap is held."""
        gaps, self.held_gaps = list(dict.fromkeys(self.held_gaps)), []
        if not self.emitted:
            return []  # a gap alone is not an answer: the refusal says it better
        specific = [g for g in gaps if g != self.generic_gap]
        self.paragraph_next = True  # what the sources do not cover is a paragraph of its own
        return [self.sentence(Verdict(claim=g, ok=True)) for g in specific or gaps]


def _stop_reason(response: ModelResponse) -> str:
    return response.record.stop_reason if response.record is not None else ""


def _cut_off(judge: SentenceGate, text: str, draft: int) -> Dropped:
    """The ``Dropped`` event for the sentence a ``max_tokens`` stop left unfinished."""
    claim = parse_claim(text)
    judge.trace.verdicts.append(
        {"draft": draft, "text": claim.text, "kind": claim.kind,
         "citations": list(claim.citations), "ok": False, "verified": [], "overlaps": {},
         "issues": [CUT_OFF]}
    )
    return judge.drop(Verdict(claim=claim, ok=False, issues=(CUT_OFF,)), draft)


_BLANK_LINE_RE = re.compile(r"\n[ \t\r\u3000]*\n")


class ParagraphBreaks:
    """Where the draft's paragraphs start: a blank line (Markdown's paragraph break) between
    the previous released sentence and this one. ``received`` is the draft so far."""

    def __init__(self) -> None:
        self.received = ""
        self._cursor = 0

    def before(self, sentence: str) -> bool:
        """Whether a blank line precedes ``sentence`` (a sentence the buffer released)."""
        start = self.received.find(sentence, self._cursor)
        if start < 0:
            return False
        between = self.received[self._cursor : start]
        self._cursor = start + len(sentence)
        return bool(_BLANK_LINE_RE.search(between))


async def _draft_stream(
    response: ModelResponse, judge: SentenceGate, draft: int
) -> AsyncIterator[Event]:
    """One streamed draft: cut sentences from deltas, verify each, emit or drop it.

    After a ``max_tokens`` stop the last piece is dropped unverified, even when it happens to
    end in a full stop: a cut can fall inside a number ("3." of "3.5 days"); after a
    ``refusal`` nothing more is verified. Each sentence carries whether the draft left a
    blank line before it (``ParagraphBreaks``).
    """
    buffer, breaks = SentenceBuffer(), ParagraphBreaks()
    async for delta in response:
        breaks.received += delta
        for text in buffer.feed(delta):
            ev = judge.decide(parse_claim(text), draft, paragraph=breaks.before(text))
            if ev is not None:
                yield ev
    stop = _stop_reason(response)
    rest = buffer.flush()
    if stop == "refusal":
        return
    if stop == "max_tokens" and rest:
        *rest, unfinished = rest
    else:
        unfinished = ""
    for text in rest:
        ev = judge.decide(parse_claim(text), draft, paragraph=breaks.before(text))
        if ev is not None:
            yield ev
    if unfinished:
        yield _cut_off(judge, unfinished, draft)


def _prose_claims(raw: str) -> list[Claim]:
    """The claims of a JSON-mode draft written as prose with citation markers, as a streamed
    draft would be read (same sentence splitter, same parser); [] when it looks like broken
    JSON (it starts with ``{`` or a code fence) or cites nothing, so it stays unparseable."""
    text = raw.strip()
    if not text or text.startswith(("{", "`")):
        return []
    claims = [parse_claim(sentence) for sentence in split_sentences(text)]
    return claims if any(c.citations for c in claims) else []


async def _draft_json(
    response: ModelResponse, judge: SentenceGate, draft: int, final: bool
) -> AsyncIterator[Event]:
    """One JSON draft: verify every claim first; show it only if the draft passes (or is final).

    A draft with a failing claim is regenerated (nothing was shown yet); the final draft is
    shown unless the rejected one verified more claims, which is then shown instead: the
    regeneration never costs the reader verified sentences.
    """
    raw = await response.text()
    if _stop_reason(response) == "refusal":
        return
    try:
        verdicts = [judge.verdict(c, draft) for c in parse_json_draft(raw)]
    except DraftFormatError as exc:
        if prose := _prose_claims(raw):  # a model that ignored the format wrote cited prose
            judge.trace.errors.append(f"draft {draft}: {exc} Read as prose instead.")
            verdicts = [judge.verdict(c, draft) for c in prose]
        else:
            judge.trace.errors.append(f"draft {draft}: {exc}")
            judge.verdict(Claim(text="(unparseable draft)", citations=()), draft)
            verdicts = []
    if not final and (not verdicts or any(not v.ok for v in verdicts)):
        judge.rejected = (draft, verdicts)  # the regeneration gets the reasons
        return
    if judge.rejected and _verified(judge.rejected[1]) > _verified(verdicts):
        draft, verdicts = judge.rejected
    for v in verdicts:
        ev = judge.show(v, draft)
        if ev is not None:
            yield ev


def _verified(verdicts: Sequence[Verdict]) -> int:
    return sum(1 for v in verdicts if v.ok and v.claim.kind != "gap")


def declined(trace: TraceRecorder) -> bool:
    """True when the model declined to answer (an answer call stopped with ``refusal``)."""
    return any(c.purpose == "answer" and c.stop_reason == "refusal" for c in trace.calls)


def _failing_feedback(trace: TraceRecorder, draft: int) -> tuple[str, ...]:
    failing = [v for v in trace.verdicts if v["draft"] == draft and not v["ok"]]
    if not failing:
        return ("The previous answer contained no sentence supported by the sources.",)
    return feedback_lines(
        [
            Verdict(
                claim=Claim(text=v["text"], citations=tuple(v["citations"])),
                ok=False,
                issues=tuple(v["issues"]),
            )
            for v in failing
        ]
    )


async def generate(
    request: AnswerRequest,
    blocks: tuple[Block, ...],
    query: str,
    provider: Provider,
    judge: SentenceGate,
    trace: TraceRecorder,
    deadlines: Deadlines,
) -> AsyncIterator[Event]:
    """The events of up to ``MAX_DRAFTS`` drafts answering ``query`` from ``blocks``.

    The second draft runs only when the first showed nothing and the model did not decline
    (``declined``); it gets the failing sentences' verdicts as feedback. With
    ``request.fabricate`` the first draft gets two fabricated sentences (the demo of the
    verifier dropping them). Raises ``ProviderError``; the pipeline turns it into ``Error``.
    """
    feedback: tuple[str, ...] = ()
    for draft in range(1, MAX_DRAFTS + 1):
        use = FabricatingProvider(provider) if request.fabricate and draft == 1 else provider
        prompt = build_answer_prompt(
            question=query,
            blocks=blocks,
            history=request.history,
            pasted=request.pasted,
            mode=request.mode,
            feedback=feedback,
        )
        response = call_model(use, prompt, trace, purpose="answer", deadlines=deadlines)
        if request.mode == "json":
            gen = _draft_json(response, judge, draft, final=draft == MAX_DRAFTS)
        else:
            gen = _draft_stream(response, judge, draft)
        async for ev in gen:
            yield ev
        if judge.emitted or declined(trace):
            return
        judge.held_gaps.clear()
        feedback = _failing_feedback(trace, draft)
