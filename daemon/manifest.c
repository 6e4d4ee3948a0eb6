// SPDX-License-Identifier: MIT
/*
 * The manifest: "<state>/manifest", one file sealed under the master key,
 *
 *   "RINDMAN\0" (8) | format version, 32-bit big-endian (=1)
 *   | verifier nonce (12) | verifier tag (16) | nonce (12)
 *   | AES-256-GCM( master key, nonce, AD = those 52 header bytes, payload ) || tag (16)
 *
 *   payload: next generation (u64) | entry count (u32) | per key, sorted by
 *   name: name length (u8), name, generation (u64), alternative generation
 *   (u64, 0: none), flags (u32), seal version (u32), seals reserved (u64)
 *
 * (integers big-endian).  The verifier is the GCM tag of an empty message
 * under the master key: when it does not authenticate, the master key is
 * the wrong one for this state directory and rindd refuses to start; when
 * it does and the rest does not, the manifest itself is damaged.
 *
 * Rollback.  Every key file carries a generation in its authenticated
 * header, taken from one counter that only grows (next generation), and
 * the manifest records the generation of each key's current file.  A key
 * file whose generation is not the one recorded (an older copy put back)
 * or whose name is not in the manifest (the file of a deleted key put
 * back) is refused and logged -- unless its generation is at or above the
 * manifest's next generation, which only a write that the daemon started
 * after the last manifest update can have made (a crash between writing
 * a key file and updating the manifest: the file is taken and the
 * manifest brought up to date).  A key file is written before the
 * manifest entry that names it; when that manifest update fails, the
 * entry keeps the new generation as an alternative so that the next
 * update does not turn the file on disk into a "rollback".  Updates are
 * atomic and durable like key files (state_write_file).  What the
 * manifest cannot see is the whole directory put back as it was (the
 * manifest with its key files): that needs storage outside the directory.
 *
 * Seals.  AES-GCM with random 96-bit nonces is good for 2^32 messages per
 * key (SP 800-38D 8.3).  The manifest counts the seals of each key's
 * current version in blocks of 2^20: a block is recorded (manifest
 * written) before its first seal, so after a crash or restart counting
 * resumes at the end of the last block recorded, never below what was
 * used.  Warnings (log line, D-Bus signal SealLimitNear) start at half the
 * limit and repeat every sixteenth of it; at the limit seals are refused
 * until the key is rotated (a new version counts from zero).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rind/crypto.h>
#include <rind/internal/util.h>

#include "rindd.h"

#define MF_MAGIC	"RINDMAN"	/* with its NUL: 8 bytes */
#define MF_VERSION	1
#define MF_HDR		52
#define MF_TAG		16
#define MF_MAX		(64u << 20)
#define MF_ENTRY_FIXED	(1 + 8 + 8 + 4 + 4 + 8)
#define MF_LEGACY	1u	/* a format-1 key file (no generation) is accepted */

static const u8 verifier_ad[] = "rindd master key verifier, manifest format 1";

struct mentry {
	char name[RINDD_NAME_MAX + 1];
	uint64_t gen, alt_gen;
	uint32_t flags;
	uint32_t seal_version;
	uint64_t seals_reserved;	/* durable: seals of seal_version that may have been made */
	uint64_t seals_used;		/* in memory, <= seals_reserved */
	bool seen;			/* load: its file loaded */
};

static pthread_mutex_t mlock = PTHREAD_MUTEX_INITIALIZER;
static struct mentry *ents;
static size_t nents, capents;
static uint64_t next_gen = 1;		/* the next generation to hand out */
static uint64_t disk_next_gen;		/* next generation of the manifest on disk */
static bool present;			/* a manifest is on disk */
static int mdir = -1;
static struct rind_aesgcm_ctx *mkey;
static uint64_t seal_limit = 1ull << 32, seal_block = 1ull << 20;

