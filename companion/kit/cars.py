"""The cars of a race from the setup answers.

The setup wizard gives ``options["players"]``: one dict per car, ``{"name", "colour"}``
plus the answers to the pack's per-car questions (``Activity.car_options``), e.g.
``{"name": "Anna", "colour": "Red", "driver": "human"}``. A pack's ``setup`` may also be
called with just a count (tests, the command line): :func:`entries` accepts both.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping, Sequence

from companion.kit.errors import RuleError

COLOURS = ("Red", "Blue", "Yellow", "Green", "Black", "White", "Orange", "Purple",
           "Pink", "Grey", "Brown", "Silver")
"""The cars' colours, in the order the wizard hands them out."""

HUMAN, AUTO = "human", "auto"


def colours(count: int) -> tuple[str, ...]:
    if not 0 <= count <= len(COLOURS):
        raise RuleError(f"{count} cars: the companion has colours for 1 to {len(COLOURS)}")
    return COLOURS[:count]


def entries(options: Mapping[str, Any], *, low: int, high: int, game: str,
            default: int | None = None, key: str = "players", what: str = "players",
            defaults: Mapping[str, Any] | None = None,
            reserved: Iterable[str] = ()) -> list[dict[str, Any]]:
    """The car dicts of ``options[key]`` (a list of dicts or a count), checked: between
    ``low`` and ``high`` of them, each named (its colour when it has no name), no two
    alike (any case) nor one of the ``reserved`` names. ``defaults`` fills per-car
    answers that are missing."""
    given = options.get(key, default if default is not None else low)
    if isinstance(given, bool) or not isinstance(given, (int, list, tuple)):
        raise RuleError(f"{game}: '{key}' must be a count or a list of cars, not {given!r}")
    if isinstance(given, int):
        given = [{"name": c, "colour": c} for c in colours(min(given, len(COLOURS)))] if given >= 0 else []
    if not low <= len(given) <= high:
        raise RuleError(f"{game} takes {low} to {high} {what}, not {len(given)}")
    seen = {n.casefold() for n in reserved}
    out = []
    for i, car in enumerate(given):
        if not isinstance(car, Mapping):
            raise RuleError(f"{game}: car {i + 1} must be a table with a name, not {car!r}")
        colour = str(car.get("colour") or COLOURS[i % len(COLOURS)])
        name = " ".join(str(car.get("name") or colour).split()) or colour
        if name.casefold() in seen:
            raise RuleError(f"{game}: every car needs a name of its own ({name!r} twice)")
        seen.add(name.casefold())
        out.append({**(defaults or {}), **car, "name": name, "colour": colour})
    return out


def names(cars: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    return tuple(str(c["name"]) for c in cars)


def human_drivers(options: Mapping[str, Any]) -> frozenset[str]:
    """The names of the cars a person drives in a race set up with ``options``: every car
    of its ``players`` but the automated ones (a count: the cars named by their colours).
    The turn timer times these alone."""
    players = options.get("players")
    if isinstance(players, int) and not isinstance(players, bool):
        return frozenset(COLOURS[:max(0, players)])
    if not isinstance(players, list):
        return frozenset()
    return frozenset(" ".join(str(p.get("name") or p.get("colour") or "").split()) for p in players
                     if isinstance(p, Mapping) and p.get("driver") != AUTO)
