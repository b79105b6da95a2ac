"""The rulebook's tables as facts: wear-point zones, gearing down, blocked braking, the
black-die thresholds (dry and rain), the start and pit-stop rolls, the weather lines and
what each tire type does. No words for the screen here (screens.py holds those).
"""

from __future__ import annotations

ZONES = ("tires", "brakes", "gearbox", "body", "engine", "handling")
"""A car's six dashboard zones, in the order of the scorecard."""
TIRES, BRAKES, GEARBOX, BODY, ENGINE, HANDLING = ZONES
LIMITS = {TIRES: (1, 14), BRAKES: (1, 7), GEARBOX: (1, 7), BODY: (1, 7), ENGINE: (1, 7), HANDLING: (1, 7)}
"""Constructing a car (optional rules): each zone's range; 20 WP in all."""
CONSTRUCTED_TOTAL = 20

GEARS = (1, 2, 3, 4, 5, 6)
MOTOR_GEARS = (5, 6)
"""A top roll in 5th or 6th (a 20, a 30) makes every car in these gears roll for its engine."""

GEAR_DOWN = {1: {GEARBOX: 1}, 2: {GEARBOX: 1, BRAKES: 1}, 3: {GEARBOX: 1, BRAKES: 1, ENGINE: 1}}
"""Gears skipped when changing down -> WP lost. Skipping 4 gears is not possible."""
MAX_SKIP = 3


def gear_down_cost(current: int, new: int) -> dict[str, int] | None:
    """The WP a change from ``current`` to ``new`` costs ({} for none); None when the
    change is not allowed (up more than one, or skipping 4 gears)."""
    if new > current + 1 or new < 1 or new > 6:
        return None
    skipped = current - new - 1
    if skipped <= 0:
        return {}
    return dict(GEAR_DOWN[skipped]) if skipped <= MAX_SKIP else None


BLOCKED = {1: (1, 0), 2: (2, 0), 3: (3, 0), 4: (3, 1), 5: (3, 2), 6: (3, 3)}
"""Spaces remaining when blocked -> (brake WP, tire WP) lost; 7 or more: eliminated."""
BLOCKED_OUT = 7


def blocked_cost(spaces: int) -> tuple[int, int] | None:
    """(brake, tire) WP lost when blocked with ``spaces`` remaining; None: eliminated."""
    if spaces <= 0:
        return (0, 0)
    return BLOCKED.get(spaces)


# black-die thresholds: a roll at or under the number is a hit
COLLISION = {False: 1, True: 2}      # raining -> highest roll that costs a car body WP
ENGINE_HIT = {False: 4, True: 3}     # motor damage
HANDLING_HIT = {False: 4, True: 5}   # a damage marker passed or landed on


def collision_hit(roll: int, rain: bool) -> bool:
    return roll <= COLLISION[rain]


def engine_hit(roll: int, rain: bool) -> bool:
    return roll <= ENGINE_HIT[rain]


def handling_hit(roll: int, rain: bool) -> bool:
    return roll <= HANDLING_HIT[rain]


# the start roll
POOR_START, GREAT_START, GREAT_START_SPACES = 1, 20, 4


def start_effect(roll: int) -> str:
    """"poor" (misses the first turn), "great" (+4 spaces now, 2nd gear next) or "normal"."""
    return "poor" if roll == POOR_START else "great" if roll == GREAT_START else "normal"


# the pit-stop roll
QUICK_STOP_MAX = 10
PIT_GEAR = 4


def pit_effect(roll: int) -> tuple[str, int]:
    """("quick", spaces leaving the pit in 4th) for 1-10, ("slow", 0) for 11-20."""
    if roll <= QUICK_STOP_MAX:
        return "quick", (roll + 1) // 2
    return "slow", 0


# weather: the lines of the rulebook's table, top to bottom
GOOD, CHANGEABLE, RAIN_CHANGEABLE, RAINY = 0, 1, 2, 3
WEATHER_LINES = ("good", "changeable", "rain-changeable", "rainy")
FIRST_LINE = {"good": GOOD, "changeable": CHANGEABLE, "rain": RAINY}
"""The chart's result before the race -> the weather line the race starts on."""


