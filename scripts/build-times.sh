#!/bin/sh
# Per-file compile times of the library: a cold, serial (-j1) build of
# `make lib` in a scratch output directory, with the compiler wrapped so
# each object's compile time is logged; prints the top N (default 10) and
# the sum.  The time is the compiler's CPU time (user + system, from the
# shell's `times`, each shown too), so a loaded machine does not inflate
# it the way it inflates wall time.
#   sh scripts/build-times.sh [N] [make variables...]   e.g. CC=clang
# On a machine shared with other work the CPU time still varies by 10-30 %
# from run to run (a busy sibling hyperthread, caches); BUILD_TIMES_RUNS=R
# builds R times and keeps each file's minimum.
# The wrapper mode (--cc LOG REALCC ARGS...) is what make calls.
set -eu

if [ "${1:-}" = "--cc" ]; then
	log=$2
	shift 2
	"$@"
	src=""
	for a in "$@"; do
		case $a in *.c | *.S | *.h) src=$a ;; esac
	done
	if [ -n "$src" ]; then
		# The second line of `times` is the children's user and system
		# time; not in a pipe, which would run it in a subshell.
		times >"$log.$$"
		sed -n 2p "$log.$$" | sed 's/[ms]/ /g' |
			awk -v f="$src" '{u = $1 * 60 + $2; s = $3 * 60 + $4; printf "%.2f %.2f %.2f %s\n", u + s, u, s, f}' >>"$log"
		rm -f "$log.$$"
	fi
	exit 0
fi

cd "$(dirname "$0")/.."
top=10
case ${1:-} in [0-9]*) top=$1; shift ;; esac
out=$(mktemp -d "${TMPDIR:-/tmp}/rind-times.XXXXXX")
trap 'rm -rf "$out"' EXIT
log=$out/times.log
: >"$log"
cc=cc
for a in "$@"; do
	case $a in CC=*) cc=${a#CC=} ;; esac
done
# The wrapper replaces CC; ARCH is computed from the real compiler.
arch=$($cc -dumpmachine | sed -e 's/-.*//' -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
runs=${BUILD_TIMES_RUNS:-1}
i=0
while [ "$i" -lt "$runs" ]; do
	i=$((i + 1))
	make --no-print-directory -j1 O="$out/build$i" ARCH="$arch" "$@" \
		CC="sh $(pwd)/scripts/build-times.sh --cc $log.$i $cc" lib >/dev/null
	sed "s|$out/build$i/||" "$log.$i" >>"$log"
done
# each file's minimum over the runs (total, with that run's user and system)
awk '!($4 in m) || $1 < m[$4] {m[$4] = $1; l[$4] = $0} END {for (f in m) print l[f]}' "$log" | sort -rn >"$log.min"
echo "   cpu    user  system  file"
head -n "$top" "$log.min" | awk '{printf "%6.2f  %6.2f  %6.2f  %s\n", $1, $2, $3, $4}'
awk -v r="$runs" '{t += $1; u += $2; s += $3} END {printf "%6.2f  %6.2f  %6.2f  sum over %d files%s\n", t, u, s, NR, (r > 1 ? " (minimum of " r " runs each)" : "")}' "$log.min"
