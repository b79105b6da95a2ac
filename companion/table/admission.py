"""Who may hold a connection to the table screen, and who makes room for whom.

Three bounds, counted per peer address (one phone, one laptop) and in all:

- ``per_address`` connections from one address at once, whatever they are doing (sending
  their request, being answered, streaming). One more from it is refused (503): a slow loris
  or a flood from one address holds that many, never the total.
- ``streams_per_address`` ``/events`` streams from one address. Its next stream closes its
  oldest: a phone that reloads, or wakes from sleep with its old connections still half
  open, is the newest and gets through, and the stream it left is the one let go.
- ``clients`` connections in all. When they are all held, a newcomer takes the place of the
  oldest connection of the address that holds the most, if that address holds at least two
  more than the newcomer's; otherwise it is refused. Idle or slow connections then keep
  no phone out while they hold more than a fair share.

Pure bookkeeping: the server gives each connection a ``close`` to call and tells this
class what happens; nothing here touches a socket or a clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable


@dataclass(eq=False)
class Hold:
    """One admitted connection: its address, and how to close it to make room."""
    address: str
    close: Callable[[], None] = field(repr=False)
    stream: bool = False


class Admission:
    def __init__(self, clients: int, per_address: int, streams_per_address: int):
        self.clients, self.per_address, self.streams_per_address = clients, per_address, streams_per_address
        self.held: dict[str, list[Hold]] = {}       # address -> its connections, oldest first
        self.streams: dict[str, list[Hold]] = {}    # address -> its streams, oldest first
        self.count = 0

    def admit(self, address: str, close: Callable[[], None]) -> Hold | None:
        """A new connection from ``address``: its Hold, or None when it is to be refused.
        It may close another connection to make room (``close`` of that one is called)."""
        mine = len(self.held.get(address, ()))
        if mine >= self.per_address:
            return None
        if self.count >= self.clients:
            heaviest = max(self.held.values(), key=len)
            if len(heaviest) < mine + 2:
                return None
            self._evict(heaviest[0])
        hold = Hold(address, close)
        self.held.setdefault(address, []).append(hold)
        self.count += 1
        return hold

    def stream(self, hold: Hold) -> None:
        """``hold`` becomes a stream; the oldest stream of its address goes if it is one too many."""
        if hold.stream or hold not in self.held.get(hold.address, ()):
            return
        hold.stream = True
        streams = self.streams.setdefault(hold.address, [])
        streams.append(hold)
        if len(streams) > self.streams_per_address:
            self._evict(streams[0])

    def release(self, hold: Hold | None) -> None:
        """The connection has ended (or was closed to make room); a second call does nothing."""
        if hold is None:
            return
        for table in (self.held, self.streams):
            held = table.get(hold.address)
            if held is not None and hold in held:
                held.remove(hold)
                if table is self.held:
                    self.count -= 1
                if not held:
                    del table[hold.address]

    def count_of(self, address: str) -> tuple[int, int]:
        """(connections, streams) that ``address`` holds now."""
        return len(self.held.get(address, ())), len(self.streams.get(address, ()))

    def _evict(self, hold: Hold) -> None:
        self.release(hold)
        hold.close()
