"""The display profile: the screen's size and the pixel font's metrics, and what follows
from them. Every character count in the program (a line, a menu line, the footer, a move
label) is derived here, never typed by hand in a game pack.

A leaf module: no imports, so the kit, the rules' labels and the renderer share it
without loading any drawing code.
"""

from __future__ import annotations

WIDTH, HEIGHT = 128, 64        # pixels of the 1-bit OLED (SSD1306 / SH1106)
ADVANCE = 6                    # px per character at size 1 (5 px glyph + 1 px gap)
CAP = 7                        # height of capitals and digits at size 1
CELL = 9                       # glyph height at size 1, descenders included
MARGIN = 1                     # px left and right of body text
MENU_INSET = 2                 # px from the left edge to a menu item's text
SCROLLBAR_W = 3                # px of a menu's scroll bar (plus 1 px gap)
SELECTOR_INSET = ADVANCE + 1   # px the footer's ◀ ▶ arrows take at either end
TITLE_H = 10                   # px of the inverted title bar
BODY_TOP = TITLE_H + 1
FOOTER_RULE = 53
LINE_H = CELL + 1              # one size-1 text line


def chars(width: int, size: int = 1) -> int:
    """How many characters of ``size`` fit in ``width`` pixels."""
    return max(0, (width + size) // (ADVANCE * size))


LINE_CHARS = chars(WIDTH - 2 * MARGIN)                              # 21: a body line, the footer
MENU_CHARS = chars(WIDTH - SCROLLBAR_W - 1 - MENU_INSET - MARGIN)   # 20: a menu line with its scroll bar
SELECTOR_CHARS = chars(WIDTH - 2 * SELECTOR_INSET)                  # 19: a move between the arrows
HISTORY_PREFIX = len("999 ")                                        # a history line's event number
LABEL_CHARS = MENU_CHARS - HISTORY_PREFIX - 2                       # 14: a move label, whole in the
# history list after its number and in the footer between the arrows
BODY_LINES = (FOOTER_RULE - BODY_TOP) // LINE_H                     # 4 size-1 lines under the title
