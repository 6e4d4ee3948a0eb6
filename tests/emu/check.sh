#!/bin/sh
# SPDX-License-Identifier: MIT
# make check-avx512-emu, after the build (tests/emu/README.md):
#   EMU_OBJS="objects of the emulation library" sh tests/emu/check.sh DIR SUITE...
# 1. no object of the emulation library holds an EVEX instruction, a zmm
#    or mask register (chacha-avx512-asm.S, assembly, excepted: its driver
#    calls the generic code instead in this build);
# 2. the emulation's self-test, DIR/tests/test_emu;
# 3. each suite DIR/tests/SUITE with RIND_EMU_ASSUME=avx512, EMU_JOBS (2)
#    at a time; then every driver of tests/emu/drivers.txt must be named
#    in its suite's output (the suites print the driver of each case
#    group they run).
# EMU_SUITE_ENV is put before each suite (e.g. CK_RUN_CASE=... for a
# shorter run); EMU_ENV_<suite> before that suite only (test_rsa: its "ifma" case alone).  Exit status 1 on any failure, after everything ran.
set -u
o=$1
shift
fail=0

# An instruction is EVEX-encoded when its first byte after any legacy
# prefix is 0x62 (BOUND, invalid in 64-bit mode); also any zmm, k or
# xmm/ymm16-31 operand and the {1toN} broadcast, whatever the encoding.
evex='%zmm|%k[0-7]|%[xy]mm(1[6-9]|2[0-9]|3[01])\b|\{1to[0-9]+\}|^ *[0-9a-f]+:	((26|2e|36|3e|64|65|66|67|f0|f2|f3) )*62 '
nobj=0
nemu=0
bad=""
for f in ${EMU_OBJS:?}; do
	case "$f" in */chacha-avx512-asm.S.o) continue ;; esac
	case "$f" in "$o"/*) nemu=$((nemu + 1)) ;; esac
	nobj=$((nobj + 1))
	n=$(objdump -d --insn-width=16 "$f" | grep -cE "$evex")
	if [ "$n" -ne 0 ]; then
		bad="$bad $f"
		echo "check-avx512-emu: $f: $n EVEX/zmm/k-register instructions, e.g.:"
		objdump -d --insn-width=16 "$f" | grep -E "$evex" | head -3
	fi
done
if [ "$nemu" -lt 2 ]; then
	echo "FAIL: check-avx512-emu: only $nemu objects compiled for the emulation"
	fail=1
fi
if [ -n "$bad" ]; then
	echo "FAIL: the emulation library has AVX-512 instructions (a target attribute without its RIND_AVX512_TARGET emulation spelling, or a file not including x86-target.h?):$bad"
	fail=1
else
	echo "check-avx512-emu: $nobj objects ($nemu compiled over avx512-emu.h), no EVEX, zmm or mask-register instruction"
fi

"$o/tests/test_emu" || fail=1

run() {
	# test_rsa: its "ifma" case alone (the IFMA engine's kernels, drivers
	# and batches); its other cases run natively in make check.
	# EMU_ENV_<suite>: that suite's own environment (the Makefile's, e.g.
	# CK_RUN_CASE=batch: only the cases that reach its emulated driver);
	# EMU_SUITE_ENV (by hand) wins over both.
	case_env=
	case "$1" in test_rsa) case_env=CK_RUN_CASE=ifma ;; esac
	eval "senv=\${EMU_ENV_$1:-}"
	# shellcheck disable=SC2086
	env $case_env $senv ${EMU_SUITE_ENV:-} RIND_EMU_ASSUME=avx512 "$o/tests/$1" > "$o/tests/$1.emu.log" 2>&1
	echo $? > "$o/tests/$1.emu.rc"
}
jobs=0
for t in "$@"; do
	rm -f "$o/tests/$t.emu.rc"
	run "$t" &
	jobs=$((jobs + 1))
	if [ "$jobs" -ge "${EMU_JOBS:-2}" ]; then
		wait
		jobs=0
	fi
done
wait
for t in "$@"; do
	log=$o/tests/$t.emu.log
	echo "== [avx512 emulated] $t"
	if [ "$(cat "$o/tests/$t.emu.rc" 2>/dev/null)" = 0 ]; then
		grep -E '^emulated:|^[0-9]+%: Checks' "$log"
	else
		tail -30 "$log"
		echo "FAIL: RIND_EMU_ASSUME=avx512 $o/tests/$t"
		fail=1
	fi
done

# Each listed driver named in its suite's output: it ran there.
while read -r drv suite; do
	case "$drv" in '#'*|'') continue ;; esac
	log=$o/tests/$suite.emu.log
	if [ ! -f "$log" ]; then
		echo "check-avx512-emu: $drv: $suite not run"
		continue
	fi
	n=$(grep -c -- "$drv" "$log")
	if [ "$n" -eq 0 ]; then
		echo "FAIL: $drv: not named in the output of $suite"
		fail=1
	else
		echo "check-avx512-emu: $drv ran in $suite ($n case groups)"
	fi
done < tests/emu/drivers.txt
exit $fail
