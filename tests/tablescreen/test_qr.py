"""The table screen's QR code on the OLED: read back by a real decoder (zbarimg, Debian's
zbar-tools) from the frame the pause menu shows; the pause menu offers it only when the
table screen is on, and the program receipt prints the address. The code itself:
tests/test_qr.py."""

from companion.ui.render import render
from companion.ui.tablecode import TableCode, address_lines
from companion.ui.picture import Picture
from tests.table import PaperTray, make_app, press
from tests.tablescreen.conftest import play
from tests.zbar import decode, needs_zbar


def test_the_address_breaks_where_it_reads_well():
    assert address_lines("http://192.168.100.200:8080/", 10) == ("192.168.", "100.200", ":8080")
    assert address_lines("http://racecompanion.local:8080/", 10) == ("racecompan", "ion.local", ":8080")


def paused(tmp_path, table):
    app = make_app(tmp_path / "state")
    app.table = table
    app.boot()
    app.start_session("dice", {"game": "3-wide"})
    press(app, "BACK")
    return app


def test_the_pause_menu_offers_it_only_when_it_is_on(tmp_path):
    on = paused(tmp_path, {"enabled": True, "port": 8080})
    labels = [label for _, label in on.screen.items(on)]
    assert labels[-2:] == ["Table screen", "Main menu"]
    off = paused(tmp_path, {"enabled": False, "port": 8080})
    assert "Table screen" not in [label for _, label in off.screen.items(off)]
    none = paused(tmp_path, None)
    assert "Table screen" not in [label for _, label in none.screen.items(none)]


@needs_zbar
def test_the_oled_shows_a_qr_code_a_phone_reads(tmp_path):
    app = paused(tmp_path, {"enabled": True, "port": 8123})
    items = [k for k, _ in app.screen.items(app)]
    press(app, "DOWN " * items.index("table") + "OK")
    assert isinstance(app.screen, TableCode)
    view = app.screen.view(app)
    assert isinstance(view.body[0], Picture)
    url = app.table_address()
    assert url.endswith(":8123/") and view.body[0].lines[-1] == ":8123"
    assert decode(render(view), tmp_path / "oled.png") == url
    press(app, "BACK")
    assert not isinstance(app.screen, TableCode)


def test_the_program_prints_the_address(tmp_path):
    app = make_app(tmp_path / "state")
    app.table = {"enabled": True, "port": 8080}
    app.printer = PaperTray()
    play(app, "formula-de", 40, until=lambda s: app.printer.receipts)
    program = [r for r in app.printer.receipts if r.kind == "program"]
    text = "\n".join(program[0].text_lines())
    assert "The race live on a phone:" in text and app.table_address() in text
