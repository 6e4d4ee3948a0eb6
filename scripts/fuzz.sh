#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Run rind's libFuzzer targets (tests/fuzz/fuzz_*.c, built by `make fuzz`).
#
#   sh scripts/fuzz.sh BUILDDIR SECONDS [TARGET...]
#
# For each target (all of tests/fuzz/fuzz_*.c, or the TARGETs named, with
# or without the fuzz_ prefix), whose binary is BUILDDIR/fuzz_<name> (or
# BUILDDIR/tests/fuzz/fuzz_<name>):
#   1. replay every reproducer in tests/fuzz/regress/<target>/ and every
#      file of the seed corpus tests/fuzz/corpus/<target>/;
#   2. fuzz for SECONDS seconds, starting from a scratch copy of the
#      corpus (the checked-in corpus is never written to);
#   3. print the executions and the coverage (libFuzzer's cov: edges and
#      ft: features) from libFuzzer's final statistics.
# A crash, leak, sanitizer report, timeout or out-of-memory stops that
# target: its reproducer is kept in BUILDDIR/fuzz-crashes/<target>/ (with
# the log), and the script exits non-zero after the remaining targets ran.
# Minimise a reproducer and make it a regression input with
#   BUILDDIR/fuzz_<name> -minimize_crash=1 -runs=20000 -exact_artifact_path=MIN CRASH
#   cp MIN tests/fuzz/regress/<target>/<short-description>
#
# Environment: FUZZ_WORKDIR keeps the scratch directories there (new
# corpus entries can then be reviewed and merged by hand); FUZZ_ARGS adds
# libFuzzer options (e.g. "-jobs=2").
#
#   sh scripts/fuzz.sh --make-corpus [WYCHEPROOF_DIR]
#
# rebuilds tests/fuzz/corpus/ from the test vectors (Wycheproof, default
# ../shared/vectors/wycheproof, plus RFC 8032 keys), deterministically;
# needs python3.  Each target's input layout is described at the top of
# its source file; the seeds follow it.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)

if [ "${1:-}" = "--make-corpus" ]; then
	WP=${2:-$ROOT/../shared/vectors/wycheproof}
	[ -d "$WP" ] || { echo "fuzz.sh: no Wycheproof directory $WP" >&2; exit 1; }
	rm -rf "$ROOT/tests/fuzz/corpus"
	python3 - "$WP" "$ROOT/tests/fuzz/corpus" <<'PYTHON' || exit 1
import base64, hashlib, json, os, random, struct, sys

wp, out = sys.argv[1], sys.argv[2]
rnd = random.Random(8)


def load(name):
    with open(os.path.join(wp, name)) as f:
        return json.load(f)


def h(s):
    return bytes.fromhex(s)


def u16(v):
    return struct.pack("<H", v & 0xffff)


