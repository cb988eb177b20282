"""`budget show` says when a charge has no result, as the app's Budget page does.

An audit cancelled a table release after it read the data: the command line listed the charge as a plain
"committed", like any release, and its JSON left out the missing release id; only the app said "committed,
no result".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli.main import main
from dpgui.data.fingerprint import sha256_file
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger


def test_a_run_charged_after_reading_the_data_is_shown_as_charged_without_a_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "private.csv"
    data.write_text("x\n" + "".join(f"{i % 97}\n" for i in range(400)))
    assert main(["budget", "set", "--data", str(data), "--epsilon", "5"]) == 0
    ledger = Ledger()
    record = ledger.open_dataset(data, sha256_file(data))
    cancelled = ledger.reserve(record.id, PrivacyCost(0.5), "table cancelled while it ran")
    ledger.mark_touched(cancelled)
    ledger.settle_unfinished(cancelled)  # what a cancel after the touch does: committed, no release
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(data)]) == 0
    shown = capsys.readouterr().out
    assert "committed, no result" in shown and "table cancelled while it ran" in shown
    assert "charged without a result: the run was cancelled, or failed, after it read the private" in shown
    assert main(["budget", "show", "--data", str(data), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["entries"]
    assert entry["status"] == "committed" and entry["release_id"] is None and entry["touched"] is True
    assert entry["status_words"].startswith("charged without a result")
    (commit,) = [json.loads(line) for line in ledger.path.read_text().splitlines() if '"committed"' in line]
    assert "charged without a result" in commit["reason"]  # the ledger's own line says so too
