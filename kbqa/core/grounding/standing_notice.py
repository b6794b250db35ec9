"""The notice an answer carries when a shown sentence cites an archived document.

The chip's source list says "archived", but a reader looks at the answer: a sentence
quoted from a superseded document must say so next to it, in the question's language
(like the authority notices of ``grounding.refusals``). ``NoticeBoard.before`` is asked
before each verified sentence is shown; it returns the ``Notice`` to show first: the
authority notices with the first sentence, and again, with an archived-document notice
added, before the first sentence citing each archived document. Later ``Notice`` events
repeat the earlier notices, so a front end replaces what it shows with the last one.
An archived document the answer is from because the question names its year has its
notice already ("Answered from …, the document of the year you asked about"): a second
one saying it may no longer apply stacked two notices on one answer about one choice (a
browser tester, 2026-12-06), so it is left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from kbqa.core.grounding.refusals import authority_notice_sources
from kbqa.core.types import Block, Conflict, Language, Notice, Sentence


def archived_notice(lang: Language, block: Block) -> str:
    """The notice for a sentence quoted from ``block``, a chunk of an archived document."""
    c = block.chunk
    if lang == "zh":
        date = f"（更新于 {c.updated}）" if c.updated else ""
        return (f"本回答引用了已归档的文档《{c.title}》{date}：它已被现行文档取代，"
                "所说的内容可能已不再适用，请以现行文档为准。")
    date = f" (updated {c.updated})" if c.updated else ""
    return (f"This answer quotes “{c.title}”{date}, an archived document that has been "
            "superseded: what it says may no longer apply; the current document prevails.")


class NoticeBoard:
    """The notices shown with one answer so far (``notices``), grown sentence by sentence."""

    def __init__(self, notices: Sequence[tuple[str, frozenset[str]]], blocks: Sequence[Block],
                 lang: Language, conflicts: Sequence[Conflict] = ()) -> None:
        self.notices: tuple[str, ...] = ()
        self._pending = list(notices)  # (notice, the documents it is about)
        self._doc_of = {b.n: b.chunk.doc_id for b in blocks}
        year_docs = {c.sides[c.preferred].doc_id for c in conflicts
                     if c.preferred is not None and c.preferred_by == "year"}
        self._archived = {b.n: b for b in blocks if b.chunk.authority == "archived"
                          and b.chunk.doc_id not in year_docs}
        self._docs: set[str] = set()
        self._lang, self._conflicts = lang, tuple(conflicts)
        # An authority notice names the sources the answer cites so far, so it is written
        # again as sentences cite more of them; shown entries are its index there, or a text.
        self._shown: list[int | str] = []
        self._cited: set[str] = set()
        written = authority_notice_sources(lang, self._conflicts) if conflicts else []
        self._index = {text: i for i, (text, _) in enumerate(written)}

    def before(self, sentence: Sentence) -> Notice | None:
        """The ``Notice`` to yield before ``sentence`` (all notices so far), or None when it
        changes nothing: only authority notices not yet shown about a document it cites (an
        answer quoting another document does not say it was "answered from" that one: a
        deployment tester's meal allowance came with the leave policy's notice), an authority
        notice now naming one more cited source, and archived documents it cites that no
        earlier sentence cited count."""
        cited = {self._doc_of.get(n) for n in sentence.citations}
        added = [notice for notice, docs in self._pending if docs & cited]
        self._pending = [(notice, docs) for notice, docs in self._pending if not docs & cited]
        for n in sentence.citations:
            block = self._archived.get(n)
            if block is not None and block.chunk.doc_id not in self._docs:
                self._docs.add(block.chunk.doc_id)
                added.append(archived_notice(self._lang, block))
        self._cited.update(d for d in cited if d is not None)
        self._shown.extend(self._index.get(text, text) for text in added)
        named = ([text for text, _ in authority_notice_sources(
            self._lang, self._conflicts, self._cited)] if self._index else [])
        notices = tuple(named[x] if isinstance(x, int) else x for x in self._shown)
        if notices == self.notices:
            return None
        self.notices = notices
        return Notice(notices=self.notices)
