# Sourced by run.sh (after pk.sh: its keys and certificates):
# TLS 1.3 and 1.2 handshakes between openssl s_server and s_client, rind
# on both sides or on one side only, for ECDSA P-256, RSA-2048 and Ed25519
# certificates and X25519, P-256 (and X25519MLKEM768, rind on both
# sides) key exchange; the traces must show rind serving the key
# exchange, the signature, the key schedule and the record AEAD.
PORT=$((20000 + $$ % 20000))
# side CONF: "rind" (rind preferred) or "default"
conf_of() { if [ "$1" = rind ]; then echo "$T/rind.cnf"; else echo /dev/null; fi; }

start_server() {	# side cert-name count
	sg=x25519:P-256:P-384
	[ $1 != default ] && sg=X25519MLKEM768:$sg
	# a port another program holds makes s_server exit: try another
	for attempt in 1 2 3 4 5 6; do
		PORT=$((20000 + ($$ * 7 + PORT * 13 + attempt) % 40000))
		: > "$T/srv.out"
		OPENSSL_CONF=$(conf_of $1) RIND_PROVIDER_TRACE=1 openssl s_server -accept 127.0.0.1:$PORT -cert "$T/$2.crt" \
			-key "$T/$2.key" -www -naccept $3 -groups $sg >"$T/srv.out" 2>"$T/srv.trace" &
		SRV=$!
		PIDS="$PIDS $SRV"
		i=0
		while ! grep -q ACCEPT "$T/srv.out" 2>/dev/null && kill -0 $SRV 2>/dev/null && [ $i -lt 200 ]; do
			sleep 0.05; i=$((i + 1)); done
		grep -q ACCEPT "$T/srv.out" && kill -0 $SRV 2>/dev/null && return 0
		kill $SRV 2>/dev/null
	done
	bad "s_server ($1, $2) did not start"; cat "$T/srv.trace" | tail -3
}

HS_OPTS=""	# more s_client options (-sigalgs ...)
handshake() {	# client-side version group desc
	printf 'GET / HTTP/1.0\r\n\r\n' | OPENSSL_CONF=$(conf_of $1) RIND_PROVIDER_TRACE=1 timeout 10 \
		openssl s_client -connect 127.0.0.1:$PORT -$2 -groups $3 $HS_OPTS -ign_eof -brief >"$T/cli.out" 2>"$T/cli.trace"
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

# rind as the only crypto provider (with "base" for the file store, which
# has no algorithms): both sides, TLS 1.3 and 1.2; every operation of the
# handshake is necessarily rind's
cat > "$T/rindonly.cnf" <<EOC
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
alg_section = evp_properties
random = random_sect
[provider_sect]
rind = rind_sect
base = base_sect
[rind_sect]
module = $MODDIR/rind.so
activate = 1
[base_sect]
activate = 1
[evp_properties]
default_properties = ?provider=rind
[random_sect]
random = RIND-DRBG
properties = provider=rind
EOC
conf_of() { case $1 in rind) echo "$T/rind.cnf";; rindonly) echo "$T/rindonly.cnf";; *) echo /dev/null;; esac; }
for cert in p256 rsa ed25519; do
	start_server rindonly $cert 3
	handshake rindonly tls1_3 X25519MLKEM768 "rind only: tls1_3 X25519MLKEM768 $cert"
	served "$T/cli.trace" "decapsulate X25519MLKEM768" "rind only: X25519MLKEM768 $cert"
	handshake rindonly tls1_3 x25519 "rind only: tls1_3 x25519 $cert"
	handshake rindonly tls1_2 x25519:P-256 "rind only: tls1_2 $cert"
	served "$T/cli.trace" "rand RIND-DRBG" "rind only: the client's random source"
	i=0
	while kill -0 $SRV 2>/dev/null && [ $i -lt 40 ]; do sleep 0.05; i=$((i + 1)); done
	kill $SRV 2>/dev/null
done
