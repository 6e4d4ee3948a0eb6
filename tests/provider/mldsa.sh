# Sourced by run.sh after pk.sh: ML-DSA-44/65/87 (FIPS 204) through the
# openssl tool.  Debian's OpenSSL 3.0 has no ML-DSA, so the other side of
# each check is rind's library (mldsa_evp, and the known answers of
# Wycheproof's files): genpkey (random and from a seed), pkey PEM/DER/text
# conversions, pkeyutl -sign/-verify -rawin with and without a context
# string, deterministic known answers, and the pre-hash forms refused.
WP=${WYCHEPROOF_DIR:-$(cd "$(dirname "$0")/../.." && pwd)/../shared/vectors/wycheproof}
RBQ="-provider-path $MODDIR -provider rind -provider base -propquery provider=rind"
head -c 3000 /dev/urandom > "$T/mm"
for bits in 44 65 87; do
	a=ML-DSA-$bits
	n=mldsa$bits
	case $bits in 44) pkl=1312 sl=2420;; 65) pkl=1952 sl=3309;; 87) pkl=2592 sl=4627;; esac
	# generation, rind preferred and rind with the base provider only
	RO genpkey -algorithm $a -out "$T/$n.key" 2>"$T/trace" >/dev/null
	served "$T/trace" "keygen $a" "genpkey $a"
	RIND_PROVIDER_TRACE=1 openssl genpkey $RBQ -algorithm $a -out "$T/$n.only" 2>"$T/trace" >/dev/null
	served "$T/trace" "encode $a PrivateKeyInfo PEM" "rind only: genpkey $a"
	if grep -q "BEGIN PRIVATE KEY" "$T/$n.key" && [ "$(RO pkey -in "$T/$n.key" -outform DER 2>/dev/null | wc -c)" = 54 ]; then ok
	else bad "$a: genpkey's PKCS#8 is not the 54-byte seed-only form"; fi
	# conversions: PEM -> DER -> PEM is the same key file; SPKI PEM and DER agree
	RO pkey -in "$T/$n.key" -outform DER -out "$T/$n.der" 2>/dev/null
	RO pkey -in "$T/$n.der" -inform DER -out "$T/$n.pem2" 2>"$T/trace"
	same "$T/$n.pem2" "$T/$n.key" "$a PEM -> DER -> PEM"
	served "$T/trace" "decode $a PrivateKeyInfo" "pkey -inform DER $a"
	RO pkey -in "$T/$n.key" -pubout -out "$T/$n.pub" 2>/dev/null
	RO pkey -in "$T/$n.der" -inform DER -pubout -outform DER -out "$T/$n.pubder" 2>/dev/null
	RO pkey -pubin -in "$T/$n.pubder" -inform DER -pubout -out "$T/$n.pub2" 2>"$T/trace"
	same "$T/$n.pub2" "$T/$n.pub" "$a SPKI DER -> PEM"
	served "$T/trace" "decode $a SubjectPublicKeyInfo" "pkey -pubin -inform DER $a"
	if [ "$(wc -c < "$T/$n.pubder")" = $((pkl + 22)) ]; then ok; else bad "$a SPKI DER is not $((pkl + 22)) bytes"; fi
	# text: the seed (the PKCS#8's last 32 bytes) and the public key (the SPKI's last bytes)
	RO pkey -in "$T/$n.key" -text -noout > "$T/$n.txt" 2>"$T/trace"
	seedhex=$(tail -c 32 "$T/$n.der" | od -An -v -tx1 | tr -d ' \n')
	pubhex=$(tail -c $pkl "$T/$n.pubder" | od -An -v -tx1 | tr -d ' \n')
	txtseed=$(sed -n '/^seed:/,/^pub:/p' "$T/$n.txt" | grep '^    ' | tr -d ' :\n')
	txtpub=$(sed -n '/^pub:/,$p' "$T/$n.txt" | grep '^    ' | tr -d ' :\n')
	if head -1 "$T/$n.txt" | grep -q "^$a Private-Key:" && [ "$txtseed" = "$seedhex" ] && [ "$txtpub" = "$pubhex" ]; then ok
	else bad "pkey -text $a"; fi
	served "$T/trace" "encode $a text" "pkey -text $a"
	RO pkey -pubin -in "$T/$n.pub" -text -noout > "$T/$n.ptxt" 2>/dev/null
	if head -1 "$T/$n.ptxt" | grep -q "^$a Public-Key:" && [ "$(grep '^    ' "$T/$n.ptxt" | tr -d ' :\n')" = "$pubhex" ]; then ok
	else bad "pkey -pubin -text $a"; fi
	# generation from a seed: the same key file as the one holding that seed
	RO genpkey -algorithm $a -pkeyopt hexseed:$seedhex -outform DER -out "$T/$n.seeded" 2>/dev/null
	same "$T/$n.seeded" "$T/$n.der" "$a genpkey -pkeyopt hexseed"
	# signing: rind signs, rind verifies with the private and with the public key
	RO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/mm" -out "$T/$n.sig" 2>"$T/trace"
	served "$T/trace" "sign $n (" "pkeyutl -sign -rawin $a"
	if [ "$(wc -c < "$T/$n.sig")" = $sl ]; then ok; else bad "$a signature is not $sl bytes"; fi
	RO pkeyutl -verify -rawin -pubin -inkey "$T/$n.pub" -in "$T/mm" -sigfile "$T/$n.sig" > "$T/out" 2>"$T/trace"
	if grep -q "Verified Successfully" "$T/out"; then ok; else bad "$a: pkeyutl -verify -pubin"; fi
	served "$T/trace" "verify $n (.*) good" "pkeyutl -verify $a"
	printf 'x' | cat - "$T/mm" > "$T/mm2"
	if RO pkeyutl -verify -rawin -inkey "$T/$n.key" -in "$T/mm2" -sigfile "$T/$n.sig" >/dev/null 2>&1; then
		bad "$a: a signature over another message verified"; else ok; fi
	# hedged by default: two signatures of one message differ; deterministic ones agree
	RO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/mm" -out "$T/$n.sig2" 2>/dev/null
	if cmp -s "$T/$n.sig" "$T/$n.sig2"; then bad "$a: hedged signatures are equal"; else ok; fi
	RO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/mm" -pkeyopt deterministic:1 -out "$T/$n.d1" 2>"$T/trace"
	# the rind-only key (genpkey above) signs, and its signature verifies under it
	rm -f "$T/x"
	RO pkeyutl -sign -rawin -inkey "$T/$n.only" -in "$T/mm" -out "$T/x" 2>/dev/null
	if [ -s "$T/x" ] && [ "$(wc -c < "$T/x")" = $sl ] &&
		RO pkeyutl -verify -rawin -inkey "$T/$n.only" -in "$T/mm" -sigfile "$T/x" 2>/dev/null |
		grep -q "Verified Successfully"; then ok; else bad "$a: the seed-only key's signature"; fi
	RO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/mm" -pkeyopt deterministic:1 -out "$T/$n.d2" 2>/dev/null
	same "$T/$n.d1" "$T/$n.d2" "$a deterministic signatures"
	served "$T/trace" "sign $n (.*) deterministic ok" "pkeyutl -pkeyopt deterministic:1 $a"
	# the FIPS 204 context string
	RO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/mm" -pkeyopt hexcontext-string:0001feff -out "$T/$n.csig" 2>"$T/trace"
	served "$T/trace" "sign $n (.*) context ok" "pkeyutl -sign context-string $a"
	if RO pkeyutl -verify -rawin -pubin -inkey "$T/$n.pub" -in "$T/mm" -pkeyopt hexcontext-string:0001feff \
		-sigfile "$T/$n.csig" 2>/dev/null | grep -q "Verified Successfully"; then ok; else bad "$a: context signature"; fi
	for other in "" "-pkeyopt hexcontext-string:0001fe" "-pkeyopt context-string:x"; do
		if RO pkeyutl -verify -rawin -pubin -inkey "$T/$n.pub" -in "$T/mm" $other -sigfile "$T/$n.csig" >/dev/null 2>&1; then
			bad "$a: signature with a context verified with '$other'"; else ok; fi
	done
	# dgst -sign with no digest is message signing too
	RO dgst -sign "$T/$n.key" -out "$T/$n.dsig" "$T/mm" 2>"$T/trace"
	served "$T/trace" "sign $n (" "dgst -sign $a"
	check "$a: dgst -verify of dgst -sign" RO dgst -verify "$T/$n.pub" -signature "$T/$n.dsig" "$T/mm"
	# req -x509 signs with the provider; OpenSSL 3.0's X.509 code knows no
	# ML-DSA OID to verify with, so the signature is checked by hand: the
	# tbsCertificate and the signature BIT STRING, verified by pkeyutl
	RO req -x509 -new -key "$T/$n.key" -subj "/CN=$a" -days 2 -outform DER -out "$T/$n.crt" 2>"$T/trace" >/dev/null
	served "$T/trace" "sign $n (" "req -x509 $a"
	if command -v python3 >/dev/null; then
		python3 - "$T/$n.crt" "$T/$n.tbs" "$T/$n.csig2" <<'EOPY'
