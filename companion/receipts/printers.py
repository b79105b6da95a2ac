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

QR codes (``qr``): ``True`` where the printer draws a QR code itself from ``GS ( k``
(Epson's 2D-code command, function 165-181: model 2, module size, error correction level,
store, print); ``False``: the code is sent as a raster image the companion draws
(``companion.qr``), or, without raster, only its text prints. Which models know
``GS ( k`` (docs/printer.md): Epson's TM printers document it (the TM-T20, TM-T82, TM-m30 and
TM-T88 from the IV on); that the printers sold as Epson-compatible do too is an assumption,
as is that the CSN-A2 family lacks it (its manuals list ``GS k`` 1D barcodes only) and that a
printer of unknown make may lack it. ``qr = "gs-k"`` or ``"raster"`` in ``[printer]``
chooses for any model.

``sync`` is the in-order query the driver uses to know how far the printer has got (so a
printer slower than ``line_ms`` never overflows); ``None`` means pace by the model of the
printer with ``pace_margin`` extra time per line.
"""

from __future__ import annotations

from dataclasses import dataclass

STATUS_KINDS = ("dle-eot", "gs-r", "esc-v", "none")
CODE_PAGES = {"cp437": 0, "cp850": 2, "cp1252": 16, "cp858": 19}
"""The code pages the receipts can be sent in (the Python codec: its ``ESC t n``, the same
number on Epson's printers and the CSN-A2 family). CP858 (CP850, the multilingual Latin 1
page, with the euro sign) holds every accented letter of the name wheel; CP437, the
printers' first page, lacks some (ø, À, Ê, Ô...): a printer without CP858 is set to
``codepage = "cp850"`` or ``"cp437"`` in ``[printer]``."""
RASTER_KINDS = ("gs-v-0", "esc-star")
QR_KINDS = ("gs-k", "raster")


DEFAULT_ENCODING = "cp858"


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    status: str                    # see STATUS_KINDS: how the paper (and online state) is asked
    sync: str | None               # "gs-r" / "esc-v": the in-order query used to pace; None: pace by model
    heat: bool                     # knows ESC 7 n1 n2 n3 (heat settings)
    cancel_kanji: bool             # starts in Kanji mode: send FS . after ESC @
    encoding: str = DEFAULT_ENCODING   # the code page its text is sent in (CODE_PAGES: selected with ESC t n)
    pace_margin: float = 0.5       # extra time per line when pacing by model (no sync)
    raster: str | None = "gs-v-0"  # see RASTER_KINDS: how a picture is printed; None: as text
    raster_rows: int = 24          # dot rows a GS v 0 band holds at most
    qr: bool = False               # draws QR codes itself (GS ( k); False: sent as a raster image


PROFILES: dict[str, Profile] = {p.name: p for p in (
    Profile("generic-58mm", "an ESC/POS 58 mm printer that answers DLE EOT and knows ESC 7",
            status="dle-eot", sync=None, heat=True, cancel_kanji=False),
    Profile("epson", "a strictly Epson-compatible printer (TM series and true clones): no ESC 7",
            status="dle-eot", sync="gs-r", heat=False, cancel_kanji=False, qr=True),
    Profile("csn-a2", "the cheap TTL printers (CSN-A2, Adafruit mini, QR204...): GS r, no DLE EOT",
            status="gs-r", sync="gs-r", heat=True, cancel_kanji=False),
    Profile("csn-a2-kanji", "CSN-A2 with firmware 2.69, which starts in Kanji mode (prints accents as "
            "Chinese characters unless sent FS .)",
            status="gs-r", sync="gs-r", heat=True, cancel_kanji=True),
    Profile("esc-v", "older TTL printers that answer only ESC v 0",
            status="esc-v", sync="esc-v", heat=True, cancel_kanji=False, raster="esc-star", encoding="cp850"),
)}
DEFAULT_MODEL = "generic-58mm"


def profile(model: object, status: object = "auto", raster: object = "auto", qr: object = "auto",
            codepage: object = "auto") -> Profile:
    """The profile of ``model``; ``status="none"`` makes it a printer without status,
    ``raster`` (``"none"``, ``"gs-v-0"``, ``"esc-star"``) overrides how it prints pictures
    ``qr`` (``"gs-k"``, ``"raster"``) how it prints QR codes and ``codepage`` (a name of
    :data:`CODE_PAGES`) the code page its text is sent in.
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
    if qr not in ("auto", *QR_KINDS):
        raise ConfigError(None, "printer.qr", f"must be \"auto\", \"gs-k\" or \"raster\", not {qr!r}",
                          "\"gs-k\": the printer draws QR codes itself; \"raster\": they are sent as images")
    if codepage != "auto" and codepage not in CODE_PAGES:
        raise ConfigError(None, "printer.codepage", f"must be \"auto\" or one of {', '.join(CODE_PAGES)}, "
                          f"not {codepage!r}", "\"cp437\" for a printer that prints accented letters wrong "
                          "(they then print without their accent where CP437 lacks them)")
    from dataclasses import replace
    found = PROFILES[model]
    if codepage != "auto":
        found = replace(found, encoding=codepage)
    if status == "none":
        found = replace(found, status="none", sync=None)
    if raster != "auto":
        found = replace(found, raster=None if raster == "none" else raster)
    if qr != "auto":
        found = replace(found, qr=qr == "gs-k")
    return found


def of_config(printer_config) -> Profile:
    """The profile for a ``[printer]`` table (``model``, ``status``, ``raster``, ``qr``,
    ``codepage`` keys)."""
    return profile(printer_config.get("model", DEFAULT_MODEL), printer_config.get("status", "auto"),
                   printer_config.get("raster", "auto"), printer_config.get("qr", "auto"),
                   printer_config.get("codepage", "auto"))
