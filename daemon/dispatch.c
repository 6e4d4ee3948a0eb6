// SPDX-License-Identifier: MIT
/*
 * Requests to operations.  Sign and seal are queued for the turn's
 * batches (batch.c); everything else runs here, at once.  Each handler
 * answers exactly once, and owns (frees) the request.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rind/crypto.h>

#include "rindd.h"

static const char *const op_names[] = {
	[RIND__REQUEST__OP_HELLO] = "hello",
	[RIND__REQUEST__OP_CREATE_KEY] = "create_key",
	[RIND__REQUEST__OP_IMPORT_KEY] = "import_key",
	[RIND__REQUEST__OP_GET_PUBLIC_KEY] = "get_public_key",
	[RIND__REQUEST__OP_LIST_KEYS] = "list_keys",
	[RIND__REQUEST__OP_DELETE_KEY] = "delete_key",
	[RIND__REQUEST__OP_SIGN] = "sign",
	[RIND__REQUEST__OP_VERIFY] = "verify",
	[RIND__REQUEST__OP_SEAL] = "seal",
	[RIND__REQUEST__OP_OPEN] = "open",
	[RIND__REQUEST__OP_DERIVE] = "derive",
	[RIND__REQUEST__OP_STATS] = "stats",
};

static const char *op_name(const Rind__Request *req)
{
	unsigned int op = req->op_case;

	if (op < sizeof(op_names) / sizeof(op_names[0]) && op_names[op])
		return op_names[op];
	return "unknown";
}

int status_from_errno(int err)
{
	switch (err) {
	case 0:
		return RIND__STATUS__OK;
	case -EINVAL:
	case -EKEYREJECTED:
	case -EMSGSIZE:
		return RIND__STATUS__ERR_INVALID;
	case -ENOENT:
		return RIND__STATUS__ERR_NOT_FOUND;
	case -EEXIST:
		return RIND__STATUS__ERR_EXISTS;
	case -EPERM:
	case -EACCES:
		return RIND__STATUS__ERR_PERMISSION;
	case -EBADMSG:
		return RIND__STATUS__ERR_BAD_MESSAGE;
	case -EOPNOTSUPP:
		return RIND__STATUS__ERR_UNSUPPORTED;
	default:
		return RIND__STATUS__ERR_INTERNAL;
	}
}

/* Free a request, wiping the fields that may hold secrets or plaintext. */
static void req_free(Rind__Request *req)
{
	ProtobufCBinaryData *b = NULL;

	switch (req->op_case) {
	case RIND__REQUEST__OP_IMPORT_KEY:
		b = &req->import_key->key;
		break;
	case RIND__REQUEST__OP_SEAL:
		b = &req->seal->plaintext;
		break;
	default:
		break;
	}
	if (b && b->data)
		rind_memzero_explicit(b->data, b->len);
	rind__request__free_unpacked(req, NULL);
}

static void reply_data(struct conn *c, uint64_t id, const void *data, size_t len)
{
	Rind__Response resp = RIND__RESPONSE__INIT;

	resp.id = id;
	resp.result_case = RIND__RESPONSE__RESULT_DATA;
	resp.data.data = (uint8_t *)data;
	resp.data.len = len;
	conn_respond(c, &resp);
}

static void reply_ok(struct conn *c, uint64_t id)
{
	Rind__Response resp = RIND__RESPONSE__INIT;

	resp.id = id;
	conn_respond(c, &resp);
}

static void key_info(Rind__KeyInfo *ki, const struct key *k)
{
	rind__key_info__init(ki);
	ki->name = (char *)k->name;
	ki->algorithm = (char *)key_alg_name(k->alg);
	ki->owner_uid = k->owner_uid;
	ki->created = k->created;
	ki->version = k->version;
	ki->exportable = k->exportable;
}

