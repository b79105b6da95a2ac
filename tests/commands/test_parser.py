"""The command line builds only the parser of the command it runs."""

from companion.cli import build_parser
from companion.commands import COMMANDS


def _commands(parser):
    return set(next(a for a in parser._actions if a.dest == "command").choices)


def test_every_command_is_registered_by_the_module_named_for_it():
    assert _commands(build_parser()) == set(COMMANDS)
    for command in COMMANDS:
        assert command in _commands(build_parser(command))


def test_run_alone_for_the_appliance():
    parser = build_parser("run")
    assert _commands(parser) == {"run"}
    args = parser.parse_args(["run", "--hardware", "headless", "--state", "/tmp/x"])
    assert (args.hardware, args.state, args.keys) == ("headless", "/tmp/x", None)