/* Index of @name, or of where it would go (*@found false). */
static size_t find(const char *name, bool *found)
{
	size_t lo = 0, hi = nents;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(ents[mid].name, name);

		if (!c) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

static struct mentry *lookup(const char *name)
{
	bool found;
	size_t i = find(name, &found);

	return found ? &ents[i] : NULL;
}

static struct mentry *insert(const char *name)
{
	bool found;
	size_t i = find(name, &found);

	if (found)
		return &ents[i];
	if (nents == capents) {
		size_t cap = capents ? capents * 2 : 64;
		struct mentry *n = realloc(ents, cap * sizeof(*n));

		if (!n)
			return NULL;
		ents = n;
		capents = cap;
	}
	memmove(&ents[i + 1], &ents[i], (nents - i) * sizeof(*ents));
	nents++;
	memset(&ents[i], 0, sizeof(ents[i]));
	snprintf(ents[i].name, sizeof(ents[i].name), "%s", name);
	return &ents[i];
}

static void erase(struct mentry *e)
{
	size_t i = (size_t)(e - ents);

	memmove(&ents[i], &ents[i + 1], (nents - i - 1) * sizeof(*ents));
	nents--;
}

static int commit_locked(void)
{
	size_t plen = 12, i, off, total;
	u8 *buf, *pt, empty[1];
	int err;

	for (i = 0; i < nents; i++)
		plen += MF_ENTRY_FIXED + strlen(ents[i].name);
	total = MF_HDR + plen + MF_TAG;
	if (total > MF_MAX)
		return -EFBIG;
	buf = malloc(total);
	pt = malloc(plen);
	if (!buf || !pt) {
		free(buf);
		free(pt);
		return -ENOMEM;
	}
	put_unaligned_be64(next_gen, pt);
	rind_frame_put_len(pt + 8, (uint32_t)nents);
	off = 12;
	for (i = 0; i < nents; i++) {
		const struct mentry *e = &ents[i];
		size_t n = strlen(e->name);

		pt[off++] = (u8)n;
		memcpy(pt + off, e->name, n);
		off += n;
		put_unaligned_be64(e->gen, pt + off);
		put_unaligned_be64(e->alt_gen, pt + off + 8);
		rind_frame_put_len(pt + off + 16, e->flags);
		rind_frame_put_len(pt + off + 20, e->seal_version);
		put_unaligned_be64(e->seals_reserved, pt + off + 24);
		off += 32;
	}
	memcpy(buf, MF_MAGIC, 8);
	rind_frame_put_len(buf + 8, MF_VERSION);
	err = rind_get_random_bytes(buf + 12, 12);
	if (!err)
		err = rind_get_random_bytes(buf + 40, 12);
	if (!err)	/* the verifier: the tag of nothing */
		err = rind_aesgcm_encrypt(mkey, buf + 24, empty, 0, verifier_ad, sizeof(verifier_ad),
					  buf + 12);
	if (!err)
		err = rind_aesgcm_encrypt(mkey, buf + MF_HDR, pt, plen, buf, MF_HDR, buf + 40);
	if (!err)
		err = state_write_file(mdir, STATE_MANIFEST_FILE, buf, total, true);
	if (!err) {
		present = true;
		disk_next_gen = next_gen;
	} else {
		log_err("event=manifest_write_failed errno=%d msg=\"%s\"", -err, strerror(-err));
	}
	free(buf);
	free(pt);
	return err;
}

int manifest_commit(void)
{
	int err;

	pthread_mutex_lock(&mlock);
	err = commit_locked();
	pthread_mutex_unlock(&mlock);
	return err;
}

static int parse(const u8 *pt, size_t plen)
{
	size_t off = 12, i, n;
	uint64_t ng;

	if (plen < 12)
		return -EINVAL;
	ng = get_unaligned_be64(pt);
	n = rind_frame_get_len(pt + 8);
	for (i = 0; i < n; i++) {
		char name[RINDD_NAME_MAX + 1];
		struct mentry *e;
		size_t l;

		if (off >= plen)
			return -EINVAL;
		l = pt[off++];
		if (l > RINDD_NAME_MAX || off + l + 32 > plen)
			return -EINVAL;
		memcpy(name, pt + off, l);
		name[l] = 0;
		off += l;
		if (!key_name_valid(name) || (nents && strcmp(ents[nents - 1].name, name) >= 0))
			return -EINVAL;	/* names are valid, sorted, unique */
		e = insert(name);
		if (!e)
			return -ENOMEM;
		e->gen = get_unaligned_be64(pt + off);
		e->alt_gen = get_unaligned_be64(pt + off + 8);
		e->flags = rind_frame_get_len(pt + off + 16);
		e->seal_version = rind_frame_get_len(pt + off + 20);
		e->seals_reserved = get_unaligned_be64(pt + off + 24);
		e->seals_used = e->seals_reserved;
		off += 32;
		if (e->gen >= ng || e->alt_gen >= ng)
			return -EINVAL;
	}
	if (off != plen || !ng)
		return -EINVAL;
	next_gen = disk_next_gen = ng;
	return 0;
}

int manifest_load(int dir_fd, struct rind_aesgcm_ctx *master)
{
	const char *lim = getenv("RINDD_TEST_SEAL_LIMIT");
	struct stat st;
	u8 *buf, *pt, empty[1];
	size_t len = 0, plen;
	int fd, err;

	mdir = dir_fd;
	mkey = master;
	if (lim && *lim) {
		/* test hook: a lower limit (never a higher one), blocks scaled with it */
		unsigned long long v = strtoull(lim, NULL, 10);

		if (v >= 16 && v < seal_limit) {
			seal_limit = v;
			seal_block = v >> 12 ? v >> 12 : 1;
		}
	}
	fd = openat(dir_fd, STATE_MANIFEST_FILE, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > MF_MAX) {
		close(fd);
		return -EINVAL;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	close(fd);
	err = state_read_file(dir_fd, STATE_MANIFEST_FILE, buf, (size_t)st.st_size + 1, &len);
	if (err || len < MF_HDR + 12 + MF_TAG || memcmp(buf, MF_MAGIC, 8) ||
	    rind_frame_get_len(buf + 8) != MF_VERSION) {
		free(buf);
		return err ? err : -EINVAL;
	}
	if (rind_aesgcm_decrypt(mkey, empty, buf + 24, MF_TAG, verifier_ad, sizeof(verifier_ad),
				buf + 12)) {
		free(buf);
		return -EKEYREJECTED;
	}
	plen = len - MF_HDR - MF_TAG;
	pt = malloc(plen);
	if (!pt) {
		free(buf);
		return -ENOMEM;
	}
	err = rind_aesgcm_decrypt(mkey, pt, buf + MF_HDR, len - MF_HDR, buf, MF_HDR, buf + 40);
	if (err)
		err = -EBADMSG;
	else
		err = parse(pt, plen);
	free(pt);
	free(buf);
	if (err) {
		nents = 0;
		return err;
	}
	present = true;
	return 0;
}

bool manifest_present(void)
{
	return present;
}

/*
 * The generation for a new file of @name, recorded at once as the entry's
 * alternative: a manifest update made by someone else (a seal count)
 * between the key file's rename and manifest_set() must not turn that
 * file into a "rollback".  A new name gets an entry of generation 0 (not
 * completed: dropped at load when its file never appeared).
 */
uint64_t manifest_begin(const char *name)
{
	struct mentry *e;
	uint64_t g;

	pthread_mutex_lock(&mlock);
	g = next_gen++;
	e = insert(name);
	if (e)
		e->alt_gen = g;
	pthread_mutex_unlock(&mlock);
	return g;
}

/* The file of generation @gen for @name is not on disk (a failed create). */
void manifest_abort(const char *name, uint64_t gen)
{
	struct mentry *e;

	pthread_mutex_lock(&mlock);
	e = lookup(name);
	if (e && e->alt_gen == gen) {
		if (!e->gen && !(e->flags & MF_LEGACY))
			erase(e);
		else
			e->alt_gen = 0;
	}
	pthread_mutex_unlock(&mlock);
}

const char *manifest_check(const char *name, uint64_t gen, bool legacy, char *buf, size_t len)
{
	const char *why = NULL;
	struct mentry *e;

	pthread_mutex_lock(&mlock);
	if (!present)
		goto out;	/* no manifest yet: the caller decides */
	e = lookup(name);
	if (legacy) {
		if (!e || !(e->flags & MF_LEGACY))
			why = "a format-1 key file (without a generation) that the manifest does not list: a restored copy, not loaded";
	} else if (e && (gen == e->gen || (e->alt_gen && gen == e->alt_gen))) {
		/* the file the manifest records */
	} else if (gen >= disk_next_gen) {
		/* written after the last manifest update: an interrupted create or change */
	} else if (e) {
		snprintf(buf, len, "rollback refused: generation %llu, the manifest records %llu (an older copy of the file)",
			 (unsigned long long)gen, (unsigned long long)e->gen);
		why = buf;
	} else {
		snprintf(buf, len, "rollback refused: generation %llu of a key the manifest does not list (a deleted key's file put back)",
			 (unsigned long long)gen);
		why = buf;
	}
out:
	pthread_mutex_unlock(&mlock);
	return why;
}

void manifest_loaded(const char *name, uint64_t gen, uint32_t version, bool legacy)
{
	struct mentry *e;
	bool fresh;

	pthread_mutex_lock(&mlock);
	fresh = !lookup(name);
	e = insert(name);
	if (e) {
		e->seen = true;
		if (legacy) {
			e->flags |= MF_LEGACY;
		} else {
			e->gen = gen;
			e->flags &= ~MF_LEGACY;
		}
		e->alt_gen = 0;
		if (fresh || version > e->seal_version) {
			e->seal_version = version;
			e->seals_reserved = 0;
		}
		e->seals_used = e->seals_reserved;
		if (gen >= next_gen)
			next_gen = gen + 1;
		if (e->seals_reserved >= seal_limit / 2)
			log_warn("event=seal_limit_near key=%s version=%u seals=%llu limit=%llu msg=\"rotate this key: it has made half or more of the seals AES-GCM with random nonces allows\"",
				 name, (unsigned int)e->seal_version,
				 (unsigned long long)e->seals_reserved, (unsigned long long)seal_limit);
	}
	pthread_mutex_unlock(&mlock);
}

char **manifest_unseen(size_t *n)
{
	char **v;
	size_t i, m = 0;

	pthread_mutex_lock(&mlock);
	for (i = 0; i < nents;) {
		/* a create that never completed: nothing was acknowledged */
		if (!ents[i].seen && !ents[i].gen && !(ents[i].flags & MF_LEGACY))
			erase(&ents[i]);
		else
			i++;
	}
	v = calloc(nents ? nents : 1, sizeof(*v));
	for (i = 0; v && i < nents; i++)
		if (!ents[i].seen)
			v[m++] = strdup(ents[i].name);
	pthread_mutex_unlock(&mlock);
	*n = m;
	return v;
}

int manifest_set(const char *name, uint64_t gen, uint32_t version)
{
	struct mentry *e, old;
	bool existed;
	int err;

	pthread_mutex_lock(&mlock);
	e = lookup(name);
	if (!e)
		e = insert(name);
	if (!e) {
		pthread_mutex_unlock(&mlock);
		return -ENOMEM;
	}
	old = *e;
	existed = e->gen || (e->flags & MF_LEGACY);
	e->gen = gen;
	e->alt_gen = 0;
	e->flags &= ~MF_LEGACY;
	if (!existed || version > e->seal_version) {
		e->seal_version = version;
		e->seals_reserved = e->seals_used = 0;
	}
	err = commit_locked();
	if (err) {
		/* the file on disk may be the new one: let the next update accept it */
		old.alt_gen = gen;
		*lookup(name) = old;
	}
	pthread_mutex_unlock(&mlock);
	return err;
}

int manifest_remove(const char *name)
{
	struct mentry *e, old;
	int err;

	pthread_mutex_lock(&mlock);
	e = lookup(name);
	if (!e) {
		pthread_mutex_unlock(&mlock);
		return 0;
	}
	old = *e;
	erase(e);
	err = commit_locked();
	if (err) {
		e = insert(name);
		if (e)
			*e = old;
	}
	pthread_mutex_unlock(&mlock);
	return err;
}

bool manifest_has(const char *name)
{
	bool r;

	pthread_mutex_lock(&mlock);
	r = lookup(name) != NULL;
	pthread_mutex_unlock(&mlock);
	return r;
}

int seal_count_reserve(const char *name, uint32_t version, unsigned int n, char *msg,
		       size_t msglen)
{
	struct mentry *e;
	uint64_t old, want, step = seal_limit / 16;
	int err = 0;

	pthread_mutex_lock(&mlock);
	e = lookup(name);
	if (!e || version < e->seal_version)
		goto out;	/* deleted or rotated meanwhile: the last few in flight */
	if (e->seals_used + n > seal_limit) {
		snprintf(msg, msglen,
			 "key %s version %u has made %llu seals, the limit for AES-GCM with random nonces (SP 800-38D): rotate the key to seal again",
			 name, (unsigned int)version, (unsigned long long)e->seals_used);
		log_err("event=seal_limit_reached key=%s version=%u seals=%llu limit=%llu msg=\"seals refused until the key is rotated\"",
			name, (unsigned int)version, (unsigned long long)e->seals_used,
			(unsigned long long)seal_limit);
		err = -EDQUOT;
		goto out;
	}
	if (e->seals_used + n > e->seals_reserved) {
		old = e->seals_reserved;
		want = (e->seals_used + n + seal_block - 1) / seal_block * seal_block;
		e->seals_reserved = want < seal_limit ? want : seal_limit;
		err = commit_locked();
		if (err) {
			e = lookup(name);
			e->seals_reserved = old;
			snprintf(msg, msglen, "cannot record the seal count of key %s: %s", name,
				 strerror(-err));
			goto out;
		}
		if (e->seals_reserved >= seal_limit / 2 &&
		    (old < seal_limit / 2 || old / step != e->seals_reserved / step)) {
			log_warn("event=seal_limit_near key=%s version=%u seals=%llu limit=%llu msg=\"rotate this key: seals are refused at the limit\"",
				 name, (unsigned int)version, (unsigned long long)e->seals_reserved,
				 (unsigned long long)seal_limit);
			dbus_signal_seal_limit(name, version, seal_limit - e->seals_reserved);
		}
	}
	e->seals_used += n;
out:
	pthread_mutex_unlock(&mlock);
	return err;
}

void manifest_exit(void)
{
	pthread_mutex_lock(&mlock);
	free(ents);
	ents = NULL;
	nents = capents = 0;
	present = false;
	pthread_mutex_unlock(&mlock);
}
