"""The files of one ``ingest`` of many paths, and which of them would be one document.

``batch_files`` lists what ``manage.py ingest PATH...`` ingests, in order: a folder's files
recursively (hidden ones skipped), a file named twice once, a missing path as a failure in
its place.

``DocIdClaims`` keeps the files of one batch from becoming one document unnoticed. A file
without a doc_id in its front matter takes it from its name, so a trial's
``a/parking-policy.md`` and ``b/parking-policy.md`` were stored as one document, updated in
path order, and each line said only "parking-policy.md". Files of a batch that claim one
doc_id are all refused, each naming the others, and nothing of them is stored: whichever
went in would have replaced the other's text (or a stored document's) by the accident of
path order, and the person who ingested must say which is meant.

Which doc_id a file claims is known once it is parsed (its front matter may name one), and
files are stored as they are parsed. So a file is held back, not stored, while a file not
read yet has a name that gives its doc_id; it is settled when the last such file has been
read. A doc_id that only front matter repeats cannot be foreseen: the file that claims it
first is stored, the others are refused.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

from django.utils.translation import ngettext

from sources.bulk_workers import Prepared
from sources.ingest_types import IngestFailure
from sources.metadata import derive_doc_id

Entry = Path | IngestFailure
Item = tuple[Entry, Prepared | IngestFailure]


def batch_files(paths: Iterable[str | Path]) -> list[Entry]:
    """The files to ingest, in order: each path's, a folder's sorted and recursively (hidden
    files and folders skipped); a file reached twice is listed once, where it came first;
    a path that does not exist is a failure in its place."""
    entries: list[Entry] = []
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = [f for f in sorted(path.rglob("*")) if f.is_file()
                     and not any(part.startswith(".") for part in f.relative_to(path).parts)]
        elif path.is_file():
            found = [path]
        else:
            entries.append(IngestFailure(str(path), f"{path}: no such file or folder"))
            continue
        for file in found:
            if file.resolve() not in seen:  # `ingest docs docs/a.md`: a.md is no clash
                seen.add(file.resolve())
                entries.append(file)
    return entries


class DocIdClaims:
    """Which files of one batch claim each doc_id (module docstring): ``take`` each entry
    with its prepared item, in order, and store what it returns, in that order."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        # doc_id -> how many files not read yet take it from their name
        self._unread = Counter(derive_doc_id(e.name) for e in entries if isinstance(e, Path))
        self._claims: defaultdict[str, list[Path]] = defaultdict(list)  # doc_id -> files
        self._held: dict[str, list[Item]] = {}

    def take(self, entry: Entry, item: Prepared | IngestFailure) -> list[Item]:
        """What may be stored now: files held back that are settled (stored, or refused when
        another file of the batch claims their doc_id), then this one unless it is held."""
        keys: list[str] = []
        if isinstance(entry, Path):
            keys.append(derive_doc_id(entry.name))
            self._unread[keys[0]] -= 1
        if not isinstance(entry, Path) or isinstance(item, IngestFailure):
            return self._settled(keys) + [(entry, item)]
        doc_id = item[2].fields["doc_id"]
        self._claims[doc_id].append(entry)
        if self._unread[doc_id] == 0 and len(self._claims[doc_id]) == 1:
            return self._settled(keys) + [(entry, item)]
        self._held.setdefault(doc_id, []).append((entry, item))
        return self._settled([*keys, doc_id])

    def rest(self) -> list[Item]:
        """Files still held back once every file was taken (none: each is settled when the
        last file whose name gives its doc_id is read)."""
        return self._settled(list(self._held), every=True)

    def _settled(self, doc_ids: list[str], *, every: bool = False) -> list[Item]:
        settled: list[Item] = []
        for doc_id in dict.fromkeys(doc_ids):
            if doc_id not in self._held or (self._unread[doc_id] and not every):
                continue
            claims = self._claims[doc_id]
            for path, item in self._held.pop(doc_id):
                if len(claims) > 1:
                    others = [c for c in claims if c != path]
                    item = IngestFailure(str(path), same_doc_id_refusal(path, others, doc_id))
                settled.append((path, item))
        return settled


def same_doc_id_refusal(path: Path, others: Sequence[Path], doc_id: str) -> str:
    """Why ``path`` was not ingested: ``others`` of its batch claim its doc_id (safe to show,
    in the active language)."""
    return ngettext(
        "%(path)s: not ingested; %(others)s in this ingest has the same doc_id %(doc_id)s (a "
        "file without one in its front matter takes it from its name), and both would be one "
        "document. Rename one of the two, or give one its own doc_id in its front matter, and "
        "ingest again",
        "%(path)s: not ingested; %(others)s in this ingest have the same doc_id %(doc_id)s (a "
        "file without one in its front matter takes it from its name), and all would be one "
        "document. Rename all but one, or give them their own doc_ids in their front matter, "
        "and ingest again",
        len(others),
    ) % {"path": path, "others": ", ".join(str(o) for o in others), "doc_id": doc_id}
