// SPDX-License-Identifier: MIT
/*
 * Requests to operations.  Sign and seal are queued for the turn's
 * batches (batch.c); everything else runs here, at once.  Each handler
 * answers exactly once, and owns (frees) the request.
 */
#include <errno.h>
#include <stdio.h>
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
	audit(op, k->name, c->peer.uid, c->peer.pid, "socket", "denied", "gid=%u owner=%u",
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

/* ---- create, import, delete, rotate, access (shared with D-Bus) ---- */
static int check_new_key(const char *name, const char *alg_s, enum key_alg *alg,
			 char *msg, size_t msglen)
{
	int err;

	if (!key_name_valid(name)) {
		snprintf(msg, msglen, "name: 1 to 64 characters of [A-Za-z0-9._-], not starting with '.'");
		return -EINVAL;
	}
	err = key_alg_parse(alg_s, alg);
	if (err == -EOPNOTSUPP)
		snprintf(msg, msglen,
			 "algorithm %.64s is not available yet (have ed25519, x25519, aes-256-gcm)", alg_s);
	else if (err)
		snprintf(msg, msglen,
			 "algorithm: unknown \"%.64s\" (have ed25519, x25519, aes-256-gcm)", alg_s);
	if (err)
		return -EOPNOTSUPP;
	return 0;
}

/* The 32-byte secret of an imported key (raw, or PKCS#8/PEM/JWK when @encoded). */
static int import_secret(enum key_alg alg, const u8 *key, size_t len, bool encoded,
			 u8 secret[RINDD_KEY_MAX], char *msg, size_t msglen)
{
	int err = 0;

	if (!encoded && len != 32) {
		snprintf(msg, msglen, "key: a raw %s key is 32 bytes (got %zu)", key_alg_name(alg), len);
		return -EINVAL;
	}
	if (len > 16384) {
		snprintf(msg, msglen, "key: %zu bytes is too long", len);
		return -EINVAL;
	}
	switch (alg) {
	case KEY_AES256GCM:
		if (encoded) {
			snprintf(msg, msglen, "format: aes-256-gcm keys are imported raw (32 bytes)");
			return -EINVAL;
		}
		memcpy(secret, key, 32);
		break;
	case KEY_ED25519: {
		struct crypto_sig *tfm = crypto_alloc_sig("ed25519", 0, 0);

		if (IS_ERR(tfm)) {
			err = (int)PTR_ERR(tfm);
			break;
		}
		err = crypto_sig_set_privkey(tfm, key, (unsigned int)len);
		if (!err)
			err = crypto_sig_export_privkey(tfm, RIND_KEY_RAW, secret, RINDD_KEY_MAX);
		crypto_free_sig(tfm);
		break;
	}
	case KEY_X25519: {
		struct crypto_kpp *tfm = crypto_alloc_kpp("curve25519", 0, 0);

		if (IS_ERR(tfm)) {
			err = (int)PTR_ERR(tfm);
			break;
		}
		err = crypto_kpp_set_secret(tfm, key, (unsigned int)len);
		if (!err)
			err = crypto_kpp_export_privkey(tfm, RIND_KEY_RAW, secret, RINDD_KEY_MAX);
		crypto_free_kpp(tfm);
		break;
	}
	}
	if (err > 0 && err != 32)
		err = -EINVAL;
	if (err < 0) {
		rind_memzero_explicit(secret, RINDD_KEY_MAX);
		snprintf(msg, msglen, "key: not a valid %s private key (errno %d)", key_alg_name(alg), -err);
		return -EINVAL;
	}
	return 0;
}

static int new_secret(enum key_alg alg, u8 secret[RINDD_KEY_MAX])
{
	if (alg == KEY_X25519)
		return rind_curve25519_generate_secret(secret);
	return rind_get_random_bytes(secret, RINDD_KEY_MAX);
}

int key_create(const char *name, const char *alg_s, const u8 *import, size_t importlen,
	       bool encoded, bool exportable, uid_t uid, pid_t pid, const char *via,
	       char *msg, size_t msglen, struct key **out)
{
	const char *action = import ? "import_key" : "create_key";
	u8 secret[RINDD_KEY_MAX];
	enum key_alg alg;
	struct key *k, *old;
	int err;

	*out = NULL;
	err = check_new_key(name, alg_s, &alg, msg, msglen);
	if (!err && import)
		err = import_secret(alg, import, importlen, encoded, secret, msg, msglen);
	else if (!err && new_secret(alg, secret)) {
		snprintf(msg, msglen, "no randomness");
		err = -EIO;
	}
	if (err) {
		audit(action, key_name_valid(name) ? name : "-", uid, pid, via, "invalid", "%s", msg);
		return err;
	}
	pthread_mutex_lock(&keystore_lock);
	old = key_lookup(name);
	if (old) {
		key_put(old);
		snprintf(msg, msglen, "key %s exists", name);
		err = -EEXIST;
	} else if (keystore_exists(name)) {
		snprintf(msg, msglen,
			 "a key file for %s is in the state directory but did not load (see the daemon log)",
			 name);
		err = -EEXIST;
	}
	if (err) {
		pthread_mutex_unlock(&keystore_lock);
		rind_memzero_explicit(secret, sizeof(secret));
		audit(action, name, uid, pid, via, "exists", "%s", msg);
		return err;
	}
	k = key_new(name, alg, secret);
	rind_memzero_explicit(secret, sizeof(secret));
	if (!k) {
		pthread_mutex_unlock(&keystore_lock);
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	k->owner_uid = uid;
	k->created = (uint64_t)time(NULL);
	k->exportable = exportable;
	err = keystore_save(k);
	if (!err)
		err = key_insert(k);
	pthread_mutex_unlock(&keystore_lock);
	if (err) {
		key_put(k);
		snprintf(msg, msglen, "storing key %s failed (errno %d)", name, -err);
		audit(action, name, uid, pid, via, "error", "%s", msg);
		return err;
	}
	audit(action, name, uid, pid, via, "ok", "alg=%s version=1 exportable=%d", key_alg_name(alg),
	      exportable);
	dbus_signal_created(name, key_alg_name(alg), (uint32_t)uid);
	atomic_fetch_add(&k->refs, 1);
	*out = k;
	return 0;
}

/* Look up @name for a management @action by @uid (owner or root): referenced. */
static int admin_lookup(const char *name, const char *action, uid_t uid, pid_t pid,
			const char *via, struct key **out)
{
	struct peer p = { .pid = pid, .uid = uid, .gid = (gid_t)-1 };
	struct key *k = key_lookup(name);

	*out = NULL;
	if (!k) {
		audit(action, name, uid, pid, via, "not_found", "%s", "");
		return -ENOENT;
	}
	if (!acl_may_admin(k, &p)) {
		audit(action, name, uid, pid, via, "denied", "owner=%u", (unsigned int)k->owner_uid);
		key_put(k);
		return -EPERM;
	}
	*out = k;
	return 0;
}

int key_delete(const char *name, uid_t uid, pid_t pid, const char *via)
{
	struct key *k;
	int err;

	pthread_mutex_lock(&keystore_lock);
	err = admin_lookup(name, "delete_key", uid, pid, via, &k);
	if (err) {
		pthread_mutex_unlock(&keystore_lock);
		return err;
	}
	err = keystore_delete(k->name);
	if (!err)
		key_put(key_remove(k->name));
	pthread_mutex_unlock(&keystore_lock);
	audit("delete_key", name, uid, pid, via, err ? "error" : "ok", "errno=%d", -err);
	if (!err)
		dbus_signal_deleted(name);
	key_put(k);
	return err;
}

/*
 * Replace @name by a changed copy: @change edits the copy, which is then
 * written over the key file and swapped into the table.
 */
static int key_modify(const char *name, const char *action, uid_t uid, pid_t pid, const char *via,
		      int (*change)(struct key *c, void *arg), void *arg, struct key **result)
{
	struct key *k, *c;
	int err;

	pthread_mutex_lock(&keystore_lock);
	err = admin_lookup(name, action, uid, pid, via, &k);
	if (err) {
		pthread_mutex_unlock(&keystore_lock);
		return err;
	}
	c = key_clone(k);
	key_put(k);
	err = c ? change(c, arg) : -ENOMEM;
	if (!err)
		err = keystore_write(c, true);
	if (!err) {
		atomic_fetch_add(&c->refs, 1);	/* the caller's */
		err = key_replace(c);		/* the table takes the first */
		if (err)
			key_put(c);
	}
	pthread_mutex_unlock(&keystore_lock);
	if (err) {
		if (c)
			key_put(c);
		return err;
	}
	*result = c;
	return 0;
}

static int change_rotate(struct key *c, void *arg)
{
	u8 secret[RINDD_KEY_MAX];
	int err;

	(void)arg;
	if (c->n_old >= 64)
		return -E2BIG;
	if (new_secret(c->alg, secret))
		return -EIO;
	err = key_add_version(c, secret);
	rind_memzero_explicit(secret, sizeof(secret));
	return err;
}

int key_rotate(const char *name, uid_t uid, pid_t pid, const char *via, uint32_t *ver)
{
	struct key *c;
	int err = key_modify(name, "rotate_key", uid, pid, via, change_rotate, NULL, &c);

	if (err == -ENOENT || err == -EPERM)
		return err;
	if (err) {
		audit("rotate_key", name, uid, pid, via, "error", "errno=%d%s", -err,
		      err == -E2BIG ? " msg=\"64 live old versions: retire some first\"" : "");
		return err;
	}
	*ver = c->version;
	key_put(c);
	audit("rotate_key", name, uid, pid, via, "ok", "version=%u", (unsigned int)*ver);
	dbus_signal_rotated(name, *ver);
	return 0;
}

static int change_min(struct key *c, void *arg)
{
	return key_retire(c, *(uint32_t *)arg);
}

int key_set_min_version(const char *name, uint32_t min, uid_t uid, pid_t pid, const char *via)
{
	struct key *c;
	int err = key_modify(name, "retire_versions", uid, pid, via, change_min, &min, &c);

	if (err == -ENOENT || err == -EPERM)
		return err;
	if (!err)
		key_put(c);
	audit("retire_versions", name, uid, pid, via, err ? "error" : "ok", "min_version=%u errno=%d",
	      (unsigned int)min, -err);
	return err;
}

struct access_arg {
	const uint32_t *uids, *gids;
	size_t nu, ng;
};

static int change_access(struct key *c, void *arg)
{
	struct access_arg *a = arg;
	uint32_t *u = NULL, *g = NULL;

	if (a->nu > 1024 || a->ng > 1024)
		return -E2BIG;
	if (a->nu && !(u = malloc(a->nu * sizeof(*u))))
		return -ENOMEM;
	if (a->ng && !(g = malloc(a->ng * sizeof(*g)))) {
		free(u);
		return -ENOMEM;
	}
	if (a->nu)
		memcpy(u, a->uids, a->nu * sizeof(*u));
	if (a->ng)
		memcpy(g, a->gids, a->ng * sizeof(*g));
	free(c->allow_uids);
	free(c->allow_gids);
	c->allow_uids = u;
	c->allow_gids = g;
	c->n_allow_uids = a->nu;
	c->n_allow_gids = a->ng;
	return 0;
}

int key_set_access(const char *name, const uint32_t *uids, size_t nu, const uint32_t *gids,
		   size_t ng, uid_t uid, pid_t pid, const char *via)
{
	struct access_arg a = { uids, gids, nu, ng };
	struct key *c;
	int err = key_modify(name, "set_access", uid, pid, via, change_access, &a, &c);

	if (err == -ENOENT || err == -EPERM)
		return err;
	if (!err)
		key_put(c);
	audit("set_access", name, uid, pid, via, err ? "error" : "ok", "uids=%zu gids=%zu errno=%d",
	      nu, ng, -err);
	return err;
}

/* ---- the socket's create, import, delete ---- */
static void op_create(struct conn *c, Rind__Request *req, bool import)
{
	char msg[256];
	struct key *k;
	int err;

	if (import) {
		Rind__ImportKey *ik = req->import_key;

		err = key_create(ik->name, ik->algorithm, ik->key.data ? ik->key.data : (const u8 *)"",
				 ik->key.len, ik->format != RIND__KEY_FORMAT__RAW, ik->exportable,
				 c->peer.uid, c->peer.pid, "socket", msg, sizeof(msg), &k);
	} else {
		Rind__CreateKey *ck = req->create_key;

		err = key_create(ck->name, ck->algorithm, NULL, 0, false, ck->exportable,
				 c->peer.uid, c->peer.pid, "socket", msg, sizeof(msg), &k);
	}
	if (err) {
		conn_error(c, req->id, status_from_errno(err == -EOPNOTSUPP ? -EOPNOTSUPP : err),
			   "%s", msg);
		return;
	}
	reply_keys(c, req->id, &k, 1);
	key_put(k);
}

static void op_delete(struct conn *c, Rind__Request *req)
{
	const char *name = req->delete_key->name;
	int err;

	if (!*name) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "name: missing");
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

static void op_verify(struct worker *w, struct conn *c, Rind__Request *req)
{
	Rind__Verify *v = req->verify;
	struct key *k = use_key(c, req->id, v->name, "verify", KEY_ED25519);
	Rind__Response resp = RIND__RESPONSE__INIT;
	struct crypto_sig *tfm;
	uint32_t vers[KEY_MAX_VERSIONS];
	unsigned int i, n;
	char note[160];
	int err = -EBADMSG;

	if (!k)
		return;
	if (v->signature.len != ED25519_SIG_SIZE) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID,
			   "signature: an ed25519 signature is 64 bytes (got %zu)", v->signature.len);
		goto out;
	}
	n = pick_versions(c, req->id, k, v->key_version, vers);
	if (!n)
		goto out;
	for (i = 0; i < n; i++) {
		tfm = key_sig_ver(k, vers[i], w->id);
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
out:
	key_put(k);
}

static void op_open(struct worker *w, struct conn *c, Rind__Request *req)
{
	Rind__Open *o = req->open;
	struct key *k = use_key(c, req->id, o->name, "open", KEY_AES256GCM);
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

	if (!k)
		return;
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

void dispatch_admin(struct conn *c, Rind__Request *req)
{
	switch (req->op_case) {
	case RIND__REQUEST__OP_CREATE_KEY:
		op_create(c, req, false);
		break;
	case RIND__REQUEST__OP_IMPORT_KEY:
		op_create(c, req, true);
		break;
	case RIND__REQUEST__OP_DELETE_KEY:
		op_delete(c, req);
		break;
	default:
		conn_error(c, req->id, RIND__STATUS__ERR_INTERNAL, "not a key store operation");
		break;
	}
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
	case RIND__REQUEST__OP_IMPORT_KEY:
	case RIND__REQUEST__OP_DELETE_KEY:
		/* they fsync: not on this loop if the store thread can take them */
		if (store_submit(w, c, req))
			return;
		dispatch_admin(c, req);
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
