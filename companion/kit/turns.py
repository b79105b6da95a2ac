"""Turn order and phase helpers."""

from __future__ import annotations

from typing import Iterable, Sequence, TypeVar

T = TypeVar("T")


def primary_index(moves: Sequence) -> int:
    """The index of the move the GO button performs (the first ``primary`` move; else 0)."""
    return next((i for i, m in enumerate(moves) if m.primary), 0)


def primary(moves: Sequence):
    """The move GO performs, or None when nothing may be done."""
    return moves[primary_index(moves)] if moves else None


def player_on_turn(moves: Sequence) -> str:
    """The player of the move GO performs ("" when it names none, or nothing may be
    done): whose turn a turn timer counts (docs/turn-timer.md)."""
    move = primary(moves)
    return str(move.player or "") if move is not None else ""


def next_after(order: Sequence[T], current: T, *, skip: Iterable[T] = ()) -> T | None:
    """The one after ``current`` in ``order`` (not wrapping), passing over ``skip``;
    None when ``current`` was the last."""
    skipped = set(skip)
    seen = False
    for item in order:
        if seen and item not in skipped:
            return item
        seen = seen or item == current
    return None


def first(order: Sequence[T], *, skip: Iterable[T] = ()) -> T | None:
    """The first of ``order`` not in ``skip``."""
    skipped = set(skip)
    return next((item for item in order if item not in skipped), None)


def cycle_from(order: Sequence[T], start: T) -> tuple[T, ...]:
    """``order`` rotated so that it begins with ``start``."""
    i = list(order).index(start)
    return tuple(order[i:]) + tuple(order[:i])


def play_out(state, rng, script, resolve, apply, limit: int):
    """Play on with ``script`` choosing every move (None: done) through a pack's pure
    ``resolve`` and ``apply``; returns the final state and the events. The demos and the
    packs' tests play whole races with it."""
    events = []
    for _ in range(limit):
        move = script(state)
        if move is None:
            return state, events
        event = resolve(state, move, rng)
        events.append(event)
        state = apply(state, event)
    raise RuntimeError(f"the scripted race did not end within {limit} moves")
