"""The refusal for a knowledge base that holds no document the asker may read.

"No passage matched the words of this question… try the documents' own terms" sent a tester
with an empty knowledge base in circles: there were no documents, so no words could match.
This refusal says so, in the question's language, and whom to ask.
"""

from __future__ import annotations

from kbqa.core.retriever import Holdings, Retriever
from kbqa.core.types import Language, Refusal


async def holds_nothing(retriever: Retriever) -> bool:
    """Whether ``retriever`` knows its asker may read no document (a retriever that cannot
    tell, e.g. an in-memory one in tests, is taken to hold some)."""
    return isinstance(retriever, Holdings) and not await retriever.holds_documents()


def refuse_no_documents(lang: Language) -> Refusal:
    """The knowledge base holds no document the asker may read (none uploaded, all removed,
    or all limited to groups the asker is not in): say that plainly and to ask an
    administrator, who uploads documents in the admin site."""
    if lang == "zh":
        message = ("知识库里还没有你可以查阅的文档，所以无从回答。"
                   "请联系管理员上传文档（管理员在管理后台的“文档”页面上传）。")
    else:
        message = ("The knowledge base holds no documents you can read yet, so there is "
                   "nothing to answer from. Ask an administrator to upload documents (they "
                   "upload them on the Documents page of the admin site).")
    return Refusal(reason="no_documents", message=message)
