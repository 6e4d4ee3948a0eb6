#!/bin/sh
# TLS 1.3 full handshakes per second on 127.0.0.1: openssl s_server pinned
# to CPU 0, openssl s_time (new connection each time) pinned to CPU 1,
# the server stock OpenSSL, rind in process, or rind with the key in rindd.
# Usage: sh tests/provider/bench-handshake.sh BUILD_DIR [SECONDS]
set -u
B=$(cd "${1:-build}" && pwd)
SECS=${2:-5}
T=$(mktemp -d "${TMPDIR:-/tmp}/rind-hs.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT INT TERM
cat > "$T/rind.cnf" <<EOC
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
[provider_sect]
default = default_sect
rind = rind_sect
[default_sect]
activate = 1
[rind_sect]
module = $B/provider/rind.so
activate = 1
[evp_properties]
default_properties = ?provider=rind
EOC
export OPENSSL_CONF=/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$T/p256.key" -out "$T/p256.crt" -subj /CN=b -days 2 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/rsa.key" -out "$T/rsa.crt" -subj /CN=b -days 2 2>/dev/null
openssl req -x509 -newkey ed25519 -nodes -keyout "$T/ed25519.key" -out "$T/ed25519.crt" -subj /CN=b -days 2 2>/dev/null
# rindd with an Ed25519 key (ECDSA/RSA keys in rindd: another issue)
head -c 32 /dev/urandom > "$T/mk"
"$B/rindd" --socket "$T/s" --state-dir "$T/st" --master-key-file "$T/mk" --foreground --bus none >/dev/null 2>&1 &
sleep 0.5
export RIND_SOCKET="$T/s"
"$B/rind" key create web --alg ed25519 >/dev/null
"$B/rind" key ref web > "$T/webref.key"
OPENSSL_CONF="$T/rind.cnf" openssl req -x509 -new -key "$T/webref.key" -subj /CN=b -days 2 -out "$T/webref.crt" 2>/dev/null
port=$((30000 + $$ % 20000))
run() {	# server-conf cert key client-conf groups
	port=$((port + 1))
	g=x25519
	[ "$1" != /dev/null ] && g=X25519MLKEM768:x25519
	OPENSSL_CONF=$1 taskset -c 0 openssl s_server -accept 127.0.0.1:$port -cert "$2" -key "$3" -www -quiet \
		-groups $g -tls1_3 >/dev/null 2>&1 &
	srv=$!
	sleep 0.5
	n=$(OPENSSL_CONF=$4 taskset -c 1 openssl s_time -connect 127.0.0.1:$port -new -time $SECS 2>/dev/null \
		| awk '/connections in .* real seconds/ { print $1 / $4 }' | head -1)
	kill $srv 2>/dev/null; wait $srv 2>/dev/null
	printf '%8.0f' "${n:-0}"
}
printf '%-28s %8s %8s %8s\n' "TLS 1.3 handshakes/s" stock rind rindd
for row in "x25519 ECDSA P-256:p256" "x25519 RSA-2048:rsa" "x25519 Ed25519:ed25519"; do
	name=${row%%:*}; c=${row#*:}
	printf '%-28s' "$name"
	run /dev/null "$T/$c.crt" "$T/$c.key" /dev/null
	run "$T/rind.cnf" "$T/$c.crt" "$T/$c.key" /dev/null
	if [ $c = ed25519 ]; then run "$T/rind.cnf" "$T/webref.crt" "$T/webref.key" /dev/null; else printf '%8s' -; fi
	echo
done
# OpenSSL 3.0 has no ML-KEM: rind's client too, stock server impossible
printf '%-28s%8s' "X25519MLKEM768 ECDSA P-256" -
OPENSSL_CONF="$T/rind.cnf" run "$T/rind.cnf" "$T/p256.crt" "$T/p256.key" "$T/rind.cnf"
echo
