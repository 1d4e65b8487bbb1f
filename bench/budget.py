"""The word each bench line ends with: its figure against its budget."""


def verdict(ok):
    """A cost (time, bytes, heap) within its budget, or not."""
    return "ok" if ok else "OVER BUDGET"


def target(ok):
    """A win rate at its target or above, or not."""
    return "ok" if ok else "MISSED"
