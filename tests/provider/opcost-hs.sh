#!/bin/sh
# SPDX-License-Identifier: MIT
# Instructions per TLS 1.3 full handshake, server and client apart, stock
# OpenSSL against rind preferred (tests/provider/opcost.c "hs": both sides
# in one process over a BIO pair, one library context), counted by
# callgrind (deterministic, whatever the machine's load), for the issue's
# rows: x25519 with ECDSA P-256, RSA-2048 and Ed25519 certificates, and
# X25519MLKEM768 with ECDSA P-256 (rind only: OpenSSL 3.0 has no ML-KEM).
# Each side is counted in its own run (--toggle-collect on opcost's srv_*
# or cli_* functions), N handshakes after two of warm-up (self-tests,
# tables, first fetches are not counted); then opcost-table.py splits each
# into what libssl called.
#
# Under valgrind the CPU looks like one without ADX, SHA-NI and VAES: rind
# then runs its generic C drivers (curve25519-generic, P-256 and RSA
# without the ADX code, SHA-1/256 without SHA-NI, AES-GCM with AES-NI and
# PCLMULQDQ only) and OpenSSL its own fallbacks, so the cryptography's
# share is not what runs natively; the rest (libssl, libcrypto's EVP and
# decoder machinery, the provider's glue) is the same code either way.
#
# Usage: sh tests/provider/opcost-hs.sh BUILD_DIR [N] [OUT_DIR]
set -eu
B=$(cd "${1:-build}" && pwd)
N=${2:-8}
OUT=${3:-$(mktemp -d "${TMPDIR:-/tmp}/rind-opcost.XXXXXX")}
HERE=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$OUT"
export OPENSSL_CONF=/dev/null OPCOST_NOTOGGLE=1
cd "$OUT"
[ -f p256.key ] || openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout p256.key -out p256.crt -subj /CN=b -days 20 2>/dev/null
[ -f rsa.key ] || openssl req -x509 -newkey rsa:2048 -nodes -keyout rsa.key -out rsa.crt -subj /CN=b -days 20 2>/dev/null
[ -f ed25519.key ] || openssl req -x509 -newkey ed25519 -nodes -keyout ed25519.key -out ed25519.crt -subj /CN=b -days 20 2>/dev/null
# rind.so's glue: the functions of the provider's and the API's objects
for f in "$B"/pobj/provider/*.o "$B"/obj/api/*.o "$B"/obj/unity/api-*.o; do [ -f "$f" ] || continue; nm "$f" | awk '$2 ~ /[tT]/ { print $3 }'; done | sed 's/\..*//' | sort -u > glue.txt
for row in p256:x25519 rsa:x25519 ed25519:x25519 p256:X25519MLKEM768; do
	k=${row%%:*}; g=${row#*:}
	for m in stock rind; do
		for side in srv cli; do
			o=$k-$g-$m-$side
			if [ $g = X25519MLKEM768 ] && [ $m = stock ]; then
				continue
			fi
			nice -n 5 valgrind --tool=callgrind --collect-atstart=no "--toggle-collect=${side}_*" \
				--callgrind-out-file=$o.cg "$B/tests/provider/opcost" "$B/provider" hs "$N" \
				$k.crt $k.key $g $m > $o.log 2>&1 || { echo "opcost-hs: $o failed (see $OUT/$o.log)"; exit 1; }
		done
	done
	f() { [ -f "$1" ] && echo "$1" || echo -; }
	echo "== $k + $g"
	python3 "$HERE/opcost-table.py" "$N" $(f $k-$g-stock-srv.cg) $k-$g-rind-srv.cg $(f $k-$g-stock-cli.cg) \
		$k-$g-rind-cli.cg glue.txt
done
echo "profiles in $OUT"
