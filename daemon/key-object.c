// SPDX-License-Identifier: MIT
/*
 * Keys in memory.  Secret bytes and the per-thread transforms built from
 * them live in locked memory excluded from core dumps (daemon/secmem.c);
 * the process is made non-dumpable.  Every key is reference counted: the table holds one
 * reference, each request being served holds one, so a key deleted while
 * a batch signs with it is wiped when the batch ends.  Each worker thread
 * sets up its own transform per key on first use (transforms are not
 * shared between threads).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <unistd.h>

#include <rind/crypto.h>

#include "rindd.h"

/* ---- locked secret slots (daemon/secmem.c), of the secret's length ---- */
static u8 *slot_alloc(size_t len)
{
	return secmem_alloc(len ? len : 1);
}

static void slot_free(u8 *p, size_t len)
{
	if (p)
		secmem_free(p, len ? len : 1);
}

void key_slot_free(u8 *p, size_t len)
{
	slot_free(p, len);
}

u8 *key_slot_dup_len(const u8 *secret, size_t len)
{
	u8 *s = slot_alloc(len);

	if (s)
		memcpy(s, secret, len);
	return s;
}

u8 *key_slot_dup(const u8 *secret)
{
	return key_slot_dup_len(secret, RINDD_KEY_MAX);
}

