// SPDX-License-Identifier: MIT
/*
 * Requests to operations.  Every request type is one row of req_types[]
 * (at the end of this file): its name, how it runs (at once on the loop,
 * in the turn's batch of its key, or on the store thread), the key it
 * names and the algorithm that key must have, its handler, and the bytes
 * fields that may hold secrets or plaintext and are wiped when the
 * request is freed.  dispatch() reads the row: it looks up and checks the
 * key (answering the error itself), then queues, submits or handles the
 * request.  Each handler answers exactly once; the request is freed by
 * whoever ran it last (dispatch, the batch, the store's completion).
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rind/crypto.h>

#include "rindd.h"

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
	case -EDQUOT:
		return RIND__STATUS__ERR_QUOTA;
	default:
		return RIND__STATUS__ERR_INTERNAL;
	}
}

/* The operation's message (Rind__Sign, ...): the member of the oneof that is set. */
static void *op_message(const Rind__Request *req)
{
	const ProtobufCFieldDescriptor *f =
		protobuf_c_message_descriptor_get_field(&rind__request__descriptor, req->op_case);

	return f ? *(void *const *)((const char *)req + f->offset) : NULL;
}

/* Free a request, wiping the fields its row names (secrets, plaintext). */
static void req_free(Rind__Request *req)
{
	const struct req_type *t = req_type(req);
	unsigned int i;

	for (i = 0; t && i < REQ_WIPE_MAX && t->wipe[i]; i++) {
		ProtobufCBinaryData *b = (ProtobufCBinaryData *)((char *)op_message(req) + t->wipe[i]);

		if (b->data)
			rind_memzero_explicit(b->data, b->len);
	}
	rind__request__free_unpacked(req, arena_allocator());
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
	ki->min_version = k->min_version ? k->min_version : 1;
	ki->usage = (char *)key_usage_name(k->usage);
}

