"""Server log filters: the connection pool's retries during a PostgreSQL outage."""

from __future__ import annotations

import logging

from kbqa.logs import RepeatsThrottled

REFUSED = ('connection failed: connection to server at "127.0.0.1", port 5432 failed: '
           "Connection refused")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def pool_record(msg: str = "error connecting in %r: %s", *args: object) -> logging.LogRecord:
    return logging.LogRecord(
        "psycopg.pool", logging.WARNING, "pool.py", 680, msg, args or ("pool-1", REFUSED), None
    )


def shown(throttle: RepeatsThrottled, record: logging.LogRecord) -> str | None:
    return record.getMessage() if throttle.filter(record) else None


def test_an_outage_is_one_line_then_one_a_minute_with_a_count() -> None:
    clock = Clock()
    throttle = RepeatsThrottled(seconds=60, clock=clock)
    first = f"error connecting in 'pool-1': {REFUSED}"
    lines = []
    for _ in range(55):  # one request's worth, as the tester counted
        lines.append(shown(throttle, pool_record()))
        clock.now += 0.5
    assert [line for line in lines if line] == [first]

    clock.now = 1000.0 + 61
    assert shown(throttle, pool_record()) == (
        f"{first} (54 more like it since the last one shown, 61 s ago)"
    )
    clock.now += 1
    assert shown(throttle, pool_record()) is None
    # the next outage, hours later: its first line, with what the last minute held back
    clock.now += 3 * 3600
    assert shown(throttle, pool_record()) == (
        f"{first} (1 more like it since the last one shown, 10801 s ago)"
    )
    clock.now += 1
    assert shown(throttle, pool_record()) is None


def test_each_kind_of_message_has_its_own_count() -> None:
    clock = Clock()
    throttle = RepeatsThrottled(seconds=60, clock=clock)
    gave_up = "reconnection attempt in pool %r failed after %s sec"
    assert shown(throttle, pool_record()) is not None
    assert shown(throttle, pool_record(gave_up, "pool-1", 300)) == (
        "reconnection attempt in pool 'pool-1' failed after 300 sec"
    )
    assert shown(throttle, pool_record()) is None
    assert shown(throttle, pool_record(gave_up, "pool-1", 300)) is None


def test_the_pool_logger_is_throttled_by_the_settings() -> None:
    """settings.LOGGING, as django.setup() applied it (a test that configures logging again
    adds another)."""
    filters = logging.getLogger("psycopg.pool").filters
    assert [f.seconds for f in filters if isinstance(f, RepeatsThrottled)][:1] == [60]
