#!/bin/sh
# Every dynamic symbol librind exports must be a kernel crypto API name or
# begin with rind_ (API.md); anything else is a leak of an internal symbol.
set -eu
lib=${1:-build/librind.so}
bad=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRW]$/ {print $3}' |
	grep -Ev '^(crypto_|aead_|skcipher_|kpp_|akcipher_|shash_|sg_|sig_|kem_|rind_)' || true)
count=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRW]$/' | wc -l)
if [ -n "$bad" ]; then
	echo "check-exports: symbols outside the public API exported from $lib:" >&2
	echo "$bad" >&2
	exit 1
fi
echo "check-exports: $count exported symbols, all public API names"
