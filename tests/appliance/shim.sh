# shellcheck shell=bash
# A stand-in for the system commands install.sh calls (apt-get, dpkg-query, getent,
# groupadd, useradd, usermod, python3 -m venv, pip, the venv's python), installed on PATH
# under each name (tests/appliance/test_install.py puts bash's path on the first line).
#
# Every call is appended to $SHIM_STATE/calls.log (one JSON list per line). The commands
# keep their state in the same directory, in the formats of the real files: `installed`
# (one package a line), `passwd` and `group` (/etc/passwd and /etc/group lines), so a
# second run of install.sh sees what the first one did.
#
# Plain bash, no helper processes: install.sh calls these some 30 times a run, and a
# Python start-up for each call was most of the install tests' time.
set -u
STATE=$SHIM_STATE
NAME=${0##*/}

fail() { # fail STATUS MESSAGE
	printf '%s\n' "$2" >&2
	exit "$1"
}

log() {
	local out="" arg
	for arg in "$NAME" "$@"; do
		arg=${arg//\\/\\\\}
		arg=${arg//\"/\\\"}
		out+="${out:+, }\"$arg\""
	done
	printf '[%s]\n' "$out" >>"$STATE/calls.log"
}

# lines TABLE: the rows of a state file into ROWS (none when it does not exist)
lines() {
	ROWS=()
	if [[ -f $STATE/$1 ]]; then mapfile -t ROWS <"$STATE/$1"; fi
}

# entry TABLE KEY: the row whose first field is KEY into ROW; false when there is none
entry() {
	local row
	lines "$1"
	for row in ${ROWS[@]+"${ROWS[@]}"}; do
		if [[ ${row%%:*} == "$2" ]]; then
			ROW=$row
			return 0
		fi
	done
	return 1
}

add_group() {
	lines group
	printf '%s:x:%d:\n' "$1" $((900 + ${#ROWS[@]})) >>"$STATE/group"
}

add_member() { # add_member GROUP USER
	local row name pw gid members out=()
	lines group
	for row in ${ROWS[@]+"${ROWS[@]}"}; do
		IFS=: read -r name pw gid members <<<"$row"
		if [[ $name == "$1" ]]; then row="$name:$pw:$gid:${members:+$members,}$2"; fi
		out+=("$row")
	done
	if ((${#out[@]})); then printf '%s\n' "${out[@]}"; fi >"$STATE/group"
}

# after FLAG ARGS...: the argument that follows FLAG, into VALUE
after() {
	local flag=$1
	shift
	while (($#)); do
		if [[ $1 == "$flag" ]]; then
			VALUE=${2-}
			return 0
		fi
		shift
	done
	fail 2 "$NAME: no $flag"
}

log "$@"
LAST=${!#}
case $NAME in
dpkg-query)
	lines installed
	for row in ${ROWS[@]+"${ROWS[@]}"}; do
		if [[ $row == "$LAST" ]]; then
			echo "install ok installed"
			exit 0
		fi
	done
	fail 1 "dpkg-query: no packages found matching $LAST"
	;;
apt-get)
	if [[ ${1-} == install ]]; then
		for arg in "${@:2}"; do
			if [[ $arg != -* ]]; then printf '%s\n' "$arg" >>"$STATE/installed"; fi
		done
	fi
	;;
getent)
	(($# == 2)) || fail 2 "getent: expected a table and a key: $*"
	entry "$1" "$2" || exit 2
	printf '%s\n' "$ROW"
	;;
groupadd)
	add_group "$LAST"
	;;
useradd)
	after --groups "$@"
	IFS=, read -r -a groups <<<"$VALUE"
	for group in "${groups[@]}"; do
		entry group "$group" || fail 6 "useradd: group '$group' does not exist"
	done
	add_group "$LAST"
	printf '%s\n' "$LAST:x:990:990::/var/lib/race-companion:/usr/sbin/nologin" >>"$STATE/passwd"
	for group in "${groups[@]}"; do add_member "$group" "$LAST"; done
	;;
usermod)
	after --groups "$@"
	add_member "$VALUE" "$LAST"
	;;
python3)
	[[ ${1-} == -m && ${2-} == venv ]] || fail 1 "python3: only -m venv is stood in for: $*"
	mkdir -p -- "$LAST/bin" || exit 1
	echo "include-system-site-packages = true" >"$LAST/pyvenv.cfg"
	for name in python pip; do ln -s -- "${0%/*}/pip" "$LAST/bin/$name" || exit 1; done
	;;
pip) ;;
python)
	[[ $# == 2 && $1 == -m && $2 == companion.bytecode ]] || fail 1 "python: only -m companion.bytecode is stood in for: $*"
	;;
*)
	fail 1 "shim: no stand-in for $NAME"
	;;
esac
exit 0