static void reply_keys(struct conn *c, uint64_t id, struct key **keys, size_t n)
{
	Rind__Response resp = RIND__RESPONSE__INIT;
	Rind__KeyList list = RIND__KEY_LIST__INIT;
	Rind__KeyInfo *infos = calloc(n ? n : 1, sizeof(*infos));
	Rind__KeyInfo **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	size_t i;

	if (!infos || !ptrs) {
		free(infos);
		free(ptrs);
		conn_error(c, id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		key_info(&infos[i], keys[i]);
		ptrs[i] = &infos[i];
	}
	list.n_keys = n;
	list.keys = ptrs;
	resp.id = id;
	resp.result_case = RIND__RESPONSE__RESULT_KEYS;
	resp.keys = &list;
	conn_respond(c, &resp);
	free(infos);
	free(ptrs);
}

static void denied(struct conn *c, uint64_t id, const char *op, const struct key *k)
{
	log_warn("event=permission_denied op=%s key=%s pid=%d uid=%u gid=%u owner=%u",
		 op, k->name, (int)c->peer.pid, (unsigned int)c->peer.uid,
		 (unsigned int)c->peer.gid, (unsigned int)k->owner_uid);
	conn_error(c, id, RIND__STATUS__ERR_PERMISSION, "uid %u may not use key %s",
		   (unsigned int)c->peer.uid, k->name);
}

/*
 * The key @name for operation @op, which needs algorithm @alg (or any when
 * negative); answers with the error and returns NULL when it cannot be used.
 */
static struct key *use_key(struct conn *c, uint64_t id, const char *name, const char *op, int alg)
{
	struct key *k;

	if (!*name) {
		conn_error(c, id, RIND__STATUS__ERR_INVALID, "name: missing");
		return NULL;
	}
	k = key_lookup(name);
	if (!k) {
		conn_error(c, id, RIND__STATUS__ERR_NOT_FOUND, "no key named %.64s", name);
		return NULL;
	}
	if (!acl_may_use(k, &c->peer)) {
		denied(c, id, op, k);
		key_put(k);
		return NULL;
	}
	if (alg >= 0 && (int)k->alg != alg) {
		conn_error(c, id, RIND__STATUS__ERR_INVALID, "key %s is %s: %s needs %s", k->name,
			   key_alg_name(k->alg), op, key_alg_name((enum key_alg)alg));
		key_put(k);
		return NULL;
	}
	return k;
}

/* ---- hello, stats ---- */
static void op_hello(struct conn *c, Rind__Request *req)
{
	Rind__Response resp = RIND__RESPONSE__INIT;

	if (req->hello->protocol_version > RIND_PROTOCOL_VERSION) {
		conn_error(c, req->id, RIND__STATUS__ERR_UNSUPPORTED,
			   "protocol_version %u: this daemon speaks version %u",
			   req->hello->protocol_version, RIND_PROTOCOL_VERSION);
		return;
	}
	resp.id = req->id;
	resp.result_case = RIND__RESPONSE__RESULT_VERSION;
	resp.version = RINDD_VERSION;
	conn_respond(c, &resp);
}

static void op_stats(struct conn *c, Rind__Request *req)
{
	Rind__Response resp = RIND__RESPONSE__INIT;
	Rind__StatsReply s = RIND__STATS_REPLY__INIT;

	s.requests = atomic_load(&stats.requests);
	s.errors = atomic_load(&stats.errors);
	s.batches = atomic_load(&stats.batches);
	s.batched_requests = atomic_load(&stats.batched_requests);
	s.max_batch = atomic_load(&stats.max_batch);
	s.connections = atomic_load(&stats.connections);
	s.keys = key_count();
	s.threads = cfg.threads;
	resp.id = req->id;
	resp.result_case = RIND__RESPONSE__RESULT_STATS;
	resp.stats = &s;
	conn_respond(c, &resp);
}

/* ---- create, import, delete, list ---- */
static void add_key(struct conn *c, uint64_t id, const char *name, enum key_alg alg,
		    const u8 *secret, bool exportable, const char *op)
{
	struct key *k, *old;
	int err;

	pthread_mutex_lock(&keystore_lock);
	old = key_lookup(name);
	if (old) {
		key_put(old);
		pthread_mutex_unlock(&keystore_lock);
		conn_error(c, id, RIND__STATUS__ERR_EXISTS, "key %s exists", name);
		return;
	}
	if (keystore_exists(name)) {
		pthread_mutex_unlock(&keystore_lock);
		conn_error(c, id, RIND__STATUS__ERR_EXISTS,
			   "a key file for %s is in the state directory but did not load (see the daemon log)",
			   name);
		return;
	}
	k = key_new(name, alg, secret);
	if (!k) {
		pthread_mutex_unlock(&keystore_lock);
		conn_error(c, id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		return;
	}
	k->owner_uid = c->peer.uid;
	k->created = (uint64_t)time(NULL);
	k->exportable = exportable;
	err = keystore_save(k);
	if (!err)
		err = key_insert(k);
	pthread_mutex_unlock(&keystore_lock);
	if (err) {
		key_put(k);
		conn_error(c, id, status_from_errno(err), "storing key %s failed (errno %d)", name, -err);
		return;
	}
	log_info("event=key_%s key=%s alg=%s uid=%u pid=%d", op, name, key_alg_name(alg),
		 (unsigned int)c->peer.uid, (int)c->peer.pid);
	reply_keys(c, id, &k, 1);
}

static int check_new_key(struct conn *c, uint64_t id, const char *name, const char *alg_s,
			 enum key_alg *alg)
{
	int err;

	if (!key_name_valid(name)) {
		conn_error(c, id, RIND__STATUS__ERR_INVALID,
			   "name: 1 to 64 characters of [A-Za-z0-9._-], not starting with '.'");
		return -EINVAL;
	}
	err = key_alg_parse(alg_s, alg);
	if (err == -EOPNOTSUPP)
		conn_error(c, id, RIND__STATUS__ERR_UNSUPPORTED,
			   "algorithm %.64s is not available yet (have ed25519, x25519, aes-256-gcm)", alg_s);
	else if (err)
		conn_error(c, id, RIND__STATUS__ERR_UNSUPPORTED,
			   "algorithm: unknown \"%.64s\" (have ed25519, x25519, aes-256-gcm)", alg_s);
	return err;
}

static void op_create(struct conn *c, Rind__Request *req)
{
	Rind__CreateKey *ck = req->create_key;
	enum key_alg alg;
	u8 secret[RINDD_KEY_MAX];
	int err;

	if (check_new_key(c, req->id, ck->name, ck->algorithm, &alg))
		return;
	if (alg == KEY_X25519)
		err = rind_curve25519_generate_secret(secret);
	else
		err = rind_get_random_bytes(secret, sizeof(secret));
	if (err) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "no randomness (errno %d)", -err);
		return;
	}
	add_key(c, req->id, ck->name, alg, secret, ck->exportable, "created");
	rind_memzero_explicit(secret, sizeof(secret));
}

