"""Error hierarchy. Every message is safe to show to a user: no stack traces, no secrets."""

from __future__ import annotations


class KbqaError(Exception):
    """Base class of every error kbqa raises on purpose."""


class ConfigError(KbqaError):
    """A setting is missing or has an impossible value."""


class IngestError(KbqaError):
    """A document could not be parsed or stored; the message names the file and the reason."""


class RetrievalError(KbqaError):
    """The index could not answer a query."""


class ProviderError(KbqaError):
    """The model provider failed.

    ``retryable`` is true for failures worth another try later (overload, rate limit,
    connection loss); ``started`` is true when the failure came after text had streamed.
    """

    def __init__(self, message: str, *, retryable: bool = False, started: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.started = started


class ProviderUnavailable(ProviderError):
    """The provider cannot be reached or is not configured (HTTP API maps it to 503)."""
