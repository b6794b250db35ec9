"""The streamed fragments built in Python (``chat.fragment_html``) are the HTML the templates
printed before, byte for byte (the strings below are the template partials' former output),
escape what documents and the model wrote, and are what the page's partials render."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import translation

from chat import fragment_html
from chat.rendering import chip, fragment

CHIP = {"n": 2, "block": 1, "chunk_id": "doc-1#c01", "title": 'Travel "policy" & <b>',
        "updated": "2026-01-02", "url": "/chunks/doc-1%23c01/?claim=a&sig=x"}
MISSING = {"n": 3, "block": 9, "chunk_id": "", "title": "", "updated": "", "url": ""}
SENTENCE = {"index": 1, "text": "餐费 <100> 元。", "kind": "claim", "chips": [CHIP, MISSING]}
SOURCES = [
    {"n": 1, "block": 2, "title": "报销", "section": "Meals & more", "updated": "2025-03",
     "authority": "policy", "url": "/chunks/x/"},
    {"n": 2, "block": 9, "title": "Gone", "section": "", "updated": "", "authority": "other",
     "url": ""},
]
CHIP_HTML = (
    '<a class="chip" href="/chunks/doc-1%23c01/?claim=a&amp;sig=x" '
    'hx-get="/chunks/doc-1%23c01/?claim=a&amp;sig=x" hx-target="#citation-body" '
    'hx-swap="innerHTML" aria-haspopup="dialog" data-n="2" data-block="1" '
    'data-chunk-id="doc-1#c01" title="Travel &quot;policy&quot; &amp; &lt;b&gt; (2026-01-02)" '
    'aria-label="{label}Travel &quot;policy&quot; &amp; &lt;b&gt;">[2]</a>'
)
SENTENCE_APPEND = (
    '<div hx-swap-oob="beforeend:#answer-t1"><p class="para" id="para-t1-2">'
    '<span class="sentence sentence-claim" data-index="1" lang="zh-hans">餐费 &lt;100&gt; 元。 '
    + CHIP_HTML
    + ' <span class="chip chip-missing" data-block="9">[3]</span></span> </p></div>'
)
SOURCES_HTML = (
    '\n<ol class="sources" id="sources-t1" lang="{lang}" aria-label="{sources}" '
    'hx-swap-oob="true">\n  \n  <li class="source" data-n="1" data-block="2">'
    '<a class="source-link" href="/chunks/x/" hx-get="/chunks/x/" hx-target="#citation-body" '
    'hx-swap="innerHTML" aria-haspopup="dialog"><span class="source-n">[1]</span> '
    '<cite class="doc-title">报销</cite></a> · <span class="source-section">Meals &amp; more'
    '</span> · <span class="doc-updated">{updated} 2025-03</span> · '
    '<span class="doc-authority">{policy}</span></li>\n  \n  <li class="source" data-n="2" '
    'data-block="9"><a class="source-link" href=""><span class="source-n">[2]</span> '
    '<cite class="doc-title">Gone</cite></a></li>\n  \n</ol>\n'
)
WORDS = {
    "en": {"label": "Source 2: ", "lang": "en", "sources": "Sources", "updated": "updated",
           "policy": "policy", "writing": "Writing the answer…"},
    "zh-hans": {"label": "来源 2：", "lang": "zh-hans", "sources": "来源", "updated": "更新于",
                "policy": "制度", "writing": "正在撰写回答…"},
}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_a_streamed_sentence_and_the_source_list_are_the_templates_former_html(
    language: str,
) -> None:
    words: dict[str, Any] = WORDS[language]
    with translation.override(language):
        appended = fragment_html.sentence_append_html(
            key="t1", sentence=SENTENCE, paragraph=2, new=True)
        sources = fragment_html.sources_html(key="t1", sources=SOURCES, oob="true")
        progress = fragment_html.progress_html(key="t1", state="writing", oob="true")
    assert appended == SENTENCE_APPEND.replace("{label}", words["label"])
    assert sources == SOURCES_HTML.format(**words)
    assert progress == (
        '<p class="turn-progress" id="progress-t1" data-state="writing" hx-swap-oob="true">'
        f'{words["writing"]}</p>'
    )


def test_a_sentence_continuing_its_paragraph_is_appended_to_it() -> None:
    sentence = {"index": 4, "text": "Taxis: no.", "kind": "gap", "chips": []}
    html = fragment_html.sentence_append_html(key="t1", sentence=sentence, paragraph=3, new=False)
    assert html == (
        '<div hx-swap-oob="beforeend:#para-t1-3"><span class="sentence sentence-gap" '
        'data-index="4" lang="en">Taxis: no.</span> </div>'
    )


FOOTER = (
    '\n<footer class="bubble-footer" lang="en" id="footer-t1" data-status="answered" '
    'hx-swap-oob="true">\n  <span class="turn-status" lang="en">Answered</span>\n  \n  '
    '<span class="turn-actions">\n    <button type="button" class="copy-answer button-small" '
    'data-copied-label="Copied" data-sources-label="Sources:">Copy</button>\n    \n'
    '<form class="feedback" id="feedback-0123abcd" method="post" action="/feedback/0123abcd/" '
    'hx-post="/feedback/0123abcd/" hx-target="this" hx-swap="outerHTML" data-rating="">\n'
    '  <span class="feedback-choices" role="group" aria-label="Was this answer helpful?">\n'
    '    <button type="submit" name="rating" value="up" class="feedback-up icon-button" '
    'aria-pressed="false" title="Helpful" aria-label="Helpful">' + fragment_html.THUMB_UP
    + '</button>\n    <button type="submit" name="rating" value="down" '
    'class="feedback-down icon-button" aria-pressed="false" title="Not helpful" '
    'aria-label="Not helpful">' + fragment_html.THUMB_DOWN + '</button>\n  </span>\n  \n'
    '</form>\n\n  </span>\n  \n  <span class="trace">Trace <code class="trace-id">0123abcd'
    '</code></span>\n</footer>\n'
)


def test_an_ended_answers_footer_is_the_templates_former_html() -> None:
    with translation.override("en"):
        footer = fragment_html.footer_html(key="t1", status="answered", trace_id="0123abcd",
                                           copyable=True, oob="true")
        streaming = fragment_html.footer_html(key="t1", status="streaming")
    assert footer == FOOTER
    assert streaming == (
        '\n<footer class="bubble-footer" lang="en" id="footer-t1" data-status="streaming">\n'
        '  <span class="turn-status" lang="en">Answering…</span>\n  \n  \n</footer>\n'
    )


RATED = SimpleNamespace(rating="down", comment="<b>late</b> & wrong")


@pytest.mark.parametrize(
    ("name", "context", "built"),
    [
        ("chip", {"chip": CHIP}, lambda: fragment_html.chip_html(CHIP)),
        ("sentence", {"sentence": SENTENCE}, lambda: fragment_html.sentence_html(SENTENCE)),
        ("sources", {"key": "k", "sources": SOURCES},
         lambda: fragment_html.sources_html(key="k", sources=SOURCES)),
        ("progress", {"key": "k", "state": "elsewhere"},
         lambda: fragment_html.progress_html(key="k", state="elsewhere")),
        ("footer", {"key": "k", "status": "stopped", "trace_id": "t9", "feedback": RATED},
         lambda: fragment_html.footer_html(key="k", status="stopped", trace_id="t9",
                                           feedback=RATED)),
        ("feedback", {"trace_id": "t9", "feedback": RATED, "saved": True},
         lambda: fragment_html.feedback_html(trace_id="t9", feedback=RATED, saved=True)),
    ],
)
def test_the_pages_partials_render_the_same_html(name: str, context: dict[str, Any],
                                                 built: Any) -> None:
    with translation.override("zh-hans"):
        assert fragment(name, **context) == built()


def test_a_chinese_answers_copied_sources_heading_is_chinese_with_its_own_colon() -> None:
    """Copy writes the sources heading as the button carries it: 来源： in Chinese (a
    full-width colon), "Sources:" in English; the script adds nothing to it."""
    with translation.override("zh-hans"):
        zh = fragment_html.footer_html(key="t1", status="answered", trace_id="t9", copyable=True)
    with translation.override("en"):
        en = fragment_html.footer_html(key="t1", status="answered", trace_id="t9", copyable=True)
    assert 'data-sources-label="来源："' in zh
    assert 'data-sources-label="Sources:"' in en


def test_a_chinese_conflict_cards_source_lines_use_chinese_commas() -> None:
    side = SimpleNamespace(chip=chip(1, None), preferred=False, chunk_id="d#c01",
                           value_text="150 元", title="费用报销制度", updated="2025-01-06",
                           authority="manual")
    refusal = SimpleNamespace(reason="conflict", message="…", documents=(),
                              conflict=SimpleNamespace(sides=(side,)))
    with translation.override("zh-hans"):
        html = fragment("refusal", key="t1", refusal=refusal, oob="")
    assert "费用报销制度</cite>，<span" in html and "</span>，<span" in html
    with translation.override("en"):
        html = fragment("refusal", key="t1", refusal=refusal, oob="")
    assert "费用报销制度</cite>, <span" in html


def test_a_section_that_repeats_the_title_is_not_shown_twice() -> None:
    title = "办公室常见问题"
    html = fragment_html.source_html({"n": 1, "title": title, "section": title, "url": ""})
    assert html.count("办公室常见问题") == 1
