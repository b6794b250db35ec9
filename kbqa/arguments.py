"""Argument types for the management commands' numbers: a value out of range stops the
command at argument parsing with one line naming the option (``manage.py ingest: error:
argument --max-tokens: must be 1 or more, not -1``), never a traceback from deep inside.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number of at least ``minimum``. Raises
    ``argparse.ArgumentTypeError`` (argparse names the option) otherwise."""

    def parse(value: str) -> int:
        try:
            number = int(value)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
        if number < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more, not {number}")
        return number

    return parse


def share(value: str) -> float:
    """An argparse ``type``: a number between 0 and 1 (a share, a relevance). Raises
    ``argparse.ArgumentTypeError`` otherwise."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not 0.0 <= number <= 1.0:  # also refuses nan
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, not {value}")
    return number