bool key_name_valid(const char *name)
{
	size_t i, n = strlen(name);

	if (n < 1 || n > RINDD_NAME_MAX || name[0] == '.')
		return false;
	for (i = 0; i < n; i++) {
		char ch = name[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-'))
			return false;
	}
	return true;
}

/* ---- key objects ---- */
struct key *key_new_len(const char *name, enum key_alg alg, const u8 *secret, size_t len)
{
	struct key *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->secret = slot_alloc(len);
	if (!k->secret) {
		free(k);
		return NULL;
	}
	memcpy(k->secret, secret, len);
	k->secret_len = len;
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->alg = alg;
	k->version = 1;
	atomic_init(&k->refs, 1);
	return k;
}

struct key *key_new(const char *name, enum key_alg alg, const u8 *secret)
{
	return key_new_len(name, alg, secret, RINDD_KEY_MAX);
}

/*
 * A thread's transforms of one key version: one per variant (hash,
 * signature encoding, padding; key-types.c), set up on first use.
 */
struct tfm_set {
	void *v[KEY_VARIANTS];
};

/* The library type of @k's transforms. */
static int tfm_kind(const struct key *k)
{
	int kind = key_type_of(k->alg)->kind;

	if (kind == KC_RSA)
		return k->usage == KEY_USAGE_DECRYPT ? -1 : KC_SIG;	/* -1: akcipher */
	return kind;
}

static void tfms_free(const struct key *k, void **tfm)
{
	int kind = tfm_kind(k);
	unsigned int i, j;

	for (i = 0; i < RINDD_MAX_THREADS; i++) {
		struct tfm_set *set = tfm[i];

		if (!set)
			continue;
		for (j = 0; j < KEY_VARIANTS; j++) {
			if (!set->v[j])
				continue;
			switch (kind) {
			case KC_SIG:
				crypto_free_sig(set->v[j]);
				break;
			case KC_KPP:
				crypto_free_kpp(set->v[j]);
				break;
			case KC_AEAD:
				crypto_free_aead(set->v[j]);
				break;
			case KC_KEM:
				crypto_free_kem(set->v[j]);
				break;
			default:
				crypto_free_akcipher(set->v[j]);
				break;
			}
		}
		free(set);
		tfm[i] = NULL;
	}
}

static void key_free(struct key *k)
{
	size_t i;

	tfms_free(k, k->tfm);
	for (i = 0; i < k->n_old; i++) {
		tfms_free(k, k->old[i].tfm);
		slot_free(k->old[i].secret, k->old[i].secret_len);
	}
	free(k->old);
	slot_free(k->secret, k->secret_len);
	free(k->allow_uids);
	free(k->allow_gids);
	free(k);
}

uint32_t *key_dup_ids(const uint32_t *v, size_t n)
{
	uint32_t *d;

	if (!n)
		return NULL;
	d = malloc(n * sizeof(*d));
	if (d)
		memcpy(d, v, n * sizeof(*d));
	return d;
}

struct key *key_clone(const struct key *k)
{
	struct key *c = key_new_len(k->name, k->alg, k->secret, k->secret_len);
	size_t i;

	if (!c)
		return NULL;
	c->usage = k->usage;
	c->owner_uid = k->owner_uid;
	c->created = k->created;
	c->version = k->version;
	c->min_version = k->min_version;
	c->exportable = k->exportable;
	c->allow_uids = key_dup_ids(k->allow_uids, k->n_allow_uids);
	c->allow_gids = key_dup_ids(k->allow_gids, k->n_allow_gids);
	if ((k->n_allow_uids && !c->allow_uids) || (k->n_allow_gids && !c->allow_gids))
		goto fail;
	c->n_allow_uids = k->n_allow_uids;
	c->n_allow_gids = k->n_allow_gids;
	if (k->n_old) {
		c->old = calloc(k->n_old, sizeof(*c->old));
		if (!c->old)
			goto fail;
		for (i = 0; i < k->n_old; i++) {
			c->old[i].secret = slot_alloc(k->old[i].secret_len);
			if (!c->old[i].secret)
				goto fail;
			c->n_old = i + 1;
			c->old[i].secret_len = k->old[i].secret_len;
			memcpy(c->old[i].secret, k->old[i].secret, k->old[i].secret_len);
			c->old[i].version = k->old[i].version;
			c->old[i].created = k->old[i].created;
		}
	}
	return c;
fail:
	key_put(c);
	return NULL;
}

int key_add_version_len(struct key *k, const u8 *secret, size_t len)
{
	struct key_old *o = realloc(k->old, (k->n_old + 1) * sizeof(*o));
	u8 *s;

	if (!o)
		return -ENOMEM;
	k->old = o;
	s = slot_alloc(len);
	if (!s)
		return -ENOMEM;
	memset(&o[k->n_old], 0, sizeof(*o));
	o[k->n_old].version = k->version;
	o[k->n_old].created = k->created;
	o[k->n_old].secret = k->secret;
	o[k->n_old].secret_len = k->secret_len;
	memcpy(o[k->n_old].tfm, k->tfm, sizeof(k->tfm));
	memset(k->tfm, 0, sizeof(k->tfm));
	k->n_old++;
	memcpy(s, secret, len);
	k->secret = s;
	k->secret_len = len;
	k->version++;
	return 0;
}

int key_add_version(struct key *k, const u8 *secret)
{
	return key_add_version_len(k, secret, RINDD_KEY_MAX);
}

int key_retire(struct key *k, uint32_t min)
{
	size_t i, m = 0;

	if (min > k->version)
		return -EINVAL;
	for (i = 0; i < k->n_old; i++) {
		if (k->old[i].version < min) {
			tfms_free(k, k->old[i].tfm);
			slot_free(k->old[i].secret, k->old[i].secret_len);
		} else {
			k->old[m++] = k->old[i];
		}
	}
	k->n_old = m;
	if (min > k->min_version)
		k->min_version = min;
	return 0;
}

u8 *key_version_secret_len(struct key *k, uint32_t v, void ***tfm, size_t *len)
{
	size_t i;

	if (v == k->version) {
		*tfm = k->tfm;
		*len = k->secret_len;
		return k->secret;
	}
	for (i = 0; i < k->n_old; i++)
		if (k->old[i].version == v) {
			*tfm = k->old[i].tfm;
			*len = k->old[i].secret_len;
			return k->old[i].secret;
		}
	return NULL;
}

u8 *key_version_secret(struct key *k, uint32_t v, void ***tfm)
{
	size_t len;

	return key_version_secret_len(k, v, tfm, &len);
}

void key_put(struct key *k)
{
	if (k && atomic_fetch_sub(&k->refs, 1) == 1)
		key_free(k);
}

/* ---- the table: a chained hash under a rwlock ---- */
#define NBUCKETS 1024

struct entry {
	struct key *key;
	struct entry *next;
};

static pthread_rwlock_t table_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct entry *buckets[NBUCKETS];
static size_t nkeys;

static unsigned int hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s)
		h = (h ^ (u8)*s++) * 16777619u;
	return h % NBUCKETS;
}

