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
			 "a key file for %s is in the state directory but did not load (see the daemon log)",
			 name);
		err = -EEXIST;
	}
	if (err) {
		pthread_mutex_unlock(&keystore_lock);
		secmem_free(secret, RINDD_SECRET_MAX);
		audit(action, name, uid, pid, via, "exists", "%s", msg);
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
		snprintf(msg, msglen, "storing key %s failed (errno %d)", name, -err);
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
