"""Headless Chromium driven over the DevTools protocol, for the table screen's tests.

Chromium (Debian's ``chromium`` package) is started with ``--remote-debugging-pipe``:
the protocol's JSON messages go through two pipes (its fds 3 and 4), so no websocket
library and no download is needed. ``Browser.page()`` opens a tab that records console
errors and exceptions; ``Page`` navigates, evaluates, waits for a condition, sets the
viewport and the colour scheme, blocks URLs, clicks and presses keys, and takes screenshots.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import shutil
import subprocess
import tempfile
import time

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--disable-default-apps", "--mute-audio", "--hide-scrollbars",
         "--remote-debugging-pipe")


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class BrowserError(RuntimeError):
    pass


class Browser:
    def __init__(self, timeout: float = 60.0):
        exe = chromium()
        if exe is None:
            raise BrowserError("chromium is not installed (apt-get install chromium)")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="table-chromium-")
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()

        def fds() -> None:  # the child's fd 3 reads our messages, fd 4 writes its answers
            # moved above 9 first: a pipe that is fd 3 already would stay close-on-exec, and
            # one at fd 4 would be overwritten before it is moved
            high = [fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (to_child_r, from_child_w)]
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}", "about:blank"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=fds, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []

    def close(self) -> None:
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    # -- the protocol --------------------------------------------------------------------

    def send(self, method: str, params: dict | None = None, session: str | None = None) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        want = self._id
        deadline = time.monotonic() + self.timeout
        while True:
            reply = self._next(deadline)
            if reply.get("id") == want:
                if "error" in reply:
                    raise BrowserError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def _next(self, deadline: float) -> dict:
        import select
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise BrowserError("chromium did not answer in time")
            ready, _, _ = select.select([self._r], [], [], left)
            if ready:
                chunk = os.read(self._r, 1 << 20)
                if not chunk:
                    raise BrowserError("chromium closed its pipe")
                self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def pump(self, seconds: float) -> None:
        """Read the events that arrive in ``seconds``."""
        import select
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if b"\0" in self._buf or select.select([self._r], [], [], max(0.0, end - time.monotonic()))[0]:
                self.events.append(self._next(end + 1))

    def page(self) -> "Page":
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        page = Page(self, session, target)
        for domain in ("Runtime", "Log", "Page"):
            page.send(f"{domain}.enable")
        return page


class Page:
    def __init__(self, browser: Browser, session: str, target: str):
        self.browser, self.session, self.target = browser, session, target

    def send(self, method: str, params: dict | None = None) -> dict:
        return self.browser.send(method, params, self.session)

    def close(self) -> None:
        self.browser.send("Target.closeTarget", {"targetId": self.target})

    def errors(self) -> list[str]:
        """Console errors, uncaught exceptions and browser log errors of this tab so far."""
        out = []
        for e in self.browser.events:
            if e.get("sessionId") != self.session:
                continue
            p = e.get("params", {})
            if e.get("method") == "Runtime.exceptionThrown":
                out.append(json.dumps(p["exceptionDetails"])[:500])
            elif e.get("method") == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(" ".join(str(a.get("value", a.get("description"))) for a in p.get("args", [])))
            elif e.get("method") == "Log.entryAdded" and p["entry"].get("level") == "error":
                out.append(p["entry"].get("text", ""))
        return out

    def goto(self, url: str) -> None:
        self.send("Page.navigate", {"url": url})

    def eval(self, expression: str):
        result = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": True})
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait(self, expression: str, timeout: float = 60.0):
        """Poll ``expression`` until it is truthy; its value."""
        end = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except BrowserError:
                value = None
            if value:
                return value
            if time.monotonic() > end:
                raise BrowserError(f"not true within {timeout} s: {expression}")
            self.browser.pump(0.05)

    def viewport(self, width: int, height: int, *, dark: bool = False, mobile: bool = False) -> None:
        self.send("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                         "deviceScaleFactor": 1, "mobile": mobile})
        self.send("Emulation.setEmulatedMedia", {"features": [
            {"name": "prefers-color-scheme", "value": "dark" if dark else "light"}]})

    def block(self, *patterns: str) -> None:
        """Fail every request whose URL matches one of ``patterns`` (``*`` wildcards)."""
        self.send("Network.enable")
        self.send("Network.setBlockedURLs", {"urls": list(patterns)})

    def click(self, x: float, y: float) -> None:
        """A press and release of the mouse's left button at (``x``, ``y``) of the viewport."""
        for kind in ("mousePressed", "mouseReleased"):
            self.send("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1})

    def key(self, name: str, code: int) -> None:
        """A key pressed and released on the focused element (``"Enter"``, 13)."""
        text = "\r" if name == "Enter" else ""
        self.send("Input.dispatchKeyEvent", {"type": "keyDown", "key": name, "code": name, "text": text,
                                             "windowsVirtualKeyCode": code})
        self.send("Input.dispatchKeyEvent", {"type": "keyUp", "key": name, "code": name, "windowsVirtualKeyCode": code})

    def screenshot(self, path, full: bool = False, element: str = "") -> None:
        """The viewport as a PNG; ``full``: the whole page; ``element``: the box of the first
        element that CSS selector matches, with 8 px around it."""
        params = {"format": "png"}
        if element:
            box = self.eval(f"(r => [r.x + scrollX - 8, r.y + scrollY - 8, r.width + 16, r.height + 16])"
                            f"(document.querySelector({json.dumps(element)}).getBoundingClientRect())")
            params["captureBeyondViewport"] = True
            params["clip"] = {"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1}
        elif full:
            params["captureBeyondViewport"] = True
            height = self.eval("document.documentElement.scrollHeight")
            width = self.eval("document.documentElement.clientWidth")
            params["clip"] = {"x": 0, "y": 0, "width": width, "height": height, "scale": 1}
        data = self.send("Page.captureScreenshot", params)["data"]
        with open(path, "wb") as fh:
            fh.write(base64.b64decode(data))
