"""``map_steps`` (the wrapper every layer that renames a run's steps uses) and ``run_to_end``: a request
reaches the run."""

from __future__ import annotations

import pytest

from dpgui.algorithms.progress import FINISH_NOW, AlgorithmRun, Progress, map_steps, run_to_end


def test_steps_are_transformed_sent_values_reach_the_run_and_its_result_comes_back():
    heard: list[object] = []
    closed: list[bool] = []

    def run() -> AlgorithmRun[str]:
        try:
            for i in range(3):
                heard.append((yield Progress(i / 3, f"step {i}")))
            return "done"
        finally:
            closed.append(True)

    mapped = map_steps(run(), lambda step: Progress(step.fraction / 2, step.message.upper()))
    assert next(mapped) == Progress(0.0, "STEP 0")
    assert mapped.send(FINISH_NOW) == Progress(1 / 6, "STEP 1")
    assert mapped.send(None).message == "STEP 2"
    with pytest.raises(StopIteration) as stop:
        mapped.send(None)
    assert stop.value.value == "done"
    assert heard == [FINISH_NOW, None, None] and closed == [True]


def test_closing_the_wrapper_closes_the_run():
    closed: list[bool] = []

    def run() -> AlgorithmRun[None]:
        try:
            while True:
                yield Progress(0.0, "waiting")
        finally:
            closed.append(True)

    mapped = map_steps(run(), lambda step: step)
    next(mapped)
    mapped.close()
    assert closed == [True]


def test_run_to_end_sends_what_report_returns_into_the_run():
    """A report returning FINISH_NOW after the second step asks the run to end early (as the app's Finish
    now); one returning None, or no report, lets it go on."""

    def run():
        received = []
        for k in range(4):
            received.append((yield Progress(k / 4, f"step {k}")))
        return received

    assert run_to_end(run(), lambda step: FINISH_NOW if step.message == "step 1" else None) == [
        None,
        FINISH_NOW,
        None,
        None,
    ]
    assert run_to_end(run(), lambda step: None) == [None] * 4
    assert run_to_end(run()) == [None] * 4
