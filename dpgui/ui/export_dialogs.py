"""The export's two dialogs: naming a (new) folder for the files, and offering to open what was written."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QMessageBox, QWidget


def choose_export_folder(parent: QWidget, suggestion: Path) -> Path | None:
    """Ask for the export folder by name: a new one (created with its parents) or an existing one.

    A save dialog rather than a folder picker, so that a folder which does not exist yet can be named.
    """
    name, _ = QFileDialog.getSaveFileName(
        parent,
        "Export the release into a folder (a new name creates it)",
        str(suggestion),
        "Folder (*)",
        options=QFileDialog.Option.DontConfirmOverwrite,
    )
    return Path(name) if name else None


class ExportedOffer(QMessageBox):
    """Non-modal: the export is done; open the report in the browser, or show the folder."""

    def __init__(self, parent: QWidget, folder: Path, report: Path | None) -> None:
        super().__init__(
            QMessageBox.Icon.Information,
            "Release exported",
            f"The release was exported to {folder}.",
            QMessageBox.StandardButton.Close,
            parent,
        )
        self.folder, self.report = folder, report
        self.open_report_button = (
            self.addButton("Open report", QMessageBox.ButtonRole.AcceptRole) if report is not None else None
        )
        self.show_folder_button = self.addButton("Show folder", QMessageBox.ButtonRole.ActionRole)
        self.buttonClicked.connect(self._clicked)

    def _clicked(self, button: object) -> None:
        if button is self.open_report_button and self.report is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.report)))
        elif button is self.show_folder_button:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.folder)))
