"""How a refusal names the documents the user could check: each title once per document,
two documents of one title told apart (a tester was pointed to "Commuting allowance",
"Commuting allowance": two documents, nothing to choose between them by).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from kbqa.core.types import DocumentRef, Language


def document_names(documents: Sequence[DocumentRef], lang: Language, *,
                   dated: bool = False) -> str:
    """``“A”, “B” (updated 2025-06-30)`` (``《A》、《B》（更新于 2025-06-30）`` in Chinese): each
    document's title, with its updated date when ``dated`` or when another document named has
    the same title, and its doc id too when title and date are both the same."""
    titles = Counter(d.title for d in documents)
    dates = Counter((d.title, d.updated) for d in documents)
    names = []
    for d in documents:
        details = []
        if d.updated and (dated or titles[d.title] > 1):
            details.append(f"更新于 {d.updated}" if lang == "zh" else f"updated {d.updated}")
        if dates[(d.title, d.updated)] > 1:
            details.append(d.doc_id)
        if lang == "zh":
            names.append(f"《{d.title}》" + (f"（{'，'.join(details)}）" if details else ""))
        else:
            names.append(f"“{d.title}”" + (f" ({', '.join(details)})" if details else ""))
    return ("、" if lang == "zh" else ", ").join(names)
