"""The keys to the codes the screens show (pause menu > Key, ``Activity.key``): one line
a code, ``code = words``, 20 characters at most (a list with its scroll bar). A pack's own
codes are in its screens; the tire dice's are here, as the dice roller and 3-Wide show
the same faces and colours."""

TIRE_DICE = (
    "5xs = a tire die",
    "5 = speed",
    "x = wears a chip",
    "s = saves fuel",
    "! = trouble",
    "B G Y R = tire wear",
    "B = new, R = worn",
)
"""A tire die's face (``5xs``, ``3!``) and a tire's colour (``Tires BGBB``, ``Tire dice
RBYB``): the colour of its chip, the die rolled for it."""


def key_of(activity, state) -> tuple[str, ...]:
    """The key of ``activity``'s screens in ``state`` (``Activity.key``: the lines, or a
    function of the state giving them: a dice session's key is its game's dice)."""
    key = activity.key
    return tuple(key(state) if callable(key) else key or ())
