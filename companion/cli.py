"""The ``companion`` command line. Sub-commands live in ``companion.commands``."""

from __future__ import annotations

import argparse
import importlib
import sys

from companion.commands import COMMAND_MODULES, CommandError


def _user_errors() -> tuple[type[BaseException], ...]:
    """Errors that are the user's to fix (a bad file, an unknown name): one line, no traceback."""
    from companion.core.config import ConfigError
    from companion.core.journal import JournalError
    from companion.games.registry import UnknownName
    return (ConfigError, JournalError, UnknownName)


USER_ERRORS = _user_errors()


class _Parser(argparse.ArgumentParser):
    """argparse that reports a mistake in one line (no usage dump) with exit status 2."""

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message} (try `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="companion", description="Race Companion: dice, decks, laps and automated drivers for racing board games.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue  # a command not built yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["run", *argv]
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except CommandError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return exc.code
    except USER_ERRORS as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