static void reply_keys(struct conn *c, uint64_t id, struct key **keys, size_t n)
{
	Rind__Response resp = RIND__RESPONSE__INIT;
	Rind__KeyList list = RIND__KEY_LIST__INIT;
	Rind__KeyInfo *infos = calloc(n ? n : 1, sizeof(*infos));
	Rind__KeyInfo **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	Rind__KeyVersionInfo *vers, **pvers;
	size_t i, nv = 0;

	for (i = 0; i < n; i++)
		nv += 1 + keys[i]->n_old;
	vers = calloc(nv ? nv : 1, sizeof(*vers));
	pvers = calloc(nv ? nv : 1, sizeof(*pvers));
	if (!infos || !ptrs || !vers || !pvers) {
		free(infos);
		free(ptrs);
		free(vers);
		free(pvers);
		conn_error(c, id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		return;
	}
	for (i = 0, nv = 0; i < n; i++) {
		key_info(&infos[i], keys[i]);
		/* every live version with its creation time (key-admin.c) */
		infos[i].versions = pvers + nv;
		infos[i].n_versions = key_info_versions(keys[i], vers + nv, pvers + nv);
		nv += infos[i].n_versions;
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
	free(vers);
	free(pvers);
}

/* ListKeys with all: the keys and the failed key files the peer may see (key-file.c). */
static void reply_keys_failed(struct conn *c, uint64_t id, struct key **keys, size_t n)
{
	Rind__Response resp = RIND__RESPONSE__INIT;
	Rind__KeyList list = RIND__KEY_LIST__INIT;
	size_t nf = 0, i;
	struct failed_key *f = keystore_failed(&c->peer, &nf);
	Rind__KeyInfo *infos = calloc(n ? n : 1, sizeof(*infos));
	Rind__KeyInfo **ptrs = calloc(n ? n : 1, sizeof(*ptrs));
	Rind__FailedKey *fk = calloc(nf ? nf : 1, sizeof(*fk));
	Rind__FailedKey **fp = calloc(nf ? nf : 1, sizeof(*fp));

	if (!f || !infos || !ptrs || !fk || !fp) {
		conn_error(c, id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		key_info(&infos[i], keys[i]);
		ptrs[i] = &infos[i];
	}
	for (i = 0; i < nf; i++) {
		rind__failed_key__init(&fk[i]);
		fk[i].name = f[i].name;
		fk[i].file = f[i].file;
		fk[i].reason = f[i].reason;
		fp[i] = &fk[i];
	}
	list.n_keys = n;
	list.keys = ptrs;
	list.n_failed = nf;
	list.failed = fp;
	resp.id = id;
	resp.result_case = RIND__RESPONSE__RESULT_KEYS;
	resp.keys = &list;
	conn_respond(c, &resp);
out:
	free(f);
	free(infos);
	free(ptrs);
	free(fk);
	free(fp);
}

static void denied(struct conn *c, uint64_t id, const char *op, const struct key *k)
{
	audit(op, k->name, c->peer.uid, c->peer.pid, "socket", "denied", "gid=%u owner=%u",
	      (unsigned int)c->peer.gid, (unsigned int)k->owner_uid);
	conn_error(c, id, RIND__STATUS__ERR_PERMISSION, "uid %u may not use key %s",
		   (unsigned int)c->peer.uid, k->name);
}

/* What key_name_valid() accepts, for error messages. */
#define NAME_RULE "1 to 64 characters of [A-Za-z0-9._-], not starting with '.'"

/*
 * The key @name for operation @op, which needs algorithm @alg (or any when
 * negative); answers with the error and returns NULL when it cannot be used.
 */
static struct key *use_key(struct conn *c, uint64_t id, const char *name, const char *op, int alg,
			   enum key_op kop)
{
	struct key *k;

	if (!*name) {
		conn_error(c, id, RIND__STATUS__ERR_INVALID, "name: missing");
		return NULL;
	}
	if (!key_name_valid(name)) {
		conn_error(c, id, RIND__STATUS__ERR_INVALID, "name: %s", NAME_RULE);
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
	if (kop != KOP_ANY && !key_can(k, kop)) {
		char msg[256];

		key_cannot(k, kop, msg, sizeof(msg));
		conn_error(c, id, RIND__STATUS__ERR_INVALID, "%s", msg);
		key_put(k);
		return NULL;
	}
	stats_note_request(k->alg);
	return k;
}

/* ---- hello, stats ---- */
static void op_hello(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__Response resp = RIND__RESPONSE__INIT;

	(void)w;
	(void)k;
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

static void op_stats(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__Response resp = RIND__RESPONSE__INIT;
	Rind__StatsReply s = RIND__STATS_REPLY__INIT;
	bool all;

	(void)w;
	(void)k;
	s.requests = atomic_load(&stats.requests);
	s.errors = atomic_load(&stats.errors);
	s.batches = atomic_load(&stats.batches);
	s.batched_requests = atomic_load(&stats.batched_requests);
	s.max_batch = atomic_load(&stats.max_batch);
	s.connections = atomic_load(&stats.connections);
	s.keys = key_count_for(c->peer.uid, &all);	/* a caller's own, unless it owns the service */
	s.all_keys = all;
	s.max_keys = cfg.max_keys;
	s.max_keys_per_uid = cfg.max_keys_per_uid;
	s.threads = cfg.threads;
	/* per key type: the types that saw requests */
	{
		Rind__TypeStats ts[KEY_NALGS], *tp[KEY_NALGS];
		unsigned int i;

		for (i = 0; i < KEY_NALGS; i++) {
			struct rindd_type_stats *t = &type_stats[i];

			if (!atomic_load(&t->requests) && !atomic_load(&t->batches))
				continue;
			rind__type_stats__init(&ts[s.n_types]);
			ts[s.n_types].algorithm = (char *)key_alg_name((enum key_alg)i);
			ts[s.n_types].requests = atomic_load(&t->requests);
			ts[s.n_types].batches = atomic_load(&t->batches);
			ts[s.n_types].batched_requests = atomic_load(&t->batched_requests);
			ts[s.n_types].max_batch = atomic_load(&t->max_batch);
			ts[s.n_types].passes = atomic_load(&t->passes);
			ts[s.n_types].lanes = (uint32_t)atomic_load(&t->lanes);
			tp[s.n_types] = &ts[s.n_types];
			s.n_types++;
		}
		s.types = tp;
		resp.id = req->id;
		resp.result_case = RIND__RESPONSE__RESULT_STATS;
		resp.stats = &s;
		conn_respond(c, &resp);
	}
}

/*
 * ---- the socket's create, import, delete (key-admin.c does the work) ----
 * They run on the store thread: @w is NULL there.
 */
static void created(struct conn *c, uint64_t id, int err, const char *msg, struct key *k)
{
	if (err) {
		conn_error(c, id, status_from_errno(err), "%s", msg);
		return;
	}
	reply_keys(c, id, &k, 1);
	key_put(k);
}

static void op_create(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__CreateKey *ck = req->create_key;
	struct key *made;
	char msg[256];
	int err;

	(void)w;
	(void)k;
	err = key_create_usage(ck->name, ck->algorithm, ck->usage, NULL, 0, false, ck->exportable,
			       c->peer.uid, c->peer.pid, "socket", msg, sizeof(msg), &made);
	created(c, req->id, err, msg, made);
}

static void op_import(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__ImportKey *ik = req->import_key;
	struct key *made;
	char msg[256];
	int err;

	(void)w;
	(void)k;
	/* RAW with no algorithm: the type and encoding are detected (key-import.c) */
	err = key_create_usage(ik->name, ik->algorithm, ik->usage,
			       ik->key.data ? ik->key.data : (const u8 *)"", ik->key.len,
			       ik->format != RIND__KEY_FORMAT__RAW || !*ik->algorithm, ik->exportable,
			       c->peer.uid, c->peer.pid, "socket", msg, sizeof(msg), &made);
	created(c, req->id, err, msg, made);
}

static void op_delete(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	const char *name = req->delete_key->name;
	int err;

	(void)w;
	(void)k;
	if (!*name) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "name: missing");
		return;
	}
	if (!key_name_valid(name)) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "name: %s", NAME_RULE);
		return;
	}
	err = key_delete(name, c->peer.uid, c->peer.pid, "socket");
	if (err == -ENOENT)
		conn_error(c, req->id, RIND__STATUS__ERR_NOT_FOUND, "no key named %.64s", name);
	else if (err == -EPERM)
		conn_error(c, req->id, RIND__STATUS__ERR_PERMISSION, "uid %u may not delete key %s",
			   (unsigned int)c->peer.uid, name);
	else if (err)
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "removing key file failed (errno %d)",
			   -err);
	else
		reply_ok(c, req->id);
}

