"""Reviewer pages: the trace list and one trace's evidence chain.

Both need ``chat.view_trace``: active staff have it through ``chat.auth.StaffReviewerBackend``;
other reviewers get it from a group or user permission in admin. Each reviewer sees only
the traces whose documents they may all read (``chat.trace_access``); any other trace is a
404, like an unknown id, and absent from the list. Anonymous users are sent
to the login page; signed-in users without the permission get ``PermissionDenied``, which
Django renders as ``templates/403.html`` (status 403) when DEBUG is off.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from chat.auth import REVIEWER_PERMISSION
from chat.forms import FEEDBACK_CHOICES, TraceFilterForm
from chat.models import Trace
from chat.selectors import trace_evidence, trace_providers, traces_filter
from chat.trace_access import traces_visible

PAGE_SIZE = 25


@login_required
@permission_required(REVIEWER_PERMISSION, raise_exception=True)
def trace_list(request: HttpRequest) -> HttpResponse:
    """``GET /traces/?status=&provider=&feedback=&from=YYYY-MM-DD&to=YYYY-MM-DD&q=&user=&page=``.

    A bad field (a date that is not YYYY-MM-DD, "to" before "from") is shown as an error next
    to it and ignored; the other fields still filter.
    """
    providers = trace_providers()
    form = TraceFilterForm(request.GET, providers=providers)
    # The list shows columns only; ``data`` holds every prompt and draft: kilobytes a row.
    visible = traces_visible(traces=traces_filter(**form.filters()), user=request.user)
    traces = visible.defer("data").select_related("feedback", "user")
    page = Paginator(traces, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request,
        "chat/reviewer/trace_list.html",
        {
            "page": page,
            "form": form,
            "statuses": Trace.Status.choices,
            "providers": providers,
            "feedback_choices": FEEDBACK_CHOICES,
        },
    )


@login_required
@permission_required(REVIEWER_PERMISSION, raise_exception=True)
def trace_detail(request: HttpRequest, trace_id: str) -> HttpResponse:
    """``GET /traces/<id>/``: question -> hits -> blocks -> drafts -> verdicts -> outcome."""
    traces = Trace.objects.select_related("user", "conversation", "feedback")
    # one the reviewer may not read all of is as unknown as a missing id
    trace = get_object_or_404(traces_visible(traces=traces, user=request.user), pk=trace_id)
    return render(
        request,
        "chat/reviewer/trace_detail.html",
        {"trace": trace, "ev": trace_evidence(trace=trace)},
    )