def put(target, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def split():
    """A scatterlist split: a count byte and 7 cut points."""
    return bytes([rnd.randrange(8)]) + b"".join(u16(rnd.randrange(65536)) for _ in range(7))


def pick(tests, k):
    return tests if len(tests) <= k else rnd.sample(tests, k)


def rand_bytes(n):
    return bytes(rnd.randrange(256) for _ in range(n))


# ---- fuzz_aead: Wycheproof AEAD cases, sealed (valid) or opened as given
GCM_TAGS = {16: 0, 4: 1, 8: 2, 12: 3, 13: 4, 14: 5, 15: 6}


def aead_seed(alg, t, tagidx, openonly):
    key, iv, ad = h(t["key"]), h(t["iv"]), h(t["aad"])
    text = h(t["ct"]) + h(t["tag"]) if openonly else h(t["msg"])
    flags = rnd.randrange(2) | tagidx << 1 | (0x10 if openonly else 0)
    mut = u16(rnd.randrange(65536)) + bytes([rnd.choice([0, 0, 1, 0x80])])
    hdr = bytes([alg, rnd.randrange(16), flags]) + u16(len(ad)) + split() + split() + mut
    return hdr + key + iv + ad + text


for fname, fixed in (("aes_gcm_test.json", None), ("chacha20_poly1305_test.json", 3),
                     ("xchacha20_poly1305_test.json", 4)):
    cases = []
    for g in load(fname)["testGroups"]:
        if g["ivSize"] != (192 if fixed == 4 else 96):
            continue
        if fixed is None:
            if g["tagSize"] // 8 not in GCM_TAGS:
                continue
            alg, tagidx = {128: 0, 192: 1, 256: 2}[g["keySize"]], GCM_TAGS[g["tagSize"] // 8]
        else:
            alg, tagidx = fixed, 0
        cases += [(alg, t, tagidx) for t in g["tests"]]
    n = 18 if fixed is None else 8
    for alg, t, tagidx in pick([c for c in cases if c[1]["result"] == "valid"], n):
        put("fuzz_aead", aead_seed(alg, t, tagidx, False))
    for alg, t, tagidx in pick([c for c in cases if c[1]["result"] != "valid"], n // 3):
        put("fuzz_aead", aead_seed(alg, t, tagidx, True))
for alg in range(5):
    # Long texts, for the 8- and 16-block loops.
    keyiv = (16, 24, 32, 32, 32)[alg] + (24 if alg == 4 else 12)
    for n in (255, 1024):
        hdr = bytes([alg, rnd.randrange(16), rnd.randrange(2)]) + u16(rnd.randrange(40)) + \
            split() + split() + b"\0\0\0"
        put("fuzz_aead", hdr + rand_bytes(keyiv + n))

# ---- fuzz_hash: Wycheproof HMAC keys and messages, and block-edge lengths
for i, sha in enumerate(("sha1", "sha224", "sha256", "sha384", "sha512")):
    tests = [t for g in load("hmac_%s_test.json" % sha)["testGroups"] for t in g["tests"]
             if t["result"] == "valid" and len(t["key"]) <= 510]
    for t in pick(tests, 3):
        hdr = bytes([5 + i, rnd.randrange(8), rnd.randrange(16), len(t["key"]) // 2,
                     rnd.randrange(17)]) + b"".join(u16(rnd.randrange(65536)) for _ in range(16))
        put("fuzz_hash", hdr + h(t["key"]) + h(t["msg"]))
    for n in (0, 55, 64, 112, 129, 1000):
        hdr = bytes([i, rnd.randrange(8), rnd.randrange(16), 0, rnd.randrange(17)]) + \
            b"".join(u16(rnd.randrange(65536)) for _ in range(16))
        put("fuzz_hash", hdr + rand_bytes(n))

# ---- fuzz_25519: X25519 cases, RFC 8032 seeds, Ed25519 verify cases
for t in pick([t for g in load("x25519_test.json")["testGroups"] for t in g["tests"]], 24):
    put("fuzz_25519", bytes([0, rnd.randrange(8), rnd.randrange(33)]) + h(t["private"]) +
        h(t["public"]))
RFC8032 = (
    ("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", ""),
    ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72"),
    ("c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82"),
)
for seed, _, msg in RFC8032:
    for mx in (0, 1, 0x80):
        put("fuzz_25519", bytes([1, rnd.randrange(8)]) + u16(rnd.randrange(65536)) + bytes([mx]) +
            h(seed) + h(msg))
ed = load("ed25519_test.json")["testGroups"]
edtests = [(g["publicKey"]["pk"], t) for g in ed for t in g["tests"] if len(t["sig"]) == 128]
for pk, t in pick(edtests, 24):
    put("fuzz_25519", bytes([2, rnd.randrange(8)]) + h(pk) + h(t["sig"]) + h(t["msg"]))

# ---- fuzz_sigverify: Ed25519 verify cases, raw and encoded keys
for pk, t in pick(edtests, 16):
    key, sig = h(pk), h(t["sig"])
    put("fuzz_sigverify", bytes([rnd.randrange(8), 1 | rnd.randrange(2) << 1]) + u16(len(key)) +
        u16(len(sig)) + key + sig + h(t["msg"]))
g = ed[0]
for enc in (h(g["publicKeyDer"]), g["publicKeyPem"].encode(),
            json.dumps(g["publicKeyJwk"], separators=(",", ":")).encode()):
    t = g["tests"][0]
    put("fuzz_sigverify", bytes([rnd.randrange(8), 1]) + u16(len(enc)) + u16(len(t["sig"]) // 2) +
        enc + h(t["sig"]) + h(t["msg"]))
for n in (0, 1, 64, 200):
    put("fuzz_sigverify", bytes([rnd.randrange(8), 2 | rnd.randrange(2) << 2, 0, 0]) + u16(64) + rand_bytes(64 + n))

# ---- fuzz_keyparse: key encodings of every kind


def kp(sel, par, data):
    put("fuzz_keyparse", bytes([sel, par]) + data)


def pem_body(p):
    return "".join(l for l in p.splitlines() if not l.startswith("-----")).encode()


def enc(o):
    return json.dumps(o, separators=(",", ":")).encode() if isinstance(o, dict) else o.encode()


def der_octets(der):
    """The first OCTET STRING directly inside the outer SEQUENCE."""
    def tlv(b, i):
        tag, l = b[i], b[i + 1]
        i += 2
        if l & 0x80:
            n = l & 0x7f
            l, i = int.from_bytes(b[i:i + n], "big"), i + n
        return tag, b[i:i + l], i + l
    _, body, _ = tlv(der, 0)
    i = 0
    while i < len(body):
        tag, v, i = tlv(body, i)
        if tag == 0x04:
            return v


xasn = [t for g in load("x25519_asn_test.json")["testGroups"] for t in g["tests"]]
xpem = [t for g in load("x25519_pem_test.json")["testGroups"] for t in g["tests"]]
xjwk = [t for g in load("x25519_jwk_test.json")["testGroups"] for t in g["tests"]]
ecpem = [t for g in load("ecdh_secp256r1_pem_test.json")["testGroups"] for t in g["tests"]
         if t["result"] == "valid"]
ecjwk = [t for g in load("ecdh_secp256r1_webcrypto_test.json")["testGroups"] for t in g["tests"]]
ecdsa = load("ecdsa_secp256r1_sha256_test.json")["testGroups"]
seed, pub1 = h(RFC8032[0][0]), h(RFC8032[0][1])
p8v1 = h("302e020100300506032b657004220420") + seed
p8v2 = h("3051020101300506032b657004220420") + seed + h("812100") + pub1
b64u = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()

for t in pick(xasn, 4):                                 # 0 DER, 1 SPKI, 2 PKCS#8
    kp(0, 0, h(t["public"]))
    kp(1, 0, h(t["public"]))
    kp(2, 0, h(t["private"]))
for g in pick(ecdsa, 2):
    kp(0, 0, h(g["publicKeyDer"]))
    kp(1, 0, h(g["publicKeyDer"]))
    kp(0, 0, h(g["tests"][0]["sig"]))
kp(2, 0, p8v1)
kp(2, 0, p8v2)
for t in pick(ecpem, 3):                                # 3 SEC1 ECPrivateKey
    der = base64.b64decode(pem_body(t["private"]))
    kp(3, 0, der_octets(der))
    kp(2, 0, der)
for t in pick(xpem, 3):                                 # 4 base64, 5 PEM
    kp(4, 0, pem_body(t["public"]))
    kp(5, rnd.randrange(4), t["public"].encode())
    kp(5, rnd.randrange(4), t["private"].encode())
for t in pick(ecpem, 1):
    kp(5, 0, t["public"].encode())
    kp(5, 2, t["private"].encode())
for t in pick(xjwk, 3) + pick(ecjwk, 2):                # 6 JSON
    kp(6, 0, enc(t["public"]))
    kp(6, 0, enc(t["private"]))
    if isinstance(t["public"], dict) and "x" in t["public"]:
        kp(4, 3, t["public"]["x"].encode())
for e in (pub1, h(g["publicKeyDer"]), ed[0]["publicKeyPem"].encode(), enc(ed[0]["publicKeyJwk"])):
    kp(7, 1, e)                                         # 7 OKP public, 10 sig public
    kp(10, rnd.randrange(8), e)
for e in (seed, p8v1, p8v2,
          b"-----BEGIN PRIVATE KEY-----\n" + base64.b64encode(p8v1) + b"\n-----END PRIVATE KEY-----\n",
          enc({"kty": "OKP", "crv": "Ed25519", "d": b64u(seed), "x": b64u(pub1)})):
    kp(8, 1, e)                                         # 8 OKP private, 9 sig private
    kp(9, rnd.randrange(8), e)
for t, f in [(t, h) for t in pick(xasn, 2)] + [(t, enc) for t in pick(xpem, 2) + pick(xjwk, 2)]:
    kp(7, 0, f(t["public"]))                            # 11 kpp secret / encoded peer
    kp(8, 0, f(t["private"]))
    kp(11, rnd.randrange(8), f(t["private"]))
    kp(11, rnd.randrange(8), f(t["public"]))

# RSA, ECDSA, ECDH and ML-KEM keys for the registry readers (9-13).
rsag = load("rsa_pkcs1_2048_sig_gen_test.json")["testGroups"][0]
rsav = load("rsa_signature_2048_sha256_test.json")["testGroups"][0]
oaep = load("rsa_oaep_2048_sha256_mgf1sha256_test.json")["testGroups"][0]
ecp = load("ecdsa_secp256r1_sha256_p1363_test.json")["testGroups"][0]
for e in (h(rsag["privateKeyPkcs8"]), rsag["privateKeyPem"].encode(), ecpem[0]["private"].encode()):
    kp(9, rnd.randrange(128), e)
for e in (h(rsav["publicKeyDer"]), h(rsav["publicKeyAsn"]), rsav["publicKeyPem"].encode(),
          enc(rsav["keyJwk"]), h(ecp["publicKeyDer"]), h(ecp["publicKey"]["uncompressed"]),
          enc(ecp["publicKeyJwk"])):
    kp(10, rnd.randrange(128), e)
ecdh = [t for g in load("ecdh_secp384r1_test.json")["testGroups"] for t in g["tests"]]
for t in pick(ecdh, 2):
    kp(11, rnd.randrange(128), h(t["private"]))
    kp(11, rnd.randrange(128), h(t["public"]))
kp(11, rnd.randrange(128), ecpem[0]["private"].encode())
kp(11, rnd.randrange(128), enc(ecjwk[0]["private"]))
for n in (512, 768):
    t = load("mlkem_%d_test.json" % n)["testGroups"][0]["tests"][0]
    kp(12, rnd.randrange(128), h(t["seed"]))
    kp(12, 0x80 | rnd.randrange(128), h(t["ek"]))
for e in (h(oaep["privateKeyPkcs8"]), oaep["privateKeyPem"].encode(), enc(oaep["privateKeyJwk"])):
    kp(13, rnd.randrange(128), e)
kp(13, 0x80 | rnd.randrange(128), h(rsav["publicKeyDer"]))

# ---- fuzz_sigverify: RSA and ECDSA verify cases too
for g, keyname in ((rsav, "publicKeyDer"), (ecp, "publicKeyDer"),
                   (load("ecdsa_secp256r1_sha256_test.json")["testGroups"][0], "publicKeyDer")):
    for t in pick(g["tests"], 3):
        key, sig = h(g[keyname]), h(t["sig"])
        put("fuzz_sigverify", bytes([rnd.randrange(256), 1 | rnd.randrange(2) << 1]) +
            u16(len(key)) + u16(len(sig)) + key + sig + h(t["msg"]))

# ---- fuzz_frame: framed protobuf Requests (hand-encoded), a Response, a StoredKey


def varint(v):
    b = b""
    while True:
        x, v = v & 0x7f, v >> 7
        if not v:
            return b + bytes([x])
        b += bytes([x | 0x80])


def fld(n, v):
    if isinstance(v, int):
        return varint(n << 3) + varint(v)
    v = v.encode() if isinstance(v, str) else v
    return varint(n << 3 | 2) + varint(len(v)) + v


def frame(p):
    return struct.pack(">I", len(p)) + p


reqs = [fld(1, i + 1) + fld(op, body) for i, (op, body) in enumerate([
    (10, fld(1, 1) + fld(2, "fuzz")),                                   # Hello
    (11, fld(1, "k1") + fld(2, "ed25519") + fld(3, 1)),                 # CreateKey
    (11, fld(1, "aes.key-1") + fld(2, "aes-256-gcm")),
    (11, fld(1, ".bad") + fld(2, "rsa-2048")),
    (12, fld(1, "imp") + fld(2, "ed25519") + fld(3, seed)),             # ImportKey
    (12, fld(1, "imp2") + fld(2, "x25519") + fld(3, enc(xjwk[0]["private"])) + fld(4, 4)),
    (13, fld(1, "k1") + fld(2, 4)),                                     # GetPublicKey
    (14, b""),                                                          # ListKeys
    (15, fld(1, "k1")),                                                 # DeleteKey
    (16, fld(1, "k1") + fld(2, "message")),                             # Sign
    (17, fld(1, "k1") + fld(2, "message") + fld(3, bytes(64)) + fld(4, 1)),   # Verify
    (18, fld(1, "aes") + fld(2, "plaintext") + fld(3, "ad")),           # Seal
    (19, fld(1, "aes") + fld(2, bytes(40)) + fld(3, "ad")),             # Open
    (20, fld(1, "x") + fld(2, bytes(range(32)))),                       # Derive
    (21, b""),                                                          # Stats
])]
for r in reqs:
    put("fuzz_frame", bytes([3]) + frame(r))
    put("fuzz_frame", bytes([2 | 4 * rnd.randrange(4)]) + frame(r) + frame(rnd.choice(reqs)))
put("fuzz_frame", bytes([4 | 3]) + fld(1, 7) + fld(2, 0) + fld(11, bytes(64)) + fld(14, 1))
put("fuzz_frame", bytes([4 | 3]) + fld(1, 8) +
    fld(12, fld(1, fld(1, "k1") + fld(2, "ed25519") + fld(3, 1000) + fld(5, 2))))
put("fuzz_frame", bytes([8 | 3]) + fld(1, "k1") + fld(2, "ed25519") + fld(3, 1000) + fld(4, 1001) +
    fld(7, 2) + fld(9, bytes(32)) + fld(10, fld(1, 1) + fld(2, bytes(32))) + fld(11, 1))
put("fuzz_frame", bytes([3]) + struct.pack(">I", 1 << 24))             # over the limit
put("fuzz_frame", bytes([3]) + frame(reqs[0])[:7])                     # truncated
# ---- fuzz_kem: ML-KEM seeds, vector ciphertexts, expanded and public keys


def kem(alg, kmode, cmode, keylen=0, pos=0, xor=0, short=0, impl=0):
    return bytes([alg | impl << 2, kmode | cmode << 2 | (0x10 if short else 0)]) + \
        u16(keylen) + u16(pos) + bytes([xor, short])


CTSIZE = {0: 768, 1: 1088, 2: 1568, 3: 1120}
for a, n in enumerate((512, 768, 1024)):
    kg = [t for g in load("mlkem_%d_keygen_seed_test.json" % n)["testGroups"] for t in g["tests"]]
    for t in pick(kg, 1):
        seed = h(t["seed"])
        put("fuzz_kem", kem(a, 0, 0) + seed + rand_bytes(32))                        # round trip
        put("fuzz_kem", kem(a, 1, 0, pos=rnd.randrange(65536), xor=1 + rnd.randrange(255)) +
            seed + rand_bytes(32))                                                    # expanded, changed
        put("fuzz_kem", kem(a, 0, 3, short=1 + rnd.randrange(40)) + seed)             # random m, short buffers
        put("fuzz_kem", kem(a, 2, 0, keylen=len(seed)) + seed + rand_bytes(32))       # seed as arbitrary key
    dec = [t for g in load("mlkem_%d_test.json" % n)["testGroups"] for t in g["tests"]
           if len(t["seed"]) == 128]
    for t in pick([t for t in dec if t["result"] == "valid"], 3):
        put("fuzz_kem", kem(a, rnd.randrange(2), 1) + h(t["seed"]) + h(t["c"]))
    for t in pick([t for t in dec if len(t["c"]) // 2 != CTSIZE[a]], 2):
        put("fuzz_kem", kem(a, 0, 2, pos=len(t["c"]) // 2) + h(t["seed"]) + h(t["c"]))
    if n != 1024:       # an expanded key and a ciphertext exceed -max_len=4096 for ML-KEM-1024
        semi = [t for g in load("mlkem_%d_semi_expanded_decaps_test.json" % n)["testGroups"]
                for t in g["tests"]]
        for t in pick([t for t in semi if t["result"] == "valid"], 1) + \
                pick([t for t in semi if t["result"] != "valid"], 3):
            dk, c = h(t["dk"]), h(t["c"])
            cm = 1 if len(c) == CTSIZE[a] else 2
            put("fuzz_kem", kem(a, 2, cm, keylen=len(dk), pos=len(c)) + dk + c)
    encv = [t for g in load("mlkem_%d_encaps_test.json" % n)["testGroups"] for t in g["tests"]]
    for t in pick([t for t in encv if t["result"] == "valid"], 2) + \
            pick([t for t in encv if "ModulusOverflow" in t["flags"]], 2) + \
            pick([t for t in encv if len(t["ek"]) // 2 != 384 * (a + 2) + 32], 1):
        ek = h(t["ek"])
        put("fuzz_kem", kem(a, 3, 0, keylen=len(ek)) + ek + h(t["m"]))
# x25519mlkem768: seeds (ML-KEM seed || X25519 secret), changes in either part,
# a small-order X25519 share, the expanded form from a vector's dk.
kg = [t for g in load("mlkem_768_keygen_seed_test.json")["testGroups"] for t in g["tests"]]
for t in pick(kg, 2):
    seed = h(t["seed"]) + rand_bytes(32)
    put("fuzz_kem", kem(3, 0, 0) + seed + rand_bytes(64))
    put("fuzz_kem", kem(3, 1, 0, pos=1088 + rnd.randrange(32), xor=1 + rnd.randrange(255)) + seed +
        rand_bytes(64))
    put("fuzz_kem", kem(3, 0, 0, pos=rnd.randrange(1088), xor=0x80) + seed + rand_bytes(64))
    put("fuzz_kem", kem(3, 0, 1) + seed + rand_bytes(1088) + bytes(32))             # zero X25519 share
    put("fuzz_kem", kem(3, 0, 3, short=1 + rnd.randrange(60)) + seed)
    ek = h(t["ek"])
    put("fuzz_kem", kem(3, 3, 0, keylen=len(ek) + 32) + ek + bytes(32) + rand_bytes(64))  # small-order peer
    put("fuzz_kem", kem(3, 3, 0, keylen=len(ek) + 32) + ek + rand_bytes(32) + rand_bytes(64))
semi = [t for g in load("mlkem_768_semi_expanded_decaps_test.json")["testGroups"] for t in g["tests"]
        if t["result"] == "valid"]
for t in semi[:2]:
    dk = h(t["dk"]) + rand_bytes(32)
    put("fuzz_kem", kem(3, 2, 1, keylen=len(dk)) + dk + h(t["c"]) + rand_bytes(32))
put("fuzz_kem", kem(3, 2, 2, keylen=96, pos=1119) + rand_bytes(96) + rand_bytes(1119))

# ---- fuzz_akcipher: OAEP vectors, round trips, RSA keys, PKCS#1 and PSS signatures


def akc(op, b1=0, b2=0, b3=0, b4=0, b5=0, b6=0, b7=0, b8=0):
    return bytes([op, b1, b2, b3, b4, b5, b6, b7, b8])


for fname, key in (("rsa_oaep_2048_sha256_mgf1sha256_test.json", 1),
                   ("rsa_oaep_3072_sha256_mgf1sha256_test.json", 2)):
    tests = load(fname)["testGroups"][0]["tests"]
    for t in pick([t for t in tests if t["result"] == "valid"], 2) + \
            pick([t for t in tests if t["result"] != "valid"], 2):
        small = rnd.randrange(4) == 0
        put("fuzz_akcipher", akc(0, key, 1 if small else 0, rnd.randrange(64), rnd.randrange(256)) +
            h(t["ct"]))
for key in range(3):
    for hsh in range(3):
        for enc_by_rind in ((key + hsh) & 1,):
            put("fuzz_akcipher", akc(1, key | hsh << 2, 0, 0, rnd.randrange(256), enc_by_rind,
                                     rnd.randrange(256), rnd.randrange(256), rnd.choice([0, 0, 1, 0x80])) +
                rand_bytes(rnd.choice([0, 1, 16, 62])))
put("fuzz_akcipher", akc(1, 0, 1, 3, 0, 1) + rand_bytes(20))          # destination too small
put("fuzz_akcipher", akc(1, 4 | 1, 0, 0, 0, 1) + rand_bytes(300))     # plaintext too long
g = load("rsa_oaep_2048_sha256_mgf1sha256_test.json")["testGroups"][0]
p1 = der_octets(h(g["privateKeyPkcs8"]))
for e in (h(g["privateKeyPkcs8"]), g["privateKeyPem"].encode(), enc(g["privateKeyJwk"]), p1,
          b"-----BEGIN RSA PRIVATE KEY-----\n" + base64.encodebytes(p1) + b"-----END RSA PRIVATE KEY-----\n"):
    put("fuzz_akcipher", akc(2, 1) + e)
for g in (load("rsa_signature_2048_sha256_test.json")["testGroups"][0],
          load("rsa_signature_3072_sha256_test.json")["testGroups"][0]):
    for e in (h(g["publicKeyDer"]), h(g["publicKeyAsn"]), g["publicKeyPem"].encode(), enc(g["keyJwk"])):
        put("fuzz_akcipher", akc(2, 0) + e)
for fname, pss, hsh, key in (("rsa_signature_2048_sha256_test.json", 0, 0, 3),
                             ("rsa_pss_2048_sha256_mgf1_32_test.json", 1, 0, 3),
                             ("rsa_pss_2048_sha384_mgf1_48_test.json", 1, 1, 4)):
    tests = load(fname)["testGroups"][0]["tests"]
    for t in pick([t for t in tests if t["result"] == "valid"], 2) + \
            pick([t for t in tests if t["result"] != "valid"], 2):
        sig = h(t["sig"])
        put("fuzz_akcipher", akc(3, pss | hsh << 1, key, 0, 0, 0, 0, len(sig) & 0xff, len(sig) >> 8) +
            sig + h(t["msg"]))
for key in range(3):
    for pss in (key & 1,):
        put("fuzz_akcipher", akc(3, pss | rnd.randrange(3) << 1, key, 1, rnd.randrange(256),
                                 rnd.randrange(256), rnd.choice([0, 1, 0x40])) + rand_bytes(rnd.randrange(40)))

# ---- fuzz_dispatch: rind.Request messages (fields as fuzz_frame's), alone and in
# sequences separated by fe fe 52 51, against the target's fixed keys.


def fixed_secret(k, v, x25519=False):
    s = bytearray((0x5a ^ (k * 31) ^ (v * 77) ^ (i * 13)) & 0xff for i in range(32))
    if x25519:
        s[0] &= 248
        s[31] = (s[31] & 127) | 64
    return bytes(s)


def rq(rid, op, body):
    return fld(1, rid) + fld(op, body)


SEP = b"\xfe\xfe\x52\x51"


def disp(*reqs):
    put("fuzz_dispatch", SEP.join(reqs))


HELLO = rq(1, 10, fld(1, 1) + fld(2, "fuzz"))
disp(HELLO)
disp(rq(2, 10, fld(1, 2)))
disp(rq(3, 21, b""))
disp(rq(4, 14, b""))
disp(b"")
for i, (name, alg) in enumerate([("k1", "ed25519"), ("k2", "x25519"), ("k3", "aes-256-gcm"),
                                 ("k4", "curve25519"), (".bad", "ed25519"), ("ok", "rsa-2048"),
                                 ("ok", "nope"), ("ed", "ed25519"), ("", "ed25519"), ("a" * 65, "x25519")]):
    disp(rq(10 + i, 11, fld(1, name) + fld(2, alg) + fld(3, i & 1)))
for i, (alg, key, fmt) in enumerate([("ed25519", rand_bytes(32), 0), ("x25519", rand_bytes(32), 0),
                                     ("aes-256-gcm", rand_bytes(32), 0), ("ed25519", p8v1, 2),
                                     ("ed25519", p8v2, 2), ("x25519", enc(xjwk[0]["private"]), 4),
                                     ("x25519", xpem[0]["private"].encode(), 3),
                                     ("aes-256-gcm", rand_bytes(32), 2), ("ed25519", rand_bytes(31), 0)]):
    disp(rq(30 + i, 12, fld(1, "imp%d" % i) + fld(2, alg) + fld(3, key) + fld(4, fmt) + fld(5, 1)))
for name in ("ed", "aes", "x", "exp", "other-ed", "other-aes", "other-x", "missing", ""):
    for fmt in range(5):
        if rnd.randrange(3) == 0 or name in ("ed", "x", "exp"):
            disp(rq(50 + fmt, 13, fld(1, name) + fld(2, fmt)))
disp(rq(60, 13, fld(1, "ed") + fld(2, 9)))
for name in ("ed", "other-ed", "other-x", "missing", "x", ""):
    disp(rq(61, 15, fld(1, name)))
for name in ("ed", "exp", "other-ed", "other-x", "aes", "missing"):
    disp(rq(70, 16, fld(1, name) + fld(2, rand_bytes(rnd.randrange(64)))))
for name in ("aes", "other-aes", "ed", "missing"):
    disp(rq(71, 18, fld(1, name) + fld(2, rand_bytes(rnd.randrange(64))) + fld(3, rand_bytes(rnd.randrange(8)))))
for name in ("x", "other-x", "ed"):
    disp(rq(72, 20, fld(1, name) + fld(2, rand_bytes(32))))
disp(rq(73, 20, fld(1, "x") + fld(2, bytes(32))))                          # small order
disp(rq(74, 20, fld(1, "x") + fld(2, rand_bytes(31))))
disp(rq(75, 17, fld(1, "ed") + fld(2, "m") + fld(3, rand_bytes(64)) + fld(4, 1)))   # retired
disp(rq(76, 17, fld(1, "ed") + fld(2, "m") + fld(3, rand_bytes(64)) + fld(4, 9)))   # no such version
disp(rq(77, 17, fld(1, "ed") + fld(2, "m") + fld(3, rand_bytes(63))))
disp(rq(78, 19, fld(1, "aes") + fld(2, rand_bytes(27))))
disp(rq(79, 19, fld(1, "aes") + fld(2, rand_bytes(60)) + fld(3, "ad") + fld(4, 1)))
disp(rq(80, 99, b""))                                                       # unknown field only
# Batches: more signs and seals than --max-batch 3, interleaved.
disp(*[rq(100 + i, 16 if i % 3 else 18, fld(1, "ed" if i % 3 else "aes") + fld(2, rand_bytes(i)))
       for i in range(9)])
# Life cycles.
disp(rq(110, 11, fld(1, "n1") + fld(2, "ed25519")), rq(111, 16, fld(1, "n1") + fld(2, "hi")),
     rq(112, 13, fld(1, "n1")), rq(113, 14, b""), rq(114, 15, fld(1, "n1")), rq(115, 16, fld(1, "n1")))
disp(rq(120, 15, fld(1, "ed")), rq(121, 11, fld(1, "ed") + fld(2, "x25519")),
     rq(122, 20, fld(1, "ed") + fld(2, rand_bytes(32))), rq(123, 14, b""))
disp(rq(130, 16, fld(1, "ed") + fld(2, "a")), rq(131, 15, fld(1, "ed")), rq(132, 16, fld(1, "ed")))
disp(rq(140, 12, fld(1, "i1") + fld(2, "aes-256-gcm") + fld(3, bytes(32))),
     rq(141, 18, fld(1, "i1") + fld(2, "pt") + fld(3, "ad")), rq(142, 12, fld(1, "i1") + fld(2, "x25519") + fld(3, bytes(32))))
put("fuzz_dispatch", HELLO + SEP + b"\x0a\xff")                           # a piece that does not unpack
# Key administration (rotate_key 30, retire_versions 31, set_access 32): the
# owner's keys, another owner's, a missing one, bad names; then a use.
for name in ("ed", "aes", "x", "other-ed", "missing", "", ".bad"):
    disp(rq(150, 30, fld(1, name)))
for name, v in (("ed", 3), ("ed", 1), ("ed", 4), ("ed", 0), ("aes", 2), ("other-aes", 1), ("missing", 1)):
    disp(rq(151, 31, fld(1, name) + fld(2, v)))
for name, body in (("ed", b""), ("ed", fld(2, 4242) + fld(3, 33)), ("ed", fld(4, 4242) + fld(5, 33)),
                   ("ed", fld(2, 7) + fld(4, 7)), ("ed", fld(4, 0)), ("ed", fld(4, 1000)),
                   ("ed", fld(3, 4294967295)), ("ed", fld(6, 1) + fld(2, 5)), ("other-ed", fld(2, 1000)),
                   ("missing", fld(2, 1))):
    disp(rq(152, 32, fld(1, name) + body))
disp(rq(160, 30, fld(1, "ed")), rq(161, 16, fld(1, "ed") + fld(2, "after")),
     rq(162, 31, fld(1, "ed") + fld(2, 4)), rq(163, 17, fld(1, "ed") + fld(2, "m") + fld(3, bytes(64))),
     rq(164, 32, fld(1, "aes") + fld(2, 1000)), rq(165, 21, b""), rq(166, 14, b""))
# Valid signatures and sealed boxes under the fixed keys (with the Python
# "cryptography" package when it is there).
try:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
except ImportError:
    Ed25519PrivateKey = None
if Ed25519PrivateKey:
    for v in (1, 2, 3):
        msg = rand_bytes(rnd.randrange(40))
        sig = Ed25519PrivateKey.from_private_bytes(fixed_secret(0, v)).sign(msg)
        for want in (0, v, 3 if v != 3 else 2):
            disp(rq(200 + v, 17, fld(1, "ed") + fld(2, msg) + fld(3, sig) + fld(4, want)))
    msg = b"other"
    disp(rq(210, 17, fld(1, "other-ed") + fld(2, msg) + fld(3, Ed25519PrivateKey.from_private_bytes(
        fixed_secret(4, 1)).sign(msg))))
    for k, v, name in ((1, 1, "aes"), (1, 2, "aes"), (5, 1, "other-aes"), (5, 2, "other-aes")):
        nonce, pt, ad = rand_bytes(12), rand_bytes(rnd.randrange(50)), rand_bytes(rnd.randrange(10))
        box = nonce + AESGCM(fixed_secret(k, v)).encrypt(nonce, pt, ad)
        for want in (0, v):
            disp(rq(220 + v, 19, fld(1, name) + fld(2, box) + fld(3, ad) + fld(4, want)))
# The other key types (the target's "ec", "rsa", "rsad", "dh", "kem", "cc"):
# sign with every option set (and refused ones), verify, decrypt, decapsulate,
# derive with the P-384 base point, seal/open, pub in every format, create and
# import with the type detected.
P384_G = bytes.fromhex("04aa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf"
                       "55296c3a545e3872760ab73617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da"
                       "3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5f")
EC_PEM = '-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgx+QSXJ9Wha8ThCMA\ntrNQohBnJbaoS8Jfa3kjtXSsxQ6hRANCAAQYsG8idTm72rrdL07Khp3ZykobI6Ad\nE3Jl+HPVwNK3GIbeHWayXpRCrJdIlpjqCTbxr577lTs7k98I+bneUcjC\n-----END PRIVATE KEY-----\n'
EC_SEC1 = '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIMfkElyfVoWvE4QjALazUKIQZyW2qEvCX2t5I7V0rMUOoAoGCCqGSM49\nAwEHoUQDQgAEGLBvInU5u9q63S9Oyoad2cpKGyOgHRNyZfhz1cDStxiG3h1msl6U\nQqyXSJaY6gk28a+e+5U7O5PfCPm53lHIwg==\n-----END EC PRIVATE KEY-----\n'
RSA_PEM = '-----BEGIN PRIVATE KEY-----\nMIIEvwIBADANBgkqhkiG9w0BAQEFAASCBKkwggSlAgEAAoIBAQDO8AvpqIB/c9gj\nNiHnrHS4lQGGh0qNsBsi3agDoKK5guJARRLI+oypo0wQFLOWMwGack98ZRivJgkR\nNQGIJx5W63VUyIWIFinSgNkO1vY0qnv0OdyL8V9BojKlyF0yulpzh8pI47CqB3g0\nS00ghdOJCOIGleG1b8K1n/85Oy1pWSApXr9Di79MRWlQ0Z7pROCzhGUb/QjRVEcp\nOSuwuSNrj+3TV7CtwKr5VO7GDmtYTEofK8nZOnxXsvRE4Wiqixju0sALc7/ly7ET\nvSo6Is8XwpSFfX/TXfxMHPoCdVIT1gN4XATdDXgssBOE+NZMSEyjideHnwV3Wr08\nDDqls1/pAgMBAAECggEADH5kLbuBZJCFLl0Mj3zzQBio8qsU5niJLuH0jKGEaZBc\nIha5g15TI0PLahYh4JHcSSuZHnDJHHv+pKYPXV3FQGivWQrROw3hgQbL9BAo5bWc\nTbq3lNBiGKeXCLjP3anwH5UFcsCicCWKzZd1RN8njhi18sFWUvq4JfiOs3Ed9QPz\naWGSTBNdYh+2xU2FdU/+r9fPL5UxzxNem65zde2kfwTsgs/B3ed/gdprTZQmUo1O\nGXC5f7UxZyVefPQnd/3R6PqnR3VL5RXQOzDiwYweW+W/O2ee/2c45AmHp9NXS85y\n4WNskBXWv/P4EMc93GyVVSuBhhg4TJROxxZZLMgNfQKBgQD17Z9xhX+x+oBM6SA4\nYlbVdzxgOhcsrCOe4i18AtfZ4nyQRtj5eU9XudlBd6aTsGTCQfCTB2MmeGDnPMK6\nfdkiFWpEA94TuESJXaWrtgBaH7gotnSNij3srJn1KUyE4ktYPrLnS2jU1V+SLqHI\nwKcOnT+/MxUlgj1tL82MkknidQKBgQDXaaL0KAO1XHBo7Wh3mjJ62ktI1xGF4h4P\nfHetQsNif7923Qt1P9aqponBVLeGvGwO2AzxE/OiY9cIPT7CnDfyfrpDowEZeq9U\nSfzG1qJ4l07ZRURIQO0wKpaw+YJnDkO62DQPnABcP+13FSKnRuwp962CcnqMQ/Gq\neOZMsdBxJQKBgQCsGPupD4kK3YgHSmTX0El/3I8Nr9kj09qhhxnZXIv817ffpxST\nkEbr1wyn+blCRQBdyJM38MV72GXHrAeBRiw6482XhzVTi3G6xyP2g8i/SM8w/m2V\n1xX6l9atb5cyrsGXIVlE7sqPljnpLGTe/aJqYbSIcpDrzLZ7wCYRpxW5OQKBgQDL\nLPHsBEnrJ7NG5JXiKWhvg7H6lBANDYd459chbpVHNGLsw/TotDvPXaEU3sjzpojt\nP06FnGHxyuWo+ctWV25VpL4eyYJh+9ufTuHC0fMQdvaB69lJpSOSiLj1V4FtnoC3\nnPENwAB/AjUCWscCq9xYgSoAneWEoxkvxzTBJf4KmQKBgQDO1gnGYbJGVgVx3T4E\n822ymK2hEDQvF76GKewB9i2E0FALUmKE6rNiJIjxCWkNNHu2hNf/M0KbHtLBlw7e\nRnF5nDYmxJfZxAuzqNN5KdM4aFzBFK2ZnEiru5WN85f4OJJlTx2zMzsTZQhkz6aw\nczWQDqpEyR3Ku8Uaq/5jxYbBWA==\n-----END PRIVATE KEY-----\n'
X_PEM = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VuBCIEIJDsPP04cOOMRdPYq7h0lQmtxPXUSCcH46NBa2PY0YtK\n-----END PRIVATE KEY-----\n'
for i, (name, h, f, pad) in enumerate([("ec", "", "", ""), ("ec", "sha384", "p1363", ""),
                                        ("ec", "sha512", "der", ""), ("ec", "sha1", "", ""),
                                        ("ec", "", "", "pss"), ("rsa", "", "", ""),
                                        ("rsa", "sha512", "", "pss"), ("rsa", "", "p1363", ""),
                                        ("rsad", "", "", ""), ("kem", "", "", ""), ("ed", "sha256", "", "")]):
    opts = (fld(3, h) if h else b"") + (fld(4, f) if f else b"") + (fld(5, pad) if pad else b"")
    disp(rq(300 + i, 16, fld(1, name) + fld(2, rand_bytes(rnd.randrange(80))) + opts))
    vopts = (fld(5, h) if h else b"") + (fld(6, f) if f else b"") + (fld(7, pad) if pad else b"")
    disp(rq(320 + i, 17, fld(1, name) + fld(2, "m") + fld(3, rand_bytes(rnd.choice([64, 70, 256]))) +
            vopts))
disp(*[rq(340 + i, 16, fld(1, "ec" if i % 2 else "rsa") + fld(2, rand_bytes(i)) +
          (fld(3, "sha384") if i % 3 == 0 else b"")) for i in range(8)])
disp(rq(350, 16, fld(1, "ec") + fld(2, "abc")), rq(351, 17, fld(1, "ec") + fld(2, "abc") + fld(3, bytes(72))))
for n, h in ((256, ""), (256, "sha384"), (255, ""), (256, "md5")):
    disp(rq(360, 40, fld(1, "rsad") + fld(2, rand_bytes(n)) + (fld(3, h) if h else b"")))
disp(rq(365, 40, fld(1, "rsa") + fld(2, rand_bytes(256))))
for n in (1088, 1087, 1568):
    disp(rq(370, 41, fld(1, "kem") + fld(2, rand_bytes(n))))
disp(rq(373, 41, fld(1, "ec") + fld(2, rand_bytes(1088))))
for peer in (P384_G, P384_G[1:], P384_G[:-1] + bytes(1), rand_bytes(97), rand_bytes(49)):
    disp(rq(380, 20, fld(1, "dh") + fld(2, peer)))
disp(rq(386, 18, fld(1, "cc") + fld(2, rand_bytes(rnd.randrange(64))) + fld(3, "ad")))
disp(rq(387, 19, fld(1, "cc") + fld(2, rand_bytes(44))))
for name in ("ec", "rsa", "rsad", "dh", "kem", "cc"):
    for fmt in range(5):
        disp(rq(390 + fmt, 13, fld(1, name) + fld(2, fmt)))
for i, (alg, usage) in enumerate([("ecdsa-p384", ""), ("ecdh-p256", ""), ("mlkem1024", ""),
                                  ("x25519mlkem768", ""), ("aes-128-gcm", ""), ("chacha20-poly1305", ""),
                                  ("ecdsa-p521", "sign"), ("ed25519", "decrypt"), ("mlkem768", "x")]):
    t = "t" + str(i)
    disp(rq(400 + i, 11, fld(1, t) + fld(2, alg) + (fld(20, usage) if usage else b"") + fld(3, 1)),
         rq(420 + i, 13, fld(1, t) + fld(2, 0)), rq(440 + i, 13, fld(1, t) + fld(2, 2)))
disp(rq(450, 11, fld(1, "r1") + fld(2, "rsa-2048") + fld(20, "decrypt")), rq(451, 13, fld(1, "r1") + fld(2, 1)),
     rq(452, 16, fld(1, "r1") + fld(2, "m")))
for i, (alg, key, fmt) in enumerate([("", EC_PEM, 3), ("", EC_SEC1, 0), ("ecdh-p256", EC_PEM, 3),
                                     ("ecdsa-p384", EC_PEM, 3), ("", RSA_PEM, 3), ("", X_PEM, 0),
                                     ("", '{"kty":"oct","k":"AAECAwQFBgcICQoLDA0ODw"}', 4),
                                     ("aes-128-gcm", bytes(16), 0), ("mlkem768", bytes(64), 0),
                                     ("", rand_bytes(32), 0), ("", EC_PEM.replace("M", "N", 3), 3)]):
    d = "d" + str(i)
    disp(rq(460 + i, 12, fld(1, d) + (fld(2, alg) if alg else b"") + fld(3, key) + fld(4, fmt) +
            fld(5, 1)), rq(480 + i, 13, fld(1, d) + fld(2, 1)), rq(490 + i, 16, fld(1, d) + fld(2, "m")))
# ML-DSA keys made in the input: create, sign, verify its own signature, pub
for i, alg in enumerate(("mldsa44", "mldsa65", "mldsa87")):
    disp(rq(500 + i, 11, fld(1, "q" + str(i)) + fld(2, alg)), rq(510 + i, 16, fld(1, "q" + str(i)) + fld(2, "m")),
         rq(520 + i, 13, fld(1, "q" + str(i)) + fld(2, 4)), rq(530 + i, 17, fld(1, "q" + str(i)) + fld(2, "m") +
                                                               fld(3, rand_bytes(2420))))
# ---- fuzz_mldsa: ML-DSA verify cases (raw and SPKI keys) and private keys (seed, PKCS#8)
mrnd = random.Random(204)
for pi, bits in enumerate(("44", "65", "87")):
    groups = load("mldsa_%s_verify_test.json" % bits)["testGroups"]
    cases = [(g, t) for g in groups for t in g["tests"]]
    for g, t in (cases if len(cases) <= 12 else mrnd.sample(cases, 12)):
        key = h(g["publicKeyDer"] if "publicKeyDer" in g and mrnd.randrange(2) else g["publicKey"])
        ctx = h(t.get("ctx", ""))[:255]
        sig, msg = h(t["sig"]), h(t["msg"])
        put("fuzz_mldsa", bytes([pi, 1 | (4 if ctx else 0) | mrnd.choice([0, 8])]) + u16(len(key)) +
            u16(len(sig)) + u16(mrnd.randrange(65536)) + bytes([len(ctx)]) + key + ctx + sig + msg)
    g = load("mldsa_%s_sign_seed_test.json" % bits)["testGroups"][0]
    for key in (h(g["privateSeed"]), h(g["privateKeyPkcs8"])):
        msg = rand_bytes(mrnd.randrange(64))
        put("fuzz_mldsa", bytes([pi, 2 | 8]) + u16(len(key)) + u16(0) + u16(mrnd.randrange(65536)) +
            b"\0" + key + msg)
PYTHON
	for d in "$ROOT"/tests/fuzz/corpus/*/; do
		printf '%s: %s files, %s bytes\n' "$(basename "$d")" "$(ls "$d" | wc -l)" \
			"$(cat "$d"* | wc -c)"
	done
	exit 0
fi

if [ $# -lt 2 ]; then
	echo "usage: sh scripts/fuzz.sh BUILDDIR SECONDS [TARGET...] | --make-corpus [DIR]" >&2
	exit 2
fi
BUILD=$1
SECONDS_EACH=$2
shift 2

if [ $# -gt 0 ]; then
	TARGETS=""
	for t in "$@"; do
		TARGETS="$TARGETS fuzz_${t#fuzz_}"
	done
else
	TARGETS=$(cd "$ROOT/tests/fuzz" && ls fuzz_*.c | sed 's/\.c$//')
fi

if [ -n "${FUZZ_WORKDIR:-}" ]; then
	mkdir -p "$FUZZ_WORKDIR" || exit 1
	WORK=$(mktemp -d "$FUZZ_WORKDIR/run.XXXXXX") || exit 1
else
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/rind-fuzz.XXXXXX") || exit 1
	trap 'rm -rf "$WORK"' EXIT
	trap 'rm -rf "$WORK"; exit 130' INT TERM
fi

export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:symbolize=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
LIBFUZZER_OPTS="-timeout=60 -rss_limit_mb=4096 -max_len=4096 -print_final_stats=1"

failed=""

# Keep the reproducer(s) and the log of a failed step of target $1.
keep_crash() {
	dest="$BUILD/fuzz-crashes/$1"
	mkdir -p "$dest"
	cp "$2" "$dest/$1.log" 2>/dev/null
	for a in "$WORK/$1/art/"*; do
		[ -f "$a" ] && cp "$a" "$dest/"
	done
	echo "$1: FAILED (log and reproducer in $dest/)"
	grep -E "^(FAIL |SUMMARY|==[0-9]+==ERROR|Test unit written)" "$2" | head -5
	failed="$failed $1"
}

for t in $TARGETS; do
	name=${t#fuzz_}
	bin=""
	for b in "$BUILD/$t" "$BUILD/tests/fuzz/$t" "$BUILD/fuzz/$t"; do
		if [ -x "$b" ]; then
			bin=$b
			break
		fi
	done
	if [ -z "$bin" ]; then
		echo "$t: no binary in $BUILD (build it with make fuzz)"
		failed="$failed $t"
		continue
	fi
	dir=$WORK/$t
	mkdir -p "$dir/corpus" "$dir/art"
	log=$dir/log
	ncorpus=0
	if [ -d "$ROOT/tests/fuzz/corpus/$t" ]; then
		cp "$ROOT/tests/fuzz/corpus/$t/"* "$dir/corpus/" 2>/dev/null
		ncorpus=$(ls "$dir/corpus" | wc -l)
	fi

	# 1. Regression inputs, one by one, then the seed corpus.
	nreg=0
	if [ -d "$ROOT/tests/fuzz/regress/$t" ]; then
		for r in "$ROOT/tests/fuzz/regress/$t/"*; do
			[ -f "$r" ] || continue
			nreg=$((nreg + 1))
			if ! "$bin" -artifact_prefix="$dir/art/" $LIBFUZZER_OPTS "$r" >"$log" 2>&1; then
				echo "$t: regression input $(basename "$r") fails"
				keep_crash "$t" "$log"
				continue 2
			fi
		done
	fi
	if ! "$bin" -runs=0 -artifact_prefix="$dir/art/" $LIBFUZZER_OPTS "$dir/corpus" >"$log" 2>&1; then
		echo "$t: a seed corpus input fails"
		keep_crash "$t" "$log"
		continue
	fi

	# 2. Fuzz from a scratch copy of the corpus (regression inputs included).
	if [ "$nreg" -gt 0 ]; then
		cp "$ROOT/tests/fuzz/regress/$t/"* "$dir/corpus/"
	fi
	start=$(date +%s)
	# shellcheck disable=SC2086
	if ! "$bin" -max_total_time="$SECONDS_EACH" -artifact_prefix="$dir/art/" $LIBFUZZER_OPTS \
			${FUZZ_ARGS:-} "$dir/corpus" >"$log" 2>&1; then
		keep_crash "$t" "$log"
		continue
	fi
	took=$(($(date +%s) - start))

	# 3. libFuzzer's final numbers.
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	final=$(grep -E '^#[0-9]+[[:space:]]+(DONE|INITED|NEW|REDUCE|pulse)' "$log" | tail -1)
	cov=$(echo "$final" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$final" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$final" | sed -n 's/.* corp: \([0-9]*\).*/\1/p')
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	echo "$t: ${execs:-?} executions in ${took}s (${rate:-?}/s), cov ${cov:-?}, ft ${ft:-?}," \
		"corpus ${ncorpus} -> ${corp:-?}; ${nreg} regression inputs ok"
done

if [ -n "$failed" ]; then
	echo "fuzz: FAILED:$failed"
	exit 1
fi
echo "fuzz: all targets passed"
exit 0
