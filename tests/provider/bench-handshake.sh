#!/bin/sh
# TLS 1.3 full handshakes per second on 127.0.0.1: openssl s_server pinned
# to CPU 0, openssl s_time (new connection each time) pinned to CPU 1,
# the server stock OpenSSL, rind in process, or rind with the key in rindd
# (a key reference; rindd runs unpinned).  Every cell is the median of
# ROUNDS runs of SECONDS each, the rounds interleaved so that a change in
# the machine's load reaches every column alike; the ratios are of those
# medians (same run).  On a loaded machine the wall-clock rate says more
# about the load than about the code: the second table is the server's
# on-CPU time per handshake (s_server's, plus rindd's when it signs).  Then node's crypto, µs per operation, without and
# with the provider (medians of ROUNDS runs each).
# Between the two, the server saturated: nginx with one worker on CPU 0 and
# CLIENTS concurrent `openssl s_time -new` clients pinned to CPU 1 (they
# use rind, the same clients for every server column: they are the
# cheaper side that way and the one core must keep the server busy).
# s_server serves one connection at a time and waits for each client's
# flights, so it cannot be saturated; nginx's event loop can.  Reported:
# the handshakes/s summed over the clients, the server's CPU use (100% =
# saturated: the rate is then the server's), and handshakes per second
# of server CPU (the server's capacity, meaningful even if not saturated:
# on a loaded machine the server gets only its share of CPU 0, and the
# use row says so).  Clients and server run without the CA store (NOCA).
# Usage: sh tests/provider/bench-handshake.sh BUILD_DIR [SECONDS] [ROUNDS] [CLIENTS]
#   e.g. sh tests/provider/bench-handshake.sh build 3 3 8   (the defaults; CLIENTS=0: no nginx table)
set -u
B=$(cd "${1:-build}" && pwd)
SECS=${2:-3}
ROUNDS=${3:-3}
CLIENTS=${4:-8}
T=$(mktemp -d "${TMPDIR:-/tmp}/rind-hs.XXXXXX")
RINDD=""
# rindd by its pid: jobs -p in an EXIT trap does not list it in every sh
trap 'kill $RINDD $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT INT TERM
# provider/README.md's configuration: rind preferred, its DRBG the library's
# (without [random], libssl's randoms come from the default provider's
# CTR-DRBG over rind's AES-256-CTR/ECB)
. "$(dirname "$0")/rind-cnf.sh"
rind_cnf "$B/provider/rind.so" | sed 's/^\[openssl_init\]$/[openssl_init]\nrandom = random_sect/' > "$T/rind.cnf"
printf '[random_sect]\nrandom = RIND-DRBG\nproperties = provider=rind\n' >> "$T/rind.cnf"
# s_time has no -groups: the client's group list comes from the
# configuration's system_default (without it the client offers OpenSSL's
# default list, which has no X25519MLKEM768, and the row measured x25519)
sed 's/^\[openssl_init\]$/[openssl_init]\nssl_conf = ssl_sect/' "$T/rind.cnf" > "$T/mlkem.cnf"
printf '[ssl_sect]\nsystem_default = sys_default\n[sys_default]\nGroups = X25519MLKEM768:x25519\n' >> "$T/mlkem.cnf"
export OPENSSL_CONF=/dev/null
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$T/p256.key" -out "$T/p256.crt" -subj /CN=b -days 2 2>/dev/null
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/rsa.key" -out "$T/rsa.crt" -subj /CN=b -days 2 2>/dev/null
openssl req -x509 -newkey ed25519 -nodes -keyout "$T/ed25519.key" -out "$T/ed25519.crt" -subj /CN=b -days 2 2>/dev/null
# rindd with the same three key types
head -c 32 /dev/urandom > "$T/mk"
"$B/rindd" --socket "$T/s" --state-dir "$T/st" --master-key-file "$T/mk" --foreground --bus none >/dev/null 2>&1 &
RINDD=$!
i=0
while [ ! -S "$T/s" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
export RIND_SOCKET="$T/s"
for kt in p256:ecdsa-p256 rsa:rsa-2048 ed25519:ed25519; do
	c=${kt%%:*}
	"$B/rind" key create r$c --alg ${kt#*:} >/dev/null
	"$B/rind" key ref r$c > "$T/r$c.key"
	OPENSSL_CONF="$T/rind.cnf" openssl req -x509 -new -key "$T/r$c.key" -subj /CN=b -days 2 -out "$T/r$c.crt" 2>/dev/null
done
port=$((30000 + $$ % 20000))
HZ=$(getconf CLK_TCK)
# Without a CA store, s_server does not rebuild its certificate chain from
# the system's (an OSSL_STORE open and readdir of /usr/lib/ssl/certs, and
# an X509_verify_cert) in every handshake: that was 20-22% of its CPU per
# handshake in both columns (perf, 2026-12-01), work no TLS server with a
# configured chain does (nginx builds nothing per handshake).  The clients
# (s_time) get the same options: with the store, s_time spent ~3.7 ms of
# CPU per handshake in the same lookups (2026-12-01, under load), several
# times the server's whole handshake, so that concurrent clients on one
# core could not keep nginx busy.  NOCA= (empty) in the environment
# measures with the store on both sides.
NOCA=${NOCA--no-CAfile -no-CApath -no-CAstore}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
hs() {	# cell server-conf cert key client-conf: appends to $T/cell.rate and $T/cell.cpu
	port=$((port + 1))
	g=x25519
	[ "$2" != /dev/null ] && g=X25519MLKEM768:x25519
	: > "$T/srv.out"
	OPENSSL_CONF=$2 taskset -c 0 openssl s_server -accept 127.0.0.1:$port -cert "$3" -key "$4" -www \
		-groups $g -tls1_3 $NOCA >"$T/srv.out" 2>/dev/null &
	srv=$!
	# on a loaded machine the server's start (the library's self-tests) may take a while
	i=0
	while ! grep -q ACCEPT "$T/srv.out" && kill -0 $srv 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	c0=$(( $(cpu_ticks $srv) + $(cpu_ticks $RINDD) ))
	OPENSSL_CONF=$5 taskset -c 1 openssl s_time -connect 127.0.0.1:$port -new -time $SECS $NOCA > "$T/st.out" 2>/dev/null
	c1=$(( $(cpu_ticks $srv) + $(cpu_ticks $RINDD) ))
	kill $srv 2>/dev/null; wait $srv 2>/dev/null
	awk '/connections in .* real seconds/ { print $1 / $4; exit }' "$T/st.out" >> "$T/$1.rate"
	# the server's CPU time (and rindd's, which signs for it) per handshake
	awk -v d=$((c1 - c0)) -v hz=$HZ '/connections in .* real seconds/ { print $1 ? d * 1e6 / hz / $1 : 0; exit }' \
		"$T/st.out" >> "$T/$1.cpu"
}
# A 1 MiB transfer over TLS 1.3 with AES-128-GCM: s_server -WWW serves a
# 1 MiB file, s_time fetches it over resumed sessions (-reuse: the record
# layer dominates, not the handshake); MB/s of the server's encryption,
# and the server's CPU µs per MiB.  The client is stock OpenSSL in both.
head -c 1048576 /dev/urandom > "$T/big.bin"
xfer() {	# cell server-conf: appends to $T/cell.rate and $T/cell.cpu
	port=$((port + 1))
	: > "$T/srv.out"
	(cd "$T" && OPENSSL_CONF=$2 exec taskset -c 0 openssl s_server -accept 127.0.0.1:$port \
		-cert "$T/p256.crt" -key "$T/p256.key" -WWW -tls1_3 -ciphersuites TLS_AES_128_GCM_SHA256 $NOCA \
		>"$T/srv.out" 2>/dev/null) &
	srv=$!
	i=0
	while ! grep -q ACCEPT "$T/srv.out" && kill -0 $srv 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	c0=$(cpu_ticks $srv)
	OPENSSL_CONF=/dev/null taskset -c 1 openssl s_time -connect 127.0.0.1:$port -www /big.bin -reuse \
		-time $SECS $NOCA > "$T/st.out" 2>/dev/null
	c1=$(cpu_ticks $srv)
	kill $srv 2>/dev/null; wait $srv 2>/dev/null
	# "N connections in S real seconds, B bytes read per connection"
	awk '/connections in .* real seconds/ { print $1 * $(NF - 4) / $4 / 1e6; exit }' "$T/st.out" >> "$T/$1.rate"
	awk -v d=$((c1 - c0)) -v hz=$HZ '/connections in .* real seconds/ { n = $1 * $(NF - 4) / 1048576;
		print n ? d * 1e6 / hz / n : 0; exit }' "$T/st.out" >> "$T/$1.cpu"
}
med() { sort -n "$1" | awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : 0 }'; }
ROWS="p256 rsa ed25519 mlkem"
r=1
while [ $r -le $ROUNDS ]; do
	for c in $ROWS; do
		if [ $c = mlkem ]; then
			# OpenSSL 3.0 has no ML-KEM: rind's client too, no stock column
			hs $c.rind "$T/rind.cnf" "$T/p256.crt" "$T/p256.key" "$T/mlkem.cnf"
			hs $c.rindd "$T/rind.cnf" "$T/rp256.crt" "$T/rp256.key" "$T/mlkem.cnf"
			continue
		fi
		hs $c.stock /dev/null "$T/$c.crt" "$T/$c.key" /dev/null
		hs $c.rind "$T/rind.cnf" "$T/$c.crt" "$T/$c.key" /dev/null
		hs $c.rindd "$T/rind.cnf" "$T/r$c.crt" "$T/r$c.key" /dev/null
	done
	xfer xfer.stock /dev/null
	xfer xfer.rind "$T/rind.cnf"
	r=$((r + 1))
done
rowname() {
	case $1 in
	p256) echo "x25519 + ECDSA P-256";;
	rsa) echo "x25519 + RSA-2048";;
	ed25519) echo "x25519 + Ed25519";;
	mlkem) echo "X25519MLKEM768 + ECDSA P-256";;
	esac
}
table() {	# suffix: rate or cap (higher is better) or cpu (lower is better)
	for c in $ROWS; do
		s=-
		[ -f "$T/$c.stock.$1" ] && s=$(med "$T/$c.stock.$1")
		a=$(med "$T/$c.rind.$1")
		d=$(med "$T/$c.rindd.$1")
		if [ "$s" = - ]; then
			printf '%-30s %8s %8.0f %8.0f %10s %10s\n' "$(rowname $c)" - "$a" "$d" - -
		elif [ $1 != cpu ]; then
			printf '%-30s %8.0f %8.0f %8.0f %10.2f %10.2f\n' "$(rowname $c)" "$s" "$a" "$d" \
				"$(echo "$a $s" | awk '{ print $2 ? $1 / $2 : 0 }')" "$(echo "$d $s" | awk '{ print $2 ? $1 / $2 : 0 }')"
		else
			printf '%-30s %8.0f %8.0f %8.0f %10.2f %10.2f\n' "$(rowname $c)" "$s" "$a" "$d" \
				"$(echo "$s $a" | awk '{ print $2 ? $1 / $2 : 0 }')" "$(echo "$s $d" | awk '{ print $2 ? $1 / $2 : 0 }')"
		fi
	done
}
echo "TLS 1.3 full handshakes/s (wall clock), medians of $ROUNDS x ${SECS}s, server on CPU 0, s_time on CPU 1; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-30s %8s %8s %8s %10s %10s\n' "" stock rind rindd rind/stock rindd/stock
table rate
echo
echo "server CPU µs per handshake (s_server's user+system time, plus rindd's in the rindd column; lower is better), same runs"
printf '%-30s %8s %8s %8s %10s %10s\n' "" stock rind rindd stock/rind stock/rindd
table cpu
echo
xs=$(med "$T/xfer.stock.rate"); xr=$(med "$T/xfer.rind.rate")
cs=$(med "$T/xfer.stock.cpu"); cr=$(med "$T/xfer.rind.cpu")
echo "1 MiB over TLS 1.3 AES-128-GCM (s_server -WWW, s_time -reuse), medians of $ROUNDS x ${SECS}s"
printf '%-30s %8s %8s %10s\n' "" stock rind rind/stock
printf '%-30s %8.1f %8.1f %10.2f\n' "MB/s" "$xs" "$xr" "$(echo "$xr $xs" | awk '{ print $2 ? $1 / $2 : 0 }')"
printf '%-30s %8.0f %8.0f %10.2f\n' "server CPU µs per MiB" "$cs" "$cr" "$(echo "$cs $cr" | awk '{ print $2 ? $1 / $2 : 0 }')"

