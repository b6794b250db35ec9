"""A question typed in capitals, read as if in lower case.

"HOW MANY DAYS OF SICK LEAVE DO EMPLOYEES GET?" was refused where the same words in lower
case were answered (a new user's report, 2026-12-07): the reader took every word in
capitals for an acronym or a name the answer had to state ("DAYS", "SICK"). Capitals held
down for a run of words stress nothing: ``terms.acronym_starts`` already reads a run of
three or more capitals words as no acronyms (a heading set in capitals); ``unshouted``
gives every later stage the run in lower case, as they read such words anywhere else.
"""

from __future__ import annotations

from kbqa.core.text.terms import CAPITALS_RUN_RE


def unshouted(question: str) -> str:
    """``question`` with each run of three or more words in capitals (``CAPITALS_RUN_RE``)
    in lower case: "HOW MANY DAYS OF SICK LEAVE?" -> "how many days of sick leave?"; "Is
    the VPN down?" and "SSO 怎么开" stay as typed."""
    return CAPITALS_RUN_RE.sub(lambda m: m.group().lower(), question)
