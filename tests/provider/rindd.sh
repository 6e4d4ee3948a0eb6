# Sourced by run.sh: keys held by rindd (Ed25519, ECDSA P-256/P-384,
# RSA-2048), through the store loader (rind:NAME) and the key-reference
# PEM (rind key ref NAME), signing in the daemon: pkeyutl, dgst, req
# -x509, s_server handshakes, and a server process that loads the key and
# signs in forked children (the connection is per process).  rindd's
# stats must count the signatures.
if [ ! -x "$B/rindd" ]; then
	echo "SKIP: rindd not built: daemon-held keys"
	return 0 2>/dev/null || exit 0
fi
RD="$T/rindd"
mkdir -p "$RD"
head -c 32 /dev/urandom > "$RD/mk"
"$B/rindd" --socket "$RD/s" --state-dir "$RD/state" --master-key-file "$RD/mk" --foreground --bus none \
	>"$RD/log" 2>&1 &
RINDD=$!
PIDS="$PIDS $RINDD"
export RIND_SOCKET="$RD/s"
i=0
while [ ! -S "$RD/s" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
check "rind key create web (ed25519)" "$B/rind" key create web --alg ed25519
"$B/rind" key ref web > "$T/web.ref"
"$B/rind" key pub web > "$T/web.pub"
if grep -q "BEGIN RIND KEY REFERENCE" "$T/web.ref" && ! grep -q "PRIVATE" "$T/web.ref"; then ok; else bad "rind key ref"; fi
signs() { "$B/rind" stats | awk '$1 == "requests" { print $2 }'; }
before=$(signs)
for key in "$T/web.ref" rind:web; do
	RO pkeyutl -sign -rawin -inkey "$key" -in "$T/m" -out "$T/web.sig" 2>"$T/trace"
	served "$T/trace" "sign ed25519 in rindd" "pkeyutl -sign -inkey $key"
	check "signature by rindd's key ($key) verified by the default provider" \
		DO pkeyutl -verify -rawin -pubin -inkey "$T/web.pub" -in "$T/m" -sigfile "$T/web.sig"
done
RO req -x509 -new -key "$T/web.ref" -subj "/CN=web" -days 2 -out "$T/web.crt" 2>"$T/trace" >/dev/null
served "$T/trace" "sign ed25519 in rindd" "req -x509 -key web.ref"
check "certificate signed in rindd verifies" DO verify -check_ss_sig -CAfile "$T/web.crt" "$T/web.crt"
# the private key never leaves the daemon
if RO pkey -in "$T/web.ref" -out "$T/x.pem" >/dev/null 2>&1 && grep -q "PRIVATE KEY" "$T/x.pem"; then
	bad "a private key came out of a key reference"; else ok; fi
# TLS 1.3 with the server's key in rindd, the client on the default provider
cp "$T/web.ref" "$T/webref.key"
cp "$T/web.crt" "$T/webref.crt"
start_server rind webref 2
handshake default tls1_3 x25519 "server key in rindd (key reference), TLS 1.3"
handshake default tls1_2 x25519 "server key in rindd (key reference), TLS 1.2"
i=0
while kill -0 $SRV 2>/dev/null && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
kill $SRV 2>/dev/null
served "$T/srv.trace" "sign ed25519 in rindd" "s_server signing in rindd"
# load in a parent, sign in forked children (python's ssl module: libssl
# reads the key file through the provider's decoder before the fork)
if command -v python3 >/dev/null; then
	OPENSSL_CONF="$T/rind.cnf" RIND_PROVIDER_TRACE=1 python3 - "$T/webref.crt" "$T/webref.key" "$T/m" \
		>"$T/py.out" 2>"$T/py.trace" <<'EOPY'
import os, socket, ssl, sys
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
ctx.load_cert_chain(sys.argv[1], sys.argv[2])
cctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
cctx.check_hostname = False
cctx.verify_mode = ssl.CERT_NONE
kids = []
for n in range(3):
    a, b = socket.socketpair()
    pid = os.fork()
    if pid == 0:
        a.close()
        s = ctx.wrap_socket(b, server_side=True)
        s.sendall(b"hello from child %d" % n)
        s.close()
        os._exit(0)
    b.close()
    c = cctx.wrap_socket(a)
    print(c.recv(100).decode(), c.version())
    c.close()
    kids.append(pid)
for pid in kids:
    _, st = os.waitpid(pid, 0)
    print("child", st)
EOPY
	if [ "$(grep -c 'hello from child' "$T/py.out")" = 3 ] && [ "$(grep -c '^child 0$' "$T/py.out")" = 3 ]; then ok
	else bad "fork after loading a rindd key: $(cat "$T/py.out") $(tail -3 "$T/py.trace")"; fi
	# each child connected to rindd itself
	if [ "$(grep 'sign ed25519 in rindd (key web) ok' "$T/py.trace" | awk '{print $1}' | sort -u | wc -l)" -ge 3 ]; then ok
	else bad "forked children did not each sign in rindd"; fi
fi
# ECDSA P-256/P-384 and RSA-2048 keys in rindd: each hash and padding the
# provider signs with is asked of rindd as such (its sign options; without
# them rindd signed RSA PSS requests with PKCS#1 v1.5), the signatures
# verified by the default provider; through the key reference and the
# store, with pkeyutl and dgst; certificates; s_server with the key in
# rindd, TLS 1.3 and 1.2, the client on the default provider.
for spec in wp256:ecdsa-p256 wp384:ecdsa-p384 wrsa:rsa-2048; do
	kn=${spec%%:*}
	check "rind key create $kn (${spec#*:})" "$B/rind" key create $kn --alg ${spec#*:}
	"$B/rind" key ref $kn > "$T/$kn.key"
	"$B/rind" key pub $kn > "$T/$kn.pub"
	case $kn in
	wrsa) opts="sha256:pkcs1 sha512:pkcs1 sha256:pss sha384:pss";;
	*) opts="sha256 sha384 sha512";;
	esac
	for o in $opts; do
		md=${o%%:*}
		pad=""
		sigopt=""
		case $o in *:pss)
			pad="-pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:digest"
			sigopt="-sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest";;
		esac
		for key in "$T/$kn.key" rind:$kn; do
			RO pkeyutl -sign -rawin -digest $md $pad -inkey "$key" -in "$T/m" -out "$T/$kn.sig" 2>"$T/trace"
			served "$T/trace" "sign [a-z0-9]*(.*,$md) in rindd (key $kn) ok" "pkeyutl -sign $o -inkey $key"
			check "rindd's $kn signature ($o, $key) verified by the default provider" \
				DO pkeyutl -verify -rawin -digest $md $pad -pubin -inkey "$T/$kn.pub" -in "$T/m" -sigfile "$T/$kn.sig"
		done
		RO dgst -$md $sigopt -sign "$T/$kn.key" -out "$T/$kn.sig" "$T/m" 2>"$T/trace"
		served "$T/trace" "sign [a-z0-9]*(.*,$md) in rindd (key $kn) ok" "dgst -$md -sign $kn ($o)"
		check "dgst -sign with rindd's $kn ($o) verified by the default provider" \
			DO dgst -$md $sigopt -verify "$T/$kn.pub" -signature "$T/$kn.sig" "$T/m"
	done
	# a hash rindd does not sign with is refused, not replaced by another
	if RO pkeyutl -sign -rawin -digest sha224 -inkey "$T/$kn.key" -in "$T/m" -out "$T/$kn.sig" >/dev/null 2>&1; then
		bad "rindd's $kn signed with SHA-224"; else ok; fi
	RO req -x509 -new -key "$T/$kn.key" -subj "/CN=$kn" -days 2 -out "$T/$kn.crt" 2>"$T/trace" >/dev/null
	served "$T/trace" "in rindd (key $kn) ok" "req -x509 -key $kn.key"
	check "certificate signed by rindd's $kn verifies" DO verify -check_ss_sig -CAfile "$T/$kn.crt" "$T/$kn.crt"
	n=2
	[ $kn = wrsa ] && n=3
	start_server rind $kn $n
	handshake default tls1_3 x25519 "server key $kn in rindd, TLS 1.3"
	handshake default tls1_2 x25519:P-256:P-384 "server key $kn in rindd, TLS 1.2"
	if [ $kn = wrsa ]; then
		# TLS 1.2 with a client that offers only PKCS#1 v1.5 signatures
		HS_OPTS="-sigalgs RSA+SHA256"
		handshake default tls1_2 x25519 "server key $kn in rindd, TLS 1.2, RSA+SHA256"
		HS_OPTS=""
	fi
	i=0
	while kill -0 $SRV 2>/dev/null && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
	kill $SRV 2>/dev/null
	case $kn in
	wp256) served "$T/srv.trace" "sign x962(ecdsa-nist-p256,sha256) in rindd (key wp256) ok" "s_server signing with $kn in rindd";;
	wp384) served "$T/srv.trace" "sign x962(ecdsa-nist-p384,sha384) in rindd (key wp384) ok" "s_server signing with $kn in rindd";;
	wrsa) served "$T/srv.trace" "sign pss(rsa,sha256) in rindd (key wrsa) ok" "s_server signing with $kn in rindd (TLS 1.3: PSS)"
		served "$T/srv.trace" "sign pkcs1(rsa,sha256) in rindd (key wrsa) ok" "s_server signing with $kn in rindd (PKCS#1)";;
	esac
