"""The print spool: receipts kept on disk until the printer has printed them.

One JSON file per receipt, named by a sequence number so they print in the order they were
submitted (the Pi has no clock battery; file times are not trusted). Files are written
atomically (temporary file, fsync, rename, fsync of the folder): after a power cut a
receipt is either fully in the spool or not submitted. A file that cannot be read is
renamed ``*.bad`` and kept for the owner, never deleted.
"""

from __future__ import annotations

import json
import os
import re
import threading
from dataclasses import asdict, dataclass
from pathlib import Path

from companion.core.swap import fsync as sync_dir
from companion.receipts.model import Columns, Feed, Line, Picture, QRCode, Receipt, Rule

_ITEM_TYPES = {"line": Line, "columns": Columns, "rule": Rule, "feed": Feed, "picture": Picture, "qr-code": QRCode}
_TYPE_NAMES = {cls: name for name, cls in _ITEM_TYPES.items()}
_ENTRY = re.compile(r"^(\d{8})-[a-z0-9-]*\.json$")
LAST_PRINTED = "last-printed.json"


class SpoolError(ValueError):
    """A spool file is not a receipt."""


def _item_to_json(item) -> dict:
    if isinstance(item, Picture):     # its text version is items too
        return {"type": "picture", "spec": item.spec, "text": [_item_to_json(i) for i in item.text],
                "head": [_item_to_json(i) for i in item.head]}
    return {"type": _TYPE_NAMES[type(item)], **asdict(item)}


def _item_from_json(raw: dict):
    fields = dict(raw)
    cls = _ITEM_TYPES[fields.pop("type")]
    if cls is Picture:
        return Picture(str(fields["spec"]), tuple(_item_from_json(i) for i in fields.get("text", ())),
                       tuple(_item_from_json(i) for i in fields.get("head", ())))
    return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in fields.items()})


def receipt_to_json(receipt: Receipt) -> dict:
    items = [_item_to_json(item) for item in receipt.items]
    return {"kind": receipt.kind, "title": receipt.title, "items": items}


def receipt_from_json(data: dict) -> Receipt:
    try:
        items = [_item_from_json(raw) for raw in data["items"]]
        return Receipt(kind=str(data["kind"]), title=str(data["title"]), items=tuple(items))
    except (KeyError, TypeError, AttributeError) as exc:
        raise SpoolError(f"not a receipt ({exc!r})") from None


@dataclass(frozen=True)
class SpoolEntry:
    id: str          # the file name
    kind: str
    title: str


def write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)
    sync_dir(path.parent)


class Spool:
    def __init__(self, directory: str | os.PathLike):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        for leftover in self.dir.glob("*.tmp"):     # a write cut short by a power loss
            leftover.unlink()

    def add(self, receipt: Receipt) -> str:
        body = json.dumps(receipt_to_json(receipt), ensure_ascii=False, indent=1).encode("utf-8")
        kind = re.sub(r"[^a-z0-9-]+", "-", receipt.kind.lower()).strip("-")[:24]
        with self._lock:
            names = self._names()
            seq = int(names[-1][:8]) + 1 if names else 1
            name = f"{seq:08d}-{kind}.json"
            write_atomic(self.dir / name, body)
        return name

    def _names(self) -> list[str]:
        return sorted(p.name for p in self.dir.iterdir() if _ENTRY.match(p.name))

    def ids(self) -> list[str]:
        with self._lock:
            return self._names()

    def load(self, entry_id: str) -> Receipt:
        """The receipt in ``entry_id``; an unreadable file is renamed ``.bad`` (SpoolError)."""
        path = self.dir / entry_id
        try:
            return receipt_from_json(json.loads(path.read_text("utf-8")))
        except (OSError, ValueError) as exc:   # JSONDecodeError and SpoolError are ValueErrors
            bad = path.with_name(path.name + ".bad")
            if path.exists():
                os.replace(path, bad)
            raise SpoolError(f"{entry_id}: {exc} (kept as {bad.name})") from None

    def entries(self) -> list[SpoolEntry]:
        out = []
        for entry_id in self.ids():
            try:
                receipt = self.load(entry_id)
            except SpoolError:
                continue
            out.append(SpoolEntry(entry_id, receipt.kind, receipt.title))
        return out

    def done(self, entry_id: str) -> None:
        """The receipt printed: keep it as the last printed one, out of the queue."""
        with self._lock:
            os.replace(self.dir / entry_id, self.dir / LAST_PRINTED)
            sync_dir(self.dir)

    def last_printed(self) -> Receipt | None:
        path = self.dir / LAST_PRINTED
        if not path.exists():
            return None
        try:
            return receipt_from_json(json.loads(path.read_text("utf-8")))
        except (OSError, ValueError):
            return None
