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

/* ---- locked secret slots (daemon/secmem.c) ---- */
#define SLOT_SIZE	RINDD_KEY_MAX

static u8 *slot_alloc(void)
{
	return secmem_alloc(SLOT_SIZE);
}

static void slot_free(u8 *p)
{
	secmem_free(p, SLOT_SIZE);
}

u8 *key_slot_dup(const u8 *secret)
{
	u8 *s = slot_alloc();

	if (s)
		memcpy(s, secret, RINDD_KEY_MAX);
	return s;
}

/* ---- algorithms and names ---- */
static const char *const alg_names[] = {
	[KEY_ED25519] = "ed25519",
	[KEY_X25519] = "x25519",
	[KEY_AES256GCM] = "aes-256-gcm",
};

const char *key_alg_name(enum key_alg alg)
{
	return alg_names[alg];
}

int key_alg_parse(const char *s, enum key_alg *alg)
{
	static const char *const later[] = {
		"ecdsa-p256", "ecdsa-p384", "ecdsa-p521", "p256", "p384", "p521",
		"ecdh-p256", "ecdh-p384", "rsa", "rsa-2048", "rsa-3072", "rsa-4096",
		"rsa-pss", "ed448", "x448", "aes-128-gcm", "chacha20-poly1305",
	};
	unsigned int i;

	for (i = 0; i < sizeof(alg_names) / sizeof(alg_names[0]); i++)
		if (!strcmp(s, alg_names[i])) {
			*alg = (enum key_alg)i;
			return 0;
		}
	if (!strcmp(s, "curve25519")) {
		*alg = KEY_X25519;
		return 0;
	}
	for (i = 0; i < sizeof(later) / sizeof(later[0]); i++)
		if (!strcmp(s, later[i]))
			return -EOPNOTSUPP;
	return -EINVAL;
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
struct key *key_new(const char *name, enum key_alg alg, const u8 *secret)
{
	struct key *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->secret = slot_alloc();
	if (!k->secret) {
		free(k);
		return NULL;
	}
	memcpy(k->secret, secret, RINDD_KEY_MAX);
	snprintf(k->name, sizeof(k->name), "%s", name);
	k->alg = alg;
	k->version = 1;
	atomic_init(&k->refs, 1);
	return k;
}

static void tfms_free(enum key_alg alg, void **tfm)
{
	unsigned int i;

	for (i = 0; i < RINDD_MAX_THREADS; i++) {
		if (!tfm[i])
			continue;
		switch (alg) {
		case KEY_ED25519:
			crypto_free_sig(tfm[i]);
			break;
		case KEY_X25519:
			crypto_free_kpp(tfm[i]);
			break;
		case KEY_AES256GCM:
			crypto_free_aead(tfm[i]);
			break;
		}
		tfm[i] = NULL;
	}
}

static void key_free(struct key *k)
{
	size_t i;

	tfms_free(k->alg, k->tfm);
	for (i = 0; i < k->n_old; i++) {
		tfms_free(k->alg, k->old[i].tfm);
		slot_free(k->old[i].secret);
	}
	free(k->old);
	slot_free(k->secret);
	free(k->allow_uids);
	free(k->allow_gids);
	free(k);
}

static uint32_t *dup_ids(const uint32_t *v, size_t n)
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
	struct key *c = key_new(k->name, k->alg, k->secret);
	size_t i;

	if (!c)
		return NULL;
	c->owner_uid = k->owner_uid;
	c->created = k->created;
	c->version = k->version;
	c->min_version = k->min_version;
	c->exportable = k->exportable;
	c->allow_uids = dup_ids(k->allow_uids, k->n_allow_uids);
	c->allow_gids = dup_ids(k->allow_gids, k->n_allow_gids);
	if ((k->n_allow_uids && !c->allow_uids) || (k->n_allow_gids && !c->allow_gids))
		goto fail;
	c->n_allow_uids = k->n_allow_uids;
	c->n_allow_gids = k->n_allow_gids;
	if (k->n_old) {
		c->old = calloc(k->n_old, sizeof(*c->old));
		if (!c->old)
			goto fail;
		for (i = 0; i < k->n_old; i++) {
			c->old[i].secret = slot_alloc();
			if (!c->old[i].secret)
				goto fail;
			c->n_old = i + 1;
			memcpy(c->old[i].secret, k->old[i].secret, RINDD_KEY_MAX);
			c->old[i].version = k->old[i].version;
			c->old[i].created = k->old[i].created;
		}
	}
	return c;
fail:
	key_put(c);
	return NULL;
}

