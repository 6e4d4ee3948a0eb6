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
			 "a key file for %s is in the state directory but did not load: rind key list --all shows why, rind key delete %s removes it",
			 name, name);
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
		snprintf(msg, msglen, "storing key %s failed: %s", name,
			 err == -E2BIG ? "the key file would exceed its size limit" : strerror(-err));
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
