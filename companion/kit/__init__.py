"""The game-pack kit: what every pack shares, so no pack writes it again.

- ``errors``: :class:`RuleError`, the one error a pack raises for a setup or an event
  that does not fit.
- ``cars``: the colours, and the cars of a race from the setup answers (players, their
  names, per-car answers such as human or automated).
- ``turns``: turn order and phase helpers; the primary move of a list.
- ``events``: ``dispatch``, an event applied by its kind through the pack's handlers.
- ``update``: immutable updates of frozen states and tuples.
- ``text``: text fitted to the display profile (move labels, lines, rows).
- ``standings``: result lines, ordinals, the ``results.json`` standings shape.

Rules import ``core`` and ``kit``; screens import ``kit``, ``ui.view`` and ``receipts``.
"""
