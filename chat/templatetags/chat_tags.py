"""Template helpers for the chat screens: human labels for answer statuses and refusals."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext_lazy as _

from kbqa.core.grounding.clauses import reason_kind
from kbqa.core.text.normalise import detect_language

register = template.Library()

STATUS_LABELS = {
    "streaming": _("Answering…"),
    "pending": _("Answering…"),
    "answered": _("Answered"),
    "refused_low_score": _("Not answered: no passage matched the question's words"),
    "refused_conflict": _("Not answered: the sources disagree"),
    "refused_no_support": _("Not answered: no sentence could be verified"),
    "refused_model_declined": _("Not answered: the model declined"),
    "error": _("Stopped by an error"),
    "cancelled": _("Cancelled"),
    "interrupted": _("Interrupted"),
    "stopped": _("Stopped: you stopped this answer"),
}

REFUSAL_TITLES = {
    "low_score": _("No passage matched the words of this question closely"),
    "conflict": _("The sources disagree"),
    "no_support": _("No answer could be verified against the sources"),
    "model_declined": _("The model declined to answer"),
    "no_documents": _("The knowledge base holds no documents you can read"),
}

# The reviewer's words for a refusal reason, as in the trace status labels ("refused: conflict").
REFUSAL_REASON_LABELS = {
    "low_score": _("low score"),
    "conflict": _("conflict"),
    "no_support": _("not supported"),
    "model_declined": _("the model declined"),
    "no_documents": _("no documents"),
}

AUTHORITY_LABELS = {
    "policy": _("policy"),
    "manual": _("manual"),
    "faq": _("FAQ"),
    "meeting-note": _("meeting note"),
    "archived": _("archived"),
    "other": _("other"),
}


# The reviewer page's words for a model call's purpose (``kbqa.core.records.CallPurpose``),
# the providers' stop reasons (Anthropic's and OpenAI's) and the conflict detector's units
# (``kbqa.core.text.quantities``); codes not listed are shown as they are.
CALL_PURPOSE_LABELS = {
    "answer": _("answer"),
    "rewrite": _("standalone rewrite"),
    "compress": _("compression"),
    "expand": _("query expansion"),
}
STOP_REASON_LABELS = {
    "end_turn": _("finished"),
    "stop": _("finished"),
    "max_tokens": _("output limit reached"),
    "length": _("output limit reached"),
    "stop_sequence": _("stop sequence"),
    "refusal": _("the model declined"),
    "content_filter": _("content filter"),
    "pause_turn": _("paused"),
}
# Why a block sentence was excluded as an instruction to the assistant
# (``kbqa.core.grounding.instructions.InstructionReason``); traces before the reasons say none.
INSTRUCTION_REASON_LABELS = {
    "override": _("tells the assistant to ignore its instructions or rules"),
    "prompt": _("asks for or talks about the assistant's prompt"),
    "role": _("addresses the assistant or sets its role or mode"),
    "output": _("orders the assistant what to answer or cite"),
    "payload": _("the order after a short instruction on the same line"),
}
# The providers' names as a trace records them; a model's own name ("claude-…") is a name.
PROVIDER_NAME_LABELS = {
    "extractive": _("offline extractive"),
}
UNIT_LABELS = {
    "day": _("days"),
    "business day": _("business days"),
    "req/min": _("requests per minute"),
}


def _label_filter(name: str, labels: dict[str, Any], doc: str) -> None:
    """Register template filter ``name``: a code in words from ``labels`` (translated), an
    unknown code as it is."""

    def label(code: str) -> str:
        return str(labels.get(code, code))

    label.__doc__ = doc
    register.filter(name, label)


_label_filter(
    "call_purpose_label",
    CALL_PURPOSE_LABELS,
    '``"answer"`` -> "answer" (translated), for the reviewer\'s list of model calls.',
)
_label_filter(
    "stop_reason_label",
    STOP_REASON_LABELS,
    'A provider\'s stop reason in words: ``"end_turn"`` -> "finished" (translated).',
)
_label_filter(
    "provider_label",
    PROVIDER_NAME_LABELS,
    'A trace\'s provider in words: ``"extractive"`` -> "offline extractive" (translated).',
)
_label_filter(
    "unit_label",
    UNIT_LABELS,
    'A conflict\'s unit in words: ``"day"`` -> "days" (translated); MB, USD... as is.',
)
_label_filter(
    "authority_label",
    AUTHORITY_LABELS,
    "A document's authority (``policy``, ``manual``...) as a translated label.",
)
_label_filter(
    "status_label",
    STATUS_LABELS,
    '``"answered"`` -> "Answered" (translated); unknown statuses as they are.',
)


@register.filter
def instruction_reason_label(reason: str) -> str:
    """Why a source sentence was excluded as an instruction, in words (translated); a trace
    that recorded no reason: "addresses the assistant"."""
    return str(INSTRUCTION_REASON_LABELS.get(reason, _("addresses the assistant")))


@register.filter
def refusal_title(reason: str) -> str:
    """The heading of a refusal card for ``low_score``, ``conflict`` or ``no_support``."""
    return str(REFUSAL_TITLES.get(reason, _("No answer")))


@register.filter
def text_lang(text: str) -> str:
    """The ``lang`` of a text from a person or a document, by its own words
    (``detect_language``): ``"zh-hans"`` or ``"en"``, the codes the pages use."""
    return "zh-hans" if detect_language(str(text)) == "zh" else "en"


# The reviewer's words for the kinds of drop reason the clause check writes (the reason
# itself is English, as the model's feedback; ``kbqa.core.grounding.clauses``).
DROP_KIND_LABELS = {
    "polarity": _("Opposite polarity: it negates what its source states, or the reverse"),
    "clause": _("A part of the sentence is stated by no source sentence"),
    "quantity": _("A number is not given, with its unit, for this subject"),
}


@register.filter
def drop_kind_label(reason: str) -> str:
    """A drop reason's kind in words (translated), "" when it has none listed."""
    kind = reason_kind(str(reason))
    return str(DROP_KIND_LABELS[kind]) if kind else ""


@register.filter
def refusal_reason_label(reason: str) -> str:
    """``"low_score"`` -> "low score" (translated), for reviewers; unknown reasons as they are."""
    return str(REFUSAL_REASON_LABELS.get(reason, reason))
