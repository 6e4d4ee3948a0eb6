# Sourced by run.sh: keys, signatures, key exchange, certificates with
# rind preferred (run.sh's rind.cnf: the default provider loaded too,
# "?provider=rind"), each checked against the default provider alone,
# both ways.
# rind preferred / the default provider only
RO() { OPENSSL_CONF="$T/rind.cnf" RIND_PROVIDER_TRACE=1 openssl "$@"; }
DO() { OPENSSL_CONF=/dev/null openssl "$@"; }

printf 'the message to sign\n' > "$T/m"
for spec in "ed25519:ED25519" "p256:EC -pkeyopt ec_paramgen_curve:P-256" "p384:EC -pkeyopt ec_paramgen_curve:P-384" \
	    "p521:EC -pkeyopt ec_paramgen_curve:P-521" "rsa:RSA -pkeyopt rsa_keygen_bits:2048" "x25519:X25519"; do
	n=${spec%%:*}
	a=${spec#*:}
	# rind generates, the default provider reads it back
	check "genpkey $n (rind)" RO genpkey -algorithm $a -out "$T/$n.key"
	RO genpkey -algorithm $a -out "$T/$n.tmp" 2>"$T/trace" >/dev/null
	served "$T/trace" "keygen " "genpkey $n"
	check "pkey $n read by the default provider" DO pkey -in "$T/$n.key" -noout
	# the default provider generates, rind converts: the public key agrees
	DO genpkey -algorithm $a -out "$T/$n.dkey" 2>/dev/null
	RO pkey -in "$T/$n.dkey" -pubout -out "$T/$n.rpub" 2>/dev/null
	DO pkey -in "$T/$n.dkey" -pubout -out "$T/$n.dpub" 2>/dev/null
	same "$T/$n.rpub" "$T/$n.dpub" "pkey -pubout $n"
	RO pkey -in "$T/$n.key" -outform DER -out "$T/$n.rder" 2>/dev/null
	DO pkey -in "$T/$n.key" -outform DER -out "$T/$n.dder" 2>/dev/null
	same "$T/$n.rder" "$T/$n.dder" "pkey -outform DER $n"
	RO pkey -in "$T/$n.dder" -inform DER -pubout -outform DER -out "$T/$n.rpubder" 2>/dev/null
	DO pkey -in "$T/$n.key" -pubout -outform DER -out "$T/$n.dpubder" 2>/dev/null
	same "$T/$n.rpubder" "$T/$n.dpubder" "pkey DER -> SPKI DER $n"
done

# DigestSign / DigestVerify both ways
sigtest() {	# name key-suffix pkeyutl-options...
	n=$1; shift
	RO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/m" -out "$T/$n.rsig" "$@" 2>"$T/trace"
	served "$T/trace" "sign " "pkeyutl -sign $n $*"
	check "rind signature ($n $*) verified by the default provider" \
		DO pkeyutl -verify -rawin -inkey "$T/$n.key" -in "$T/m" -sigfile "$T/$n.rsig" "$@"
	DO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/m" -out "$T/$n.dsig" "$@" 2>/dev/null
	RO pkeyutl -verify -rawin -inkey "$T/$n.key" -in "$T/m" -sigfile "$T/$n.dsig" "$@" > "$T/out" 2>"$T/trace"
	if grep -q "Verified Successfully" "$T/out"; then ok; else bad "rind verifying a default signature ($n $*)"; fi
	served "$T/trace" "verify .* good" "pkeyutl -verify $n $*"
	# a changed message does not verify
	printf 'x' >> "$T/m2"; cat "$T/m" >> "$T/m2"
	if RO pkeyutl -verify -rawin -inkey "$T/$n.key" -in "$T/m2" -sigfile "$T/$n.dsig" "$@" >/dev/null 2>&1; then
		bad "rind verified a signature over another message ($n)"; else ok; fi
	rm -f "$T/m2"
}
sigtest ed25519
for n in p256 p384 p521; do
	sigtest $n -digest sha256
	sigtest $n -digest sha384
	sigtest $n -digest sha512
done
sigtest rsa -digest sha256
sigtest rsa -digest sha512
sigtest rsa -digest sha256 -pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:digest
sigtest rsa -digest sha384 -pkeyopt rsa_padding_mode:pss -pkeyopt rsa_pss_saltlen:digest
# outside rind's policy: SHA-1 signatures, a caller's digest (no -rawin)
if OPENSSL_CONF="$T/rind.cnf" openssl pkeyutl -sign -rawin -digest sha1 -inkey "$T/p256.key" -in "$T/m" \
	-propquery provider=rind -out "$T/x" >/dev/null 2>&1; then bad "rind signed with SHA-1"; else ok; fi
DO dgst -sha256 -binary "$T/m" > "$T/md"
if OPENSSL_CONF="$T/rind.cnf" openssl pkeyutl -sign -inkey "$T/p256.key" -in "$T/md" -propquery provider=rind \
	-out "$T/x" >/dev/null 2>&1; then bad "rind signed a caller's digest"; else ok; fi

# key exchange both ways
for pair in x25519:X25519 p256:"EC -pkeyopt ec_paramgen_curve:P-256" p384:"EC -pkeyopt ec_paramgen_curve:P-384" p521:"EC -pkeyopt ec_paramgen_curve:P-521"; do
	n=${pair%%:*}
	a=${pair#*:}
	DO genpkey -algorithm $a -out "$T/$n.peer" 2>/dev/null
	DO pkey -in "$T/$n.peer" -pubout -out "$T/$n.peerpub" 2>/dev/null
	DO pkey -in "$T/$n.key" -pubout -out "$T/$n.pub" 2>/dev/null
	RO pkeyutl -derive -inkey "$T/$n.key" -peerkey "$T/$n.peerpub" -out "$T/$n.rss" 2>"$T/trace"
	served "$T/trace" "derive " "pkeyutl -derive $n"
	DO pkeyutl -derive -inkey "$T/$n.peer" -peerkey "$T/$n.pub" -out "$T/$n.dss" 2>/dev/null
	same "$T/$n.rss" "$T/$n.dss" "pkeyutl -derive $n"
done

# certificates: rind signs, the default provider verifies, and the reverse
for n in ed25519 p256 p384 rsa; do
	RO req -x509 -new -key "$T/$n.key" -subj "/CN=rind $n" -days 2 -out "$T/$n.crt" 2>"$T/trace" >/dev/null
	served "$T/trace" "sign " "req -x509 $n"
	check "default provider verifies rind's $n certificate" DO verify -check_ss_sig -CAfile "$T/$n.crt" "$T/$n.crt"
	DO req -x509 -new -key "$T/$n.key" -subj "/CN=default $n" -days 2 -out "$T/$n.dcrt" 2>/dev/null
	RO verify -check_ss_sig -CAfile "$T/$n.dcrt" "$T/$n.dcrt" > "$T/out" 2>"$T/trace"
	if grep -q ": OK" "$T/out"; then ok; else bad "rind verifying the default provider's $n certificate"; fi
	served "$T/trace" "verify .* good" "verify $n certificate"
done

# RSA-OAEP both ways
head -c 100 "$T/msg" > "$T/pt"
for md in sha256 sha384 sha512; do
	O="-pkeyopt rsa_padding_mode:oaep -pkeyopt rsa_oaep_md:$md"
	RO pkeyutl -encrypt -inkey "$T/rsa.key" $O -in "$T/pt" -out "$T/ct" 2>"$T/trace"
	served "$T/trace" "encrypt oaep(rsa,$md)" "pkeyutl -encrypt OAEP $md"
	DO pkeyutl -decrypt -inkey "$T/rsa.key" $O -in "$T/ct" -out "$T/d" 2>/dev/null
	same "$T/d" "$T/pt" "OAEP $md: rind encrypts, default decrypts"
	DO pkeyutl -encrypt -inkey "$T/rsa.key" $O -in "$T/pt" -out "$T/ct" 2>/dev/null
	RO pkeyutl -decrypt -inkey "$T/rsa.key" $O -in "$T/ct" -out "$T/d" 2>"$T/trace"
	same "$T/d" "$T/pt" "OAEP $md: default encrypts, rind decrypts"
	served "$T/trace" "decrypt oaep(rsa,$md)" "pkeyutl -decrypt OAEP $md"
	printf '\001' | dd of="$T/ct" bs=1 seek=10 conv=notrunc 2>/dev/null
	if RO pkeyutl -decrypt -inkey "$T/rsa.key" $O -in "$T/ct" -propquery provider=rind -out "$T/d" >/dev/null 2>&1; then
		bad "OAEP $md: a modified ciphertext decrypted"; else ok; fi
done
# PKCS#1 v1.5 encryption and OAEP with SHA-1 are not rind's
for O in "" "-pkeyopt rsa_padding_mode:oaep"; do
	if OPENSSL_CONF="$T/rind.cnf" openssl pkeyutl -encrypt -inkey "$T/rsa.key" $O -in "$T/pt" -propquery provider=rind \
		-out "$T/ct" >/dev/null 2>&1; then bad "rind encrypted with '$O' (PKCS#1 v1.5 or OAEP-SHA1)"; else ok; fi
done

# rind with the base provider only (no default): keys written by rind's
# encoders, read back, used
RB="-provider-path $MODDIR -provider rind -provider base -propquery ?provider=rind"
for spec in "ed25519:ED25519" "p256:EC -pkeyopt ec_paramgen_curve:P-256" "rsa:RSA" "x25519:X25519"; do
	n=${spec%%:*}
	a=${spec#*:}
	RIND_PROVIDER_TRACE=1 openssl genpkey $RB -algorithm $a -out "$T/$n.only" 2>"$T/trace" >/dev/null
	served "$T/trace" "encode .* PrivateKeyInfo PEM" "rind only: genpkey $n"
	check "rind only: $n key read by the default provider" DO pkey -in "$T/$n.only" -noout
	RIND_PROVIDER_TRACE=1 openssl pkey $RB -in "$T/$n.only" -pubout -out "$T/$n.onlypub" 2>"$T/trace"
	DO pkey -in "$T/$n.only" -pubout -out "$T/$n.dpub2" 2>/dev/null
	same "$T/$n.onlypub" "$T/$n.dpub2" "rind only: pkey -pubout $n"
	served "$T/trace" "encode .* SubjectPublicKeyInfo PEM" "rind only: pkey -pubout $n"
	if [ $n != x25519 ]; then
		RIND_PROVIDER_TRACE=1 openssl pkeyutl $RB -sign -rawin -inkey "$T/$n.only" -in "$T/m" -out "$T/$n.onlysig" 2>"$T/trace"
		served "$T/trace" "sign " "rind only: pkeyutl -sign $n"
		check "rind only: $n signature verified by the default provider" \
			DO pkeyutl -verify -rawin -inkey "$T/$n.only" -in "$T/m" -sigfile "$T/$n.onlysig"
	fi
done
