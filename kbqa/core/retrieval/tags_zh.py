"""Reading jieba's part-of-speech tags of a Chinese question where they mislead: a verb
tagged a noun before a count of the act, a numeral naming a kind of act
(``ellipsis.lacks_subject_zh``). Pairs are (word, tag) as ``jieba.posseg.cut`` gives them;
the tags are ICTCLAS's (jieba README, "词性标注")."""

from __future__ import annotations

# Verbal classifiers (动量词): counted occurrences of an act, "一次", "两遍", "一趟"; what stands
# right before such a count is the act's verb, never a thing (Chao 1968, "A Grammar of
# Spoken Chinese", 7.9: verbal measures). jieba tags a one-character verb there a noun at
# times (多久/m 换/nz 一次/m).
_VERBAL_MEASURES = ("次", "遍", "趟", "回", "下")


def before_verbal_measure(pairs: list[tuple[str, str]], i: int) -> bool:
    """Whether ``pairs[i]`` is one character right before a numeral with a verbal
    classifier (换一次): a verb whatever jieba's tag."""
    following = pairs[i + 1] if i + 1 < len(pairs) else ("", "")
    return (len(pairs[i][0]) == 1 and following[1] == "m" and len(following[0]) >= 2
            and following[0].endswith(_VERBAL_MEASURES))


def counted_act(pairs: list[tuple[str, str]], i: int) -> bool:
    """Whether ``pairs[i]`` is a numeral word (jieba's m, no digits: 两步, 一次性) right
    before a verb of two characters or more, the name of a kind of act (两步验证), not an
    amount of the predicate (超过三天会怎样)."""
    word, flag = pairs[i]
    return (flag == "m" and not any(ch.isdigit() for ch in word) and i + 1 < len(pairs)
            and pairs[i + 1][1] in ("v", "vn") and len(pairs[i + 1][0]) >= 2)


# Agent nouns (管理员, 实习生, 用户, 访客, 员工, 老师): "那管理员呢？" narrows the earlier question
# to a group of people ("for admins"); "那历史版本呢？" asks it of another thing.
PERSON_HEADS_ZH = "员者人工生户客师"
INTERROGATIVES_ZH = frozenset("什么 啥 哪 哪个 哪些 哪种 哪家 多少 几".split())


def asking_word(word: str) -> bool:
    """Whether ``word`` holds a question word (周几, 哪天, 几点), whatever jieba tags it:
    周几 is tagged a person's name (nr), so it was read as the thing a question asks about."""
    return any(q in word for q in INTERROGATIVES_ZH)
