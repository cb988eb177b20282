"""A :class:`PrivateRandom` that honours a cancel between draws, so a run stops within one batch.

The app cancels a release cooperatively. Between an algorithm's progress steps there can be long stretches
spent drawing noise (a tree over 2^20 leaves asks for millions of draws); wrapping the run's randomness in
:class:`CancellableRandom` checks the cancel flag before every draw and splits a large noise vector into
batches with a check between them. A cancelled draw raises :class:`DrawCancelled`: nothing it would have
drawn is released, and a run that had read the data stays charged as before.

Long work between two draws (a synthetic table's model fit: JAX compiling and iterating for seconds) takes
the same cancel through :func:`cancel_checkpoint` and runs under :func:`wait_cancellably`, which stops
waiting for it at a cancel. Such work given up runs on to its next checkpoint (JAX cannot stop compiling):
:func:`abandoned_work_running` says whether any still runs, so that the next run needing the same resources
waits for it (:func:`wait_for_abandoned_work`) rather than overlap it. Its thread is not a daemon: at
interpreter exit Python joins it, so the process never ends while JAX runs in it.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TypeVar

import numpy as np

from dpgui.privacy.random import PrivateRandom

T = TypeVar("T")

NOISE_BATCH = 1 << 14
"""Draws per sampler call: about 0.15 s of OpenDP sampling, so a cancel lands well within a second."""

POLL_SECONDS = 0.1
"""How often :func:`wait_cancellably` looks at the cancel flag while the work runs."""


_abandoned: set[Future] = set()
"""The work :func:`wait_cancellably` stopped waiting for that has not ended yet."""
_abandoned_lock = threading.Lock()


class DrawCancelled(Exception):
    """The run was cancelled while it was drawing randomness (or doing long work between draws)."""


class CancellableRandom(PrivateRandom):
    """Delegates every draw to ``inner`` after checking ``cancelled``; noise vectors come in batches."""

    def __init__(self, inner: PrivateRandom, cancelled: Callable[[], bool]) -> None:
        self.inner = inner
        self._cancelled = cancelled
        self.is_private = inner.is_private
        self.description = inner.description

    def check(self, during: str = "drawing noise") -> None:
        """Raise :class:`DrawCancelled` if the run was cancelled."""
        if self._cancelled():
            raise DrawCancelled(f"cancelled by the user while {during}")

    def uniform01(self, size: int) -> np.ndarray:
        self.check()
        return self.inner.uniform01(size)

    def randbelow(self, n: int) -> int:
        self.check()
        return self.inner.randbelow(n)

    def choose_index(self, log_weights: np.ndarray) -> int:
        """The inner generator's selection (``SecureRandom``'s is exact; the base class's floating-point
        Gumbel-max would bypass it)."""
        self.check()
        return self.inner.choose_index(log_weights)

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        return self._batched(self.inner.discrete_laplace, scale, size)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        return self._batched(self.inner.discrete_gaussian, sigma, size)

    def _batched(self, draw: Callable[[float, int], np.ndarray], scale: float, size: int) -> np.ndarray:
        parts = []
        for start in range(0, max(size, 1), NOISE_BATCH):
            self.check()
            parts.append(draw(scale, min(NOISE_BATCH, size - start)))
        return np.concatenate(parts).astype(np.int64, copy=False)


def cancel_checkpoint(rng: PrivateRandom, during: str) -> Callable[[], None] | None:
    """What long work between draws calls to honour the cancel of the run ``rng`` belongs to (it raises
    :class:`DrawCancelled` once the run is cancelled); None when ``rng`` carries no cancel (the CLI, tests,
    simulations), for the work to run as it always did."""
    return functools.partial(rng.check, during) if isinstance(rng, CancellableRandom) else None


def wait_cancellably(work: Callable[[], T], checkpoint: Callable[[], None]) -> T:
    """``work()``'s result, the work run in a thread of its own while this one calls ``checkpoint`` every
    POLL_SECONDS: what ``checkpoint`` raises (a cancel) is raised here at once, without waiting for the work.
    The work then ends on its own and its result is dropped: work that calls ``checkpoint`` itself (a model
    fit between its chunks of iterations) stops at its next call; a stretch that cannot be interrupted (JAX
    compiling a program) runs to its end first. An exception of the work's own is raised here."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dpgui-cancellable")
    future = pool.submit(work)
    pool.shutdown(wait=False)  # the thread ends with the work
    while not wait([future], timeout=POLL_SECONDS).done:
        try:
            checkpoint()
        except BaseException:
            _abandon(future)
            raise
    return future.result()


def _abandon(future: Future) -> None:
    with _abandoned_lock:
        _abandoned.add(future)
    future.add_done_callback(_forget)  # at once if it has ended meanwhile


def _forget(future: Future) -> None:
    with _abandoned_lock:
        _abandoned.discard(future)


def abandoned_work_running() -> bool:
    """Whether work a cancel gave up (:func:`wait_cancellably`) still runs."""
    with _abandoned_lock:
        return bool(_abandoned)


def wait_for_abandoned_work(timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the abandoned work to end; whether none runs any more."""
    with _abandoned_lock:
        running = list(_abandoned)
    return not wait(running, timeout=timeout).not_done