static void op_list(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	size_t n, i, m = 0;
	struct key **v = key_list(&n);

	(void)w;
	(void)k;
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
	if (req->list_keys->all)
		reply_keys_failed(c, req->id, v, m);
	else
		reply_keys(c, req->id, v, m);
	key_list_put(v, n);
}

/* ---- public key, verify, open, derive: @k is the key the request names ---- */
static void op_pubkey(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__GetPublicKey *g = req->get_public_key;
	u8 out[8192];
	int n;

	if ((unsigned int)g->format > RIND__KEY_FORMAT__JWK) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "format: unknown (%d)", g->format);
		return;
	}
	if (g->format == RIND__KEY_FORMAT__PKCS8_DER &&
	    (!k->exportable || !acl_may_admin(k, &c->peer))) {
		conn_error(c, req->id, RIND__STATUS__ERR_PERMISSION,
			   "key %s: the private key (PKCS8_DER) is only given out for exportable keys, to their owner",
			   k->name);
		return;
	}
	{
		char msg[256];

		n = key_export(k, g->format, g->format == RIND__KEY_FORMAT__PKCS8_DER, w->id, out,
			       sizeof(out), msg, sizeof(msg));
		if (n < 0) {
			conn_error(c, req->id, status_from_errno(n), "%s", msg);
			rind_memzero_explicit(out, sizeof(out));
			return;
		}
	}
	if (n < 0)
		conn_error(c, req->id, status_from_errno(n), "export failed (errno %d)", -n);
	else
		reply_data(c, req->id, out, (size_t)n);
	rind_memzero_explicit(out, sizeof(out));
}

/*
 * The versions of @k that verify/open try for a request naming @want (0:
 * every live version, newest first).  Returns the count, or answers the
 * error (retired, unknown version) and returns 0.
 */
static unsigned int pick_versions(struct conn *c, uint64_t id, struct key *k, uint32_t want,
				  uint32_t *v)
{
	unsigned int n = 0;
	size_t i;

	if (want) {
		if (want < k->min_version) {
			conn_error(c, id, RIND__STATUS__ERR_RETIRED,
				   "key %s version %u is retired (min_version %u)", k->name,
				   (unsigned int)want, (unsigned int)k->min_version);
			return 0;
		}
		if (want > k->version) {
			conn_error(c, id, RIND__STATUS__ERR_NOT_FOUND,
				   "key %s has no version %u (current %u)", k->name,
				   (unsigned int)want, (unsigned int)k->version);
			return 0;
		}
		v[0] = want;
		return 1;
	}
	v[n++] = k->version;
	for (i = k->n_old; i-- > 0;)
		v[n++] = k->old[i].version;
	return n;
}