struct key *key_lookup(const char *name)
{
	struct entry *e;
	struct key *k = NULL;

	pthread_rwlock_rdlock(&table_lock);
	for (e = buckets[hash_name(name)]; e; e = e->next)
		if (!strcmp(e->key->name, name)) {
			k = e->key;
			atomic_fetch_add(&k->refs, 1);
			break;
		}
	pthread_rwlock_unlock(&table_lock);
	return k;
}

int key_insert(struct key *k)
{
	unsigned int h = hash_name(k->name);
	struct entry *e, *n = malloc(sizeof(*n));

	if (!n)
		return -ENOMEM;
	pthread_rwlock_wrlock(&table_lock);
	for (e = buckets[h]; e; e = e->next)
		if (!strcmp(e->key->name, k->name)) {
			pthread_rwlock_unlock(&table_lock);
			free(n);
			return -EEXIST;
		}
	n->key = k;
	n->next = buckets[h];
	buckets[h] = n;
	nkeys++;
	pthread_rwlock_unlock(&table_lock);
	return 0;
}

struct key *key_remove(const char *name)
{
	struct entry **pp, *e;
	struct key *k = NULL;

	pthread_rwlock_wrlock(&table_lock);
	for (pp = &buckets[hash_name(name)]; (e = *pp); pp = &e->next)
		if (!strcmp(e->key->name, name)) {
			*pp = e->next;
			k = e->key;
			k->deleted = true;
			free(e);
			nkeys--;
			break;
		}
	pthread_rwlock_unlock(&table_lock);
	return k;
}

int key_replace(struct key *k)
{
	struct entry *e;
	struct key *old = NULL;

	pthread_rwlock_wrlock(&table_lock);
	for (e = buckets[hash_name(k->name)]; e; e = e->next)
		if (!strcmp(e->key->name, k->name)) {
			old = e->key;
			e->key = k;
			break;
		}
	pthread_rwlock_unlock(&table_lock);
	if (!old)
		return -ENOENT;
	key_put(old);
	return 0;
}

size_t key_count(void)
{
	size_t n;

	pthread_rwlock_rdlock(&table_lock);
	n = nkeys;
	pthread_rwlock_unlock(&table_lock);
	return n;
}

struct key **key_list(size_t *n)
{
	struct key **v;
	struct entry *e;
	size_t i = 0;
	unsigned int b;

	pthread_rwlock_rdlock(&table_lock);
	v = malloc((nkeys ? nkeys : 1) * sizeof(*v));
	if (v)
		for (b = 0; b < NBUCKETS; b++)
			for (e = buckets[b]; e; e = e->next) {
				atomic_fetch_add(&e->key->refs, 1);
				v[i++] = e->key;
			}
	pthread_rwlock_unlock(&table_lock);
	*n = i;
	return v;
}

void key_list_put(struct key **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		key_put(v[i]);
	free(v);
}

void keys_wipe_all(void)
{
	unsigned int b;
	struct entry *e;

	pthread_rwlock_wrlock(&table_lock);
	for (b = 0; b < NBUCKETS; b++) {
		while ((e = buckets[b])) {
			buckets[b] = e->next;
			e->key->deleted = true;
			key_put(e->key);
			free(e);
		}
	}
	nkeys = 0;
	pthread_rwlock_unlock(&table_lock);
}

/* ---- per-thread transforms ---- */

