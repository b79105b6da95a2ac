#!/usr/bin/env bash
# Race Companion: set up a fresh Raspberry Pi OS Lite (bookworm or trixie, 64- or 32-bit)
# to run the companion as a service.
#
#   sudo firmware/install.sh            install, or bring an install up to date
#   firmware/install.sh --dry-run       print what it would do; change nothing
#   install.sh --offline                in an image being built (a chroot, a container):
#                                       enable, but start and reload nothing
#
# What it does, each step only when it is not done yet (a second run changes nothing):
#   apt packages, the `companion` system user (groups gpio, i2c, dialout), a virtual
#   environment in <repo>/.venv with the companion installed in it, the boot settings
#   (firmware/config.txt appended to config.txt, the serial console removed from
#   cmdline.txt), i2c-dev loaded at boot, the udev rule and the service unit, enabled; the
#   table screen's service and socket (on the port of [table] in the pinout), enabled unless
#   [table] enabled = false; the companion's state and cache made readable by its group,
#   through which the table screen's service (a user of its own) reads the race; fewer
#   card writes (journald capped, no swap file, apt's daily timers off).
#
# Where no systemd runs for this root (a chroot, a container, ROOT=, --offline) it only
# enables units, which works offline: it reloads, starts and triggers nothing, empties
# /etc/machine-id and removes the SSH host keys (each card makes its own at first boot),
# and ends with "starts at the next boot".
#
# Environment (for building an image tree and for the tests):
#   ROOT=DIR      prefix for every file it reads or writes for the system (/etc, /boot,
#                 the venv); commands such as apt-get and useradd still act on this machine.
#   APP_DIR=DIR   where the repository lives on the target (default: this repository;
#                 only with ROOT).
set -euo pipefail

usage() {
	sed -n '2,29s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

die() {
	printf 'install.sh: %s\n' "$*" >&2
	exit 1
}

DRY_RUN=0
OFFLINE=0
for arg in "$@"; do
	case $arg in
	-n | --dry-run) DRY_RUN=1 ;;
	--offline) OFFLINE=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	*) die "unknown option '$arg' (try --help)" ;;
	esac
done

SRC_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
ROOT=${ROOT:-}
ROOT=${ROOT%/}
APP_DIR=${APP_DIR:-$SRC_DIR}
APP_DIR=${APP_DIR%/}
VENV=$APP_DIR/.venv
SERVICE_USER=companion
SERVICE_GROUPS=(gpio i2c dialout)
UNIT=companion.service
TABLE_UNITS=(companion-table.service companion-table.socket)
STATE_HOME=/var/lib/race-companion
CACHE_HOME=/var/cache/race-companion
PYCACHE=$CACHE_HOME/pycache # PYTHONPYCACHEPREFIX in systemd/companion.service
PACKAGES=(
	python3-venv python3-dev gcc # the venv, and builds of packages without a wheel
	python3-lgpio                # the GPIO backend (the only one on a Pi 5; 32-bit needs apt's)
	i2c-tools                    # i2cdetect, to find the OLED
	libjpeg-dev zlib1g-dev       # Pillow, when it builds from source
	libopenjp2-7 libtiff6        # Pillow's 32-bit wheels link against these
)
export DEBIAN_FRONTEND=noninteractive

CHANGED=0 # set when something was (or, in a dry run, would be) changed
REBOOT=0  # set when a boot setting changed

ok() { printf 'ok: %s\n' "$*"; }

# run CMD...: a command that changes the system.
run() {
	CHANGED=1
	if ((DRY_RUN)); then
		printf 'would run: %s\n' "$*"
	else
		printf '+ %s\n' "$*"
		"$@"
	fi
}

# put PATH MODE WHY < content: make $ROOT/PATH hold exactly the content on stdin.
# MODE "-" keeps the file's mode (the FAT boot partition has none) and, the first time,
# keeps a copy of the original as PATH.before-race-companion. True if it changed.
put() {
	local path=$1 mode=$2 why=$3 dest=$ROOT$1 new old
	new=$(
		cat
		printf .
	)
	new=${new%.}
	if [[ -f $dest ]]; then
		old=$(
			cat -- "$dest"
			printf .
		)
		if [[ ${old%.} == "$new" ]]; then
			ok "$path"
			return 1
		fi
	fi
	CHANGED=1
	if ((DRY_RUN)); then
		printf 'would write: %s (%s)\n' "$path" "$why"
		return 0
	fi
	if [[ $mode == - && -f $dest && ! -e $dest.before-race-companion ]]; then
		cp -- "$dest" "$dest.before-race-companion"
		printf 'saved: %s.before-race-companion (the file as it was)\n' "$path"
	fi
	mkdir -p -- "$(dirname -- "$dest")"
	printf '%s' "$new" >"$dest"
	if [[ $mode != - ]]; then chmod "$mode" -- "$dest"; fi
	printf 'wrote: %s (%s)\n' "$path" "$why"
}

