// SPDX-License-Identifier: MIT
/*
 * Key administration: create, import, delete, rotate, retire versions and
 * set access.  The socket's create/import/delete handlers (dispatch.c, run
 * on the store thread) and D-Bus (dbus.c) both come here, so that every
 * management action checks, audits and signals the same way whatever it
 * came through.  Changes to the store are serialised by keystore_lock; a
 * key object in the table is never edited in place (key_modify swaps in a
 * changed copy).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rind/crypto.h>

#include "rindd.h"

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
		snprintf(msg, msglen, "algorithm %.64s is not available yet (have %s)", alg_s,
			 key_type_list());
	else if (err)
		snprintf(msg, msglen, "algorithm: unknown \"%.64s\" (have %s)", alg_s, key_type_list());
	if (err)
		return -EOPNOTSUPP;
	return 0;
}

/* An RSA key is made for one use; the other types have theirs. */
static int check_usage(enum key_alg alg, const char *usage_s, enum key_usage *usage, char *msg,
		       size_t msglen)
{
	const struct key_type *t = key_type_of(alg);

	if (key_usage_parse(usage_s, usage)) {
		snprintf(msg, msglen, "usage: \"%.32s\" (sign, decrypt)", usage_s);
		return -EINVAL;
	}
	if (t->kind == KC_RSA) {
		if (*usage == KEY_USAGE_DEFAULT)
			*usage = KEY_USAGE_SIGN;
		return 0;
	}
	if (*usage == KEY_USAGE_DEFAULT || (*usage == KEY_USAGE_SIGN && t->kind == KC_SIG)) {
		*usage = KEY_USAGE_DEFAULT;
		return 0;
	}
	snprintf(msg, msglen, "usage: only RSA keys are made for a use (sign or decrypt); %s keys %s",
		 t->name, t->kind == KC_SIG ? "sign" : t->kind == KC_KPP ? "derive" :
		 t->kind == KC_KEM ? "decapsulate" : "seal and open");
	return -EINVAL;
}

/*
 * Root and the uid rindd runs as (the service's own user) own the service:
 * they see every key in stats and are not held to the per-uid quota.
 */
bool peer_is_service_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* Keys owned by @uid, and in *@total every key in the table. */
static size_t keys_owned(uid_t uid, size_t *total)
{
	size_t n, i, mine = 0;
	struct key **v = key_list(&n);

	if (!v) {
		*total = key_count();
		return 0;
	}
	for (i = 0; i < n; i++)
		mine += v[i]->owner_uid == (uint32_t)uid;
	key_list_put(v, n);
	*total = n;
	return mine;
}

size_t key_count_for(uid_t uid, bool *all)
{
	size_t total, mine = keys_owned(uid, &total);

	*all = peer_is_service_owner(uid);
	return *all ? total : mine;
}

/*
 * Quotas (--max-keys, --max-keys-per-uid): one user of the socket must
 * not fill the disk or the locked memory.  Called under keystore_lock, so
 * the count cannot move before the key is inserted.
 */
static int check_quota(uid_t uid, char *msg, size_t msglen)
{
	size_t total, mine;

	if (!cfg.max_keys && !cfg.max_keys_per_uid)
		return 0;
	mine = keys_owned(uid, &total);
	if (cfg.max_keys && total >= cfg.max_keys) {
		snprintf(msg, msglen, "key quota: rindd holds %zu keys, its limit (--max-keys %u)",
			 total, cfg.max_keys);
		return -EDQUOT;
	}
	if (cfg.max_keys_per_uid && !peer_is_service_owner(uid) && mine >= cfg.max_keys_per_uid) {
		snprintf(msg, msglen,
			 "key quota: uid %u owns %zu keys, the limit per uid (--max-keys-per-uid %u); delete one first",
			 (unsigned int)uid, mine, cfg.max_keys_per_uid);
		return -EDQUOT;
	}
	return 0;
}