static void op_import(struct conn *c, Rind__Request *req)
{
	Rind__ImportKey *ik = req->import_key;
	enum key_alg alg;
	u8 secret[RINDD_KEY_MAX];
	int err = 0;

	if (check_new_key(c, req->id, ik->name, ik->algorithm, &alg))
		return;
	if (ik->format == RIND__KEY_FORMAT__RAW && ik->key.len != 32) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "key: a raw %s key is 32 bytes (got %zu)", key_alg_name(alg), ik->key.len);
		return;
	}
	if (ik->key.len > 16384) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "key: %zu bytes is too long", ik->key.len);
		return;
	}
	switch (alg) {
	case KEY_AES256GCM:
		if (ik->format != RIND__KEY_FORMAT__RAW) {
			conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
				   "format: aes-256-gcm keys are imported raw (32 bytes)");
			return;
		}
		memcpy(secret, ik->key.data, 32);
		break;
	case KEY_ED25519: {
		struct crypto_sig *tfm = crypto_alloc_sig("ed25519", 0, 0);

		if (IS_ERR(tfm)) {
			err = (int)PTR_ERR(tfm);
			break;
		}
		err = crypto_sig_set_privkey(tfm, ik->key.data, (unsigned int)ik->key.len);
		if (!err)
			err = crypto_sig_export_privkey(tfm, RIND_KEY_RAW, secret, sizeof(secret));
		crypto_free_sig(tfm);
		break;
	}
	case KEY_X25519: {
		struct crypto_kpp *tfm = crypto_alloc_kpp("curve25519", 0, 0);

		if (IS_ERR(tfm)) {
			err = (int)PTR_ERR(tfm);
			break;
		}
		err = crypto_kpp_set_secret(tfm, ik->key.data, (unsigned int)ik->key.len);
		if (!err)
			err = crypto_kpp_export_privkey(tfm, RIND_KEY_RAW, secret, sizeof(secret));
		crypto_free_kpp(tfm);
		break;
	}
	}
	if (err > 0 && err != 32)
		err = -EINVAL;
	if (err < 0) {
		rind_memzero_explicit(secret, sizeof(secret));
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "key: not a valid %s private key (errno %d)",
			   key_alg_name(alg), -err);
		return;
	}
	add_key(c, req->id, ik->name, alg, secret, ik->exportable, "imported");
	rind_memzero_explicit(secret, sizeof(secret));
}

