#!/bin/sh
# Every symbol librind exports must be a kernel crypto API name or begin
# with rind_ (API.md); anything else is a leak of an internal symbol.
#   check-exports.sh [librind.so [librind.a [librind-internal.a]]]
# The shared library's dynamic symbols and the static archive's global
# ones are checked against the patterns of the version script
# (scripts/librind.map), which the archive's objcopy step uses too.  With
# the in-tree archive given as well, a program that defines every internal
# global name of the library (bn_*, rsa_*, ghash_* ...) must link
# statically against the installed archive and run: no collision.
set -eu
so=${1:-build/librind.so}
ar=${2:-}
internal=${3:-}
map=$(dirname "$0")/librind.map
# crypto_* aead_* ... from the version script, as one extended regex
re=$(sed -n '/global:/,/local:/p' "$map" | grep -o '[a-z0-9_]*\*' |
	sed 's/\*$//' | paste -sd'|' -)
re="^($re)"

# defined global symbols (upper-case nm type, not U) of an object/archive
globals() {
	nm "$@" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[A-TV-Z]$/ {print $3}' | sort -u
}

bad=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRW]$/ {print $3}' | grep -Ev "$re" || true)
count=$(nm -D --defined-only "$so" | awk '$2 ~ /^[TDBRW]$/' | wc -l)
if [ -n "$bad" ]; then
	echo "check-exports: symbols outside the public API exported from $so:" >&2
	echo "$bad" >&2
	exit 1
fi
echo "check-exports: $so: $count exported symbols, all public API names"
[ -n "$ar" ] || exit 0

bad=$(globals "$ar" | grep -Ev "$re" || true)
if [ -n "$bad" ]; then
	echo "check-exports: global symbols outside the public API in $ar:" >&2
	echo "$bad" >&2
	exit 1
fi
nso=$(nm -D --defined-only "$so" | awk '$2 ~ /^[A-Z]$/ {print $3}' | sort -u)
if [ "$(globals "$ar")" != "$nso" ]; then
	echo "check-exports: $ar and $so export different symbols:" >&2
	globals "$ar" | diff -u /dev/fd/3 - 3<<-EOF >&2 || true
	$nso
	EOF
	exit 1
fi
echo "check-exports: $ar: $(globals "$ar" | wc -l) global symbols, the same as $so"
[ -n "$internal" ] || exit 0

# A program defining every name the library keeps internal.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rind-exports.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
globals "$ar" >"$tmp/public"
globals "$internal" | comm -23 - "$tmp/public" | grep -v '^__' >"$tmp/names" || true
n=$(wc -l <"$tmp/names")
{
	echo "/* every internal global name of librind, defined by the program */"
	sed 's/.*/char &[1] = { 1 };/' "$tmp/names"
} >"$tmp/collide.c"
src=$(dirname "$0")/..
${CC:-cc} -w -o "$tmp/app" -I"$src/api/include" "$src/tests/install_app.c" "$tmp/collide.c" "$ar" -pthread
"$tmp/app" >/dev/null
echo "check-exports: a program defining all $n internal names links statically with $ar and runs"
