"""``companion games``, ``companion roll`` and ``companion draw``: the toolkit on the command line.

``roll GAME DIE`` rolls a game's die (or a plain dN with GAME ``any``); ``draw GAME DECK``
shuffles a game's deck and draws from it. The owner's game files in the state directory
(``--state``, else $COMPANION_STATE) apply, so owner-defined dice and decks work here too.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.commands import CommandError

MAX_COUNT = 1_000_000


def register(sub) -> None:
    p = sub.add_parser("games", help="list each game with its dice, decks and points tables")
    _state_option(p)
    p.set_defaults(func=games)

    p = sub.add_parser("roll", help="roll a game's die or dice set (GAME 'any' for a plain dN such as d6, d20)")
    p.add_argument("game", metavar="GAME", help="a game (see `companion games`) or 'any'")
    p.add_argument("die", metavar="DIE", help="a die or dice set of that game (3-wide tires), or dN (d2..d1000)")
    _common(p, "rolls")
    p.set_defaults(func=roll)

    p = sub.add_parser("draw", help="shuffle a game's deck and draw cards from it",
                       description="Shuffle a game's deck and draw cards. Each card drawn goes on the "
                                   "discard pile; when the draw pile runs out, the discards are shuffled "
                                   "into a new one, as at the table, so -n may exceed the deck size.")
    p.add_argument("game", metavar="GAME", help="a game (see `companion games`)")
    p.add_argument("deck", metavar="DECK", help="a deck of that game, the owner's own decks included")
    _common(p, "cards to draw")
    p.set_defaults(func=draw)


def _common(p, what: str) -> None:
    p.add_argument("-n", type=_count, default=1, metavar="N", help=f"how many {what} (default 1)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--seed", type=int, help="a seed for a repeatable result (default: the OS generator)")
    _state_option(p)


def _state_option(p) -> None:
    p.add_argument("--state", metavar="DIR", help="state directory holding the owner's games/<game>.toml")


def _count(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text!r}") from None
    if not 1 <= n <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"must be from 1 to {MAX_COUNT}")
    return n


def _data(slug: str, state: str | None) -> dict:
    """The game's data with the owner's overrides; every mistake as a CommandError."""
    from companion.core import gamedata
    from companion.games import data as game_data
    from companion.core.config import ConfigError
    from companion.paths import state_dir

    if slug == gamedata.ANY:
        return {}
    known = game_data.games_with_data()
    if slug not in known:
        raise CommandError(f"unknown game '{slug}'; available: {', '.join([gamedata.ANY, *known])}")
    try:
        return game_data.load(slug, state_dir(state))
    except ConfigError as exc:
        raise CommandError(str(exc)) from None


def roll(args) -> int:
    from companion.core import gamedata
    from companion.core.dice import DiceError, lookup, roll as roll_die
    from companion.core.rng import make_rng

    data = _data(args.game, args.state)
    dice = gamedata.dice_of(data)
    sets = gamedata.dice_sets_of(data)
    if args.die in sets and args.die not in dice:
        return _roll_set(args, dice, args.die, sets[args.die])
    try:
        die = lookup(dice, args.die, args.game)
    except DiceError as exc:
        if sets:  # the sets are offered too: "tires" is as good a name as "tire-black"
            raise CommandError(f"{exc}; dice sets: {', '.join(sets)}") from None
        raise CommandError(str(exc)) from None
    rng = make_rng(args.seed)
    faces = [roll_die(die, rng) for _ in range(args.n)]
    if args.json:
        _print_json({"game": args.game, "die": die.id, "rolls": faces})
    else:
        print(f"{die.label}: {' '.join(str(f) for f in faces)}")
    return 0


def _roll_set(args, dice: dict, set_id: str, dice_set: dict) -> int:
    """Roll every die of a dice set together, ``-n`` times (3-Wide's four tire dice)."""
    from companion.core.dice import lookup, roll as roll_die
    from companion.core.rng import make_rng

    members = [lookup(dice, d, args.game) for d in dice_set["dice"]]
    rng = make_rng(args.seed)
    rolls = [[roll_die(d, rng) for d in members] for _ in range(args.n)]
    if args.json:
        _print_json({"game": args.game, "set": set_id, "dice": [d.id for d in members], "rolls": rolls})
    else:
        for faces in rolls:
            print(f"{dice_set['label']}: {' '.join(str(f) for f in faces)}")
    return 0


def draw(args) -> int:
    from companion.core import deck as dk
    from companion.core import gamedata
    from companion.core.rng import make_rng
    from companion.paths import state_dir

    data = _data(args.game, args.state)
    decks = gamedata.decks_of(data)
    if args.deck not in decks:
        hint = ", ".join(decks) or f"none (add [decks.my-deck] to {state_dir(args.state) / 'games' / (args.game + '.toml')})"
        raise CommandError(f"unknown deck '{args.deck}' for {args.game}; available: {hint}")
    rng = make_rng(args.seed)
    cards = _shared(decks[args.deck])
    pile = dk.shuffle_all(dk.new_pile(cards), dk.shuffle_order(len(cards), rng))
    reshuffles = [0, 0]   # how many reshuffles, the cards drawn before the first (memory does not grow with -n)

    def reshuffled(count: int, after: int) -> None:     # said, never silent: cards repeat after it
        if args.json:
            reshuffles[:] = [reshuffles[0] + 1, reshuffles[1] or after]   # said once, on stderr, at the end
        else:
            print(f"-- after {after} cards the draw pile ran out: its {count} discards were reshuffled --")

    drawn = _draw_cards(pile, args.n, rng, reshuffled)
    if args.json:     # streamed: a million cards never sit in memory as one document
        head = json.dumps({"game": args.game, "deck": args.deck, "cards": []}, ensure_ascii=False)
        out = sys.stdout
        out.write(head[:-2])
        texts: dict = {}
        for i, card in enumerate(drawn):
            out.write((", " if i else "") + _card_json(card, texts))
        out.write(head[-2:] + "\n")
        if reshuffles[0]:
            times = "once" if reshuffles[0] == 1 else f"{reshuffles[0]:,} times"
            print(f"the draw pile ran out {times} (first after {reshuffles[1]} cards): its discards were "
                  "reshuffled each time, so cards repeat", file=sys.stderr)
    else:
        for card in drawn:
            details = " ".join(f"{k}={_text(v)}" for k, v in card.fields)
            print(f"{card.name}  {details}".rstrip())
    return 0


def _card_json(card, texts: dict) -> str:
    """``card`` as JSON, kept in ``texts`` for its next draw (a deck holds few cards, each
    drawn again and again; equal cards are one object there, see ``_shared``)."""
    try:
        text = texts.get(card)
    except TypeError:       # a card with an unhashable field
        return json.dumps(card.as_dict(), ensure_ascii=False)
    if text is None:
        text = texts[card] = json.dumps(card.as_dict(), ensure_ascii=False)
    return text


def _shared(cards: list) -> list:
    """Equal cards as one object (a deck of 500 entries x 1000 copies holds 500 cards,
    not 500,000)."""
    seen: dict = {}
    try:
        return [seen.setdefault(card, card) for card in cards]
    except TypeError:       # a card with an unhashable field: keep them as they are
        return list(cards)


def _draw_cards(pile, n: int, rng, on_reshuffle=None):
    """``n`` cards, one at a time onto the discards as at the table, the discards
    reshuffled when the draw pile runs out (``on_reshuffle(discards, cards drawn so far)``
    is told first). Drawn a pile's worth at a time (the same cards and the same shuffles
    as one by one) so each card costs the same however big the deck: one by one, every
    draw copied the whole pile."""
    from companion.core import deck as dk
    left = n
    while left > 0:
        if not pile.left and pile.discard and on_reshuffle is not None:
            on_reshuffle(len(pile.discard), n - left)
        size = pile.left or (pile.left + len(pile.discard))
        plan = dk.draw_plan(pile, min(left, size), rng)
        if not plan.cards:
            return
        pile = dk.discard(dk.apply_draw(pile, plan), plan.cards)
        left -= len(plan.cards)
        yield from plan.cards


def games(args) -> int:
    from companion.core import gamedata
    from companion.core.config import ConfigError
    from companion.games import data as game_data
    from companion.core.dice import PLAIN_MAX, PLAIN_MIN
    from companion.games.registry import game_slugs
    from companion.paths import state_dir

    problems = 0
    for slug in game_slugs():
        if not game_data.has_data(slug):
            print(f"{slug}: no game data yet\n")
            continue
        try:
            data = game_data.load(slug, state_dir(args.state))
        except ConfigError as exc:
            print(f"companion games: {exc}", file=sys.stderr)
            problems += 1
            continue
        lo, hi = data["game"]["players"]
        print(f"{slug}: {data['game']['name']} ({lo}-{hi} players)")
        for die_id, die in data.get("dice", {}).items():
            _entry("die", die_id, die, " ".join(str(f) for f in die["faces"]))
        for set_id, dice_set in data.get("dice_sets", {}).items():
            _entry("dice set", set_id, dice_set, " ".join(dice_set["dice"]))
        for deck_id, deck in data.get("decks", {}).items():
            size = sum(card.get("count", 1) for card in deck["cards"])
            _entry("deck", deck_id, deck, f"{size} cards")
        for table_id, table in data.get("points", {}).items():
            bonus = ", ".join(f"{k} +{v}" for k, v in table.get("bonus", {}).items())
            _entry("points", table_id, table, " ".join(map(str, table["positions"])) + (f"; bonus {bonus}" if bonus else ""))
        print()
    print(f"{gamedata.ANY}: plain dice d{PLAIN_MIN} to d{PLAIN_MAX} (e.g. `companion roll any d20`)")
    print("* an assumption: not published; change it in STATE/games/<game>.toml (docs/game-data.md)")
    return 1 if problems else 0


def _entry(kind: str, entry_id: str, entry: dict, detail: str) -> None:
    mark = "*" if entry.get("assumption") else ""
    print(f"  {kind:<8} {entry_id + mark:<12} {entry['label']}: {detail}")


def _text(value) -> str:
    return ",".join(map(_text, value)) if isinstance(value, (list, tuple)) else str(value)


def _print_json(obj) -> None:
    print(json.dumps(obj, ensure_ascii=False))