int key_create(const char *name, const char *alg_s, const u8 *import, size_t importlen,
	       bool encoded, bool exportable, uid_t uid, pid_t pid, const char *via,
	       char *msg, size_t msglen, struct key **out)
{
	return key_create_usage(name, alg_s, "", import, importlen, encoded, exportable, uid, pid,
				via, msg, msglen, out);
}

int key_create_usage(const char *name, const char *alg_s, const char *usage_s, const u8 *import,
		     size_t importlen, bool encoded, bool exportable, uid_t uid, pid_t pid,
		     const char *via, char *msg, size_t msglen, struct key **out)
{
	const char *action = import ? "import_key" : "create_key";
	u8 *secret = secmem_alloc(RINDD_SECRET_MAX);
	size_t slen = 0;
	enum key_alg alg = KEY_ED25519;
	enum key_usage usage = KEY_USAGE_DEFAULT;
	struct key *k, *old;
	int err;

	*out = NULL;
	if (!secret) {
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	if (!alg_s)
		alg_s = "";
	if (!key_name_valid(name)) {
		snprintf(msg, msglen, "name: 1 to 64 characters of [A-Za-z0-9._-], not starting with '.'");
		err = -EINVAL;
	} else if (import) {
		/* the type may be left to detection; a given one must be known */
		err = *alg_s ? check_new_key(name, alg_s, &alg, msg, msglen) : 0;
		if (!err)
			err = key_import(alg_s, KEY_USAGE_DEFAULT, import, importlen, encoded, &alg,
					 secret, &slen, msg, msglen);
	} else {
		err = check_new_key(name, alg_s, &alg, msg, msglen);
	}
	if (!err)
		err = check_usage(alg, usage_s, &usage, msg, msglen);
	if (!err && !import) {
		err = key_generate(alg, usage, secret, &slen);
		if (err) {
			snprintf(msg, msglen, "generating the %s key failed (errno %d)", key_alg_name(alg),
				 -err);
			err = -EIO;
		}
	}
	if (err) {
		secmem_free(secret, RINDD_SECRET_MAX);
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
			 "a key file for %s is in the state directory but did not load: rind key list --all shows why, rind key delete %s removes it",
			 name, name);
		err = -EEXIST;
	}
	if (err) {
		pthread_mutex_unlock(&keystore_lock);
		secmem_free(secret, RINDD_SECRET_MAX);
		audit(action, name, uid, pid, via, "exists", "%s", msg);
		return err;
	}
	err = check_quota(uid, msg, msglen);
	if (err) {
		pthread_mutex_unlock(&keystore_lock);
		secmem_free(secret, RINDD_SECRET_MAX);
		audit(action, name, uid, pid, via, "quota", "%s", msg);
		return err;
	}
	k = key_new_len(name, alg, secret, slen);
	secmem_free(secret, RINDD_SECRET_MAX);
	if (!k) {
		pthread_mutex_unlock(&keystore_lock);
		snprintf(msg, msglen, "out of memory");
		return -ENOMEM;
	}
	k->usage = usage;
	k->owner_uid = uid;
	k->created = (uint64_t)time(NULL);
	k->exportable = exportable;
	err = keystore_save(k);
	if (!err)
		err = key_insert(k);
	pthread_mutex_unlock(&keystore_lock);
	if (err) {
		key_put(k);
		snprintf(msg, msglen, "storing key %s failed: %s", name,
			 err == -E2BIG ? "the key file would exceed its size limit" : strerror(-err));
		audit(action, name, uid, pid, via, "error", "%s", msg);
		return err;
	}
	audit(action, name, uid, pid, via, "ok", "alg=%s%s%s version=1 exportable=%d",
	      key_alg_name(alg), usage ? " usage=" : "", key_usage_name(usage), exportable);
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
	/* a key file that failed to load (rind key list --all) */
	err = keystore_remove_failed(name, uid);
	if (err != -ENOENT) {
		pthread_mutex_unlock(&keystore_lock);
		audit("delete_key", name, uid, pid, via, err ? (err == -EPERM ? "denied" : "error") : "ok",
		      "failed_file=1 errno=%d", -err);
		if (!err)
			dbus_signal_deleted(name);
		return err;
	}
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
 * written over the key file and swapped into the table.  A @change that
 * returns 1 changes nothing: the key is returned as it is, nothing written.
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
	err = c ? change(c, arg) : -ENOMEM;
	if (err == 1) {
		/* nothing changes (an access query): no write, the key as it is */
		pthread_mutex_unlock(&keystore_lock);
		key_put(c);
		*result = k;
		return 0;
	}
	key_put(k);
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
	u8 *secret;
	size_t len;
	int err;

	(void)arg;
	if (c->n_old >= 64)
		return -E2BIG;
	secret = secmem_alloc(RINDD_SECRET_MAX);
	if (!secret)
		return -ENOMEM;
	err = key_generate(c->alg, c->usage, secret, &len) ? -EIO : 0;
	if (!err)
		err = key_add_version_len(c, secret, len);
	secmem_free(secret, RINDD_SECRET_MAX);
	return err;
}

