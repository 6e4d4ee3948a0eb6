#!/bin/sh
# make check-provider: rind.so driven by real programs (the openssl tool,
# s_server/s_client), each result compared with OpenSSL's default
# provider, and RIND_PROVIDER_TRACE=1 checked to show that rind served it.
# Usage: sh tests/provider/run.sh BUILD_DIR
set -u
B=$(cd "${1:-build}" && pwd)
MODDIR=$B/provider
T=$(mktemp -d "${TMPDIR:-/tmp}/rind-prov.XXXXXX")
PIDS=""
cleanup() {
	for p in $PIDS; do kill "$p" 2>/dev/null; done
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }
# check DESCRIPTION COMMAND...: the command must succeed
check() { d=$1; shift; if "$@" >"$T/out" 2>&1; then ok; else bad "$d"; sed 's/^/    /' "$T/out" | tail -8; fi; }
same() { if cmp -s "$1" "$2"; then ok; else bad "$3 differs from the default provider"; fi; }
# served FILE PATTERN DESC: the trace in FILE has a line matching PATTERN
served() { if grep -q -- "$2" "$1"; then ok; else bad "$3: not served by rind (no '$2' in trace)"; fi; }
# evp_prog NAME ARGS...: the EVP program tests/provider/NAME.c; each of its
# "ok:" lines is a check passed, and a "FAIL:" line or no "ok:" line at all
# (it did not get going) is one failure, shown with the program's output
evp_prog() {
	evp_name=$1; shift
	evp_out="$T/$evp_name.out"
	if [ ! -x "$B/tests/provider/$evp_name" ]; then bad "$evp_name not built"; return; fi
	"$B/tests/provider/$evp_name" "$@" > "$evp_out" 2>&1
	pass=$((pass + $(grep -c '^ok: ' "$evp_out")))
	if grep -q '^FAIL: ' "$evp_out" || ! grep -q '^ok: ' "$evp_out"; then
		fail=$((fail + 1)); echo "FAIL: $evp_name:"; grep -v '^ok: ' "$evp_out" | head -20 | sed 's/^/    /'
	fi
}

export OPENSSL_CONF=/dev/null
unset OPENSSL_MODULES RIND_PROVIDER_TRACE
# rind only (the default provider may be loaded by the tool on its own:
# the property query keeps every fetch on rind)
R="-provider-path $MODDIR -provider rind -propquery provider=rind"
DEF="-provider default"
TR="env RIND_PROVIDER_TRACE=1"
# rind preferred, the default provider loaded too: python's hashlib here,
# pk.sh and the sections after it
. "$(dirname "$0")/rind-cnf.sh"
rind_cnf "$MODDIR/rind.so" > "$T/rind.cnf"

# ---- the shared object itself ----
syms=$(nm -D --defined-only "$MODDIR/rind.so" | awk '{print $3}')
if [ "$syms" = "OSSL_provider_init" ]; then ok; else bad "rind.so exports more than OSSL_provider_init: $syms"; fi
if ldd "$MODDIR/rind.so" | grep -q -E 'libcrypto|libssl'; then bad "rind.so depends on libcrypto/libssl"; else ok; fi
if nm -D --undefined-only "$MODDIR/rind.so" | grep -q -E ' (EVP|OSSL|BIO|ERR|CRYPTO|OPENSSL)_'; then
	bad "rind.so calls libcrypto functions"; else ok; fi

# ---- digests, HMAC, KDFs ----
head -c 100000 /dev/urandom > "$T/msg"
head -c 1 /dev/urandom > "$T/one"
: > "$T/empty"
for md in sha1 sha224 sha256 sha384 sha512 sha3-224 sha3-256 sha3-384 sha3-512 shake128 shake256; do
	for f in empty one msg; do
		$TR openssl dgst -$md $R -r "$T/$f" > "$T/r" 2>"$T/trace"
		openssl dgst -$md -r "$T/$f" > "$T/d" 2>/dev/null
		same "$T/r" "$T/d" "dgst -$md $f"
	done
	served "$T/trace" "digest $md " "dgst -$md"
done
# SHAKE at other lengths: -xoflen is EVP_DigestFinalXOF (OSSL_DIGEST_PARAM_XOFLEN),
# lengths around both rates (168, 136) and past several blocks
for md in shake128 shake256; do
	for len in 1 31 135 136 137 168 169 4999; do
		$TR openssl dgst -$md -xoflen $len $R -r "$T/msg" > "$T/r" 2>"$T/trace"
		openssl dgst -$md -xoflen $len -r "$T/msg" > "$T/d" 2>/dev/null
		same "$T/r" "$T/d" "dgst -$md -xoflen $len"
	done
	served "$T/trace" "digest $md final, 4999 bytes" "dgst -$md -xoflen 4999"
