"""Helpers of the printer tests: the paper a receipt should give, waiting for a condition."""

import time

from companion.receipts.escpos import END_FEED


def expected_paper(receipt):
    return receipt.text_lines() + [""] * END_FEED


def wait_for(predicate, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return False