import sys
d = open(sys.argv[1], "rb").read()
def hdr(b, i):
    n = b[i + 1]
    if n < 0x80:
        return i + 2, n
    k = n & 0x7f
    return i + 2 + k, int.from_bytes(b[i + 2:i + 2 + k], "big")
body, _ = hdr(d, 0)
s, n = hdr(d, body)
tbs_end = s + n
open(sys.argv[2], "wb").write(d[body:tbs_end])
s, n = hdr(d, tbs_end)
s, n = hdr(d, s + n)		# past the AlgorithmIdentifier: the BIT STRING
open(sys.argv[3], "wb").write(d[s + 1:s + n])
EOPY
		check "$a: req -x509's certificate signature verifies" \
			RO pkeyutl -verify -rawin -pubin -inkey "$T/$n.pub" -in "$T/$n.tbs" -sigfile "$T/$n.csig2"
	fi
	# pre-hash forms and a caller's digest are refused
	if RO pkeyutl -sign -rawin -digest sha256 -inkey "$T/$n.key" -in "$T/mm" -out "$T/x" >/dev/null 2>&1; then
		bad "$a signed with a digest (HashML-DSA)"; else ok; fi
	DO dgst -sha512 -binary "$T/mm" > "$T/md"
	if RO pkeyutl -sign -inkey "$T/$n.key" -in "$T/md" -out "$T/x" >/dev/null 2>&1; then
		bad "$a signed a caller's digest"; else ok; fi
	long=$(head -c 256 /dev/zero | od -An -v -tx1 | tr -d ' \n')
	if RO pkeyutl -sign -rawin -inkey "$T/$n.key" -in "$T/mm" -pkeyopt hexcontext-string:$long -out "$T/x" >/dev/null 2>&1; then
		bad "$a signed with a 256-byte context"; else ok; fi
	# Wycheproof known answers through the tool: key from the file's seed,
	# deterministic signatures equal to the file's (with their contexts)
	if command -v python3 >/dev/null && [ -f "$WP/mldsa_${bits}_sign_seed_test.json" ]; then
		python3 - "$WP/mldsa_${bits}_sign_seed_test.json" "$T/kat$bits" <<'EOPY'
