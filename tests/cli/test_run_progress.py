"""The CLI's progress lines for a long run: nothing for a quick one, one line per tenth after, and a line
every 30 s while the tenth stands still."""

from __future__ import annotations

from dpgui.algorithms.progress import Progress, run_to_end
from dpgui.cli.release_cmd import RunProgress


def test_a_long_run_prints_one_line_per_tenth_after_the_delay_and_a_quick_one_nothing(capsys):
    now = [0.0]
    report = RunProgress(after=5.0, clock=lambda: now[0])

    def run():
        for second, fraction in ((1, 0.15), (2, 0.3), (6, 0.31), (7, 0.35), (8, 0.42), (9, 0.9)):
            now[0] = second
            yield Progress(fraction, f"round at {second} s")
        return "released"

    assert run_to_end(run(), report) == "released"
    lines = capsys.readouterr().err.splitlines()
    shown = ((30, 6), (40, 8), (90, 9))  # 15% and 30% came before the delay; 31% and 35% repeat a tenth
    assert lines == [f"running: {tenth}% (round at {second} s)" for tenth, second in shown]


def test_a_run_that_stays_in_one_tenth_still_prints_every_30_seconds(capsys):
    now = [0.0]
    report = RunProgress(after=5.0, every=30.0, clock=lambda: now[0])
    for second, round_ in ((6, 1), (20, 2), (36, 3), (50, 4), (70, 5)):
        now[0] = second
        report(Progress(0.32, f"round {round_}"))
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["running: 30% (round 1)", "running: 30% (round 3)", "running: 30% (round 5)"]