/* "versions 2..3 (1 retired)" style suffix for a failed verify/open. */
static void versions_note(const struct key *k, uint32_t want, char *buf, size_t len)
{
	uint32_t lo = k->n_old ? k->old[0].version : k->version;

	if (want)
		snprintf(buf, len, "key %s version %u", k->name, (unsigned int)want);
	else if (k->min_version > 1)
		snprintf(buf, len, "key %s versions %u..%u; versions below %u are retired", k->name,
			 (unsigned int)lo, (unsigned int)k->version, (unsigned int)k->min_version);
	else
		snprintf(buf, len, "key %s versions %u..%u", k->name, (unsigned int)lo,
			 (unsigned int)k->version);
}

static void op_verify(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__Verify *v = req->verify;
	Rind__Response resp = RIND__RESPONSE__INIT;
	struct crypto_sig *tfm;
	uint32_t vers[KEY_MAX_VERSIONS];
	unsigned int i, n;
	char note[256];
	unsigned int var;
	int err = -EBADMSG;

	if (k->alg == KEY_ED25519 && v->signature.len != ED25519_SIG_SIZE) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "signature: an ed25519 signature is 64 bytes (got %zu)", v->signature.len);
		return;
	}
	/* ECDSA and RSA: the hash, encoding and padding the signature was made with */
	if (key_sig_variant(k, v->hash, v->sig_format, v->padding, &var, note, sizeof(note))) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "%s", note);
		return;
	}
	if (!v->signature.len || v->signature.len > RINDD_SIG_MAX) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "signature: %zu bytes (a %s signature is 1 to %d)", v->signature.len,
			   key_alg_name(k->alg), RINDD_SIG_MAX);
		return;
	}
	n = pick_versions(c, req->id, k, v->key_version, vers);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		tfm = key_sig_var(k, vers[i], w->id, var);
		if (!tfm) {
			err = -ENOMEM;
			break;
		}
		err = crypto_sig_verify(tfm, v->signature.data, (unsigned int)v->signature.len,
					v->message.data, (unsigned int)v->message.len);
		if (err != -EBADMSG)
			break;
	}
	if (!err) {
		resp.id = req->id;
		resp.key_version = vers[i];
		conn_respond(c, &resp);
	} else if (err == -EBADMSG) {
		versions_note(k, v->key_version, note, sizeof(note));
		conn_error(c, req->id, RIND__STATUS__ERR_BAD_MESSAGE, "signature does not verify (%s)", note);
	} else {
		conn_error(c, req->id, status_from_errno(err), "verify failed (errno %d)", -err);
	}
}

static void op_open(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__Open *o = req->open;
	Rind__Response resp = RIND__RESPONSE__INIT;
	struct crypto_aead *tfm;
	struct aead_request *areq = NULL;
	struct scatterlist src[2];
	size_t ctlen = 0, ptlen, adl;
	uint32_t vers[KEY_MAX_VERSIONS];
	unsigned int i, n;
	char note[160];
	u8 *out = NULL;
	int err = -EBADMSG;

	adl = o->associated_data.len;
	if (o->sealed.len < RIND_SEAL_NONCE + RIND_SEAL_TAG) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "sealed: %zu bytes is shorter than nonce (12) + tag (16)", o->sealed.len);
		goto out;
	}
	n = pick_versions(c, req->id, k, o->key_version, vers);
	if (!n)
		goto out;
	ctlen = o->sealed.len - RIND_SEAL_NONCE;
	ptlen = ctlen - RIND_SEAL_TAG;
	out = malloc(ctlen + adl + 1);
	if (!out) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		goto out;
	}
	/* in place: AD || ciphertext||tag becomes AD || plaintext; a failed try is zeroed, so copy again */
	for (i = 0; i < n; i++) {
		tfm = key_aead_ver(k, vers[i], w->id);
		areq = tfm ? aead_request_alloc(tfm, 0) : NULL;
		if (!areq) {
			err = -ENOMEM;
			break;
		}
		if (adl)
			memcpy(out, o->associated_data.data, adl);
		memcpy(out + adl, o->sealed.data + RIND_SEAL_NONCE, ctlen);
		sg_init_one(src, out, (unsigned int)(adl + ctlen));
		aead_request_set_ad(areq, (unsigned int)adl);
		aead_request_set_crypt(areq, src, src, (unsigned int)ctlen, o->sealed.data);
		rind_ct_begin();
		err = crypto_aead_decrypt(areq);
		rind_ct_end();
		aead_request_free(areq);
		areq = NULL;
		if (err != -EBADMSG)
			break;
	}
	if (!err) {
		resp.id = req->id;
		resp.result_case = RIND__RESPONSE__RESULT_DATA;
		resp.data.data = out + adl;
		resp.data.len = ptlen;
		resp.key_version = vers[i];
		conn_respond(c, &resp);
	} else if (err == -EBADMSG) {
		versions_note(k, o->key_version, note, sizeof(note));
		conn_error(c, req->id, RIND__STATUS__ERR_BAD_MESSAGE,
			   "sealed box does not authenticate under %s (wrong key, version or associated data, or altered)",
			   note);
	} else {
		conn_error(c, req->id, status_from_errno(err), "open failed (errno %d)", -err);
	}
