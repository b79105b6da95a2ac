#!/usr/bin/env bash
# Race Companion: build the SD card image an owner flashes with Raspberry Pi Imager.
#
#   sudo firmware/image/build.sh            build out/race-companion.img.xz and its Imager list
#   firmware/image/build.sh --dry-run       print the steps; download, mount and change nothing
#
# The steps:
#   1. fetch the pinned Raspberry Pi OS Lite 64-bit image (base-image.txt: URL and sha256)
#      into ~/.cache/race-companion/images and check its sha256;
#   2. unpack it, grow its root partition, loop-mount it, copy the repository (git archive of
#      HEAD) to /opt/race-companion and run `install.sh --offline` inside it (through
#      qemu-user-static on a host that is not arm64);
#   3. check the units are enabled and `companion selftest` runs (emulated parts);
#   4. clean it (apt caches, the build's resolv.conf, qemu), shrink it and compress it to
#      out/race-companion.img.xz, with out/race-companion.json for Imager (os-list.json
#      filled in with the image's sizes and sha256s).
#
# Needs root, and on an x86 host qemu-user-static with binfmt (apt-get install
# qemu-user-static binfmt-support), plus curl, xz-utils, parted, e2fsprogs, util-linux.
# Environment: OUT=DIR (default <repo>/out), GROW=SIZE (default 1G, for the venv).
set -euo pipefail

HERE=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
REPO=$(cd -- "$HERE/../.." && pwd -P)
OUT=${OUT:-$REPO/out}
GROW=${GROW:-1G}
CACHE=${XDG_CACHE_HOME:-$HOME/.cache}/race-companion/images
APP_DIR=/opt/race-companion
NAME=race-companion

die() {
	printf 'build.sh: %s\n' "$*" >&2
	exit 1
}

DRY_RUN=0
for arg in "$@"; do
	case $arg in
	-n | --dry-run) DRY_RUN=1 ;;
	-h | --help)
		sed -n '2,21s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
		exit 0
		;;
	*) die "unknown option '$arg' (try --help)" ;;
	esac
done