NGX=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$NGX" ] || { echo "nginx not installed (nginx-light): no saturated-server table"; CLIENTS=0; }
# nginx, one worker: master and worker pinned to CPU 0 (taskset's mask is
# inherited across fork); its CPU time is the master's and the worker's
ngx_hs() {	# cell server-conf cert key client-conf
	port=$((port + 1))
	g=x25519
	[ "$5" != /dev/null ] && [ "$5" != "$T/rind.cnf" ] && g=X25519MLKEM768:x25519
	rm -rf "$T/ngx"
	mkdir -p "$T/ngx/logs"
	u=""
	[ "$(id -u)" = 0 ] && u="user root;"	# root's workers would be nobody, without rindd's socket
	cat > "$T/ngx/nginx.conf" <<EON
$u
daemon off;
master_process on;
worker_processes 1;
pid $T/ngx/nginx.pid;
error_log $T/ngx/logs/error.log crit;
env OPENSSL_CONF;
env RIND_SOCKET;
events { worker_connections 512; }
http {
	access_log off;
	client_body_temp_path $T/ngx/cb; proxy_temp_path $T/ngx/px; fastcgi_temp_path $T/ngx/fc;
	uwsgi_temp_path $T/ngx/uw; scgi_temp_path $T/ngx/sc;
	server {
		listen 127.0.0.1:$port ssl backlog=512;
		ssl_certificate $3;
		ssl_certificate_key $4;
		ssl_protocols TLSv1.3;
		ssl_ecdh_curve $g;
		ssl_session_tickets off;
		ssl_session_cache off;
		location / { return 200 "rind\n"; }
	}
}
EON
	OPENSSL_CONF=$2 taskset -c 0 "$NGX" -p "$T/ngx" -c "$T/ngx/nginx.conf" >/dev/null 2>&1 &
	ngx=$!
	i=0
	wk=""
	while [ -z "$wk" ] && kill -0 $ngx 2>/dev/null && [ $i -lt 200 ]; do
		sleep 0.05; i=$((i + 1))
		wk=$(cat /proc/$ngx/task/$ngx/children 2>/dev/null)
	done
	# the worker has loaded its key: one handshake answered
	OPENSSL_CONF=$5 openssl s_client -connect 127.0.0.1:$port -tls1_3 $NOCA </dev/null >/dev/null 2>&1
	c0=$(( $(cpu_ticks $ngx) + $(cpu_ticks $wk) + $(cpu_ticks $RINDD) ))
	t0=$(date +%s.%N)
	j=1
	cl=""
	while [ $j -le $CLIENTS ]; do
		OPENSSL_CONF=$5 taskset -c 1 openssl s_time -connect 127.0.0.1:$port -new -time $SECS $NOCA > "$T/st.$j" 2>/dev/null &
		cl="$cl $!"
		j=$((j + 1))
	done
	wait $cl 2>/dev/null
	t1=$(date +%s.%N)
	c1=$(( $(cpu_ticks $ngx) + $(cpu_ticks $wk) + $(cpu_ticks $RINDD) ))
	kill $ngx 2>/dev/null; wait $ngx 2>/dev/null
	# handshakes/s summed over the clients; server CPU use over the clients' span
	cat "$T"/st.* | awk '/connections in .* real seconds/ { r += $1 / $4; n += $1 } END { print r + 0 }' >> "$T/$1.rate"
	cat "$T"/st.* | awk -v d=$((c1 - c0)) -v hz=$HZ -v w="$(echo "$t0 $t1" | awk '{ print $2 - $1 }')" \
		'/connections in .* real seconds/ { n += $1 } END { print w ? 100 * d / hz / w : 0; }' >> "$T/$1.use"
	cat "$T"/st.* | awk -v d=$((c1 - c0)) -v hz=$HZ \
		'/connections in .* real seconds/ { n += $1 } END { print d ? n * hz / d : 0 }' >> "$T/$1.cap"
	rm -f "$T"/st.*
}
if [ "$CLIENTS" -gt 0 ]; then
	r=1
	while [ $r -le $ROUNDS ]; do
		for c in $ROWS; do
			if [ $c = mlkem ]; then
				ngx_hs n$c.rind "$T/rind.cnf" "$T/p256.crt" "$T/p256.key" "$T/mlkem.cnf"
				ngx_hs n$c.rindd "$T/rind.cnf" "$T/rp256.crt" "$T/rp256.key" "$T/mlkem.cnf"
				continue
			fi
			ngx_hs n$c.stock /dev/null "$T/$c.crt" "$T/$c.key" "$T/rind.cnf"
			ngx_hs n$c.rind "$T/rind.cnf" "$T/$c.crt" "$T/$c.key" "$T/rind.cnf"
			ngx_hs n$c.rindd "$T/rind.cnf" "$T/r$c.crt" "$T/r$c.key" "$T/rind.cnf"
		done
		r=$((r + 1))
	done
	ROWS0=$ROWS
	ROWS=$(for c in $ROWS0; do printf 'n%s ' $c; done)
	rowname() {
		case $1 in
		np256) echo "x25519 + ECDSA P-256";;
		nrsa) echo "x25519 + RSA-2048";;
		ned25519) echo "x25519 + Ed25519";;
		nmlkem) echo "X25519MLKEM768 + ECDSA P-256";;
		esac
	}
	echo
	echo "TLS 1.3 full handshakes/s, concurrent clients: nginx (1 worker) on CPU 0, $CLIENTS s_time -new clients (with rind) on CPU 1, medians of $ROUNDS x ${SECS}s (saturated where the server's CPU use below is near 100%); load: $(cut -d' ' -f1-3 /proc/loadavg)"
	printf '%-30s %8s %8s %8s %10s %10s\n' "" stock rind rindd rind/stock rindd/stock
	table rate
	echo
	echo "server CPU use, % of one core (nginx master+worker, plus rindd's in the rindd column), same runs"
	printf '%-30s %8s %8s %8s\n' "" stock rind rindd
	for c in $ROWS; do
		s=-
		[ -f "$T/$c.stock.use" ] && s=$(med "$T/$c.stock.use" | awk '{ printf "%.0f", $1 }')
		printf '%-30s %8s %8.0f %8.0f\n' "$(rowname $c)" "$s" "$(med "$T/$c.rind.use")" "$(med "$T/$c.rindd.use")"
	done
	echo
	echo "handshakes per second of server CPU (nginx's, plus rindd's in the rindd column), same runs"
	printf '%-30s %8s %8s %8s %10s %10s\n' "" stock rind rindd rind/stock rindd/stock
	table cap
	ROWS=$ROWS0
