"""A figure for another scope: an average over years, or a province's for a country's.

"2018年中国城镇新增就业了多少人" is not answered by "城镇新增就业年均1300万人" (an average over
five years) nor by "全省…城镇新增就业136.8万人" (one province's figure): the number is bound
to the question's words, but measures another span of time or another territory.
"""

from __future__ import annotations

import re
import unicodedata

_YEAR_RE = re.compile(r"(?<![0-9.])(?:19|20)\d\d(?![0-9.])")
# An average over several years (年均, 平均每年, "an average of … a year").
_AVERAGE_RE = re.compile(
    r"年均|平均每年|每年平均|\b(?:average annual|annual average|an average of|on average)\b",
    re.IGNORECASE)
# The whole of a province, city, county or district, or "this province".
_LOCAL_SCOPE_RE = re.compile(r"全[省市县区]|[本该][省市县区]|省内|市内")
_LOCAL_ASK_RE = re.compile(r"[省市县区州]")


def other_scope(question: str, clause: str) -> bool:
    """Whether ``clause`` gives an average over years while ``question`` asks for one year's
    figure (it names a year and no average), or speaks of a whole province, city or
    district (全省, 该市) while the question names none."""
    q = unicodedata.normalize("NFKC", question)
    text = unicodedata.normalize("NFKC", clause)
    if _YEAR_RE.search(q) and not _AVERAGE_RE.search(q) and _AVERAGE_RE.search(text):
        return True
    return bool(_LOCAL_SCOPE_RE.search(text)) and not _LOCAL_ASK_RE.search(q)
