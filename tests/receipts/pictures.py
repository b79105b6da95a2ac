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


def rounds_results(cars: int, rounds: int, seed: int = 1) -> dict:
    """A Formula Dé-like race: the order after each round (``across: "rounds"``, ``at``),
    many places changing in the first rounds, a car out early, two pit stops."""
    results = race_results(cars, rounds, seed)
    chart = results["lap_chart"]
    rnd = random.Random(seed)
    for order in chart["laps"][:6]:               # the start: everyone changes places
        rnd.shuffle(order)
    chart.update(at=list(range(1, rounds + 1)), across="rounds")
    return results


ZONES = ("T", "B", "G", "C", "E", "H")
ZONE_NAMES = ("tires", "brakes", "gearbox", "body", "engine", "handling")


def wear_cars(cars: int, laps: int = 3, seed: int = 1) -> list[dict]:
    """Each car's wear as Formula Dé's results hold it: WP spent per lap, new tires at a pit
    stop (WP given back), a car out when a zone ran out."""
    rnd = random.Random(seed)
    out = []
    for k in range(cars):
        start, left, log, gone = [6, 3, 3, 3, 3, 2], [6, 3, 3, 3, 3, 2], [], None
        for lap in range(1, laps + 1):
            for _ in range(rnd.randrange(2, 6)):
                z = rnd.randrange(6)
                if left[z] > 0:
                    left[z] -= 1
                    log.append([lap, z, 1])
            if lap < laps and left[0] <= 2 and rnd.random() < 0.7:
                log.append([lap, 0, -(6 - left[0])])
                left[0] = 6
            if k == cars - 1 and lap == 1:
                gone = 1
                break
        out.append({"name": NAMES[k], "start": start, "log": log, "out": gone})
    return out