static void op_delete(struct conn *c, Rind__Request *req)
{
	const char *name = req->delete_key->name;
	struct key *k;
	int err;

	if (!*name) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "name: missing");
		return;
	}
	pthread_mutex_lock(&keystore_lock);
	k = key_lookup(name);
	if (!k) {
		pthread_mutex_unlock(&keystore_lock);
		conn_error(c, req->id, RIND__STATUS__ERR_NOT_FOUND, "no key named %.64s", name);
		return;
	}
	if (!acl_may_admin(k, &c->peer)) {
		pthread_mutex_unlock(&keystore_lock);
		denied(c, req->id, "delete_key", k);
		key_put(k);
		return;
	}
	err = keystore_delete(k->name);
	if (!err)
		key_put(key_remove(k->name));
	pthread_mutex_unlock(&keystore_lock);
	if (err) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "removing key file failed (errno %d)", -err);
	} else {
		log_info("event=key_deleted key=%s uid=%u pid=%d", k->name,
			 (unsigned int)c->peer.uid, (int)c->peer.pid);
		reply_ok(c, req->id);
	}
	key_put(k);
}

static void op_list(struct conn *c, Rind__Request *req)
{
	size_t n, i, m = 0;
	struct key **v = key_list(&n);

	if (!v) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		if (acl_may_see(v[i], &c->peer)) {
			struct key *t = v[m];

			v[m++] = v[i];
			v[i] = t;
		}
	}
	reply_keys(c, req->id, v, m);
	key_list_put(v, n);
}

/* ---- public key, verify, open, derive ---- */
static void op_pubkey(struct worker *w, struct conn *c, Rind__Request *req)
{
	Rind__GetPublicKey *g = req->get_public_key;
	struct key *k = use_key(c, req->id, g->name, "get_public_key", -1);
	u8 out[2048];
	int n;

	if (!k)
		return;
	if ((unsigned int)g->format > RIND__KEY_FORMAT__JWK) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "format: unknown (%d)", g->format);
		goto out;
	}
	if (g->format == RIND__KEY_FORMAT__PKCS8_DER &&
	    (!k->exportable || !acl_may_admin(k, &c->peer))) {
		conn_error(c, req->id, RIND__STATUS__ERR_PERMISSION,
			   "key %s: the private key (PKCS8_DER) is only given out for exportable keys, to their owner",
			   k->name);
		goto out;
	}
	switch (k->alg) {
	case KEY_ED25519: {
		struct crypto_sig *tfm = key_sig(k, w->id);

		n = !tfm ? -ENOMEM : g->format == RIND__KEY_FORMAT__PKCS8_DER ?
			crypto_sig_export_privkey(tfm, RIND_KEY_PKCS8_DER, out, sizeof(out)) :
			crypto_sig_export_pubkey(tfm, (enum rind_key_format)g->format, out, sizeof(out));
		break;
	}
	case KEY_X25519: {
		struct crypto_kpp *tfm = key_kpp(k, w->id);

		n = !tfm ? -ENOMEM : g->format == RIND__KEY_FORMAT__PKCS8_DER ?
			crypto_kpp_export_privkey(tfm, RIND_KEY_PKCS8_DER, out, sizeof(out)) :
			crypto_kpp_export_pubkey(tfm, (enum rind_key_format)g->format, out, sizeof(out));
		break;
	}
	default:
		if (g->format == RIND__KEY_FORMAT__PKCS8_DER)
			conn_error(c, req->id, RIND__STATUS__ERR_UNSUPPORTED,
				   "aes-256-gcm keys have no PKCS#8 form");
		else
			conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
				   "key %s is aes-256-gcm: it has no public key", k->name);
		goto out;
	}
	if (n < 0)
		conn_error(c, req->id, status_from_errno(n), "export failed (errno %d)", -n);
	else
		reply_data(c, req->id, out, (size_t)n);
	rind_memzero_explicit(out, sizeof(out));