done
# an application's XOF (python's hashlib.shake_*: EVP_DigestFinalXOF) at
# random lengths, rind preferred against the default provider alone
if command -v python3 >/dev/null; then
	cat > "$T/xof.py" <<'EOPY'
import hashlib, random, sys
r = random.Random(int(sys.argv[2]))
data = open(sys.argv[1], "rb").read()
for _ in range(200):
    m = data[:r.randrange(0, 2000)]
    n = r.randrange(1, 3000)
    print(hashlib.shake_128(m).hexdigest(n), hashlib.shake_256(m).hexdigest(n),
          hashlib.sha3_224(m).hexdigest(), hashlib.sha3_384(m).hexdigest())
EOPY
	seed=$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')
	OPENSSL_CONF="$T/rind.cnf" RIND_PROVIDER_TRACE=1 python3 "$T/xof.py" "$T/msg" $seed > "$T/r" 2>"$T/trace"
	OPENSSL_CONF=/dev/null python3 "$T/xof.py" "$T/msg" $seed > "$T/d" 2>/dev/null
	if [ "$(wc -l < "$T/r")" = 200 ]; then same "$T/r" "$T/d" "python hashlib shake/sha3 (seed $seed)"
	else bad "python hashlib through rind: $(tail -2 "$T/trace")"; fi
	served "$T/trace" "digest shake128 final" "python hashlib.shake_128"
	served "$T/trace" "digest shake256 final" "python hashlib.shake_256"
	served "$T/trace" "digest sha3-384 " "python hashlib.sha3_384"
fi
for md in SHA1 SHA224 SHA256 SHA384 SHA512 SHA3-224 SHA3-256 SHA3-384 SHA3-512; do
	for key in 00 000102030405060708090a0b0c0d0e0f $(head -c 200 /dev/urandom | od -An -tx1 | tr -d ' \n'); do
		$TR openssl mac $R -digest $md -macopt hexkey:$key -in "$T/msg" HMAC > "$T/r" 2>"$T/trace"
		openssl mac -digest $md -macopt hexkey:$key -in "$T/msg" HMAC > "$T/d" 2>/dev/null
		same "$T/r" "$T/d" "mac HMAC $md"
	done
	served "$T/trace" "mac HMAC" "mac HMAC $md"
done
kdf() {
	$TR openssl kdf $R "$@" > "$T/r" 2>"$T/trace" || echo "rind kdf failed: $*" >> "$T/r"
	openssl kdf "$@" > "$T/d" 2>/dev/null
	same "$T/r" "$T/d" "kdf $*"
	served "$T/trace" "kdf " "kdf $*"
}
for md in SHA256 SHA384 SHA512; do
	kdf -keylen 42 -kdfopt digest:$md -kdfopt key:secret -kdfopt salt:salt -kdfopt info:label HKDF
	kdf -keylen 300 -kdfopt digest:$md -kdfopt hexkey:0b0b0b0b -kdfopt info:x HKDF
	kdf -keylen 64 -kdfopt digest:$md -kdfopt mode:EXPAND_ONLY -kdfopt hexkey:$(head -c 64 /dev/urandom | od -An -tx1 | tr -d ' \n') -kdfopt info:i HKDF
	kdf -keylen 32 -kdfopt digest:$md -kdfopt pass:password -kdfopt salt:NaCl -kdfopt iter:1000 PBKDF2
	kdf -keylen 100 -kdfopt digest:$md -kdfopt secret:sec -kdfopt seed:"master secret" -kdfopt seed:randoms TLS1-PRF
	kdf -keylen 48 -kdfopt digest:$md -kdfopt mode:EXPAND_ONLY -kdfopt key:0123456789abcdef0123456789abcdef \
		-kdfopt prefix:"tls13 " -kdfopt label:"c hs traffic" -kdfopt hexdata:00112233 TLS13-KDF
done
kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt mode:EXTRACT_ONLY -kdfopt key:ikm -kdfopt salt:s HKDF
for md in SHA3-256 SHA3-384; do
	kdf -keylen 77 -kdfopt digest:$md -kdfopt key:secret -kdfopt salt:salt -kdfopt info:label HKDF
	kdf -keylen 32 -kdfopt digest:$md -kdfopt pass:password -kdfopt salt:NaCl -kdfopt iter:100 PBKDF2
