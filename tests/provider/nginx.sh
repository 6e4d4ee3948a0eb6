# Sourced by run.sh (after rindd.sh's key is made, before rindd stops):
# nginx (Debian nginx-light) on 127.0.0.1 with openssl.cnf loading rind,
# fetched 200 times by curl (a full handshake each); then with its key
# (ECDSA P-256) in rindd through a key-reference file, 200 times again,
# rindd's stats counting the signatures.
if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
	echo "SKIP: nginx not installed (nginx-light): nginx tests"
	return 0 2>/dev/null || exit 0
fi
NGX=$(command -v nginx || echo /usr/sbin/nginx)
nginx_run() {	# cert key desc
	NP=$((20000 + ($$ * 11 + PORT) % 40000))
	PORT=$((PORT + 1))
	mkdir -p "$T/ngx/logs"
	: > "$T/ngx/logs/error.log"
	# as root, workers would drop to nobody, who cannot reach rindd's socket in \$T
	u=""
	[ "$(id -u)" = 0 ] && u="user root;"
	cat > "$T/ngx/nginx.conf" <<EON
$u
daemon off;
worker_processes 2;
pid $T/ngx/nginx.pid;
error_log $T/ngx/logs/error.log info;
env OPENSSL_CONF;
env RIND_SOCKET;
env RIND_PROVIDER_TRACE;
events { worker_connections 64; }
http {
	access_log $T/ngx/logs/access.log;
	client_body_temp_path $T/ngx/cb; proxy_temp_path $T/ngx/px; fastcgi_temp_path $T/ngx/fc;
	uwsgi_temp_path $T/ngx/uw; scgi_temp_path $T/ngx/sc;
	server {
		listen 127.0.0.1:$NP ssl;
		ssl_certificate $1;
		ssl_certificate_key $2;
		ssl_protocols TLSv1.2 TLSv1.3;
		location / { return 200 "rind\n"; }
	}
}
EON
	OPENSSL_CONF="$T/rind.cnf" RIND_PROVIDER_TRACE=1 "$NGX" -p "$T/ngx" -c "$T/ngx/nginx.conf" 2>"$T/ngx.trace" &
	NGXPID=$!
	PIDS="$PIDS $NGXPID"
	i=0
	while ! curl -sk -o /dev/null "https://127.0.0.1:$NP/" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	# 200 fetches, each a fresh connection and a full handshake, from one
	# curl process (200 processes cost more than the handshakes):
	# "Connection: close" and no session reuse (--no-sessionid)
	urls=""
	for j in $(seq 1 200); do urls="$urls https://127.0.0.1:$NP/"; done
	n=$(curl -sk --tlsv1.2 --no-sessionid -H 'Connection: close' $urls 2>/dev/null | grep -c '^rind$')
	if [ "$n" = 200 ]; then ok; else bad "nginx $3: $n of 200 fetches"; tail -3 "$T/ngx/logs/error.log"; fi
	kill $NGXPID 2>/dev/null
	wait $NGXPID 2>/dev/null
	# nginx sends its (and the provider's) stderr to the error log once started
	cat "$T/ngx/logs/error.log" >> "$T/ngx.trace"
}
nginx_run "$T/p256.crt" "$T/p256.key" "with rind (ECDSA P-256)"
served "$T/ngx.trace" "sign x962(ecdsa-nist-p256,sha256)" "nginx handshake signature"
served "$T/ngx.trace" "cipher AES-" "nginx record AEAD"
# a full handshake per fetch: one signature each
n=$(grep -c "sign x962(ecdsa-nist-p256,sha256) (.*) ok" "$T/ngx.trace")
if [ "$n" -ge 200 ]; then ok; else bad "nginx with rind: $n handshake signatures for 200 fetches"; fi
# the ECDSA P-256 key in rindd (rindd.sh's wp256), a key-reference file
before=$(signs)
nginx_run "$T/wp256.crt" "$T/wp256.key" "with its key in rindd"
after=$(signs)
served "$T/ngx.trace" "sign x962(ecdsa-nist-p256,sha256) in rindd (key wp256) ok" "nginx signing in rindd"
if [ $((after - before)) -ge 200 ]; then ok; else bad "rindd's stats: $before -> $after requests for 200 nginx handshakes"; fi
# the workers (forked after the master loaded the key) each connected
if [ "$(grep 'connected to rindd' "$T/ngx.trace" | awk '{print $1}' | sort -u | wc -l)" -ge 1 ]; then ok
else bad "nginx workers did not connect to rindd"; fi
