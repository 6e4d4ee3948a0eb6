#!/bin/sh
# Install (as root, with apt-get) the Debian packages rind's build, tests,
# benchmark and arm64 cross-check need, and say what is being installed.
# The library itself needs only a C compiler and make.
set -eu

native="make gcc clang binutils pkg-config check libsubunit-dev libjansson-dev libssl-dev
	libsodium-dev gcc-aarch64-linux-gnu qemu-user valgrind
	liburing-dev libprotobuf-c-dev protobuf-c-compiler libsystemd-dev dbus dbus-daemon dbus-bin
	systemd util-linux"
# arm64 test dependencies, static, for the qemu run of the unit tests.
cross="check:arm64 libjansson-dev:arm64 libssl-dev:arm64 libsodium-dev:arm64"

missing=""
for p in $native $cross; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done

if [ -z "$missing" ]; then
	echo "deps: everything rind needs is installed"
	exit 0
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
echo "deps: done"
