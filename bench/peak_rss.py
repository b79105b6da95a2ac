"""Peak RSS of one command, measured from a small process.

    python bench/peak_rss.py OUT -- COMMAND ...

Runs COMMAND (its stdout and stderr as this process's) and writes its peak RSS in kB
(``ru_maxrss``) to the file OUT; exits with COMMAND's exit code. Linux counts in a
child's ``ru_maxrss`` the resident size of the process it was forked from, up to its
``exec``: measured straight from bench/run.py, a command would be charged the bench's
own size whenever that is the larger. Forked from here, it starts from this small
process's size instead.
"""

import os
import sys


def main(argv: list[str]) -> int:
    out, dash, *command = argv
    if dash != "--" or not command:
        raise SystemExit(__doc__.split("\n\n")[1])
    pid = os.fork()
    if pid == 0:
        try:
            os.execvp(command[0], command)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    with open(out, "w") as f:
        f.write(str(usage.ru_maxrss))
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