/* A rotation also stamps the new version's creation time (old versions keep theirs). */
static int change_rotate_stamped(struct key *c, void *arg)
{
	int err = change_rotate(c, arg);

	if (!err)
		c->created = (uint64_t)time(NULL);
	return err;
}

/* Rotate: 0 and the changed key in *@out (referenced), or -errno. */
static int key_rotate_get(const char *name, uid_t uid, pid_t pid, const char *via, struct key **out)
{
	struct key *c;
	uint32_t ver;
	int err = key_modify(name, "rotate_key", uid, pid, via, change_rotate_stamped, NULL, &c);

	if (err == -ENOENT || err == -EPERM)
		return err;
	if (err) {
		audit("rotate_key", name, uid, pid, via, "error", "errno=%d%s", -err,
		      err == -E2BIG ? " msg=\"64 live old versions: retire some first\"" : "");
		return err;
	}
	ver = c->version;
	audit("rotate_key", name, uid, pid, via, "ok", "version=%u", (unsigned int)ver);
	dbus_signal_rotated(name, ver);
	*out = c;
	return 0;
}

int key_rotate(const char *name, uid_t uid, pid_t pid, const char *via, uint32_t *ver)
{
	struct key *c;
	int err = key_rotate_get(name, uid, pid, via, &c);

	if (err)
		return err;
	*ver = c->version;
	key_put(c);
	return 0;
}

static int change_min(struct key *c, void *arg)
{
	return key_retire(c, *(uint32_t *)arg);
}

static int key_retire_get(const char *name, uint32_t min, uid_t uid, pid_t pid, const char *via,
			  struct key **out)
{
	struct key *c = NULL;
	int err = key_modify(name, "retire_versions", uid, pid, via, change_min, &min, &c);

	if (err == -ENOENT || err == -EPERM)
		return err;
	audit("retire_versions", name, uid, pid, via, err ? "error" : "ok", "min_version=%u errno=%d",
	      (unsigned int)min, -err);
	if (!err)
		*out = c;
	return err;
}

int key_set_min_version(const char *name, uint32_t min, uid_t uid, pid_t pid, const char *via)
{
	struct key *c;
	int err = key_retire_get(name, min, uid, pid, via, &c);

	if (!err)
		key_put(c);
	return err;
}

/*
 * A change of a key's allow lists: add the allow ids, remove the deny ids,
 * from empty lists when @replace (D-Bus SetAccess replaces them).  The
 * owner and root always have access, so denying them is refused rather
 * than silently meaningless; (uint32)-1 is never an id (a D-Bus caller
 * without a reported gid used to be -1).
 */
struct access_edit {
	const uint32_t *allow_uids, *allow_gids, *deny_uids, *deny_gids;
	size_t n_allow_uids, n_allow_gids, n_deny_uids, n_deny_gids;
	bool replace;
	char *msg;
	size_t msglen;
};

