#!/bin/sh
# SPDX-License-Identifier: MIT
#
# check-loop-spills.sh MAX OBJ...: fail if a loop of a function in OBJ (the
# instructions from a backward branch's target to the branch, less the
# loops nested in it) has more than MAX instructions that move a vector
# register to or from the stack (an xmm/ymm/zmm operand next to an (%rsp)
# or (%rbp) address).
#
# Why: the stitched ChaCha20-Poly1305 round loop, compiled from C by GCC,
# spilled and reloaded most of its 16 state vectors every quarter round
# (~80 stack accesses a double round).  It was then bound by the load/store
# pipes and ran 1.5x slower whenever the host loaded the core, one process
# in two on the development VM (bench/probes/chachapoly-layout.c).  The
# assembly core keeps 8 a double round (rows 8-11, swapped twice); this
# check fails if the C version, or one like it, comes back.
# Run by `make check` (check-exports) on the stitched driver's objects.
set -eu
OBJDUMP=${OBJDUMP:-objdump}
[ $# -gt 1 ] || { echo "usage: $0 MAX OBJ..." >&2; exit 2; }
max=$1
shift
bad=0
for obj in "$@"; do
	"$OBJDUMP" -d --no-show-raw-insn -M att "$obj" | awk -v obj="$obj" -v max="$max" '
	function hex(s,   i, v) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	# A loop is [target, branch] of a backward branch; its own body leaves
	# out the loops nested in it (a dispatch that jumps back over inner
	# loops is not charged for them).
	function flush(   i, j, k, l, c, t, nl, lt, le, inner) {
		nl = 0
		for (i = 1; i <= n; i++) {
			if (tgt[i] == "")
				continue
			t = hex(tgt[i])
			if (t > addr[i] || t < addr[1])
				continue
			nl++
			lt[nl] = t
			le[nl] = addr[i]
		}
		for (l = 1; l <= nl; l++) {
			c = 0
			for (j = 1; j <= n; j++) {
				if (addr[j] < lt[l] || addr[j] > le[l] || !vstack[j])
					continue
				inner = 0
				for (k = 1; k <= nl; k++)
					if (k != l && lt[k] >= lt[l] && le[k] <= le[l] &&
					    (lt[k] > lt[l] || le[k] < le[l]) &&
					    addr[j] >= lt[k] && addr[j] <= le[k])
						inner = 1
				if (!inner)
					c++
			}
			if (c > max) {
				printf "check-loop-spills: %s: %s: loop %x-%x moves vector registers through the stack %d times (limit %d)\n", obj, fn, lt[l], le[l], c, max
				bad = 1
			}
		}
		n = 0
	}
	/^[0-9a-f]+ <.*>:$/ {
		flush()
		fn = $2
		gsub(/[<>:]/, "", fn)
		next
	}
	/^ *[0-9a-f]+:\t/ {
		split($0, f, "\t")
		a = f[1]
		sub(/^ */, "", a)
		sub(/:$/, "", a)
		ins = f[2]
		for (k = 3; k in f; k++)
			ins = ins " " f[k]
		n++
		addr[n] = hex(a)
		tgt[n] = ""
		vstack[n] = (ins ~ /%[xyz]mm[0-9]/ && ins ~ /\(%r[sb]p/)
		if (ins ~ /^j[a-z]+ +[0-9a-f]+ </) {
			split(ins, g, " ")
			tgt[n] = g[2]
		}
	}
	END {
		flush()
		exit bad
	}' || bad=1
done
[ $bad -ne 0 ] || echo "check-loop-spills: $# objects: at most $max vector stack accesses in every loop"
exit $bad