out:
	if (out) {
		rind_memzero_explicit(out, ctlen + adl);
		free(out);
	}
}

static void op_derive(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	Rind__Derive *d = req->derive;
	struct crypto_kpp *tfm;
	struct kpp_request *kreq = NULL;
	struct scatterlist src, dst;
	u8 peer[136], secret[66];
	char msg[256];
	int err, plen;

	if (k->alg == KEY_X25519 && d->peer_public_key.len == 0) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "peer_public_key: a raw x25519 public key is 32 bytes (got %zu)",
			   d->peer_public_key.len);
		return;
	}
	/* raw, or SPKI DER / PEM / JWK (key-types.c): the raw form the kpp takes */
	plen = key_peer_raw(k, d->peer_public_key.data ? d->peer_public_key.data : (const u8 *)"",
			    d->peer_public_key.len, peer, sizeof(peer), msg, sizeof(msg));
	if (plen < 0) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "%s", msg);
		return;
	}
	tfm = key_kpp(k, w->id);
	kreq = tfm ? kpp_request_alloc(tfm, 0) : NULL;
	if (!kreq) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "out of memory");
		return;
	}
	sg_init_one(&src, peer, (unsigned int)plen);
	sg_init_one(&dst, secret, sizeof(secret));
	kpp_request_set_input(kreq, &src, (unsigned int)plen);
	kpp_request_set_output(kreq, &dst, sizeof(secret));
	rind_ct_begin();
	err = crypto_kpp_compute_shared_secret(kreq);
	rind_ct_end();
	if (!err)
		reply_data(c, req->id, secret, kreq->dst_len);
	else if (err == -EINVAL && k->alg == KEY_X25519)
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "peer_public_key: a small-order point (all-zero shared secret)");
	else if (err == -EINVAL)
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "peer_public_key: not a point on the key's curve");
	else
		conn_error(c, req->id, status_from_errno(err), "derive failed (errno %d)", -err);
	rind_memzero_explicit(secret, sizeof(secret));
	kpp_request_free(kreq);
}

/* ---- the request types ---- */

/* 0, or a compile error when @field of @msg is not of type @type. */
#define FIELD_IS(msg, field, type) \
	(sizeof(char[__builtin_types_compatible_p(__typeof__(((msg *)0)->field), type) ? 1 : -1]) - 1)
/* The key a request names: its "name" string, a key of @alg (-1: any). */
#define NAMES_KEY(msg, alg) \
	.key_name = offsetof(msg, name) + FIELD_IS(msg, name, char *), .key_alg = (alg)
/* The key a request names, which must be able to do @op (key-types.c: key_can). */
#define NAMES_KEY_FOR(msg, op)	NAMES_KEY(msg, -1), .key_op = (op)
/* A bytes field to wipe. */
#define WIPE(msg, field)	(offsetof(msg, field) + FIELD_IS(msg, field, ProtobufCBinaryData))

/*
 * One row per request type, indexed by the op_case of rind.Request.
 * REQ_STORE rows name no key: their handler looks the name up under
 * keystore_lock.  A REQ_BATCH row's key is handed to the batch with the
 * request.
 */
