"""What the command tests share: the owner's files come from a fresh state directory."""

from tests.state import isolated_state  # noqa: F401  (autouse: every command test has its own)
