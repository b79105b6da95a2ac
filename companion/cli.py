"""The ``companion`` command line. Sub-commands live in ``companion.commands``."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from companion.commands import COMMAND_MODULES, COMMANDS, CommandError


def _user_errors() -> tuple[type[BaseException], ...]:
    """Errors that are the user's to fix (a bad file, an unknown name): one line, no traceback."""
    from companion.core.config import ConfigError
    from companion.core.journal import JournalError
    from companion.games.registry import UnknownName
    return (ConfigError, JournalError, UnknownName)


USER_ERRORS = _user_errors()


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout at the terminal's width, measured with ``os`` alone:
    argparse builds a formatter for every argument it adds, and its way of measuring
    (``shutil``, with the compression modules shutil imports) cost the appliance's start
    about 6 M instructions, for a width only help and usage messages use."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position,
                         width if width is not None else _columns() - 2)


def _columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` gives it: $COLUMNS, else
    the terminal's, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", 0))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    """argparse that reports a mistake in one line (no usage dump) with exit status 2."""

    def __init__(self, *args, **kw):
        kw.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kw)

    def error(self, message: str):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message} (try `{self.prog} --help`)\n")


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``command`` (a key of ``COMMANDS``) only that
    command's module is imported and registered (the appliance's start builds only
    ``run``), else every command, for ``--help`` and for a mistyped command."""
    parser = _Parser(prog="companion", description="Race Companion: dice, decks, laps and automated drivers for racing board games.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for name in (COMMANDS[command],) if command in COMMANDS else COMMAND_MODULES:
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
    if not argv or argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["run", *argv]
    parser = build_parser(argv[0])
    if argv[0] in ("results", "print"):
        from companion.commands.club import names_as_given
        argv = names_as_given(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except CommandError as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return exc.code
    except RecursionError:
        print(f"companion {args.command}: a value stored in the journal nests too deeply to be read (a file "
              f"imported before imports were checked?): restore a backup from before it", file=sys.stderr)
        return 2
    except USER_ERRORS as exc:
        print(f"companion {args.command}: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader stopped reading (`companion results | head -1`): nothing is wrong here;
        # point stdout at /dev/null so that Python's own flush at exit cannot fail again
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141   # as a command killed by SIGPIPE reports it


if __name__ == "__main__":
    sys.exit(main())
