"""What the app's Export writes, as a request the thread pool runs, so the window stays live meanwhile.

A table of a million synthetic rows takes seconds to write (CSV and Parquet), and a plan writes one folder
per release: written in the GUI thread, the window froze for that long. The main window now hands one of
these requests to a :class:`~dpgui.jobs.background.LatestCall` and finishes (lists the folder, removes the
kept copy, offers the report) when it reports back. Plot images are drawn before, in the GUI thread, and
travel as PNG bytes. Qt-free: a request only calls the staged exports of ``dpgui.release``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from dpgui.release.batch_export import NamedRelease, export_batch
from dpgui.release.release import Release
from dpgui.release.staging import ExportedFiles, export_staged


@dataclass(frozen=True)
class ReleaseExport:
    """Export one committed release into ``folder`` (staged beside it, then moved in)."""

    release: Release
    folder: Path
    plots: Mapping[str, bytes]
    private: Path | None
    """The private file the folder must not hold (``staging.prepare_out``)."""
    overwrite: bool = False

    def run(self) -> ExportedFiles:
        return export_staged(
            self.release, self.folder, self.plots, overwrite=self.overwrite, private=self.private
        )

    def replacing(self) -> ReleaseExport:
        """The same export, allowed to replace the earlier release the custodian agreed to replace."""
        return dataclasses.replace(self, overwrite=True)


@dataclass(frozen=True)
class PlanExport:
    """Export a plan's releases into ``folder``: one folder each, and the plan's report and summary."""

    named: Sequence[NamedRelease]
    folder: Path

    def run(self) -> list[ExportedFiles]:
        return export_batch(self.named, self.folder)

    def folders(self, exported: Sequence[ExportedFiles]) -> dict[str, Path]:
        """Each release's id and the folder it was exported to."""
        return {
            item.release.release_id: files.folder for item, files in zip(self.named, exported, strict=True)
        }


ExportRequest = ReleaseExport | PlanExport