fi

command -v node >/dev/null || { echo "node not installed: no node table"; exit 0; }
(echo "nodejs_conf = openssl_init"; cat "$T/rind.cnf") > "$T/node.cnf"
cat > "$T/b.js" <<'EOJS'
// µs per operation of node's crypto, each timed for about 0.3 s after a warm-up.
const c = require('crypto');
const mib = Buffer.alloc(1 << 20, 5), msg = Buffer.alloc(64, 9), key = Buffer.alloc(32, 7), iv = Buffer.alloc(12, 3);
const kp = (t, o) => c.generateKeyPairSync(t, o);
const p256 = kp('ec', { namedCurve: 'P-256' }), p384 = kp('ec', { namedCurve: 'P-384' });
const p256b = kp('ec', { namedCurve: 'P-256' }), ed = kp('ed25519'), x = kp('x25519'), xb = kp('x25519');
const rsa = kp('rsa', { modulusLength: 2048 });
const s256 = c.sign('sha256', msg, p256.privateKey), s384 = c.sign('sha384', msg, p384.privateKey);
const sed = c.sign(null, msg, ed.privateKey), srsa = c.sign('sha256', msg, rsa.privateKey);
const oaep = { key: rsa.privateKey, oaepHash: 'sha256', padding: c.constants.RSA_PKCS1_OAEP_PADDING };
const ct = c.publicEncrypt({ key: rsa.publicKey, oaepHash: 'sha256', padding: c.constants.RSA_PKCS1_OAEP_PADDING }, key);
const ops = [
	['SHA-256 1 MiB', () => c.createHash('sha256').update(mib).digest()],
	['AES-256-GCM 1 MiB', () => { const e = c.createCipheriv('aes-256-gcm', key, iv); e.update(mib); e.final(); e.getAuthTag(); }],
	['ECDSA P-256 sign', () => c.sign('sha256', msg, p256.privateKey)],
	['ECDSA P-256 verify', () => c.verify('sha256', msg, p256.publicKey, s256)],
	['ECDSA P-384 sign', () => c.sign('sha384', msg, p384.privateKey)],
	['ECDSA P-384 verify', () => c.verify('sha384', msg, p384.publicKey, s384)],
	['ECDH P-256', () => c.diffieHellman({ privateKey: p256.privateKey, publicKey: p256b.publicKey })],
	['Ed25519 sign', () => c.sign(null, msg, ed.privateKey)],
	['Ed25519 verify', () => c.verify(null, msg, ed.publicKey, sed)],
	['X25519', () => c.diffieHellman({ privateKey: x.privateKey, publicKey: xb.publicKey })],
	['RSA-2048 sign', () => c.sign('sha256', msg, rsa.privateKey)],
	['RSA-2048 verify', () => c.verify('sha256', msg, rsa.publicKey, srsa)],
	['RSA-2048 OAEP decrypt', () => c.privateDecrypt(oaep, ct)],
	['PBKDF2-SHA256 10k', () => c.pbkdf2Sync('pw', 'salt', 10000, 32, 'sha256')],
];
for (const [name, f] of ops) {
	for (let i = 0; i < 3; i++) f();
	let n = 0;
	const t0 = process.hrtime.bigint();
	let t;
	do { f(); n++; t = process.hrtime.bigint(); } while (t - t0 < 300000000n);
	console.log(name + '\t' + (Number(t - t0) / 1000 / n).toFixed(1));
}
EOJS
r=1
while [ $r -le $ROUNDS ]; do
	OPENSSL_CONF=/dev/null taskset -c 1 node "$T/b.js" > "$T/node.stock.$r" 2>/dev/null
	taskset -c 1 node --openssl-config="$T/node.cnf" "$T/b.js" > "$T/node.rind.$r" 2>/dev/null
	r=$((r + 1))
done
echo
echo "node $(node --version) (OpenSSL $(node -p process.versions.openssl)) crypto, µs per operation, medians of $ROUNDS runs (CPU 1); load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-24s %10s %10s %12s\n' "" stock rind stock/rind
cut -f1 "$T/node.stock.1" | while IFS= read -r op; do
	for side in stock rind; do
		cat "$T"/node.$side.* | awk -F'\t' -v op="$op" '$1 == op { print $2 }' > "$T/v.$side"
	done
	s=$(med "$T/v.stock")
	a=$(med "$T/v.rind")
	printf '%-24s %10.1f %10.1f %12.2f\n' "$op" "$s" "$a" "$(echo "$s $a" | awk '{ print $2 ? $1 / $2 : 0 }')"
done
