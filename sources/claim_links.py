"""Signed claim links: a chat chip's passage link names the sentence it was clicked from.

The chunk view highlights the passage sentences that hold a claim's words and says they
support "the claim you clicked". That is true only of sentences kbqa's verifier passed, so
the link carries an HMAC of (chunk id, claim) made with the site's ``SECRET_KEY`` (Django's
``salted_hmac``): a hand-made ``?claim=`` ("EUR 999 per night in Berlin") gets no highlight
and no such note. The signature proves only that kbqa rendered this chip for this sentence.
"""

from __future__ import annotations

from django.utils.crypto import constant_time_compare, salted_hmac

_SALT = "kbqa.sources.claim_links"
_DIGITS = 24  # hex digits kept: 96 bits, far beyond guessing through a web page


def claim_signature(chunk_id: str, claim: str) -> str:
    """The signature (hex) of ``claim`` as shown with a chip of ``chunk_id``."""
    return salted_hmac(_SALT, f"{chunk_id}\n{claim}", algorithm="sha256").hexdigest()[:_DIGITS]


def claim_query(chunk_id: str, claim: str) -> dict[str, str]:
    """The query parameters of a chip's passage link: ``claim`` and its ``sig``."""
    return {"claim": claim, "sig": claim_signature(chunk_id, claim)}


def claim_signed(chunk_id: str, claim: str, signature: str) -> bool:
    """Whether ``signature`` is kbqa's for ``claim`` on ``chunk_id`` (constant time)."""
    return bool(signature) and constant_time_compare(signature, claim_signature(chunk_id, claim))