/*
 * Variant @var of version @v for @thread: the slot's set is made on first
 * use, the transform too, from the version's secret.  NULL when the
 * version is not live or the transform cannot be set up.
 */
static void *key_tfm(struct key *k, uint32_t v, int thread, unsigned int var)
{
	const char *lib = key_variant_lib(k, var);
	struct tfm_set *set;
	void **slots;
	size_t len;
	u8 *secret = key_version_secret_len(k, v, &slots, &len);
	void *tfm = NULL;
	int err;

	if (!secret || !lib || var >= KEY_VARIANTS || thread < 0 || thread >= RINDD_MAX_THREADS)
		return NULL;
	set = slots[thread];
	if (!set) {
		set = calloc(1, sizeof(*set));
		if (!set)
			return NULL;
		slots[thread] = set;
	}
	if (set->v[var])
		return set->v[var];
	switch (tfm_kind(k)) {
	case KC_SIG:
		tfm = crypto_alloc_sig(lib, 0, 0);
		if (IS_ERR(tfm))
			return NULL;
		err = crypto_sig_set_privkey(tfm, secret, (unsigned int)len);
		if (err) {
			crypto_free_sig(tfm);
			return NULL;
		}
		break;
	case KC_KPP:
		tfm = crypto_alloc_kpp(lib, 0, 0);
		if (IS_ERR(tfm))
			return NULL;
		if (crypto_kpp_set_secret(tfm, secret, (unsigned int)len)) {
			crypto_free_kpp(tfm);
			return NULL;
		}
		break;
	case KC_AEAD:
		tfm = crypto_alloc_aead(lib, 0, 0);
		if (IS_ERR(tfm))
			return NULL;
		if (crypto_aead_setkey(tfm, secret, (unsigned int)len) ||
		    crypto_aead_setauthsize(tfm, 16)) {
			crypto_free_aead(tfm);
			return NULL;
		}
		break;
	case KC_KEM:
		tfm = crypto_alloc_kem(lib, 0, 0);
		if (IS_ERR(tfm))
			return NULL;
		if (crypto_kem_set_privkey(tfm, secret, (unsigned int)len)) {
			crypto_free_kem(tfm);
			return NULL;
		}
		break;
	default:
		tfm = crypto_alloc_akcipher(lib, 0, 0);
		if (IS_ERR(tfm))
			return NULL;
		if (crypto_akcipher_set_priv_key(tfm, secret, (unsigned int)len)) {
			crypto_free_akcipher(tfm);
			return NULL;
		}
		break;
	}
	set->v[var] = tfm;
	return tfm;
}

struct crypto_sig *key_sig_var(struct key *k, uint32_t v, int thread, unsigned int var)
{
	return tfm_kind(k) == KC_SIG ? key_tfm(k, v, thread, var) : NULL;
}

struct crypto_sig *key_sig_ver(struct key *k, uint32_t v, int thread)
{
	return key_sig_var(k, v, thread, 0);
}

struct crypto_sig *key_sig(struct key *k, int thread)
{
	return key_sig_ver(k, k->version, thread);
}

struct crypto_aead *key_aead_ver(struct key *k, uint32_t v, int thread)
{
	return tfm_kind(k) == KC_AEAD ? key_tfm(k, v, thread, 0) : NULL;
}

struct crypto_aead *key_aead(struct key *k, int thread)
{
	return key_aead_ver(k, k->version, thread);
}

struct crypto_kpp *key_kpp(struct key *k, int thread)
{
	return tfm_kind(k) == KC_KPP ? key_tfm(k, k->version, thread, 0) : NULL;
}

struct crypto_akcipher *key_akcipher_var(struct key *k, int thread, unsigned int var)
{
	return tfm_kind(k) == -1 ? key_tfm(k, k->version, thread, var) : NULL;
}

struct crypto_kem *key_kem(struct key *k, int thread)
{
	return tfm_kind(k) == KC_KEM ? key_tfm(k, k->version, thread, 0) : NULL;
}