# systemctl, acting on the unit files under $ROOT when it is set.
SYSTEMCTL=(systemctl)
if [[ -n $ROOT ]]; then SYSTEMCTL+=(--root="$ROOT"); fi

# True when a running systemd manages this root: Debian's test (/run/systemd/system), and
# PID 1's root is ours (in a chroot it is the build host's). Unreadable (an unprivileged
# container, systemd-nspawn) counts as not running.
systemd_runs_here() {
	local init_root our_root
	[[ -d /run/systemd/system ]] || return 1
	# only root may read /proc/1/root; anyone else gets here only for a dry run
	if [[ $EUID -ne 0 ]]; then return 0; fi
	init_root=$(stat -L -c '%d:%i' /proc/1/root/ 2>/dev/null) || return 1
	our_root=$(stat -L -c '%d:%i' /)
	[[ $init_root == "$our_root" ]]
}
if [[ -n $ROOT ]] || ! systemd_runs_here; then OFFLINE=1; fi
if ((OFFLINE)); then export SYSTEMD_OFFLINE=1; fi

check_environment() {
	if [[ -n $ROOT && ! -d $ROOT ]]; then die "ROOT=$ROOT is not a directory"; fi
	command -v apt-get >/dev/null || die "apt-get not found: this script is for Raspberry Pi OS (Debian)"
	if [[ -z $ROOT && $APP_DIR != "$SRC_DIR" ]]; then die "APP_DIR is only for ROOT= installs"; fi
	if [[ -z $ROOT ]] && ((!DRY_RUN)) && [[ $EUID -ne 0 ]]; then
		die "run it as root: sudo $0 (or see the plan with --dry-run)"
	fi
	case $APP_DIR/ in
	/home/* | /root/* | /tmp/* | /run/*)
		die "the service cannot read $APP_DIR (it sees no home or temporary directories): clone the repository to /opt/race-companion and run install.sh from there"
		;;
	esac
}

install_packages() {
	local pkg status missing=()
	for pkg in "${PACKAGES[@]}"; do
		status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null) || status=""
		[[ $status == "install ok installed" ]] || missing+=("$pkg")
	done
	if ((${#missing[@]} == 0)); then
		ok "apt packages: ${PACKAGES[*]}"
		return
	fi
	run apt-get update
	run apt-get install -y --no-install-recommends "${missing[@]}"
}

in_group() { # in_group GROUP USER
	local members
	members=$(getent group "$1" | cut -d: -f4)
	[[ ,$members, == *",$2,"* ]]
}

make_user() {
	local group
	for group in "${SERVICE_GROUPS[@]}"; do
		getent group "$group" >/dev/null || run groupadd --system "$group"
	done
	if ! getent passwd "$SERVICE_USER" >/dev/null; then
		run useradd --system --user-group --home-dir "$STATE_HOME" --no-create-home \
			--shell /usr/sbin/nologin --groups "$(IFS=,; echo "${SERVICE_GROUPS[*]}")" "$SERVICE_USER"
		return
	fi
	for group in "${SERVICE_GROUPS[@]}"; do
		if in_group "$group" "$SERVICE_USER"; then
			ok "user $SERVICE_USER in group $group"
		else
			run usermod --append --groups "$group" "$SERVICE_USER"
		fi
	done
}

# The venv sees the system's packages for lgpio (from apt); the companion is installed
# editable, so it finds hardware/pinout.toml and the game data in the clone.
make_venv() {
	local stamp want have=""
	if [[ -x $ROOT$VENV/bin/python ]]; then
		ok "virtual environment $VENV"
	else
		run python3 -m venv --system-site-packages "$ROOT$VENV"
	fi
	stamp=$ROOT$VENV/.race-companion-installed
	want="editable [pi] pyproject $(sha256sum <"$SRC_DIR/pyproject.toml" | cut -d' ' -f1)"
	if [[ -f $stamp ]]; then have=$(<"$stamp"); fi
	if [[ $have == "$want" ]]; then
		ok "companion installed in $VENV"
		return
	fi
	run "$ROOT$VENV/bin/pip" install --disable-pip-version-check --quiet --editable "${APP_DIR}[pi]"
	# Compile the bytecode now, where the service looks for it: otherwise the first start
	# compiles every module it imports and its memory peak passes the 40 MB budget
	# (docs/performance.md). systemd gives the folder to the service user (CacheDirectory=).
	run env PYTHONPYCACHEPREFIX="$ROOT$PYCACHE" "$ROOT$VENV/bin/python" -m companion.bytecode
	if ((!DRY_RUN)); then printf '%s\n' "$want" >"$stamp"; fi
}

boot_dir() {
	if [[ -f $ROOT/boot/firmware/config.txt ]]; then
		echo /boot/firmware # bookworm and later
	elif [[ -f $ROOT/boot/config.txt ]]; then
		echo /boot
	else
		die "no config.txt in /boot/firmware or /boot: is this Raspberry Pi OS?"
	fi
}

# Append firmware/config.txt, or replace the copy a previous run appended (between its
# marker lines), so the boot config always holds exactly one, current, block.
configure_boot() {
	local boot config fragment begin end kept
	boot=$(boot_dir)
	config=$boot/config.txt
	fragment=$(<"$SRC_DIR/firmware/config.txt")
	begin=${fragment%%$'\n'*}
	end=${fragment##*$'\n'}
	kept=$(awk -v begin="$begin" -v end="$end" '$0 == begin {skip = 1} !skip {print} $0 == end {skip = 0}' "$ROOT$config")
	if put "$config" - "I2C at 400 kHz, the UART on GPIO 14/15" < <(printf '%s\n\n%s\n' "$kept" "$fragment"); then
		REBOOT=1
	fi

	local cmdline=$boot/cmdline.txt words=() word out=()
	[[ -f $ROOT$cmdline ]] || die "no $cmdline next to $config"
	read -r -a words <"$ROOT$cmdline"
	for word in "${words[@]}"; do
		[[ $word =~ ^console=(serial0|serial1|ttyAMA[0-9]+|ttyS0)(,|$) ]] || out+=("$word")
	done
	if put "$cmdline" - "no serial console: the printer owns the UART" < <(printf '%s\n' "${out[*]}"); then
		REBOOT=1
	fi

	# With the PL011 back on GPIO 14/15 the Bluetooth modem has no UART: its setup service
	# would fail at every boot. Which board this is, is decided on the board at boot (an
	# image is built elsewhere): a Pi 5's Bluetooth has its own UART, so it runs there only.
	put /etc/systemd/system/hciuart.service.d/race-companion.conf 0644 \
		"Bluetooth's UART setup only on a Pi 5" <"$SRC_DIR/systemd/hciuart.service.d/race-companion.conf" || :
}

install_system_files() {
	put /etc/modules-load.d/race-companion.conf 0644 "load i2c-dev at boot" <<<"i2c-dev" || :

	if put /etc/udev/rules.d/60-race-companion.rules 0644 "systemd sees /dev/i2c-1" \
		<"$SRC_DIR/firmware/60-race-companion.rules" && ((!OFFLINE)); then
		run udevadm control --reload-rules
		run udevadm trigger --action=add --subsystem-match=i2c-dev
	fi

	local unit
	unit=$(<"$SRC_DIR/systemd/$UNIT")
	if put "/etc/systemd/system/$UNIT" 0644 "the service, for $APP_DIR" \
		< <(printf '%s\n' "${unit//"/opt/race-companion"/"$APP_DIR"}") && ((!OFFLINE)); then
		run systemctl daemon-reload
	fi

	if "${SYSTEMCTL[@]}" is-enabled --quiet "$UNIT" 2>/dev/null; then
		ok "$UNIT enabled"
	else
		run "${SYSTEMCTL[@]}" enable "$UNIT"
	fi
	share_state
	install_table
}

# Fewer writes to the SD card (docs/deployment.md): the system journal capped, no swap
# file on the card, apt's daily download and upgrade timers off.
spare_the_card() {
	put /etc/systemd/journald.conf.d/race-companion.conf 0644 "the system journal capped" \
		<"$SRC_DIR/firmware/journald.conf" || :
	local name
	for name in dphys-swapfile.service apt-daily.timer apt-daily-upgrade.timer; do
		case $("${SYSTEMCTL[@]}" is-enabled "$name" 2>/dev/null) in
		masked) ok "$name off" ;;
		"" | not-found) ok "$name not installed" ;;
		*) run "${SYSTEMCTL[@]}" mask "$name" ;;
		esac
	done
}

# An image carries no identity of one card: systemd makes the machine id at first boot
# when /etc/machine-id is empty, and Raspberry Pi OS makes missing SSH host keys then
# (regenerate_ssh_host_keys). Only offline: a running box keeps its own.
forget_identity() {
	local key
	if [[ -s $ROOT/etc/machine-id ]]; then
		run truncate --size=0 "$ROOT/etc/machine-id"
	else
		ok "/etc/machine-id empty (made at first boot)"
	fi
	for key in "$ROOT"/etc/ssh/ssh_host_*_key "$ROOT"/etc/ssh/ssh_host_*_key.pub; do
		[[ -e $key ]] && run rm -f -- "$key"
	done
	return 0
}

# table_setting KEY DEFAULT: KEY under [table] in the pinout the companion reads.
table_setting() {
	local pinout=$SRC_DIR/hardware/pinout.toml value
	if [[ -f $ROOT/etc/race-companion/pinout.toml ]]; then pinout=$ROOT/etc/race-companion/pinout.toml; fi
	value=$(awk -v key="$1" '
		/^[[:space:]]*\[/ { in_table = ($0 ~ /^[[:space:]]*\[table\][[:space:]]*(#.*)?$/) }
		in_table && $0 ~ "^[[:space:]]*" key "[[:space:]]*=" {
			sub(/^[^=]*=[[:space:]]*/, ""); sub(/[[:space:]]*(#.*)?$/, ""); print; exit
		}' "$pinout")
	printf '%s\n' "${value:-$2}"
}

