#!/bin/sh
# Install (as root, with apt-get) the Debian packages rind's build, tests,
# benchmark and arm64 cross-check need, and say what is being installed.
# The library itself needs only a C compiler and make.
#
# Packages are installed with --no-install-recommends, so everything used
# is named here even where Debian has it as a mere recommendation: the C
# library headers (libc6-dev, recommended by gcc), the arm64 ones
# (libc6-dev-arm64-cross, recommended by gcc-aarch64-linux-gnu) and
# clang's sanitizer and libFuzzer runtimes (libclang-rt-dev, recommended by
# libclang-common-*-dev).  The list is checked on a minimal debootstrap of
# Debian bookworm that has nothing else installed.
set -eu

# Compilers and build tools; gcc's ASan/UBSan/TSan runtimes come with it.
build="make gcc libc6-dev binutils clang libclang-rt-dev pkg-config"
# Test, benchmark and constant-time check libraries and tools: Check,
# jansson (Wycheproof vectors), OpenSSL and libsodium as references (and
# the openssl command for a daemon test), valgrind (it also brings its
# client-request headers and libc6-dbg).
tests="check libsubunit-dev libjansson-dev libssl-dev openssl libsodium-dev valgrind"
# The daemon and its tests: protobuf-c, liburing, libsystemd; a private
# dbus-daemon with busctl, dbus-send and dbus-monitor; systemd-analyze and
# systemd-socket-activate; setpriv (util-linux).
daemon="liburing-dev libprotobuf-c-dev protobuf-c-compiler libsystemd-dev
	dbus dbus-daemon dbus-bin systemd util-linux"
# The OpenSSL 3 provider (provider/, make check-provider): the OpenSSL 3
# headers to build it, the openssl tool to test it, python3 for the test
# of a server that forks after loading a rindd key, nodejs for node's crypto, nginx-light and curl for the nginx test.
provider="libssl-dev openssl python3 nodejs nginx-light curl"
# arm64 cross-check: the cross toolchain and C library, qemu-user to run
# the tests, and the tests' libraries (static, from the arm64 architecture).
cross="gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user
	check:arm64 libsubunit-dev:arm64 libjansson-dev:arm64 libssl-dev:arm64 libsodium-dev:arm64
	libprotobuf-c-dev:arm64"
# (libprotobuf-c-dev:arm64: the cross-built rind tool, for `rind list` under qemu.)

missing=""
for p in $build $tests $daemon $provider $cross; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

# Each toolchain the build uses compiles, links and runs a program, so that
# a missing piece (a header or runtime that came only as a recommendation)
# is named here rather than failing deep inside `make check`.
smoke() {
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/rind-deps.XXXXXX")
	printf '#include <stdio.h>\nint main(void) { return printf("%%s", "") < 0; }\n' >"$tmp/hello.c"
	printf '#include <stddef.h>\n#include <stdint.h>\nint LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)\n{ (void)d; (void)n; return 0; }\n' >"$tmp/fuzz.c"
	fail=""
	try() {
		what=$1
		shift
		if ! "$@" >"$tmp/log" 2>&1; then
			echo "deps: $what failed: $*" >&2
			tail -5 "$tmp/log" >&2
			fail="$fail; $what"
		fi
	}
	try "gcc" gcc -o "$tmp/hello" "$tmp/hello.c"
	try "gcc ASan+UBSan" gcc -fsanitize=address,undefined -o "$tmp/a" "$tmp/hello.c"
	try "gcc TSan" gcc -fsanitize=thread -o "$tmp/a" "$tmp/hello.c"
	try "clang ASan+UBSan" clang -fsanitize=address,undefined -o "$tmp/a" "$tmp/hello.c"
	try "clang TSan" clang -fsanitize=thread -o "$tmp/a" "$tmp/hello.c"
	try "clang libFuzzer" clang -fsanitize=fuzzer,address,undefined -o "$tmp/f" "$tmp/fuzz.c"
	try "arm64 cross gcc (static)" aarch64-linux-gnu-gcc -static -o "$tmp/arm" "$tmp/hello.c"
	[ -x "$tmp/arm" ] && try "qemu-aarch64" qemu-aarch64 "$tmp/arm"
	try "protoc-c" protoc-c --version
	try "valgrind" valgrind -q --error-exitcode=1 "$tmp/hello"
	rm -rf "$tmp"
	if [ -n "$fail" ]; then
		echo "deps: the installed toolchains do not work:${fail#;}" >&2
		return 1
	fi
	echo "deps: compilers, sanitizers, libFuzzer, arm64 cross toolchain, qemu, valgrind work"
}

if [ -z "$missing" ]; then
	echo "deps: everything rind needs is installed"
	smoke
	exit
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing" >&2
	echo "deps: run this script as root to install them with apt-get" >&2
	exit 1
fi
echo "deps: installing with apt-get:$missing"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	echo "deps: enabling the arm64 architecture for the cross-built tests' libraries"
	dpkg --add-architecture arm64
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
echo "deps: installed"
smoke
