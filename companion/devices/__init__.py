"""Hardware abstraction: buttons, display and the board that builds them from hardware/pinout.toml."""


class DeviceError(Exception):
    """A device cannot be used. ``str()`` is one line for a person: what is wrong and the fix."""
