"""The backup the box makes by itself after each finished race, on a worker of its own.

Set by ``[backup] dir`` in hardware/pinout.toml (off when unset). The app loop only asks
for a backup (``request()``) and reads, once, what went wrong (``news()``); the copy
(``companion.core.backup.back_up``) runs on the worker, so a slow or failing stick never
holds up a press. A directory that is not there (no stick mounted) is passed over
without a word: the next finished race is backed up once the stick is back. A backup
that fails never touches the journal: the race is in it already.
"""

from __future__ import annotations

import threading
from pathlib import Path


class AutoBackup:
    def __init__(self, journal_file: str | Path, folder: str | Path, keep: int):
        self.journal_file = Path(journal_file)
        self.folder = Path(folder)
        self.keep = keep
        self.last: Path | None = None        # the newest backup made
        self._news: str | None = None
        self._lock = threading.Lock()
        self._wanted = threading.Event()
        self._idle = threading.Event()
        self._idle.set()
        self._stop = False
        self._thread: threading.Thread | None = None

    def request(self) -> None:
        """Back up soon (a race has finished); returns at once."""
        with self._lock:
            if self._stop:
                return
            self._idle.clear()
            self._wanted.set()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="backup", daemon=True)
                self._thread.start()

    def news(self) -> str | None:
        """What the screen must say about the backups, once (None: nothing)."""
        with self._lock:
            said, self._news = self._news, None
        return said

    def wait(self, timeout: float | None = None) -> bool:
        """Wait until no backup is asked for or under way; False after ``timeout`` seconds."""
        return self._idle.wait(timeout)

    def close(self, timeout: float = 30) -> None:
        """Finish the backup under way (up to ``timeout`` seconds), then stop the worker."""
        self.wait(timeout)
        with self._lock:
            self._stop = True
            self._wanted.set()
        if self._thread is not None:
            self._thread.join(timeout=1)

    def _run(self) -> None:
        from companion.core.backup import back_up
        while True:
            self._wanted.wait()
            with self._lock:
                if self._stop:
                    self._idle.set()
                    return
                self._wanted.clear()
            news = None
            if self.folder.is_dir():            # else no stick is mounted there: nothing to say
                try:
                    self.last, _ = back_up(self.journal_file, self.folder, keep=self.keep)
                except Exception as exc:      # the worker must not die: the next race tries again
                    news = f"Backup failed: {getattr(exc, 'short', None) or exc}"
                    import logging
                    logging.getLogger(__name__).warning("backup to %s failed: %s", self.folder, exc)
            with self._lock:
                if news is not None:
                    self._news = news
                if not self._wanted.is_set():
                    self._idle.set()