out:
	key_put(k);
}

static void op_verify(struct worker *w, struct conn *c, Rind__Request *req)
{
	Rind__Verify *v = req->verify;
	struct key *k = use_key(c, req->id, v->name, "verify", KEY_ED25519);
	struct crypto_sig *tfm;
	int err;

	if (!k)
		return;
	if (v->signature.len != ED25519_SIG_SIZE) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "signature: an ed25519 signature is 64 bytes (got %zu)", v->signature.len);
		goto out;
	}
	tfm = key_sig(k, w->id);
	if (!tfm) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "cannot set up ed25519");
		goto out;
	}
	err = crypto_sig_verify(tfm, v->signature.data, (unsigned int)v->signature.len,
				v->message.data, (unsigned int)v->message.len);
	if (!err)
		reply_ok(c, req->id);
	else if (err == -EBADMSG)
		conn_error(c, req->id, RIND__STATUS__ERR_BAD_MESSAGE, "signature does not verify");
	else
		conn_error(c, req->id, status_from_errno(err), "verify failed (errno %d)", -err);
out:
	key_put(k);
}

static void op_open(struct worker *w, struct conn *c, Rind__Request *req)
{
	Rind__Open *o = req->open;
	struct key *k = use_key(c, req->id, o->name, "open", KEY_AES256GCM);
	struct crypto_aead *tfm;
	struct aead_request *areq = NULL;
	struct scatterlist src[2], dst[2];
	size_t ctlen = 0, ptlen;
	u8 *out = NULL;
	int err;

	if (!k)
		return;
	if (o->sealed.len < RIND_SEAL_NONCE + RIND_SEAL_TAG) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "sealed: %zu bytes is shorter than nonce (12) + tag (16)", o->sealed.len);
		goto out;
	}
	tfm = key_aead(k, w->id);
	ctlen = o->sealed.len - RIND_SEAL_NONCE;
	ptlen = ctlen - RIND_SEAL_TAG;
	out = malloc(ctlen + o->associated_data.len + 1);
	areq = tfm ? aead_request_alloc(tfm, 0) : NULL;
	if (!out || !areq) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		goto out;
	}
	/* src: AD || ciphertext||tag; dst: AD || plaintext (AD copied in place) */
	if (o->associated_data.len)
		memcpy(out, o->associated_data.data, o->associated_data.len);
	memcpy(out + o->associated_data.len, o->sealed.data + RIND_SEAL_NONCE, ctlen);
	sg_init_one(src, out, (unsigned int)(o->associated_data.len + ctlen));
	sg_init_one(dst, out, (unsigned int)(o->associated_data.len + ctlen));
	aead_request_set_ad(areq, (unsigned int)o->associated_data.len);
	aead_request_set_crypt(areq, src, dst, (unsigned int)ctlen, o->sealed.data);
	rind_ct_begin();
	err = crypto_aead_decrypt(areq);
	rind_ct_end();
	if (!err)
		reply_data(c, req->id, out + o->associated_data.len, ptlen);
	else if (err == -EBADMSG)
		conn_error(c, req->id, RIND__STATUS__ERR_BAD_MESSAGE,
			   "sealed box does not authenticate (wrong key or associated data, or altered)");
	else
		conn_error(c, req->id, status_from_errno(err), "open failed (errno %d)", -err);
	(void)dst;