#define ACCESS_MAX_IDS	1024	/* per list */

static bool id_in(const uint32_t *v, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

/* The list @cur (@ncur) minus @deny plus @allow, into a malloc'd *@out. */
static int edit_list(const uint32_t *cur, size_t ncur, const uint32_t *allow, size_t nallow,
		     const uint32_t *deny, size_t ndeny, uint32_t **out, size_t *nout)
{
	size_t i, n = 0, cap = ncur + nallow;
	uint32_t *v = cap ? malloc(cap * sizeof(*v)) : NULL;

	if (cap && !v)
		return -ENOMEM;
	for (i = 0; i < ncur; i++)
		if (!id_in(deny, ndeny, cur[i]) && !id_in(v, n, cur[i]))
			v[n++] = cur[i];
	for (i = 0; i < nallow; i++)
		if (!id_in(v, n, allow[i]))
			v[n++] = allow[i];
	if (n > ACCESS_MAX_IDS) {
		free(v);
		return -E2BIG;
	}
	*out = v;
	*nout = n;
	return 0;
}

static int check_ids(struct access_edit *a, const struct key *c)
{
	static const char *const what[] = { "allow uid", "allow gid", "deny uid", "deny gid" };
	const uint32_t *lists[] = { a->allow_uids, a->allow_gids, a->deny_uids, a->deny_gids };
	size_t counts[] = { a->n_allow_uids, a->n_allow_gids, a->n_deny_uids, a->n_deny_gids };
	size_t l, i;

	for (l = 0; l < 4; l++) {
		if (counts[l] > ACCESS_MAX_IDS) {
			snprintf(a->msg, a->msglen, "%s: %zu ids, at most %u per list", what[l], counts[l],
				 ACCESS_MAX_IDS);
			return -E2BIG;
		}
		for (i = 0; i < counts[l]; i++) {
			uint32_t id = lists[l][i];

			if (id == UINT32_MAX) {
				snprintf(a->msg, a->msglen, "%s 4294967295 (-1) is not an id", what[l]);
				return -EINVAL;
			}
			if (l == 2 && (id == 0 || id == c->owner_uid)) {
				snprintf(a->msg, a->msglen,
					 "deny uid %u: %s always has access to key %s (only allow lists can be changed)",
					 (unsigned int)id, id == 0 ? "root" : "the key's owner", c->name);
				return -EINVAL;
			}
			if (l >= 2 && id_in(lists[l - 2], counts[l - 2], id)) {
				snprintf(a->msg, a->msglen, "%s %u is also to be allowed", what[l],
					 (unsigned int)id);
				return -EINVAL;
			}
		}
	}
	return 0;
}

static int change_access(struct key *c, void *arg)
{
	struct access_edit *a = arg;
	uint32_t *u = NULL, *g = NULL;
	size_t nu, ng;
	int err = check_ids(a, c);

	if (err)
		return err;
	if (!a->replace && !a->n_allow_uids && !a->n_allow_gids && !a->n_deny_uids &&
	    !a->n_deny_gids)
		return 1;	/* a query: the lists as they are */
	err = edit_list(a->replace ? NULL : c->allow_uids, a->replace ? 0 : c->n_allow_uids,
			a->allow_uids, a->n_allow_uids, a->deny_uids, a->n_deny_uids, &u, &nu);
	if (!err)
		err = edit_list(a->replace ? NULL : c->allow_gids, a->replace ? 0 : c->n_allow_gids,
				a->allow_gids, a->n_allow_gids, a->deny_gids, a->n_deny_gids, &g, &ng);
	if (err) {
		free(u);
		if (err == -E2BIG)
			snprintf(a->msg, a->msglen, "key %s: an allow list would hold more than %u ids",
				 c->name, ACCESS_MAX_IDS);
		return err;
	}
	free(c->allow_uids);
	free(c->allow_gids);
	c->allow_uids = u;
	c->allow_gids = g;
	c->n_allow_uids = nu;
	c->n_allow_gids = ng;
	return 0;
}

static int key_access_get(const char *name, struct access_edit *a, uid_t uid, pid_t pid,
			  const char *via, struct key **out)
{
	struct key *c = NULL;
	int err = key_modify(name, "set_access", uid, pid, via, change_access, a, &c);

	if (err == -ENOENT || err == -EPERM)
		return err;
	if (err && !a->msg[0])
		snprintf(a->msg, a->msglen, "changing access to key %s failed (errno %d: %s)", name,
			 -err, strerror(-err));
	audit("set_access", name, uid, pid, via, err ? "error" : "ok",
	      "allow_uids=%zu allow_gids=%zu deny_uids=%zu deny_gids=%zu replace=%d uids=%zu gids=%zu errno=%d",
	      a->n_allow_uids, a->n_allow_gids, a->n_deny_uids, a->n_deny_gids, a->replace,
	      c ? c->n_allow_uids : 0, c ? c->n_allow_gids : 0, -err);
	if (!err)
		*out = c;
	return err;
}

int key_set_access(const char *name, const uint32_t *uids, size_t nu, const uint32_t *gids,
		   size_t ng, uid_t uid, pid_t pid, const char *via)
{
	char msg[256] = "";
	struct access_edit a = {
		.allow_uids = uids, .n_allow_uids = nu, .allow_gids = gids, .n_allow_gids = ng,
		.replace = true, .msg = msg, .msglen = sizeof(msg),
	};
	struct key *c;
	int err = key_access_get(name, &a, uid, pid, via, &c);

	if (!err)
		key_put(c);
	return err;
}

/* ---- the socket's rotate_key, retire_versions, set_access (store thread) ---- */

size_t key_info_versions(const struct key *k, Rind__KeyVersionInfo *v, Rind__KeyVersionInfo **pv)
{
	size_t i, n = 0;

	for (i = 0; i < k->n_old && n < KEY_MAX_VERSIONS - 1; i++, n++) {
		rind__key_version_info__init(&v[n]);
		v[n].version = k->old[i].version;
		v[n].created = k->old[i].created;
		pv[n] = &v[n];
	}
	rind__key_version_info__init(&v[n]);
	v[n].version = k->version;
	v[n].created = k->created;
	pv[n] = &v[n];
	return n + 1;
}

/* Answer with @k's KeyInfo (its allow lists too when @acl) and @version in key_version. */
static void reply_key(struct conn *c, uint64_t id, const struct key *k, bool acl, uint32_t version)
{
	Rind__Response resp = RIND__RESPONSE__INIT;
	Rind__KeyList list = RIND__KEY_LIST__INIT;
	Rind__KeyInfo ki = RIND__KEY_INFO__INIT, *pki = &ki;
	Rind__KeyVersionInfo v[KEY_MAX_VERSIONS], *pv[KEY_MAX_VERSIONS];

	ki.name = (char *)k->name;
	ki.algorithm = (char *)key_alg_name(k->alg);
	ki.owner_uid = k->owner_uid;
	ki.created = k->created;
	ki.version = k->version;
	ki.exportable = k->exportable;
	ki.min_version = k->min_version ? k->min_version : 1;
	ki.n_versions = key_info_versions(k, v, pv);
	ki.versions = pv;
	if (acl) {
		ki.n_allow_uids = k->n_allow_uids;
		ki.allow_uids = k->allow_uids;
		ki.n_allow_gids = k->n_allow_gids;
		ki.allow_gids = k->allow_gids;
	}
	list.n_keys = 1;
	list.keys = &pki;
	resp.id = id;
	resp.result_case = RIND__RESPONSE__RESULT_KEYS;
	resp.keys = &list;
	resp.key_version = version;
	conn_respond(c, &resp);
}

/* The error answer for -errno @err of @what ("rotate", ...) on key @name. */
static void admin_error(struct conn *c, uint64_t id, int err, const char *what, const char *name,
			const char *msg)
{
	switch (err) {
	case -ENOENT:
		conn_error(c, id, RIND__STATUS__ERR_NOT_FOUND, "no key named %.64s", name);
		break;
	case -EPERM:
		conn_error(c, id, RIND__STATUS__ERR_PERMISSION,
			   "uid %u may not %s key %.64s (only root and the key's owner may)",
			   (unsigned int)c->peer.uid, what, name);
		break;
	case -EFBIG:
		/* the key store's one size limit of a key file (nothing was written) */
		conn_error(c, id, RIND__STATUS__ERR_INVALID,
			   "key %.64s: the key file would exceed its size limit (retire old versions or shorten the allow lists)",
			   name);
		break;
	case -EINVAL:
	case -E2BIG:
		conn_error(c, id, RIND__STATUS__ERR_INVALID, "%s", msg && *msg ? msg :
			   err == -E2BIG ? "64 live old versions: retire some first" : "invalid argument");
		break;
	default:
		conn_error(c, id, RIND__STATUS__ERR_INTERNAL, "%s key %.64s failed (errno %d: %s)", what,
			   name, -err, strerror(-err));
	}
}

static bool admin_name_ok(struct conn *c, uint64_t id, const char *name)
{
	if (key_name_valid(name))
		return true;
	conn_error(c, id, RIND__STATUS__ERR_INVALID, *name ? "name: 1 to 64 characters of [A-Za-z0-9._-], not starting with '.'" :
		   "name: missing");
	return false;
}

void admin_op_rotate(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	const char *name = req->rotate_key->name;
	struct key *r;
	int err;

	(void)w;
	(void)k;
	if (!admin_name_ok(c, req->id, name))
		return;
	err = key_rotate_get(name, c->peer.uid, c->peer.pid, "socket", &r);
	if (err) {
		admin_error(c, req->id, err, "rotate", name,
			    err == -E2BIG ? "key has 64 live old versions: retire some first (rind key retire)" : NULL);
		return;
	}
	reply_key(c, req->id, r, false, r->version);
	key_put(r);
}

void admin_op_retire(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	const Rind__RetireVersions *m = req->retire_versions;
	char msg[160];
	struct key *r;
	int err;

	(void)w;
	(void)k;
	if (!admin_name_ok(c, req->id, m->name))
		return;
	if (!m->min_version) {
		conn_error(c, req->id, RIND__STATUS__ERR_INVALID, "min_version: missing (versions below it are retired)");
		return;
	}
	err = key_retire_get(m->name, m->min_version, c->peer.uid, c->peer.pid, "socket", &r);
	if (err) {
		snprintf(msg, sizeof(msg), "min_version %u is above key %.64s's current version",
			 (unsigned int)m->min_version, m->name);
		admin_error(c, req->id, err, "retire versions of", m->name, msg);
		return;
	}
	reply_key(c, req->id, r, false, r->version);
	key_put(r);
}

void admin_op_set_access(struct worker *w, struct conn *c, Rind__Request *req, struct key *k)
{
	const Rind__SetAccess *m = req->set_access;
	char msg[256] = "";
	struct access_edit a = {
		.allow_uids = m->allow_uids, .n_allow_uids = m->n_allow_uids,
		.allow_gids = m->allow_gids, .n_allow_gids = m->n_allow_gids,
		.deny_uids = m->deny_uids, .n_deny_uids = m->n_deny_uids,
		.deny_gids = m->deny_gids, .n_deny_gids = m->n_deny_gids,
		.replace = m->replace, .msg = msg, .msglen = sizeof(msg),
	};
	struct key *r;
	int err;

	(void)w;
	(void)k;
	if (!admin_name_ok(c, req->id, m->name))
		return;
	err = key_access_get(m->name, &a, c->peer.uid, c->peer.pid, "socket", &r);
	if (err) {
		admin_error(c, req->id, err, "change access to", m->name, msg);
		return;
	}
	reply_key(c, req->id, r, true, 0);
	key_put(r);
}
