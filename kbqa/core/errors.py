"""Error hierarchy. Every message is safe to show to a user: no stack traces, no secrets."""

from __future__ import annotations


def gettext_noop(message: str) -> str:
    """``message`` unchanged: marks it for translation (``manage.py makemessages`` finds this
    name, as it finds Django's own ``gettext_noop``) where Django must not be imported, e.g.
    code that runs in a parsing child process. The web layer translates it when shown."""
    return message


class KbqaError(Exception):
    """Base class of every error kbqa raises on purpose."""


class ConfigError(KbqaError):
    """A setting is missing or has an impossible value."""


class IngestError(KbqaError):
    """A document could not be parsed or stored; the message names the file and the reason.

    ``template`` is the message before interpolation: a gettext msgid with %-style named
    placeholders, filled from ``params``, so the web layer can show it in the reader's
    language (``sources.services.ingest_failure_reason``); ``str()`` is the English text.
    Without ``params`` the template is the message as written. Both survive pickling: a
    parse runs in a child process (``sources.containment``).
    """

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params
        self.more: tuple[IngestError, ...] = ()  # the same file's other problems, if any
        super().__init__(template % params if params else template)

    def __str__(self) -> str:
        return "; ".join([super().__str__(), *(str(e) for e in self.more)])

    def __reduce__(self) -> tuple[object, ...]:
        return (_ingest_error, (type(self), self.template, self.params, self.more))

    @classmethod
    def of_all(cls, problems: list[IngestError]) -> IngestError:
        """One error for a file's several problems, reported together (the first, with the
        others as ``more``), so fixing one does not reveal the next only on the next try."""
        first = problems[0]
        combined = cls(first.template, **first.params)
        combined.more = (*first.more, *problems[1:])
        return combined


def _ingest_error(cls: type[IngestError], template: str, params: dict[str, object],
                  more: tuple[IngestError, ...] = ()) -> IngestError:
    """Rebuild a pickled ``IngestError`` (``Exception`` pickles ``args`` only)."""
    error = cls(template, **params)
    error.more = more
    return error


class RetrievalError(KbqaError):
    """The index could not answer a query."""


class ProviderError(KbqaError):
    """The model provider failed.

    ``retryable`` is true for failures worth another try later (overload, rate limit,
    connection loss); ``started`` is true when the failure came after text had streamed.
    The rest is for the trace and the log, never for the user: ``error_type`` (the API's
    error type or the exception class), ``status`` (HTTP, 0 without a response),
    ``api_message`` (the API's own words), ``request_id`` and ``retry_after`` (seconds the
    API asked to wait, None when it did not say).
    """

    def __init__(
        self,
        message: str,
        *,
        retryable: bool = False,
        started: bool = False,
        error_type: str = "",
        status: int = 0,
        api_message: str = "",
        request_id: str = "",
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.started = started
        self.error_type = error_type or type(self).__name__
        self.status = status
        self.api_message = api_message
        self.request_id = request_id
        self.retry_after = retry_after


class ProviderUnavailable(ProviderError):
    """The provider cannot be reached or is not configured (HTTP API maps it to 503)."""