# The table screen's service reads the state and the bytecode through the companion's
# group (SupplementaryGroups=companion); the companion makes its files group-readable
# (UMask=0027). Files it made before that (under UMask=0077) are opened to the group
# here, once: read, and enter for directories; never write, nothing for others.
share_state() {
	local dir closed
	for dir in "$STATE_HOME" "$CACHE_HOME"; do
		[[ -d $ROOT$dir ]] || continue
		closed=$(find "$ROOT$dir" \( \( -type f ! -perm -g=r \) -o \( -type d ! -perm -g=rx \) \) -print -quit)
		if [[ -n $closed ]]; then
			run chmod -R g+rX,g-w "$ROOT$dir"
		else
			ok "$dir readable by the group $SERVICE_USER"
		fi
	done
}

# The table screen: its service and its socket (systemd listens on the port and hands the
# socket over, so the server has no network of its own), enabled unless switched off.
install_table() {
	local port enabled name
	port=$(table_setting port 8080)
	enabled=$(table_setting enabled true)
	[[ $port =~ ^[0-9]+$ ]] || die "[table] port in the pinout is not a number: $port"
	put /etc/systemd/system/companion-table.service 0644 "the table screen, for $APP_DIR" \
		< <(sed "s|/opt/race-companion/|$APP_DIR/|g" "$SRC_DIR/systemd/companion-table.service") || :
	put /etc/systemd/system/companion-table.socket 0644 "the table screen on port $port" \
		< <(sed "s|^ListenStream=.*|ListenStream=$port|" "$SRC_DIR/systemd/companion-table.socket") || :
	for name in "${TABLE_UNITS[@]}"; do
		if [[ $enabled == false ]]; then
			if "${SYSTEMCTL[@]}" is-enabled --quiet "$name" 2>/dev/null; then
				run "${SYSTEMCTL[@]}" disable "$name"
			else
				ok "$name off ([table] enabled = false)"
			fi
		elif "${SYSTEMCTL[@]}" is-enabled --quiet "$name" 2>/dev/null; then
			ok "$name enabled"
		else
			run "${SYSTEMCTL[@]}" enable "$name"
		fi
	done
}

finish() {
	if ((!CHANGED)); then
		echo "Nothing to do: Race Companion is installed and enabled."
	elif ((DRY_RUN)); then
		echo "Dry run: nothing was changed. Run it again without --dry-run, as root, to do the above."
	elif ((OFFLINE)); then
		echo "Done. No systemd runs here, so nothing was started: the companion starts at the next boot."
	elif ((REBOOT)); then
		echo "Done. Reboot to apply the boot settings; the companion then starts by itself: sudo reboot"
	else
		run systemctl daemon-reload
		run systemctl restart "$UNIT"
		if [[ $(table_setting enabled true) != false ]]; then run systemctl restart companion-table.socket; fi
		echo "Done. The companion is (re)started: systemctl status $UNIT"
	fi
}

if ((OFFLINE)); then
	echo "No systemd runs for this root: units are enabled, nothing is started or reloaded."
fi
if ((DRY_RUN)); then
	echo "Race Companion install plan for $APP_DIR (dry run: nothing will be changed)"
else
	echo "Race Companion install for $APP_DIR"
fi
check_environment
install_packages
make_user
make_venv
configure_boot
install_system_files
spare_the_card
if ((OFFLINE)); then forget_identity; fi
finish
