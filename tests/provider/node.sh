# Sourced by run.sh: node's crypto through the provider (--openssl-config
# with a nodejs_conf section), results compared with node without it and
# the trace checked.
if ! command -v node >/dev/null; then
	echo "SKIP: node not installed: node tests"
	return 0 2>/dev/null || exit 0
fi
(echo "nodejs_conf = openssl_init"; cat "$T/rind.cnf") > "$T/node.cnf"
cat > "$T/t.js" <<'EOJS'
const c = require('crypto');
const out = [];
const key = Buffer.alloc(32, 7), iv = Buffer.alloc(12, 3), msg = Buffer.from('node through rind '.repeat(100));
out.push(c.createHash('sha256').update(msg).digest('hex'));
out.push(c.createHash('sha512').update(msg).digest('hex'));
out.push(c.createHmac('sha384', key).update(msg).digest('hex'));
const e = c.createCipheriv('aes-256-gcm', key, iv); e.setAAD(Buffer.from('ad'));
const ct = Buffer.concat([e.update(msg), e.final()]); const tag = e.getAuthTag();
out.push(ct.toString('hex') + tag.toString('hex'));
const d = c.createDecipheriv('aes-256-gcm', key, iv); d.setAAD(Buffer.from('ad')); d.setAuthTag(tag);
out.push(Buffer.concat([d.update(ct), d.final()]).equals(msg));
out.push(c.pbkdf2Sync('pw', 'salt', 1000, 32, 'sha256').toString('hex'));
for (const t of [['ed25519'], ['ec', { namedCurve: 'P-256' }]]) {
	const { privateKey, publicKey } = c.generateKeyPairSync(...t);
	const s = c.sign(t[0] === 'ec' ? 'sha256' : null, msg, privateKey);
	out.push(c.verify(t[0] === 'ec' ? 'sha256' : null, msg, publicKey, s));
}
(async () => {
	const s = c.webcrypto.subtle;
	out.push(Buffer.from(await s.digest('SHA-256', msg)).toString('hex'));
	const k = await s.importKey('raw', key, 'AES-GCM', false, ['encrypt', 'decrypt']);
	const ct2 = await s.encrypt({ name: 'AES-GCM', iv }, k, msg);
	out.push(Buffer.from(ct2).toString('hex'));
	out.push(Buffer.from(await s.decrypt({ name: 'AES-GCM', iv }, k, ct2)).equals(msg));
	const kp = await s.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
	const sig = await s.sign({ name: 'ECDSA', hash: 'SHA-256' }, kp.privateKey, msg);
	out.push(await s.verify({ name: 'ECDSA', hash: 'SHA-256' }, kp.publicKey, sig, msg));
	console.log(out.join('\n'));
})();
EOJS
RIND_PROVIDER_TRACE=1 timeout 60 node --openssl-config="$T/node.cnf" "$T/t.js" > "$T/node.r" 2>"$T/node.trace"
OPENSSL_CONF=/dev/null timeout 60 node "$T/t.js" > "$T/node.d" 2>/dev/null
if [ -s "$T/node.r" ] && ! grep -q false "$T/node.r"; then ok; else bad "node through rind: $(cat "$T/node.r")"; fi
same "$T/node.r" "$T/node.d" "node crypto results"
served "$T/node.trace" "digest sha256" "node createHash / subtle.digest"
served "$T/node.trace" "digest sha384" "node createHmac (HMAC_* over the provider's SHA-384)"
served "$T/node.trace" "cipher AES-256-GCM" "node AES-256-GCM"
served "$T/node.trace" "kdf PBKDF2" "node pbkdf2"
served "$T/node.trace" "sign ed25519" "node crypto.sign Ed25519"
served "$T/node.trace" "sign x962(ecdsa-nist-p256,sha256)" "node ECDSA sign"
served "$T/node.trace" "verify x962(ecdsa-nist-p256,sha256).*good" "node ECDSA verify"
# AEAD AAD of every length around the provider's inline buffer (64 bytes),
# in one setAAD and in two (the second growing it onto the heap), for
# AES-256-GCM and ChaCha20-Poly1305: ciphertext and tag equal to stock's
cat > "$T/aad.js" <<'EOJS'
const c = require('crypto');
const key = Buffer.alloc(32, 7), iv = Buffer.alloc(12, 3), out = [];
for (const n of [0, 1, 13, 63, 64, 65, 100, 300]) for (const split of [false, true]) {
	const aad = Buffer.alloc(n, n & 255), msg = Buffer.alloc(777, 1);
	const e = c.createCipheriv('aes-256-gcm', key, iv);
	if (split) { e.setAAD(aad.subarray(0, n >> 1)); e.setAAD(aad.subarray(n >> 1)); } else e.setAAD(aad);
	const ct = Buffer.concat([e.update(msg), e.final()]), tag = e.getAuthTag();
	const d = c.createDecipheriv('aes-256-gcm', key, iv); d.setAAD(aad); d.setAuthTag(tag);
	const ok = Buffer.concat([d.update(ct), d.final()]).equals(msg);
	const ch = c.createCipheriv('chacha20-poly1305', key, iv, { authTagLength: 16 });
	if (split) { ch.setAAD(aad.subarray(0, n >> 1)); ch.setAAD(aad.subarray(n >> 1)); } else ch.setAAD(aad);
	const ct2 = Buffer.concat([ch.update(msg), ch.final()]);
	out.push([n, split, ct.toString('hex'), tag.toString('hex'), ok ? 'decrypted' : 'FAILED', ct2.toString('hex'), ch.getAuthTag().toString('hex')].join(' '));
}
console.log(out.join('\n'));
EOJS
RIND_PROVIDER_TRACE=1 timeout 60 node --openssl-config="$T/node.cnf" "$T/aad.js" > "$T/aad.r" 2>"$T/aad.trace"
OPENSSL_CONF=/dev/null timeout 60 node "$T/aad.js" > "$T/aad.d" 2>/dev/null
if [ "$(grep -c ' decrypted ' "$T/aad.r")" = 16 ]; then ok; else bad "node AEAD AAD lengths through rind: $(grep -v ' decrypted ' "$T/aad.r" | head -2)"; fi
same "$T/aad.r" "$T/aad.d" "node AEAD over AAD of 0-300 bytes"
served "$T/aad.trace" "cipher ChaCha20-Poly1305" "node ChaCha20-Poly1305"
