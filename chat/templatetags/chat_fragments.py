"""The streamed fragments of an answer as template tags (``chat.fragment_html``), so the
chat page's partials and the websocket's frames are built by the same code."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString

from chat import fragment_html

register = template.Library()


@register.simple_tag
def chip_html(chip: Mapping[str, Any]) -> SafeString:
    return fragment_html.chip_html(chip)


@register.simple_tag
def sentence_html(sentence: Mapping[str, Any]) -> SafeString:
    return fragment_html.sentence_html(sentence)


@register.simple_tag
def sentence_append_html(key: str, sentence: Mapping[str, Any], paragraph: int,
                         new: bool) -> SafeString:
    return fragment_html.sentence_append_html(
        key=key, sentence=sentence, paragraph=paragraph, new=new)


@register.simple_tag
def sources_html(key: str, sources: Iterable[Mapping[str, Any]], oob: str = "") -> SafeString:
    return fragment_html.sources_html(key=key, sources=sources, oob=oob)


@register.simple_tag
def progress_html(key: str, state: str, oob: str = "") -> SafeString:
    return fragment_html.progress_html(key=key, state=state, oob=oob)


@register.simple_tag
def footer_html(key: str, status: str, trace_id: str = "", feedback: Any = None,
                copyable: bool = False, oob: str = "", status_locale: str = "") -> SafeString:
    return fragment_html.footer_html(key=key, status=status, trace_id=trace_id,
                                     feedback=feedback, copyable=copyable, oob=oob,
                                     status_locale=status_locale)


@register.simple_tag
def feedback_html(trace_id: str, feedback: Any = None, saved: bool = False) -> SafeString:
    return fragment_html.feedback_html(trace_id=trace_id, feedback=feedback, saved=saved)
