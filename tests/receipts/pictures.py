"""Races made up for the picture tests: results with a lap chart of any size."""

from __future__ import annotations

import random

NAMES = ("Red", "Blue", "Green", "Yellow", "Black", "White", "Orange", "Purple", "Pink", "Grey", "Brown", "Silver")


def race_results(cars: int, laps: int, seed: int = 1, out: bool = True) -> dict:
    """A results dict (``standings`` and ``lap_chart``) of ``cars`` cars over ``laps``
    laps: a few places change each lap, some pit stops, one car out half-way (from four
    cars on, when ``out``)."""
    rnd = random.Random(seed)
    alive = list(NAMES[:cars])
    orders, pits, gone = [], [], []
    for lap in range(1, laps + 1):
        for _ in range(rnd.randrange(3)):
            i = rnd.randrange(len(alive) - 1)
            alive[i], alive[i + 1] = alive[i + 1], alive[i]
        if rnd.random() < 0.1:
            pits.append([rnd.choice(alive), lap])
        if out and cars >= 4 and lap == max(1, laps // 2) and not gone:
            gone.append([alive[-1], lap])
            alive = alive[:-1]
        orders.append(list(alive))
    standings = [{"position": k, "name": n} for k, n in enumerate(alive + [n for n, _ in gone], start=1)]
    return {"standings": standings, "lap_chart": {"laps": orders, "pits": pits, "out": gone}}
