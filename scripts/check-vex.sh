#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-vex.sh OBJ...: fail if a function in an AVX/VAES driver object
#  - contains a legacy-SSE (non-VEX, non-EVEX) instruction on an xmm
#    register: next to VEX code, on Intel, it pays for the SSE/AVX state
#    transition (or a false dependency on the dirty upper halves);
#  - writes ymm/zmm registers and can return (ret, or a tail jump out of
#    the function) with no VZEROUPPER since its last ymm/zmm instruction:
#    the dirty upper state then slows the caller's SSE code.
# The second check walks each function backwards from every exit, in
# address order (the compilers put VZEROUPPER right before the epilogue).
# Run by `make check` on the built arch/x86 GCM and AES objects.
set -eu
OBJDUMP=${OBJDUMP:-objdump}
[ $# -gt 0 ] || { echo "usage: $0 OBJ..." >&2; exit 2; }

# check_obj OBJ: 0 when clean, 1 (and the findings on stdout) when not
check_obj() {
	"$OBJDUMP" -d --no-show-raw-insn -M att "$1" | awk -v obj="$1" '
	function flush(   i, k) {
		if (fn == "")
			return
		for (i = 1; i <= n; i++) {
			if (!exit_[i])
				continue
			for (k = i - 1; k >= 1; k--) {
				if (ins[k] ~ /^vzeroupper/)
					break
				if (ins[k] ~ /%[yz]mm[0-9]/) {
					printf "check-vex: %s: %s: returns at %s with ymm/zmm state dirty (last: %s)\n", obj, fn, addr[i], ins[k]
					bad = 1
					break
				}
			}
		}
		n = 0
	}
	/^[0-9a-f]+ <.*>:$/ {
		flush()
		fn = $2
		sub(/^</, "", fn); sub(/>:$/, "", fn)
		next
	}
	/^ *[0-9a-f]+:\t/ {
		line = $0
		a = line; sub(/:.*/, "", a); gsub(/ /, "", a)
		sub(/^ *[0-9a-f]+:\t/, "", line)
		sub(/ *#.*/, "", line)
		n++
		ins[n] = line
		addr[n] = a
		mn = line; sub(/[ \t].*/, "", mn)
		exit_[n] = (mn ~ /^(ret|retq|repz|rep)$/ && line ~ /ret/) || mn ~ /^(ret|retq)$/ ||
			  (mn ~ /^jmp/ && line ~ /</ && line !~ ("<" fn "[+>]"))
		# any SIMD register operand in an instruction not VEX/EVEX encoded
		if (line ~ /%xmm[0-9]/ && mn !~ /^v/) {
			printf "check-vex: %s: %s: legacy-SSE instruction at %s: %s\n", obj, fn, a, line
			bad = 1
		}
	}
	END { flush(); exit bad }
	'
}

# First, that the check still catches what it is for: a legacy-SSE
# instruction, a ret and a tail jump with dirty ymm state, assembled here.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' '.text' 'sse: vpxor %ymm0,%ymm0,%ymm0' 'vzeroupper' 'pxor %xmm1,%xmm1' 'ret' \
	'dirty: vmovdqu (%rsi),%ymm0' 'vmovdqu %ymm0,(%rdi)' 'ret' \
	'tail: vmovdqu (%rsi),%ymm0' 'jmp memcpy' \
	'clean: vmovdqu (%rsi),%ymm0' 'vmovdqu %ymm0,(%rdi)' 'vzeroupper' 'ret' >"$tmp/bad.s"
${CC:-cc} -c -o "$tmp/bad.o" "$tmp/bad.s"
check_obj "$tmp/bad.o" >"$tmp/out" && { echo "check-vex: the self-test object passed" >&2; exit 1; }
[ "$(grep -c 'sse: legacy-SSE\|dirty: returns\|tail: returns' "$tmp/out")" = 3 ] &&
	! grep -q clean "$tmp/out" || { echo "check-vex: self-test: wrong findings:" >&2; cat "$tmp/out" >&2; exit 1; }

fail=0
for obj in "$@"; do
	[ -f "$obj" ] || { echo "check-vex: $obj: missing" >&2; exit 2; }
	check_obj "$obj" || fail=1
done
if [ $fail -ne 0 ]; then
	echo "check-vex: FAILED: an AVX/VAES driver mixes legacy SSE into VEX code or leaves the upper state dirty" >&2
	exit 1
fi
echo "check-vex: $# objects: VEX-only, VZEROUPPER before every exit"