out:
	if (out) {
		rind_memzero_explicit(out, ctlen + o->associated_data.len);
		free(out);
	}
	if (areq)
		aead_request_free(areq);
	key_put(k);
}

static void op_derive(struct worker *w, struct conn *c, Rind__Request *req)
{
	Rind__Derive *d = req->derive;
	struct key *k = use_key(c, req->id, d->name, "derive", KEY_X25519);
	struct crypto_kpp *tfm;
	struct kpp_request *kreq = NULL;
	struct scatterlist src, dst;
	u8 peer[32], secret[32];
	int err;

	if (!k)
		return;
	if (d->peer_public_key.len != CURVE25519_KEY_SIZE) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "peer_public_key: a raw x25519 public key is 32 bytes (got %zu)",
			   d->peer_public_key.len);
		goto out;
	}
	tfm = key_kpp(k, w->id);
	kreq = tfm ? kpp_request_alloc(tfm, 0) : NULL;
	if (!kreq) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		goto out;
	}
	memcpy(peer, d->peer_public_key.data, 32);
	sg_init_one(&src, peer, 32);
	sg_init_one(&dst, secret, 32);
	kpp_request_set_input(kreq, &src, 32);
	kpp_request_set_output(kreq, &dst, 32);
	rind_ct_begin();
	err = crypto_kpp_compute_shared_secret(kreq);
	rind_ct_end();
	if (!err)
		reply_data(c, req->id, secret, kreq->dst_len);
	else if (err == -EINVAL)
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "peer_public_key: a small-order point (all-zero shared secret)");
	else
		conn_error(c, req->id, status_from_errno(err), "derive failed (errno %d)", -err);
	rind_memzero_explicit(secret, sizeof(secret));
	kpp_request_free(kreq);
out:
	key_put(k);
}

void dispatch(struct worker *w, struct conn *c, Rind__Request *req)
{
	struct key *k;

	switch (req->op_case) {
	case RIND__REQUEST__OP_HELLO:
		op_hello(c, req);
		break;
	case RIND__REQUEST__OP_STATS:
		op_stats(c, req);
		break;
	case RIND__REQUEST__OP_CREATE_KEY:
		op_create(c, req);
		break;
	case RIND__REQUEST__OP_IMPORT_KEY:
		op_import(c, req);
		break;
	case RIND__REQUEST__OP_DELETE_KEY:
		op_delete(c, req);
		break;
	case RIND__REQUEST__OP_LIST_KEYS:
		op_list(c, req);
		break;
	case RIND__REQUEST__OP_GET_PUBLIC_KEY:
		op_pubkey(w, c, req);
		break;
	case RIND__REQUEST__OP_VERIFY:
		op_verify(w, c, req);
		break;
	case RIND__REQUEST__OP_OPEN:
		op_open(w, c, req);
		break;
	case RIND__REQUEST__OP_DERIVE:
		op_derive(w, c, req);
		break;
	case RIND__REQUEST__OP_SIGN:
		k = use_key(c, req->id, req->sign->name, op_name(req), KEY_ED25519);
		if (k) {
			batch_add(w, c, k, req);
			return;
		}
		break;
	case RIND__REQUEST__OP_SEAL:
		k = use_key(c, req->id, req->seal->name, op_name(req), KEY_AES256GCM);
		if (k) {
			batch_add(w, c, k, req);
			return;
		}
		break;
	default:
		conn_error(c, req->id, RIND__STATUS__ERR_UNSUPPORTED,
			   "request carries no operation this daemon knows");
		break;
	}
	req_free(req);
}

void dispatch_free(Rind__Request *req)
{
	req_free(req);
}
