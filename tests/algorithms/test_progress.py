"""``map_steps``: the wrapper every layer that renames a run's steps uses, so a request reaches the run."""

from __future__ import annotations

import pytest

from dpgui.algorithms.progress import FINISH_NOW, AlgorithmRun, Progress, map_steps


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
