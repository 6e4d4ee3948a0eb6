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