done
# ML-DSA-65 and -87 keys in rindd: through the key reference and the
# store, pkeyutl signs in rindd (pure ML-DSA, empty context, hedged), the
# provider's local public half verifies, and so does the library's
# (mldsa_evp's tfm is not needed: rind key pub gives the SPKI the provider
# reads); a context string or the deterministic variant is not asked of
# rindd, which signs neither: refused, never answered by another signature.
for bits in 65 87; do
	kn=wmldsa$bits
	check "rind key create $kn (mldsa$bits)" "$B/rind" key create $kn --alg mldsa$bits
	"$B/rind" key ref $kn > "$T/$kn.key"
	"$B/rind" key pub $kn > "$T/$kn.pub"
	for key in "$T/$kn.key" rind:$kn; do
		RO pkeyutl -sign -rawin -inkey "$key" -in "$T/m" -out "$T/$kn.sig" 2>"$T/trace"
		served "$T/trace" "sign mldsa$bits in rindd (key $kn) ok" "pkeyutl -sign -inkey $key (ML-DSA-$bits)"
		RO pkeyutl -verify -rawin -pubin -inkey "$T/$kn.pub" -in "$T/m" -sigfile "$T/$kn.sig" > "$T/out" 2>"$T/trace"
		if grep -q "Verified Successfully" "$T/out"; then ok; else bad "rindd's $kn signature ($key) does not verify"; fi
		served "$T/trace" "verify mldsa$bits (.*) good" "verify rindd's $kn signature"
	done
	RO pkey -in "$T/$kn.key" -pubout -out "$T/$kn.pub2" 2>/dev/null
	same "$T/$kn.pub2" "$T/$kn.pub" "$kn: the key reference's public key"
	RO pkey -in "$T/$kn.key" -text -noout > "$T/out" 2>/dev/null
	if grep -q "held by rindd" "$T/out" && ! grep -q "^seed:" "$T/out"; then ok; else bad "$kn: pkey -text of a key reference"; fi
	for o in "-pkeyopt context-string:abc" "-pkeyopt deterministic:1"; do
		if RO pkeyutl -sign -rawin -inkey "$T/$kn.key" -in "$T/m" $o -out "$T/x" >/dev/null 2>&1; then
			bad "rindd's $kn signed with $o"; else ok; fi
	done
done
. "$(dirname "$0")/nginx.sh"
after=$(signs)
if [ $((after - before)) -ge 13 ]; then ok; else bad "rindd's stats: $before -> $after requests"; fi
# a lost daemon is an error, never a signature
kill $RINDD 2>/dev/null
wait $RINDD 2>/dev/null
if RO pkeyutl -sign -rawin -inkey "$T/web.ref" -in "$T/m" -out "$T/web.sig2" >/dev/null 2>&1; then
	bad "signed with rindd stopped"; else ok; fi
unset RIND_SOCKET
