"""Query expansion before retrieval, after query2doc (Wang, Yang & Wei, EMNLP 2023).

The fast model writes a short hypothetical passage answering the standalone query, in the
vocabulary an internal knowledge base uses; for sparse retrieval query2doc concatenates the
query repeated ``QUERY_REPEATS`` (n = 5 in the paper, section 3) times with that passage, so
BM25 still weighs the user's own words most while the passage adds the documents' terms
("PTO" -> "annual leave", "entitlement"). The passage is a search aid only: it is never shown,
never a source, and never reaches the answer prompt.

Off by default (``KBQA_QUERY_EXPANSION``); one recorded model call (purpose "expand", short
deadline, no retries); any failure, an empty passage, or a provider without a generative fast
model leaves the plain query.
"""

from __future__ import annotations

from kbqa.core.errors import ProviderError
from kbqa.core.generation.calls import FAST_DEADLINES, Deadlines, call_model
from kbqa.core.providers.base import Prompt, Provider
from kbqa.core.records import TraceRecorder

QUERY_REPEATS = 5  # query2doc, sparse retrieval: q+ = concat({q} * 5, d')
EXPAND_MAX_TOKENS = 160  # a passage of 2-4 sentences; longer ones drown the query
MAX_PASSAGE_CHARS = 800

_EXPAND_SYSTEM = """Write a short passage (2 to 4 sentences) that could appear in a company's \
internal knowledge base (policies, manuals, FAQs, meeting notes) and that answers the \
question. Use the words such documents use for the subject, in the language of the question. \
If you do not know the facts, write plausible wording anyway: the passage is only used to \
search, never shown. Output only the passage, no preamble."""


def build_expand_prompt(query: str) -> Prompt:
    """The query2doc prompt for ``query`` (zero-shot; the paper's few-shot examples come from
    MS MARCO, whose passages do not look like an internal knowledge base)."""
    return Prompt(
        task="expand",
        system=_EXPAND_SYSTEM,
        messages=({"role": "user", "content": query.strip()},),
        question=query,
        max_tokens=EXPAND_MAX_TOKENS,
    )


async def expand_query(
    query: str,
    *,
    provider: Provider,
    trace: TraceRecorder,
    deadlines: Deadlines = FAST_DEADLINES,
) -> str:
    """``query`` repeated ``QUERY_REPEATS`` times plus a hypothetical passage, one line; the
    plain ``query`` when the provider has no generative fast model or the call fails."""
    if not provider.supports_rewrite:  # the offline reader composes no free text
        return query
    try:
        output = await call_model(
            provider, build_expand_prompt(query), trace, purpose="expand", deadlines=deadlines
        ).text()
    except ProviderError as exc:
        trace.errors.append(f"expand: {exc}; searched with the plain query")
        return query
    passage = " ".join(output.split())[:MAX_PASSAGE_CHARS]
    if not passage:
        trace.errors.append("expand: empty passage; searched with the plain query")
        return query
    return " ".join([query.strip()] * QUERY_REPEATS + [passage])
