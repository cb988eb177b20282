"""PUBLIC files a task's parameters name (a distance release's queries file), pinned when the run is priced.

Such a file sets the price: a distance release's queries file gives the number of queries k, and with it
the noise of each answer and the privacy curve the ledger records (k rounds of noise). If the file were read
again after it changed, the run would answer other queries than were priced, and a curve for k rounds
would stand for a run of k' rounds. So :func:`pinned` records each named file's SHA-256 in the spec the run
is priced with (``TaskSpec.pinned_files``, as a public sample is pinned by ``PublicSample``), the run is
refused before it reads the private data if a file changed since (:func:`refuse_changed_files`, so the
reservation is refunded), and the algorithm reads a pinned file only with its pinned bytes
(``tasks.distance.load_queries``).

The public sample is pinned by its own ``PublicSample`` when chosen; :func:`refuse_changed_files` also
loads it before the run reads the private data, so a sample that changed is refused then, refunded.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from dpgui.data.errors import DataError
from dpgui.data.fingerprint import sha256_source
from dpgui.tasks.registry import AlgorithmInfo
from dpgui.tasks.spec import TaskSpec


class PublicFileChanged(DataError):
    """A pinned PUBLIC file no longer has the bytes its run was priced with."""


def named_files(spec: TaskSpec, algorithm: AlgorithmInfo) -> list[tuple[str, str]]:
    """(parameter name, path) of each file the algorithm's path parameters name in ``spec``."""
    named = ((p.name, str(spec.parameter(p.name, p.default) or "")) for p in algorithm.parameters if p.path)
    return [(name, path) for name, path in named if path]


def pinned(spec: TaskSpec, algorithm: AlgorithmInfo) -> TaskSpec:
    """``spec`` with the SHA-256 of each existing file ``algorithm``'s path parameters name (a missing file
    is left to the algorithm's preconditions, which name it)."""
    pins = tuple(
        (path, sha256_source(Path(path))) for _, path in named_files(spec, algorithm) if Path(path).is_file()
    )
    return dataclasses.replace(spec, pinned_files=pins)


def current_sha256(path: str) -> str | None:
    """The file's SHA-256 now (None: it is gone or cannot be read)."""
    try:
        return sha256_source(Path(path))
    except OSError:
        return None


REVIEW_AGAIN = "review the release again"
"""What to do about a changed file, for a single release (a plan's releases are priced when it is split)."""


def changed_file_error(path: str, todo: str = REVIEW_AGAIN) -> PublicFileChanged:
    return PublicFileChanged(
        f"the file {Path(path).name} changed since the release was priced on it (its cost counts its rows): "
        + todo
    )


def refuse_changed_files(spec: TaskSpec, todo: str = REVIEW_AGAIN) -> None:
    """Raise :class:`PublicFileChanged` if a file pinned in ``spec`` no longer has its pinned bytes, and
    hold the public sample's pinned bytes (a DataError if they are gone: the sample changed since it was
    chosen and its copy left the cache), so an algorithm that reads the sample during the run, after the
    private data, cannot fail on it then."""
    for path, sha256 in spec.pinned_files:
        if current_sha256(path) != sha256:
            raise changed_file_error(path, todo)
    if spec.public is not None:
        _ = spec.public.frame
