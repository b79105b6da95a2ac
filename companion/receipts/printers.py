"""Printer profiles: what each model of thermal printer understands, as data.

``[printer] model`` in ``hardware/pinout.toml`` picks one. The encoder sends a command
only to the models whose profile says they know it, and the driver asks the printer's
state with the status commands its profile lists. Adding a model is adding an entry.

Status commands (``status``):

* ``"dle-eot"`` — real-time ``DLE EOT n`` (Epson's reference): answered on arrival, even
  while the printer is offline or busy. ``n=1`` printer (online/offline), ``n=2`` why it
  is offline (cover open, feed button, paper end, error), ``n=4`` the paper sensor.
* ``"gs-r"`` — ``GS r 1``, the paper sensor, answered when the printer *reaches* the
  command in its input (not in real time). The cheap TTL printers (CSN-A2 and its
  relatives) answer this one and not ``DLE EOT``.
* ``"esc-v"`` — ``ESC v 0``, the older paper-sensor query of the same printers (also
  answered in order).
* ``"none"`` — the printer answers nothing; receipts are sent paced with a wide margin
  and leave the spool unconfirmed (``status = "none"`` in ``[printer]`` chooses this for
  any model).

Raster images (``raster``): ``"gs-v-0"`` (``GS v 0``, rows of dots, sent in bands of at
most ``raster_rows`` rows that fit half the printer's buffer), ``"esc-star"`` (``ESC *``
24-dot columns, for printers that lack ``GS v 0``; a stripe of 24 rows is 1,158 bytes, so
only with a buffer that holds two), or ``None``: the printer gets the text version of a
picture (``raster = "none"`` in ``[printer]`` chooses this for any model).

``sync`` is the in-order query the driver uses to know how far the printer has got (so a
printer slower than ``line_ms`` never overflows); ``None`` means pace by the model of the
printer with ``pace_margin`` extra time per line.
"""

from __future__ import annotations

from dataclasses import dataclass

STATUS_KINDS = ("dle-eot", "gs-r", "esc-v", "none")
RASTER_KINDS = ("gs-v-0", "esc-star")


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    status: str                    # see STATUS_KINDS: how the paper (and online state) is asked
    sync: str | None               # "gs-r" / "esc-v": the in-order query used to pace; None: pace by model
    heat: bool                     # knows ESC 7 n1 n2 n3 (heat settings)
    cancel_kanji: bool             # starts in Kanji mode: send FS . after ESC @
    codepage: int = 0              # ESC t n for code page 437
    encoding: str = "cp437"        # the Python codec of that code page
    pace_margin: float = 0.5       # extra time per line when pacing by model (no sync)
    raster: str | None = "gs-v-0"  # see RASTER_KINDS: how a picture is printed; None: as text
    raster_rows: int = 24          # dot rows a GS v 0 band holds at most


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("generic-58mm", "an ESC/POS 58 mm printer that answers DLE EOT and knows ESC 7",
            status="dle-eot", sync=None, heat=True, cancel_kanji=False),
    Profile("epson", "a strictly Epson-compatible printer (TM series and true clones): no ESC 7",
            status="dle-eot", sync="gs-r", heat=False, cancel_kanji=False),
    Profile("csn-a2", "the cheap TTL printers (CSN-A2, Adafruit mini, QR204...): GS r, no DLE EOT",
            status="gs-r", sync="gs-r", heat=True, cancel_kanji=False),
    Profile("csn-a2-kanji", "CSN-A2 with firmware 2.69, which starts in Kanji mode (prints accents as "
            "Chinese characters unless sent FS .)",
            status="gs-r", sync="gs-r", heat=True, cancel_kanji=True),
    Profile("esc-v", "older TTL printers that answer only ESC v 0",
            status="esc-v", sync="esc-v", heat=True, cancel_kanji=False, raster="esc-star"),
)}
DEFAULT_MODEL = "generic-58mm"


def profile(model: object, status: object = "auto", raster: object = "auto") -> Profile:
    """The profile of ``model``; ``status="none"`` makes it a printer without status,
    ``raster`` (``"none"``, ``"gs-v-0"``, ``"esc-star"``) overrides how it prints pictures.
    Raises ConfigError naming the key and the known models."""
    from companion.core.config import ConfigError
    if not isinstance(model, str) or model not in PROFILES:
        raise ConfigError(None, "printer.model", f"unknown printer model {model!r}",
                          "use one of " + ", ".join(PROFILES) + " (see docs/printer.md)")
    if status not in ("auto", "none"):
        raise ConfigError(None, "printer.status", f"must be \"auto\" or \"none\", not {status!r}",
                          "\"none\" prints without asking a printer that never answers")
    if raster not in ("auto", "none", *RASTER_KINDS):
        raise ConfigError(None, "printer.raster", f"must be \"auto\", \"none\", \"gs-v-0\" or \"esc-star\", "
                          f"not {raster!r}", "\"none\" prints charts as text on a printer without raster images")
    from dataclasses import replace
    found = PROFILES[model]
    if status == "none":
        found = replace(found, status="none", sync=None)
    if raster != "auto":
        found = replace(found, raster=None if raster == "none" else raster)
    return found


def of_config(printer_config) -> Profile:
    """The profile for a ``[printer]`` table (``model`` and ``status`` keys)."""
    return profile(printer_config.get("model", DEFAULT_MODEL), printer_config.get("status", "auto"),
                   printer_config.get("raster", "auto"))
