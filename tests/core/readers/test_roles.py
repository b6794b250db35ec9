"""A role held by someone else is no answer to "who is the <role> of X" (issue 12 item 3).

The sentence names a person beside the asked role word, but as another kind of that role
("video director"), another holder ("a team's president", "former president"), or another
titled thing ("State Teacher of the Year" for the National one); the reader declines.
"""

from __future__ import annotations

import pytest

from kbqa.core.generation.prompt import build_answer_prompt
from kbqa.core.providers.base import ProviderCall
from kbqa.core.readers.extractive.reader import ExtractiveProvider
from kbqa.core.readers.extractive.roles import another_role, another_title
from tests.fakes import make_block


async def _answer(question: str, text: str) -> str:
    block = make_block(1, text, title="Passage 1")
    prompt = build_answer_prompt(question=question, blocks=(block,))
    return "".join([d async for d in ExtractiveProvider().stream(prompt, ProviderCall())])


@pytest.mark.parametrize(
    ("question", "clause", "expected"),
    [
        ("Who is the director of Harbour Lights?", "music video director Ada Brook", True),
        ("Who is the president of the Harbour League?", "the former president Ada Brook",
         True),
        ("Who is the director of Harbour Lights?", "Australian director Ada Brook", False),
        ("Who is the director of Harbour Lights?", "the director Ada Brook", False),
        ("Who is the director of Harbour Lights?", "Ada Brook, who wrote it", False),
    ],
)
def test_a_role_with_another_modifier_is_another_role(question: str, clause: str,
                                                      expected: bool) -> None:
    assert another_role(question, clause) is expected


@pytest.mark.parametrize(
    ("clause", "expected"),
    [
        ("Ada Brook was named the 2021 Valdora State Teacher of the Year", True),
        ("Ada Brook was named the 2021 National Teacher of the Year", False),
        ("The Teacher of the Year is chosen in April", False),
    ],
)
def test_another_titled_thing_is_not_the_asked_one(clause: str, expected: bool) -> None:
    question = "Who was named the 2021 National Teacher of the Year?"
    assert another_title(question, clause) is expected


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("Who is the director of the film Harbour Lights?",
         "The official video for the film Harbour Lights was shot by video director "
         "Ada Brook."),
        ("Who is the president of the Harbour League?",
         "Harbour League club president Ada Brook spoke to the press."),
        ("Who was named the 2021 National Teacher of the Year?",
         "In the National Teacher of the Year race, Ada Brook was named the 2021 Valdora "
         "State Teacher of the Year."),
    ],
)
async def test_another_holder_of_the_role_is_declined(question: str, text: str) -> None:
    assert (await _answer(question, text)).startswith("Not covered")


@pytest.mark.parametrize(
    ("question", "text"),
    [
        ("Who directed the film Harbour Lights?",
         "The film Harbour Lights was directed by Ada Brook."),
        ("Who is the director of Harbour Lights?",
         "Harbour Lights broke records, according to its director Ada Brook."),
        ("Who is the president of the Harbour League?",
         "Harbour League president Ada Brook opened the season."),
    ],
)
async def test_the_asked_holder_is_answered(question: str, text: str) -> None:
    assert await _answer(question, text) == f"{text} [1]"


@pytest.mark.parametrize(
    ("question", "text", "expected"),
    [
        ("谁可以删除共享相册？", "“管理员”和“创建者”可以添加成员，也可以删除共享相册。", "管理员"),
        ("Who can archive a shared album?",
         "Album owners can invite members, and can also archive the album.", "owners"),
    ],
)
async def test_a_role_is_the_subject_of_the_clause_that_goes_on_with_it(
        question: str, text: str, expected: str) -> None:
    """"X can do A, and can also do B": X answers who can do B."""
    assert expected in await _answer(question, text)


DEVICES = make_block(
    1, "Report a lost or stolen tablet to the service desk within 4 hours, by calling "
       "extension 4400. The security team then locks the device.",
    title="Device security", section="Lost devices")


@pytest.mark.parametrize("question", ["My tablet got stolen. Who do I call?",
                                      "Who do I report a stolen tablet to?"])
async def test_a_desk_answers_who_as_a_role_does(question: str) -> None:
    # "the service desk" is whom to call, as "the helpdesk" or "your manager" is
    block = DEVICES
    prompt = build_answer_prompt(question=question, blocks=(block,))
    answer = "".join([d async for d in ExtractiveProvider().stream(prompt, ProviderCall())])
    assert "service desk" in answer