static const struct req_type req_types[] = {
	/* key administration, as over D-Bus (key-admin.c): they rewrite the key file */
	[RIND__REQUEST__OP_ROTATE_KEY] = {
		.name = "rotate_key", .run = REQ_STORE, .handle = admin_op_rotate,
	},
	[RIND__REQUEST__OP_RETIRE_VERSIONS] = {
		.name = "retire_versions", .run = REQ_STORE, .handle = admin_op_retire,
	},
	[RIND__REQUEST__OP_SET_ACCESS] = {
		.name = "set_access", .run = REQ_STORE, .handle = admin_op_set_access,
	},
	[RIND__REQUEST__OP_HELLO] = {
		.name = "hello", .run = REQ_INLINE, .handle = op_hello,
	},
	[RIND__REQUEST__OP_CREATE_KEY] = {
		.name = "create_key", .run = REQ_STORE, .handle = op_create,
	},
	[RIND__REQUEST__OP_IMPORT_KEY] = {
		.name = "import_key", .run = REQ_STORE, .handle = op_import,
		.wipe = { WIPE(Rind__ImportKey, key) },
	},
	[RIND__REQUEST__OP_GET_PUBLIC_KEY] = {
		.name = "get_public_key", .run = REQ_INLINE, .handle = op_pubkey,
		NAMES_KEY(Rind__GetPublicKey, -1),
	},
	[RIND__REQUEST__OP_LIST_KEYS] = {
		.name = "list_keys", .run = REQ_INLINE, .handle = op_list,
	},
	[RIND__REQUEST__OP_DELETE_KEY] = {
		.name = "delete_key", .run = REQ_STORE, .handle = op_delete,
	},
	[RIND__REQUEST__OP_SIGN] = {
		.name = "sign", .run = REQ_BATCH, .run_batch = batch_sign,
		NAMES_KEY_FOR(Rind__Sign, KOP_SIGN),
	},
	[RIND__REQUEST__OP_VERIFY] = {
		.name = "verify", .run = REQ_INLINE, .handle = op_verify,
		NAMES_KEY_FOR(Rind__Verify, KOP_VERIFY),
	},
	[RIND__REQUEST__OP_SEAL] = {
		.name = "seal", .run = REQ_BATCH, .run_batch = batch_seal,
		NAMES_KEY_FOR(Rind__Seal, KOP_SEAL),
		.wipe = { WIPE(Rind__Seal, plaintext) },
	},
	[RIND__REQUEST__OP_OPEN] = {
		.name = "open", .run = REQ_INLINE, .handle = op_open,
		NAMES_KEY_FOR(Rind__Open, KOP_OPEN),
	},
	[RIND__REQUEST__OP_DERIVE] = {
		.name = "derive", .run = REQ_INLINE, .handle = op_derive,
		NAMES_KEY_FOR(Rind__Derive, KOP_DERIVE),
	},
	[RIND__REQUEST__OP_STATS] = {
		.name = "stats", .run = REQ_INLINE, .handle = op_stats,
	},
	[RIND__REQUEST__OP_DECRYPT] = {
		.name = "decrypt", .run = REQ_INLINE, .handle = op_decrypt,
		NAMES_KEY_FOR(Rind__Decrypt, KOP_DECRYPT),
		.wipe = { WIPE(Rind__Decrypt, ciphertext) },
	},
	[RIND__REQUEST__OP_DECAPSULATE] = {
		.name = "decapsulate", .run = REQ_INLINE, .handle = op_decap,
		NAMES_KEY_FOR(Rind__Decapsulate, KOP_DECAP),
	},
};

const struct req_type *req_type(const Rind__Request *req)
{
	unsigned int op = req->op_case;

	if (op < sizeof(req_types) / sizeof(req_types[0]) && req_types[op].name)
		return &req_types[op];
	return NULL;
}

const char *req_name(const Rind__Request *req)
{
	const struct req_type *t = req_type(req);

	return t ? t->name : "unknown";
}

void dispatch_admin(struct conn *c, Rind__Request *req)
{
	const struct req_type *t = req_type(req);

	if (!t || t->run != REQ_STORE) {
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "not a key store operation");
		return;
	}
	t->handle(NULL, c, req, NULL);
}

void dispatch(struct worker *w, struct conn *c, Rind__Request *req)
{
	const struct req_type *t = req_type(req);
	struct key *k = NULL;

	if (!t) {
		conn_error(c, req->id, RIND__STATUS__ERR_UNSUPPORTED,
			   "request carries no operation this daemon knows");
		goto out;
	}
	if (t->key_name) {
		const char *name = *(const char *const *)((const char *)op_message(req) + t->key_name);

		k = use_key(c, req->id, name, t->name, t->key_alg, t->key_op);
		if (!k)
			goto out;
	}
	switch (t->run) {
	case REQ_BATCH:
		batch_add(w, c, t, k, req);
		return;
	case REQ_STORE:
		/* they fsync: not on this loop if the store thread can take them */
		if (store_submit(w, c, req))
			return;
		break;
	case REQ_INLINE:
		break;
	}
	t->handle(w, c, req, k);
	key_put(k);
out:
	req_free(req);
}

void dispatch_free(Rind__Request *req)
{
	req_free(req);
}