int key_add_version(struct key *k, const u8 *secret)
{
	struct key_old *o = realloc(k->old, (k->n_old + 1) * sizeof(*o));
	u8 *s;

	if (!o)
		return -ENOMEM;
	k->old = o;
	s = slot_alloc();
	if (!s)
		return -ENOMEM;
	memset(&o[k->n_old], 0, sizeof(*o));
	o[k->n_old].version = k->version;
	o[k->n_old].created = k->created;
	o[k->n_old].secret = k->secret;
	memcpy(o[k->n_old].tfm, k->tfm, sizeof(k->tfm));
	memset(k->tfm, 0, sizeof(k->tfm));
	k->n_old++;
	memcpy(s, secret, RINDD_KEY_MAX);
	k->secret = s;
	k->version++;
	return 0;
}

int key_retire(struct key *k, uint32_t min)
{
	size_t i, m = 0;

	if (min > k->version)
		return -EINVAL;
	for (i = 0; i < k->n_old; i++) {
		if (k->old[i].version < min) {
			tfms_free(k->alg, k->old[i].tfm);
			slot_free(k->old[i].secret);
		} else {
			k->old[m++] = k->old[i];
		}
	}
	k->n_old = m;
	if (min > k->min_version)
		k->min_version = min;
	return 0;
}

u8 *key_version_secret(struct key *k, uint32_t v, void ***tfm)
{
	size_t i;

	if (v == k->version) {
		*tfm = k->tfm;
		return k->secret;
	}
	for (i = 0; i < k->n_old; i++)
		if (k->old[i].version == v) {
			*tfm = k->old[i].tfm;
			return k->old[i].secret;
		}
	return NULL;
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
struct crypto_sig *key_sig_ver(struct key *k, uint32_t v, int thread)
{
	void **slots;
	u8 *secret = key_version_secret(k, v, &slots);
	struct crypto_sig *tfm;

	if (!secret)
		return NULL;
	if (slots[thread])
		return slots[thread];
	tfm = crypto_alloc_sig("ed25519", 0, 0);
	if (IS_ERR(tfm))
		return NULL;
	if (crypto_sig_set_privkey(tfm, secret, 32)) {
		crypto_free_sig(tfm);
		return NULL;
	}
	slots[thread] = tfm;
	return tfm;
}

struct crypto_sig *key_sig(struct key *k, int thread)
{
	return key_sig_ver(k, k->version, thread);
}

struct crypto_aead *key_aead_ver(struct key *k, uint32_t v, int thread)
{
	void **slots;
	u8 *secret = key_version_secret(k, v, &slots);
	struct crypto_aead *tfm;

	if (!secret)
		return NULL;
	if (slots[thread])
		return slots[thread];
	tfm = crypto_alloc_aead("gcm(aes)", 0, 0);
	if (IS_ERR(tfm))
		return NULL;
	if (crypto_aead_setkey(tfm, secret, 32) || crypto_aead_setauthsize(tfm, 16)) {
		crypto_free_aead(tfm);
		return NULL;
	}
	slots[thread] = tfm;
	return tfm;
}

struct crypto_kpp *key_kpp(struct key *k, int thread)
{
	struct crypto_kpp *tfm = k->tfm[thread];

	if (tfm)
		return tfm;
	tfm = crypto_alloc_kpp("curve25519", 0, 0);
	if (IS_ERR(tfm))
		return NULL;
	if (crypto_kpp_set_secret(tfm, k->secret, 32)) {
		crypto_free_kpp(tfm);
		return NULL;
	}
	k->tfm[thread] = tfm;
	return tfm;
}

struct crypto_aead *key_aead(struct key *k, int thread)
{
	return key_aead_ver(k, k->version, thread);
}
