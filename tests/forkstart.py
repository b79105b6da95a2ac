"""Start the companion as a process many times without paying for Python's start each time.

A server process imports the companion once; each ``start`` forks a child of it that runs
``companion.cli.main(argv)``, as ``python -m companion.cli argv`` would after its imports.
The child is a real process with its own SQLite connection, killed with a real SIGKILL:
what the power-loss tests cut is the companion at work, and its start (imports, 0.3 s a
run) is the one part they would otherwise spend most of their time on.

    with Forkstart() as starter:
        child = starter.start(["run", "--hardware", "headless", ...], stderr=path)
        child.kill(); child.wait()
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import traceback


class Child:
    """A started companion, with the part of ``subprocess.Popen`` the tests use."""

    def __init__(self, starter: Forkstart, pid: int):
        self.starter, self.pid = starter, pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self.starter._ask("poll", self.pid)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            self.returncode = self.starter._ask("wait", self.pid)
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)


class Forkstart:
    def __init__(self):
        self.proc = subprocess.Popen([sys.executable, __file__], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        ready = self.proc.stdout.readline()
        if ready.strip() != "ready":
            raise RuntimeError(f"the fork server did not start: {ready!r}")

    def start(self, argv: list[str], stderr: str | os.PathLike | None = None) -> Child:
        """The companion started with ``argv``; what it says on stderr goes to the file
        ``stderr`` (default: nowhere)."""
        return Child(self, self._ask("start", [argv, os.fspath(stderr or os.devnull)]))

    def _ask(self, verb: str, arg):
        self.proc.stdin.write(json.dumps([verb, arg]) + "\n")
        self.proc.stdin.flush()
        answer = self.proc.stdout.readline()
        if not answer:
            raise RuntimeError("the fork server ended")
        return json.loads(answer)

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _exit_code(status: int) -> int:
    return -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)


def _run_child(argv: list[str], stderr: str) -> None:
    """In the forked child: the companion, with no pipe of the server's left open."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):
        os.dup2(null, fd)
    os.dup2(os.open(stderr, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644), 2)
    code = 1
    try:
        from companion import cli
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        os._exit(code)


def serve() -> None:
    import importlib
    import pkgutil

    import companion
    for info in pkgutil.walk_packages(companion.__path__, "companion."):
        importlib.import_module(info.name)
    from PIL import Image
    Image.init()
    print("ready", flush=True)
    for line in sys.stdin:
        verb, arg = json.loads(line)
        if verb == "start":
            sys.stdout.flush()
            pid = os.fork()
            if pid == 0:
                _run_child(*arg)
            answer = pid
        else:
            pid, status = os.waitpid(arg, os.WNOHANG if verb == "poll" else 0)
            answer = _exit_code(status) if pid else None
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve()