done
# the TLS 1.3 extract step with a previous secret (salt = Derive-Secret(prev, "derived", ""))
kdf -keylen 32 -kdfopt digest:SHA256 -kdfopt mode:EXTRACT_ONLY -kdfopt hexkey:0102 \
	-kdfopt hexsalt:$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') -kdfopt prefix:"tls13 " -kdfopt label:derived TLS13-KDF

# ---- unauthenticated ciphers, both ways, odd update sizes ----
K=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
IV=f0e0d0c0b0a090807060504030201000
for c in aes-128-ecb aes-192-ecb aes-256-ecb aes-128-cbc aes-192-cbc aes-256-cbc aes-128-ctr aes-192-ctr aes-256-ctr; do
	case $c in *128*) k=$(echo $K | cut -c1-32);; *192*) k=$(echo $K | cut -c1-48);; *) k=$K;; esac
	case $c in *ecb) iv="";; *) iv="-iv $IV";; esac
	for n in 0 1 16 31 4097; do
		head -c $n "$T/msg" > "$T/p"
		for bs in 7 4096; do
			$TR openssl enc -$c $R -bufsize $bs -K $k $iv -in "$T/p" -out "$T/c1" 2>"$T/trace"
			openssl enc -$c -K $k $iv -in "$T/p" -out "$T/c2" 2>/dev/null
			same "$T/c1" "$T/c2" "enc -$c n=$n bufsize=$bs"
			openssl enc -d -$c $R -bufsize $bs -K $k $iv -in "$T/c2" -out "$T/d1" 2>/dev/null
			same "$T/d1" "$T/p" "enc -d -$c n=$n bufsize=$bs"
		done
	done
	served "$T/trace" "cipher AES-" "enc -$c"
done
# bad PKCS#7 padding is an error, not output: blocks whose last bytes are
# no valid padding (0x00; 03 03 02; 0x11), made with -nopad
k16=$(echo $K | cut -c1-32)
for tail in '\000' '\003\003\002' '\021'; do
	{ head -c $((48 - $(printf "$tail" | wc -c))) "$T/msg"; printf "$tail"; } > "$T/p"
	openssl enc -aes-128-cbc -nopad -K $k16 -iv $IV -in "$T/p" -out "$T/c2" 2>/dev/null
	[ "$(wc -c < "$T/c2")" = 48 ] || bad "cbc: -nopad test input"
	if openssl enc -d -aes-128-cbc $R -K $k16 -iv $IV -in "$T/c2" -out "$T/d1" 2>/dev/null; then
		bad "cbc: bad padding accepted ($tail)"; else ok; fi
done

# ---- the random source ----
cat > "$T/rand.cnf" <<EOC
openssl_conf = openssl_init
[openssl_init]
providers = provider_sect
random = random_sect
[provider_sect]
rind = rind_sect
[rind_sect]
module = $MODDIR/rind.so
activate = 1
[random_sect]
random = RIND-DRBG
properties = provider=rind
EOC
OPENSSL_CONF="$T/rand.cnf" RIND_PROVIDER_TRACE=1 openssl rand -hex 64 > "$T/r1" 2>"$T/trace"
OPENSSL_CONF="$T/rand.cnf" openssl rand -hex 64 > "$T/r2" 2>/dev/null
if [ "$(wc -c < "$T/r1")" = 129 ] && ! cmp -s "$T/r1" "$T/r2"; then ok; else bad "openssl rand through RIND-DRBG"; fi
served "$T/trace" "rand RIND-DRBG" "openssl rand"

# HMAC and the KDFs by an EVP program (kdfmac_evp.c): keys across
# contexts, a fresh context after a keyed one is freed, dup/reset,
# parameters inline and on the heap, threads and a forked child
evp_prog kdfmac_evp "$MODDIR"

# The ciphers' mode, key, IV and block sizes, AEAD and custom-IV flags and
# gettable lists, against the default provider's (cipher_evp.c)
evp_prog cipher_evp "$MODDIR"

# rindd key-reference files and PKCS#8 keys through the decoders by an EVP
# program (keyref_evp.c): PEM_read_bio_PrivateKey and OSSL_DECODER, with and
# without the default provider, every key type a reference holds, and
# malformed references refused with their reason
evp_prog keyref_evp "$MODDIR"

SECTIONS_DONE=1
. "$(dirname "$0")/pk.sh"
. "$(dirname "$0")/mldsa.sh"
. "$(dirname "$0")/tls.sh"
. "$(dirname "$0")/rindd.sh"
. "$(dirname "$0")/node.sh"

echo "check-provider: $pass passed, $fail failed"
[ "$fail" = 0 ]
