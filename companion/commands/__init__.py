"""Sub-commands of the ``companion`` command line.

Each module here has ``register(subparsers)`` which adds its sub-command(s) with
``set_defaults(func=handler)``; a handler takes the parsed args and returns the exit code.
Handlers raise ``CommandError`` for a user mistake: the CLI prints its one line on stderr.
"""

COMMAND_MODULES = (
    "companion.commands.run",
    "companion.commands.toolkit",
    "companion.commands.demo",
    "companion.commands.results",
    "companion.commands.printing",
    "companion.commands.selftest",
)


class CommandError(Exception):
    """A user error on the command line: one clear line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code
