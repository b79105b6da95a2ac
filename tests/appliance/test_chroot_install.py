"""firmware/install.sh --offline inside a real Debian bookworm root, as an image build runs it.

The root is made with debootstrap (arm64 under qemu-user-static where the kernel runs arm64
programs through it, else the machine's own amd64) and kept in ~/.cache/race-companion between
runs. Only what Debian lacks is stood in for: the python3-lgpio package (Raspberry Pi OS has
it) and the boot partition's config.txt and cmdline.txt. apt and pip inside the root use this
machine's mirror and package index (their configuration is copied in).

It checks what an image needs: the units enabled as links, `companion games` running from
the venv, and nothing started, reloaded or triggered (systemctl and udevadm are recorded).

Needs root (chroot, mount) and debootstrap: CI runs it as a step of its own after the suite
(`pytest -m chroot`, see .ci/run); elsewhere it is skipped. About 1-2 minutes with the root
cached, 4 without (on this project's CI machine).
"""

import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "race-companion"
APP_DIR = "/opt/race-companion"
BASE = "ca-certificates,systemd,python3,python3-venv"   # in the cached root; install.sh adds the rest
RECORDED = ("systemctl", "udevadm")

pytestmark = [
    pytest.mark.chroot,
    pytest.mark.skipif(os.geteuid() != 0, reason="needs root (debootstrap, chroot, mount): CI runs it as root"),
    pytest.mark.skipif(shutil.which("debootstrap") is None,
                       reason="debootstrap is not installed (apt-get install debootstrap qemu-user-static)"),
]


def architecture() -> str:
    """arm64 when the kernel hands arm64 programs to qemu-user-static, else this machine's."""
    if Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").exists() and shutil.which("qemu-aarch64-static"):
        return "arm64"
    return subprocess.run(["dpkg", "--print-architecture"], capture_output=True, text=True,
                          check=True).stdout.strip()


def mirror() -> str:
    """The Debian mirror apt on this machine uses (deb822 or one-line sources)."""
    sources = [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt/sources.list.d").glob("*"))]
    for path in sources:
        if not path.is_file() or not path.name.endswith((".list", ".sources")):
            continue
        text = path.read_text()
        for uri in re.findall(r"^URIs:\s*(\S+)", text, re.M) + re.findall(r"^deb\s+(?:\[[^]]*\]\s+)?(\S+)\s+bookworm\s", text, re.M):
            if uri.rstrip("/").endswith("/debian"):
                return uri
    return "http://deb.debian.org/debian"


def cached_root(arch: str) -> Path:
    """A tar of a fresh bookworm root (with BASE), made once."""
    tar = CACHE / f"bookworm-{arch}-{BASE.replace(',', '+')}.tar"
    if not tar.exists():
        work = CACHE / f"debootstrap-{arch}"
        shutil.rmtree(work, ignore_errors=True)
        subprocess.run(["debootstrap", "--variant=minbase", f"--arch={arch}", f"--include={BASE}",
                        "bookworm", str(work), mirror()], check=True, capture_output=True, timeout=1200)
        subprocess.run(["tar", "-C", str(work), "-cf", f"{tar}.part", "."], check=True)
        os.replace(f"{tar}.part", tar)
        shutil.rmtree(work)
    return tar


def copy_configuration(root: Path) -> list[Path]:
    """apt's and pip's settings into the root; returns the local package folders pip's
    settings name (file:// indexes, find-links), to be mounted at the same paths."""
    for conf in Path("/etc/apt/apt.conf.d").glob("*"):
        if conf.is_file() and "Acquire" in conf.read_text(errors="replace"):
            shutil.copy(conf, root / "etc/apt/apt.conf.d" / conf.name)
    for source, name in [(Path("/") / n, n) for n in ("etc/pip.conf", "etc/xdg/pip")] + [
            (Path.home() / ".config/pip", "root/.config/pip"), (Path.home() / ".pip", "root/.pip")]:
        if source.is_dir():
            shutil.copytree(source, root / name, dirs_exist_ok=True)
        elif source.is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, root / name)
    # a proxy's certificate authority may only be in this machine's bundle
    shutil.copy("/etc/ssl/certs/ca-certificates.crt", root / "etc/ssl/certs/ca-certificates.crt")
    settings = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    settings += " ".join(f"{k}={v}" for k, v in os.environ.items() if k.startswith("PIP_"))
    folders = {Path(p) for p in re.findall(r"(?:file://)?(/[\w./+-]+)", settings)}
    # a local index's pages link to files beside its simple/ folder: mount the whole index
    folders = {p.parent if p.name == "simple" else p for p in folders}
    return sorted(p for p in folders if p.is_dir() and p.parts[1] not in ("etc", "usr"))


def stub_lgpio(root: Path, tmp: Path) -> None:
    """python3-lgpio, which Debian lacks: a package of that name holding an lgpio that
    pip counts as installed (the [pi] extra) and that says it is a stand-in when imported."""
    pkg = tmp / "python3-lgpio"
    site = pkg / "usr/lib/python3/dist-packages"
    (site / "lgpio-0.2.2.0.dist-info").mkdir(parents=True)
    (site / "lgpio-0.2.2.0.dist-info/METADATA").write_text("Metadata-Version: 2.1\nName: lgpio\nVersion: 0.2.2.0\n")
    (site / "lgpio.py").write_text('raise ImportError("lgpio: a stand-in for the chroot test, no GPIO here")\n')
    (pkg / "DEBIAN").mkdir()
    arch = subprocess.run(["chroot", str(root), "dpkg", "--print-architecture"], capture_output=True,
                          text=True, check=True).stdout.strip()
    (pkg / "DEBIAN/control").write_text(
        f"Package: python3-lgpio\nVersion: 0.2.2-0stub\nArchitecture: {arch}\nMaintainer: test <test@invalid>\n"
        "Description: stand-in for Raspberry Pi OS's lgpio (chroot test)\n")
    subprocess.run(["dpkg-deb", "--build", "--root-owner-group", str(pkg), str(root / "tmp/lgpio.deb")],
                   check=True, capture_output=True)
    subprocess.run(["chroot", str(root), "dpkg", "-i", "/tmp/lgpio.deb"], check=True, capture_output=True)


