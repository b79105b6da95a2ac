"""Applying a journal event: each pack keeps a table of handlers by the event's kind."""

from __future__ import annotations

from typing import Any, Callable, Mapping, TypeVar

from companion.kit.errors import RuleError

S = TypeVar("S")

# What Python raises in a handler when an event's fields are missing or of the wrong type.
MALFORMED = (KeyError, TypeError, IndexError, ValueError, AttributeError)


def dispatch(handlers: Mapping[str, Callable[[S, Mapping[str, Any]], S]], state: S, event: Any, game: str) -> S:
    """``handlers[event["kind"]](state, event)``. An event of no known kind, or one whose
    fields do not fit (a corrupt or foreign journal row), raises RuleError naming the
    game and the kind. The companion's own errors (RuleError, DeckError...) already say
    what is wrong and go through as they are."""
    kind = event.get("kind") if isinstance(event, Mapping) else None
    handler = handlers.get(kind) if isinstance(kind, str) else None
    if handler is None:
        raise RuleError(f"unknown {game} event {kind!r}")
    try:
        return handler(state, event)
    except MALFORMED as exc:
        if type(exc) not in MALFORMED:
            raise
        raise RuleError(f"{game} event {kind!r} is malformed ({exc.__class__.__name__}: {exc})") from None