import json, sys
d = json.load(open(sys.argv[1]))
g = d["testGroups"][0]
out = open(sys.argv[2], "w")
out.write("key %s %s\n" % (g["privateSeed"], g["publicKey"]))
n = 0
for t in g["tests"]:
    if t["result"] == "valid" and "msg" in t and "rnd" not in t and n < 6:
        open("%s.%d.msg" % (sys.argv[2], t["tcId"]), "wb").write(bytes.fromhex(t["msg"]))
        out.write("sig %d %s %s\n" % (t["tcId"], t.get("ctx", "") or "-", t["sig"]))
        n += 1
EOPY
		read -r _ kseed kpub < "$T/kat$bits"
		RO genpkey -algorithm $a -pkeyopt hexseed:$kseed -out "$T/$n.kat" 2>/dev/null
		RO pkey -in "$T/$n.kat" -pubout -outform DER 2>/dev/null | tail -c $pkl | od -An -v -tx1 | tr -d ' \n' > "$T/got"
		if [ "$(cat "$T/got")" = "$kpub" ]; then ok; else bad "$a: Wycheproof seed -> public key"; fi
		grep '^sig ' "$T/kat$bits" | while read -r _ tc ctx sig; do
			copt=""
			[ "$ctx" != - ] && copt="-pkeyopt hexcontext-string:$ctx"
			RO pkeyutl -sign -rawin -inkey "$T/$n.kat" -in "$T/kat$bits.$tc.msg" -pkeyopt deterministic:1 $copt -out "$T/katsig" 2>/dev/null
			if [ "$(od -An -v -tx1 "$T/katsig" | tr -d ' \n')" = "$sig" ]; then echo ok; else echo "bad tcId $tc"; fi
		done > "$T/katres"
		if [ -s "$T/katres" ] && ! grep -q bad "$T/katres"; then ok
		else bad "$a: Wycheproof deterministic signatures through pkeyutl: $(grep bad "$T/katres" | tr '\n' ' ')"; fi
	fi
done
# the EVP program: Wycheproof's nine files through the provider, and
# keys and signatures crossing with librind both ways
if [ -x "$B/tests/provider/mldsa_evp" ] && [ -d "$WP" ]; then
	evp_prog mldsa_evp "$MODDIR" "$WP"
	grep '^ok: mldsa_' "$T/mldsa_evp.out" | sed 's/^ok: /  /'
else
	bad "mldsa_evp not built or no Wycheproof directory ($WP)"
fi
