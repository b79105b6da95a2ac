"""The journal a command reads (``companion results``, ``print``, ``export``, ``import``):
the state directory's, which must exist, read as it is on a read-only card."""

from __future__ import annotations

import sys

from companion import paths
from companion.commands import CommandError
from companion.core.journal import Journal, JournalError, JournalReadOnly, read_only_reason


def open_journal(state: str | None):
    """The journal in ``state`` (which must exist: reading never creates a state dir). On
    a read-only card it is read as it is, with a line on stderr saying so."""
    state_dir = paths.state_dir(state)
    if not (state_dir / Journal.FILENAME).exists():
        raise CommandError(f"no journal in {state_dir} (run the companion first, or pass --state DIR)")
    try:
        return Journal(state_dir)
    except JournalReadOnly:
        pass
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    try:
        journal = Journal(state_dir, read_only=True)
    except JournalError as exc:
        raise CommandError(str(exc)) from None
    reason = read_only_reason(journal.path) or "read-only"
    print(f"companion: reading the journal in {state_dir} as it is ({reason})"
          + (f"; {journal.notice}" if journal.notice else ""), file=sys.stderr)
    return journal
