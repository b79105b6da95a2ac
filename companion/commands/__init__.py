"""Sub-commands of the ``companion`` command line.

Each module here has ``register(subparsers)`` which adds its sub-command(s) with
``set_defaults(func=handler)``; a handler takes the parsed args and returns the exit code.
Handlers raise ``CommandError`` for a user mistake: the CLI prints its one line on stderr.
"""

COMMANDS = {
    "run": "companion.commands.run",
    "table": "companion.commands.table",
    "games": "companion.commands.toolkit",
    "roll": "companion.commands.toolkit",
    "draw": "companion.commands.toolkit",
    "demo": "companion.commands.demo",
    "results": "companion.commands.results",
    "export": "companion.commands.exchange",
    "import": "companion.commands.exchange",
    "print": "companion.commands.printing",
    "selftest": "companion.commands.selftest",
    "backup": "companion.commands.backup",
    "restore": "companion.commands.backup",
    "race": "companion.commands.steward",
    "season": "companion.commands.steward",
}
"""Each sub-command and the module that registers it: a command line naming one builds
only that module's parser (``companion run`` starts without the others)."""

COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))


class CommandError(Exception):
    """A user error on the command line: one clear line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code
