# Sourced by run.sh (after pk.sh: its keys, certificates and rind.cnf):
# TLS 1.3 and 1.2 handshakes between openssl s_server and s_client, rind
# on both sides or on one side only, for ECDSA P-256, RSA-2048 and Ed25519
# certificates and X25519, P-256 (and X25519MLKEM768, rind on both
# sides) key exchange; the traces must show rind serving the key
# exchange, the signature, the key schedule and the record AEAD.
PORT=$((20000 + $$ % 20000))
# side CONF: "rind" (rind preferred) or "default"
conf_of() { if [ "$1" = rind ]; then echo "$T/rind.cnf"; else echo /dev/null; fi; }

start_server() {	# side cert-name count
	PORT=$((PORT + 1))
	sg=x25519:P-256:P-384
	[ $1 = rind ] && sg=X25519MLKEM768:$sg
	OPENSSL_CONF=$(conf_of $1) RIND_PROVIDER_TRACE=1 openssl s_server -accept 127.0.0.1:$PORT -cert "$T/$2.crt" \
		-key "$T/$2.key" -www -naccept $3 -groups $sg >"$T/srv.out" 2>"$T/srv.trace" &
	SRV=$!
	PIDS="$PIDS $SRV"
	i=0
	while ! grep -q ACCEPT "$T/srv.out" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
}

handshake() {	# client-side version group desc
	printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$(conf_of $1) RIND_PROVIDER_TRACE=1 timeout 10 \
		openssl s_client -connect 127.0.0.1:$PORT -$2 -groups $3 -ign_eof -brief >"$T/cli.out" 2>"$T/cli.trace"
	if grep -q "HTTP/1.0 200 ok" "$T/cli.out"; then ok; else bad "TLS $4"; tail -5 "$T/cli.trace"; fi
}

tls_groups="x25519 P-256"
for cert in p256 rsa ed25519; do
	for sides in rind:rind rind:default default:rind; do
		s=${sides%%:*}
		c=${sides#*:}
		n=4
		[ "$sides" = rind:rind ] && n=5
		start_server $s $cert $n
		for v in tls1_3 tls1_2; do
			for g in $tls_groups X25519MLKEM768; do
				if [ $g = X25519MLKEM768 ]; then
					# OpenSSL 3.0's default provider has no ML-KEM: rind on both sides
					[ "$sides" = rind:rind ] && [ $v = tls1_3 ] || continue
				fi
				d="$v $g $cert server=$s client=$c"
				: > "$T/cli.trace"
				cg=$g
				# TLS 1.2: the ECDSA certificate's curve must be among the client's groups (RFC 8422 5.1)
				[ $v = tls1_2 ] && [ $cert = p256 ] && [ $g = x25519 ] && cg=x25519:P-256
				handshake $c $v $cg "$d"
				if [ $c = rind ]; then
					served "$T/cli.trace" "verify " "$d: certificate verify (client)"
					if [ $g = X25519MLKEM768 ]; then served "$T/cli.trace" "decapsulate" "$d: key exchange (client)"
					else served "$T/cli.trace" "derive " "$d: key exchange (client)"; fi
					if [ $v = tls1_3 ]; then served "$T/cli.trace" "kdf TLS13-KDF" "$d: key schedule (client)"
					else served "$T/cli.trace" "kdf TLS1-PRF" "$d: PRF (client)"; fi
					served "$T/cli.trace" "cipher AES-256-GCM" "$d: record AEAD (client)"
				fi
			done
		done
		# the server exits after its last connection (or is stopped)
		i=0
		while kill -0 $SRV 2>/dev/null && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
		kill $SRV 2>/dev/null
		if [ $s = rind ]; then
			served "$T/srv.trace" "sign " "$cert server=$s: handshake signature (server)"
			served "$T/srv.trace" "derive " "$cert server=$s: key exchange (server)"
			served "$T/srv.trace" "kdf TLS13-KDF" "$cert server=$s: key schedule (server)"
			served "$T/srv.trace" "cipher AES-256-GCM" "$cert server=$s: record AEAD (server)"
			[ "$sides" = rind:rind ] && served "$T/srv.trace" "encapsulate" "$cert server=$s: X25519MLKEM768 (server)"
		fi
	done
done