def record_calls(root: Path) -> Path:
    """systemctl and udevadm, called by their names, are logged before they run, each as
    "by install.sh: ..." when install.sh called it itself, else "by packages: ..." (the
    maintainer scripts of what apt installs)."""
    log = root / "var/log/recorded-calls"
    for name in RECORDED:
        wrapper = root / "usr/local/sbin" / name
        wrapper.write_text(
            "#!/bin/sh\n"
            'case "$(tr "\\0" " " </proc/$PPID/cmdline)" in *firmware/install.sh*) by=install.sh ;; *) by=packages ;; esac\n'
            f'echo "by $by: {name} $*" >>/var/log/recorded-calls\nexec /usr/bin/{name} "$@"\n')
        wrapper.chmod(0o755)
    return log


def pi_boot_files(root: Path) -> None:
    boot = root / "boot/firmware"
    boot.mkdir(parents=True, exist_ok=True)
    (boot / "config.txt").write_text("# http://rptl.io/configtxt\ndtparam=audio=on\narm_64bit=1\n\n[all]\n")
    (boot / "cmdline.txt").write_text("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootwait\n")


@pytest.fixture
def bookworm(tmp_path):
    arch = architecture()
    root = tmp_path / "root"
    root.mkdir()
    with tarfile.open(cached_root(arch)) as tar:
        tar.extractall(root, filter="fully_trusted")
    if arch == "arm64":
        shutil.copy(shutil.which("qemu-aarch64-static"), root / "usr/bin/qemu-aarch64-static")
    folders = copy_configuration(root)
    mounts = []
    try:
        subprocess.run(["mount", "-t", "proc", "proc", str(root / "proc")], check=True)
        mounts.append(root / "proc")
        for folder in folders:
            target = root / folder.relative_to("/")
            target.mkdir(parents=True, exist_ok=True)
            subprocess.run(["mount", "--bind", "-o", "ro", str(folder), str(target)], check=True)
            mounts.append(target)
        subprocess.run(["tar", "-C", str(REPO), "-cf", str(tmp_path / "repo.tar"),
                        *subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True,
                                        check=True).stdout.split()], check=True)
        (root / APP_DIR.lstrip("/")).mkdir(parents=True)
        subprocess.run(["tar", "-C", str(root / APP_DIR.lstrip("/")), "-xf", str(tmp_path / "repo.tar")], check=True)
        stub_lgpio(root, tmp_path)
        pi_boot_files(root)
        yield root
    finally:
        for target in reversed(mounts):
            subprocess.run(["umount", "--lazy", str(target)])


def in_root(root: Path, *command: str, timeout=900) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root",
           "LANG": "C.UTF-8", **{k: v for k, v in os.environ.items() if k.startswith("PIP_")}}
    return subprocess.run(["chroot", str(root), *command], env=env, capture_output=True, text=True,
                          timeout=timeout)


def test_offline_install_in_a_bookworm_root(bookworm):
    root = bookworm
    log = record_calls(root)
    started = time.monotonic()
    done = in_root(root, f"{APP_DIR}/firmware/install.sh")   # no --offline: it must see the chroot itself
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    print(f"install.sh in the chroot: {time.monotonic() - started:.0f} s")
    assert "No systemd runs for this root" in done.stdout
    assert done.stdout.rstrip().endswith("the companion starts at the next boot.")

    etc = root / "etc/systemd/system"
    for link, unit in (("multi-user.target.wants/companion.service", "companion.service"),
                       ("multi-user.target.wants/companion-table.service", "companion-table.service"),
                       ("sockets.target.wants/companion-table.socket", "companion-table.socket")):
        assert (etc / link).is_symlink(), link
        assert os.readlink(etc / link) == f"/etc/systemd/system/{unit}"
    assert os.readlink(etc / "apt-daily.timer") == "/dev/null"
    assert (root / "etc/machine-id").read_text() == ""

    calls = log.read_text().splitlines() if log.exists() else []
    own = [call.split(": ", 1)[1].split() for call in calls if call.startswith("by install.sh: ")]
    assert own, "install.sh enabled its units through systemctl"
    for words in own:     # enable, mask and asking; no udevadm, reload or start at all
        assert words[0] == "systemctl" and words[1] in ("enable", "mask", "is-enabled"), words
    for call in calls:    # nor did any package's script start anything
        assert not {"start", "restart", "try-restart", "reload-or-restart"} & set(call.split()), call

    games = in_root(root, f"{APP_DIR}/.venv/bin/companion", "games", timeout=120)
    assert games.returncode == 0, games.stderr
    assert "formula-de" in games.stdout

    again = in_root(root, f"{APP_DIR}/firmware/install.sh", "--offline")
    assert again.returncode == 0, again.stderr
    assert "Nothing to do" in again.stdout, again.stdout[-2000:]
