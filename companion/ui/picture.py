"""A picture that fills the screen: the table screen's QR code on the OLED.

Apart from ``companion.ui.view`` so that the start, which draws no picture, does not build
its class (a frozen dataclass costs its compile at import).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Picture:
    """A 1-bit picture at the left of the screen: ``modules`` rows of dark (True) and light
    squares, drawn dark on a lit square with a quiet zone, and ``lines`` of small text beside
    it. A view whose body starts with a picture shows nothing else."""
    modules: tuple[tuple[bool, ...], ...]
    lines: tuple[str, ...] = ()
