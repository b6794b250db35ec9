"""A camel-case word ("MacBook", "ThinkPad") is a product's name, not a closed compound: its
last part ("book") is not what it names. "Will the sync app run on my old MacBook that's
still on Monterey?" led with "Employees who leave may buy their laptop at its remaining book
value…" ("MacBook" read as a kind of book) and, once past the low-score gate, quoted another
sentence sharing "app" that the book's lead had let through."""

from __future__ import annotations

from kbqa.core.readers.extractive.expand import camel_case_names, expand
from tests.core.readers.reading import extractive_answer
from tests.fakes import make_block

# the demo knowledge base's blocks for the question, in the order they came
_BLOCKS = (
    make_block(1, "The client runs on Windows 10 and Windows 11 (64-bit) and on macOS 13 "
                  "Ventura or later, on both Intel and Apple silicon. Company laptops get the "
                  "client preinstalled through device management; on other computers download "
                  "it from Settings → Desktop app in the web app.",
               title="NimbusDrive desktop sync client", section="Supported systems",
               doc_id="doc-050"),
    make_block(2, "You can add files from the web app, from the desktop sync client, or from "
                  "the iOS and Android app. In the web app, drag files or whole folders from "
                  "your computer onto any folder view, or click New → Upload files. The desktop "
                  "sync client uploads everything you place in the synced NimbusDrive folder on "
                  "your computer, without any extra steps.",
               title="NimbusDrive product manual: Uploading files", section="Ways to upload",
               doc_id="doc-010"),
    make_block(3, "Return all equipment on or before your last working day. The IT helpdesk "
                  "erases laptops before they are given to someone else. Employees who leave "
                  "may buy their laptop at its remaining book value if it is more than two "
                  "years old.", title="Equipment policy", section="Leaving the company",
               doc_id="doc-070"),
    make_block(4, "The desktop sync client keeps a folder on your computer in step with "
                  "NimbusDrive. Changes you make locally are uploaded, and changes made by "
                  "others appear on your disk without any action.",
               title="NimbusDrive desktop sync client", doc_id="doc-050"),
    make_block(5, "Every time a file changes, whether through the web app, the desktop sync "
                  "client or the API, the previous content is kept as a version. Earlier "
                  "versions of a file are kept for 180 days on all plans.",
               title="NimbusDrive product manual: Recycle bin and version history",
               section="Version history", doc_id="doc-042"),
)


async def test_a_product_name_is_not_its_last_word() -> None:
    answer = await extractive_answer(
        "Will the sync app run on my old MacBook that's still on Monterey?", _BLOCKS)
    # "book" no longer pulls the answer away, and no sentence is quoted for lack of it: the
    # blocks say nothing of Monterey (nor, by that name, of a MacBook)
    assert "book value" not in answer
    assert "[" not in answer and "MacBook" in answer


def test_camel_case_words_are_names_and_compounds_still_meet_their_head() -> None:
    assert camel_case_names("my old MacBook and ThinkPad, not a helpdesk") == {
        "macbook", "thinkpad"}
    blocks = [frozenset({"book", "valu", "desk", "servic"})]
    assert expand(["macbook"], blocks, names=frozenset({"macbook"})) == ["macbook"]
    assert expand(["helpdesk"], blocks) == ["desk"]  # a lower-case closed compound still does
