"""Race Companion: a Raspberry Pi appliance beside a physical racing board game."""

__version__ = "0.1.0"
