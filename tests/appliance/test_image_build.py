"""firmware/image/build.sh: it parses, lints clean, and its dry run prints every step and
touches nothing; the pinned base image and the Raspberry Pi Imager list are well formed."""

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
IMAGE = REPO / "firmware" / "image"
BUILD = IMAGE / "build.sh"


def test_build_parses():
    done = subprocess.run(["bash", "-n", str(BUILD)], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (0, "")


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_build_shellcheck_clean():
    done = subprocess.run(["shellcheck", str(BUILD)], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "")


def test_dry_run_prints_the_steps_and_changes_nothing(tmp_path):
    env = {**os.environ, "OUT": str(tmp_path / "out"), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    done = subprocess.run(["bash", str(BUILD), "--dry-run"], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    steps = re.findall(r"^== (\d)\. (.*)$", done.stdout, re.M)
    assert [n for n, _ in steps] == ["1", "2", "3", "4"]
    for words in ("check its sha256", "install.sh --offline", "companion selftest", "compress"):
        assert any(words in title for _, title in steps), words
    assert "/opt/race-companion/firmware/install.sh --offline" in done.stdout
    assert "would run: xz --force" in done.stdout
    assert list(tmp_path.iterdir()) == []          # nothing made, not even the folders


def test_base_image_is_pinned_by_url_and_sha256():
    pinned = dict(line.split("=", 1) for line in (IMAGE / "base-image.txt").read_text().splitlines()
                  if line and not line.startswith("#"))
    assert pinned["url"].startswith("https://downloads.raspberrypi.com/raspios_lite_arm64/")
    assert pinned["url"].endswith("-lite.img.xz")
    assert re.fullmatch(r"[0-9a-f]{64}", pinned["sha256"])


def test_imager_list_keeps_imagers_customisation():
    """init_format "systemd": Imager writes its firstrun.sh for bookworm (user, Wi-Fi, SSH)."""
    entry = json.loads((IMAGE / "os-list.json").read_text())["os_list"][0]
    assert entry["init_format"] == "systemd"
    assert {"name", "description", "url", "extract_size", "extract_sha256", "image_download_size",
            "image_download_sha256", "release_date"} <= set(entry)
    assert "pi5-64bit" in entry["devices"]
