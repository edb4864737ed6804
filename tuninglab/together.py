"""Run a job for several items at once, in threads: k6 runs against nodes measured side by
side, smoke tests of cold nodes. The first error is raised in the caller's thread."""
from __future__ import annotations

import threading
from typing import Callable, Iterable

__all__ = ["together"]


def together(items: Iterable, job: Callable) -> dict:
    """``job(item)`` for every item at once; returns {item's id (or the item): result}."""
    results, errors = {}, []

    def run(item):
        try:
            results[getattr(item, "id", item)] = job(item)
        except BaseException as exc:  # re-raised below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in items]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results