setting() { # setting KEY: KEY=VALUE of base-image.txt
	sed -n "s/^$1=//p" "$HERE/base-image.txt"
}
URL=$(setting url)
SHA256=$(setting sha256)
[[ -n $URL && $SHA256 =~ ^[0-9a-f]{64}$ ]] || die "base-image.txt needs a url= and a sha256= of 64 hex digits"
BASE=$CACHE/${URL##*/}
IMG=$OUT/$NAME.img
MNT=$OUT/mnt

STEP=0
step() {
	STEP=$((STEP + 1))
	printf '\n== %d. %s\n' "$STEP" "$*"
}

# run CMD...: print it; run it unless this is a dry run.
run() {
	if ((DRY_RUN)); then
		printf 'would run: %s\n' "$*"
	else
		printf '+ %s\n' "$*"
		"$@"
	fi
}

in_image() { run chroot "$MNT" /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 "$@"; }

LOOP=""
unmount_all() {
	((DRY_RUN)) && return 0
	local target
	for target in etc/resolv.conf boot/firmware dev/pts dev sys proc run ""; do
		if mountpoint -q "$MNT/$target" 2>/dev/null; then umount --lazy "$MNT/$target"; fi
	done
	return 0
}
cleanup() {
	unmount_all
	if [[ -n $LOOP ]] && ((!DRY_RUN)); then losetup --detach "$LOOP" || :; fi
	return 0
}
trap cleanup EXIT

if ((!DRY_RUN)); then
	[[ $EUID -eq 0 ]] || die "run it as root: sudo $0 (or see the steps with --dry-run)"
	for tool in curl sha256sum xz parted losetup e2fsck resize2fs chroot git python3; do
		command -v "$tool" >/dev/null || die "$tool is missing (apt-get install curl xz-utils parted e2fsprogs util-linux git python3)"
	done
	if [[ $(uname -m) != aarch64 && ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
		die "this $(uname -m) host cannot run arm64 programs: apt-get install qemu-user-static binfmt-support"
	fi
else
	echo "Race Companion image build (dry run: nothing is downloaded, mounted or changed)"
fi

step "fetch $URL and check its sha256"
run mkdir -p "$CACHE" "$OUT"
if [[ ! -f $BASE ]]; then run curl --fail --location --output "$BASE.part" "$URL"; fi
if ((DRY_RUN)); then
	printf 'would check: sha256 %s\n' "$SHA256"
elif [[ -f $BASE.part ]]; then
	echo "$SHA256  $BASE.part" | sha256sum --check --quiet || die "$URL: the download's sha256 is not the one in base-image.txt"
	mv -- "$BASE.part" "$BASE"
else
	echo "$SHA256  $BASE" | sha256sum --check --quiet || die "$BASE: its sha256 is not the one in base-image.txt (delete it to fetch it again)"
fi

step "unpack, grow by $GROW, loop-mount, and run install.sh --offline inside"
run sh -c "xz --decompress --stdout '$BASE' >'$IMG'"
run truncate --size="+$GROW" "$IMG"
run parted --script "$IMG" resizepart 2 100%
if ((DRY_RUN)); then
	echo "would run: losetup --find --show --partscan $IMG"
	LOOP=/dev/loopN
else
	LOOP=$(losetup --find --show --partscan "$IMG")
	echo "+ losetup: $LOOP"
fi
run e2fsck -p -f "${LOOP}p2"
run resize2fs "${LOOP}p2"
run mkdir -p "$MNT"
run mount "${LOOP}p2" "$MNT"
run mount "${LOOP}p1" "$MNT/boot/firmware"
run mount -t proc proc "$MNT/proc"
run mount -t sysfs sys "$MNT/sys"
run mount --bind /dev "$MNT/dev"
run mount --bind /dev/pts "$MNT/dev/pts"
run mount -t tmpfs tmpfs "$MNT/run"
run cp --remove-destination /etc/resolv.conf "$MNT/etc/resolv.conf.build"
run mount --bind "$MNT/etc/resolv.conf.build" "$MNT/etc/resolv.conf"
run mkdir -p "$MNT$APP_DIR"
run sh -c "git -C '$REPO' archive --format=tar HEAD | tar -x -C '$MNT$APP_DIR'"
in_image "$APP_DIR/firmware/install.sh" --offline

step "check the units are enabled and companion selftest runs"
for link in multi-user.target.wants/companion.service sockets.target.wants/companion-table.socket; do
	if ((DRY_RUN)); then
		echo "would check: /etc/systemd/system/$link is a link"
	else
		[[ -L $MNT/etc/systemd/system/$link ]] || die "$link is not enabled in the image"
		echo "ok: $link"
	fi
done
in_image "$APP_DIR/.venv/bin/companion" selftest --hardware emulated --state /tmp/selftest-state
in_image rm -rf /tmp/selftest-state

step "clean, shrink and compress to $OUT/$NAME.img.xz"
in_image apt-get clean
run umount "$MNT/etc/resolv.conf"
run rm -f "$MNT/etc/resolv.conf.build"
run sh -c "rm -rf '$MNT'/var/lib/apt/lists/* '$MNT'/tmp/* '$MNT'/root/.cache"
unmount_all
run e2fsck -p -f "${LOOP}p2"
run resize2fs -M "${LOOP}p2"
if ((DRY_RUN)); then
	echo "would run: cut the image after its root file system, then losetup --detach, xz"
else
	# the file system's new end, in bytes from the image's start
	start=$(parted --script --machine "$IMG" unit B print | awk -F: '$1 == 2 {sub(/B$/, "", $2); print $2}')
	blocks=$(dumpe2fs -h "${LOOP}p2" 2>/dev/null | awk -F: '/^Block count/ {print $2 + 0}')
	size=$(dumpe2fs -h "${LOOP}p2" 2>/dev/null | awk -F: '/^Block size/ {print $2 + 0}')
	losetup --detach "$LOOP"
	LOOP=""
	end=$((start + blocks * size))
	parted --script "$IMG" unit B resizepart 2 "$((end - 1))B"
	truncate --size="$end" "$IMG"
fi
run xz --force --threads=0 "$IMG"
if ((DRY_RUN)); then
	echo "would write: $OUT/$NAME.json (os-list.json with the image's sizes and sha256s)"
else
	python3 - "$HERE/os-list.json" "$IMG.xz" "$end" "$(setting release)" >"$OUT/$NAME.json" <<'PY'
import hashlib, json, lzma, os, sys
template, image, extract_size, release = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
listing = json.load(open(template))
entry = listing["os_list"][0]
packed, unpacked = hashlib.sha256(), hashlib.sha256()
with open(image, "rb") as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        packed.update(block)
with lzma.open(image) as f:
    for block in iter(lambda: f.read(1 << 20), b""):
        unpacked.update(block)
entry.update(release_date=release, extract_size=extract_size, extract_sha256=unpacked.hexdigest(),
             image_download_size=os.path.getsize(image), image_download_sha256=packed.hexdigest())
print(json.dumps(listing, indent=2))
PY
	echo "Done: $OUT/$NAME.img.xz (Raspberry Pi Imager: Use custom, or App Options > Content Repository: $OUT/$NAME.json)"
fi