def raining(line: int) -> bool:
    return line >= RAIN_CHANGEABLE


def changeable(line: int) -> bool:
    """Whether a top roll in 5th/6th makes the weather be rolled again."""
    return line in (CHANGEABLE, RAIN_CHANGEABLE)


def shift(line: int, chart_result: str) -> int:
    """The weather line after a re-roll: good shifts one line up, rain one line down,
    changeable stays (good and rainy never change)."""
    if not changeable(line):
        return line
    if chart_result == "good":
        return line - 1
    if chart_result == "rain":
        return line + 1
    return line


# tires
HARD, SOFT, RAIN = "hard", "soft", "rain"
TIRE_TYPES = (HARD, SOFT, RAIN)
LAST_FREE_LAP = 2
"""Soft and rain tires not changed in a pit stop before the 3rd race lap: penalties x3."""


def tire_slide(tires: str, rain: bool, lap: int, in_corner: bool) -> int:
    """Spaces a car must move on top of its roll because of its tires (a move with at
    least one space in a corner): hard tires in rain +3, soft tires in rain +3 on the
    first 2 laps, rain tires in rain +1."""
    if not rain or not in_corner:
        return 0
    if tires == HARD:
        return 3
    if tires == SOFT:
        return 3 if lap <= LAST_FREE_LAP else 0
    return 1


def soft_bonus(tires: str, rain: bool) -> int:
    """The extra space a car on soft tires may move in the dry (not compulsory)."""
    return 1 if tires == SOFT and not rain else 0


def overshoot_factor(tires: str, rain: bool, lap: int, changed: bool) -> int:
    """Tire WP lost per space overshot: soft tires kept into the 3rd lap x3; rain tires
    in the dry x2 on the first 2 laps, x3 after if never changed."""
    late = lap > LAST_FREE_LAP and not changed
    if tires == SOFT:
        return 3 if late else 1
    if tires == RAIN and not rain:
        return 3 if late else 2
    return 1


TECH_REPAIR = 2
"""WP a technical pit stop may give back (in one or two zones, not the tires), per race."""
TEAM_REPAIR = 4
"""A team's repair allowance in the team race, shared by its two cars."""
TEAM_POINTS = (10, 8, 6, 5, 4, 3, 2, 1, 0, 0)


# -- road races ---------------------------------------------------------------------------

def noise_effect(roll: int) -> str | None:
    """Engine noise: the zone a resident's shot costs 1 WP (None: the shot goes wild)."""
    if roll <= 15:
        return None
    if roll <= 18:
        return TIRES
    return BODY if roll == 19 else ENGINE


def radio_zone(roll: int) -> str:
    """Car Radio: the zone the target car loses 1 WP in."""
    for high, zone in ((4, TIRES), (7, BRAKES), (10, GEARBOX), (13, BODY), (17, ENGINE), (20, HANDLING)):
        if roll <= high:
            return zone
    return HANDLING


POLICE_SPEED = 10
"""Police station: a driver's speed is the number on the gear die x 10."""
POLICE_REPAIR = 2
CHECKPOINT_REPAIR = 2
MECHANIC_REPAIR = 4

SKILLS = ("how-sweet", "weather-frog", "aggressive", "skidding-pro", "experienced-mechanic",
          "quick-off-the-mark", "car-radio", "pile-of-scrap", "little-genius", "better-nitro",
          "ace-at-the-wheel")
"""The road-race drivers' features (the rulebook's skill reference)."""
BETTER_NITRO = 3
FROG_SLIDE = 1
GENIUS_ENGINE = {False: 3, True: 2}      # Little Genius: engine hits on 1-3 (rain 1-2)
SCRAP_HANDLING = 2                       # Pile of Scrap: handling hits on 1-2


def nitro_spaces(gear: int, skill: str) -> int:
    """The nitro's bonus: +1 in 1st, +2 in 2nd, ...; Better Nitro +3 more."""
    return gear + (BETTER_NITRO if skill == "better-nitro" else 0)
