// SPDX-License-Identifier: MIT
/*
 * The key store: one file per key, "<name>.rkey" in the state directory,
 *
 *   "RINDKEY\0" (8) | format version, 32-bit big-endian (=2)
 *   | generation, 64-bit big-endian | nonce (12)
 *   | AES-256-GCM( master key, nonce, AD = the 32 header bytes || file name,
 *                  rind.StoredKey protobuf ) || tag (16)
 *
 * so a file renamed to another key's name, or edited, fails to open; the
 * generation ties the file to the manifest (manifest.c), which refuses an
 * older copy or the file of a deleted key.  (Format 1, before the
 * manifest: a 24-byte header without the generation; such files are read
 * once, when a state directory without a manifest is taken over, and
 * rewritten as format 2.)  A file is at most RINDD_KEY_FILE_MAX bytes: the
 * writer refuses a larger record before writing anything.
 *
 * Writes are atomic and durable (state_write_file): a temp file
 * ".<name>.rkey.tmp.<pid>" in the same directory, write, fsync, rename
 * (RENAME_NOREPLACE for a new key), fsync of the directory, then the
 * manifest; the client is answered only after that.
 *
 * Start-up (keystore_init): the directory (a warning when group or others
 * may use it), an exclusive flock on "rindd.lock" in it (a second rindd
 * on the same directory refuses to start), the master key, the manifest
 * and its verifier (a wrong master key refuses to start), then every
 * "*.rkey" file.  One that fails to read, decrypt, parse or pass the
 * manifest is logged, kept in place, never deleted, and listed as failed
 * (rind key list --all) until rind key delete NAME removes it.  Leftover
 * temp files (never acknowledged) are removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include <rind/crypto.h>
#include <rind/internal/util.h>

#include "rindd.h"

#define KS_MAGIC	"RINDKEY"	/* with its NUL: 8 bytes */
#define KS_VERSION	2
#define KS_HDR		32
#define KS_V1_HDR	24
#define KS_MAX_FILE	RINDD_KEY_FILE_MAX
#define KS_MAX_OLD	64	/* live older versions per key; retire to rotate further */

pthread_mutex_t keystore_lock = PTHREAD_MUTEX_INITIALIZER;
static int dir_fd = -1, lock_fd = -1;
static struct rind_aesgcm_ctx *master;

/* Files that did not load, for rind key list --all and rind key delete. */
static pthread_mutex_t failed_lock = PTHREAD_MUTEX_INITIALIZER;
static struct failed_key *failed;
static size_t nfailed;

/* RINDD_KEY_FILE_MAX, or the lower limit a test asked for. */
size_t key_file_limit(void)
{
	const char *v = getenv("RINDD_TEST_KEY_FILE_MAX");
	unsigned long long t = v && *v ? strtoull(v, NULL, 10) : 0;

	return t >= 1024 && t < KS_MAX_FILE ? (size_t)t : KS_MAX_FILE;
}

int state_read_file(int dfd, const char *path, u8 *buf, size_t cap, size_t *len)
{
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t n = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;
		u8 extra;

		/* the byte after @cap tells a file of exactly @cap bytes from a longer one */
		r = n < cap ? read(fd, buf + n, cap - n) : read(fd, &extra, 1);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return (int)r;
		}
		if (r == 0)
			break;
		if (n == cap) {
			close(fd);
			return -EFBIG;
		}
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return 0;
}

static int write_all(int fd, const u8 *p, size_t len)
{
	while (len) {
		ssize_t r = write(fd, p, len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int state_write_file(int dfd, const char *name, const void *data, size_t len, bool replace)
{
	char tmp[256];
	int fd, err;

	if ((size_t)snprintf(tmp, sizeof(tmp), ".%s.tmp.%d", name, (int)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	err = write_all(fd, data, len);
	if (!err && fsync(fd) < 0)
		err = -errno;
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && renameat2(dfd, tmp, dfd, name, replace ? 0 : RENAME_NOREPLACE) < 0)
		err = -errno;
	if (err) {
		unlinkat(dfd, tmp, 0);
		return err;
	}
	if (fsync(dfd) < 0)
		return -errno;
	return 0;
}

static void make_ad(u8 *ad, size_t *adlen, const u8 *hdr, size_t hdrlen, const char *file)
{
	size_t n = strlen(file);

	memcpy(ad, hdr, hdrlen);
	memcpy(ad + hdrlen, file, n);
	*adlen = hdrlen + n;
}

bool service_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

static struct failed_key *failed_find(const char *name)
{
	size_t i;

	for (i = 0; i < nfailed; i++)
		if (!strcmp(failed[i].name, name))
			return &failed[i];
	return NULL;
}

/* Record (and log) a key file that did not load. */
static void add_failed(const char *name, const char *file, uint32_t owner, const char *reason)
{
	struct failed_key *f;

	log_err("event=key_load_failed key=%s file=%s reason=\"%s\"", name, *file ? file : "-", reason);
	pthread_mutex_lock(&failed_lock);
	f = realloc(failed, (nfailed + 1) * sizeof(*f));
	if (f) {
		failed = f;
		f = &failed[nfailed++];
		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", name);
		snprintf(f->file, sizeof(f->file), "%s", file);
		snprintf(f->reason, sizeof(f->reason), "%s", reason);
		f->owner = owner;
	}
	pthread_mutex_unlock(&failed_lock);
}

struct load_stats {
	unsigned int files, authentic, authentic_v2, loaded;
	struct key **legacy;		/* format-1 keys loaded: rewritten as format 2 */
	size_t nlegacy;
};

static struct key *key_from_record(const Rind__StoredKey *sk, enum key_alg alg, char *why,
				   size_t whylen)
{
	struct key *k = key_new_len(sk->name, alg, sk->key.data, sk->key.len);
	size_t i;

	if (!k) {
		snprintf(why, whylen, "out of memory");
		return NULL;
	}
	if (sk->usage && key_usage_parse(sk->usage, &k->usage)) {
		snprintf(why, whylen, "unknown usage (%.32s)", sk->usage);
		key_put(k);
		return NULL;
	}
	k->owner_uid = sk->owner_uid;
	k->created = sk->created;
	k->version = sk->version;
	k->exportable = sk->exportable;
	k->min_version = sk->min_version;
	k->allow_uids = key_dup_ids(sk->allow_uids, sk->n_allow_uids);
	k->allow_gids = key_dup_ids(sk->allow_gids, sk->n_allow_gids);
	if ((sk->n_allow_uids && !k->allow_uids) || (sk->n_allow_gids && !k->allow_gids))
		goto nomem;
	k->n_allow_uids = sk->n_allow_uids;
	k->n_allow_gids = sk->n_allow_gids;
	for (i = 0; i < sk->n_old_versions; i++) {
		Rind__KeyVersion *kv = sk->old_versions[i];
		struct key_old *o;

		if (!key_secret_len_ok(alg, kv->key.len) || kv->version >= k->version || i >= KS_MAX_OLD ||
		    (k->n_old && kv->version <= k->old[k->n_old - 1].version)) {
			snprintf(why, whylen, "bad old version record");
			key_put(k);
			return NULL;
		}
		o = realloc(k->old, (k->n_old + 1) * sizeof(*o));
		if (!o)
			goto nomem;
		k->old = o;
		memset(&o[k->n_old], 0, sizeof(*o));
		o[k->n_old].secret = key_slot_dup_len(kv->key.data, kv->key.len);
		o[k->n_old].secret_len = kv->key.len;
		if (!o[k->n_old].secret)
			goto nomem;
		o[k->n_old].version = kv->version;
		o[k->n_old].created = kv->created;
		k->n_old++;
	}
	return k;
nomem:
	snprintf(why, whylen, "out of memory");
	key_put(k);
	return NULL;
}

static int load_one(const char *file, struct load_stats *ls)
{
	u8 buf[KS_MAX_FILE], pt[KS_MAX_FILE], ad[KS_HDR + 256];
	char stem[256], why[224];
	const char *verdict;
	size_t len, adlen, ptlen, hdr, flen = strlen(file);
	Rind__StoredKey *sk;
	enum key_alg alg;
	struct key *k = NULL;
	uint64_t gen = 0;
	uint32_t fver;
	size_t i;
	int err;

	if (flen - 5 >= sizeof(stem) || flen - 5 > RINDD_NAME_MAX)
		return -EINVAL;
	memcpy(stem, file, flen - 5);
	stem[flen - 5] = 0;
	ls->files++;
	err = state_read_file(dir_fd, file, buf, key_file_limit(), &len);
	if (err) {
		if (err == -EFBIG)
			snprintf(why, sizeof(why), "larger than %zu bytes, the key file size limit",
				 key_file_limit());
		else
			snprintf(why, sizeof(why), "cannot read: %s", strerror(-err));
		add_failed(stem, file, (uint32_t)-1, why);
		return err;
	}
	fver = len >= 12 ? rind_frame_get_len(buf + 8) : 0;
	hdr = fver == 1 ? KS_V1_HDR : KS_HDR;
	if (len < hdr + RIND_SEAL_TAG || memcmp(buf, KS_MAGIC, 8) || (fver != 1 && fver != KS_VERSION)) {
		snprintf(why, sizeof(why), "bad header or truncated (%zu bytes)", len);
		add_failed(stem, file, (uint32_t)-1, why);
		return -EINVAL;
	}
	if (fver == KS_VERSION)
		gen = get_unaligned_be64(buf + 12);
	make_ad(ad, &adlen, buf, hdr, file);
	ptlen = len - hdr - RIND_SEAL_TAG;
	err = rind_aesgcm_decrypt(master, pt, buf + hdr, len - hdr, ad, adlen, buf + hdr - 12);
	if (err) {
		add_failed(stem, file, (uint32_t)-1,
			   "authentication failed: the file was altered or renamed, or written under another master key");
		return -EBADMSG;
	}
	ls->authentic++;
	if (fver == KS_VERSION)
		ls->authentic_v2++;
	sk = rind__stored_key__unpack(NULL, ptlen, pt);
	rind_memzero_explicit(pt, ptlen);
	if (!sk) {
		add_failed(stem, file, (uint32_t)-1, "the record does not parse");
		return -EINVAL;
	}
	err = -EINVAL;
	if (strcmp(sk->name, stem)) {
		snprintf(why, sizeof(why), "the name in the record (%.64s) differs", sk->name);
		add_failed(stem, file, sk->owner_uid, why);
		goto out;
	}
	if (key_alg_parse(sk->algorithm, &alg) || !key_secret_len_ok(alg, sk->key.len)) {
		snprintf(why, sizeof(why), "unknown algorithm or key size (%.32s)", sk->algorithm);
		add_failed(stem, file, sk->owner_uid, why);
		goto out;
	}
	verdict = manifest_check(stem, gen, fver == 1, why, sizeof(why));
	if (verdict) {
		log_err("event=key_rollback_refused key=%s file=%s generation=%llu msg=\"%s\"", stem, file,
			(unsigned long long)gen, verdict);
		add_failed(stem, file, sk->owner_uid, verdict);
		err = -ESTALE;
		goto out;
	}
	k = key_from_record(sk, alg, why, sizeof(why));
	if (!k) {
		add_failed(stem, file, sk->owner_uid, why);
		err = -ENOMEM;
		goto out;
	}
	err = key_insert(k);
	if (err) {
		add_failed(stem, file, sk->owner_uid, "duplicate");
		key_put(k);
		goto out;
	}
	manifest_loaded(stem, gen, k->version, fver == 1);
	ls->loaded++;
	if (fver == 1) {
		struct key **v = realloc(ls->legacy, (ls->nlegacy + 1) * sizeof(*v));

		if (v) {
			ls->legacy = v;
			atomic_fetch_add(&k->refs, 1);
			v[ls->nlegacy++] = k;
		}
	}
out:
	if (sk->key.data)
		rind_memzero_explicit(sk->key.data, sk->key.len);
	for (i = 0; i < sk->n_old_versions; i++)
		if (sk->old_versions[i]->key.data)
			rind_memzero_explicit(sk->old_versions[i]->key.data,
					      sk->old_versions[i]->key.len);
	rind__stored_key__free_unpacked(sk, NULL);
	return err;
}

/* The exclusive lock on the state directory: a second rindd refuses to start. */
static int lock_state_dir(void)
{
	char pid[32];
	ssize_t n;

	lock_fd = openat(dir_fd, STATE_LOCK_FILE, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lock_fd < 0) {
		log_err("event=state_lock_failed path=%s/%s errno=%d msg=\"%s\"", cfg.state_dir,
			STATE_LOCK_FILE, errno, strerror(errno));
		return -errno;
	}
	if (flock(lock_fd, LOCK_EX | LOCK_NB) < 0) {
		int err = errno;

		n = pread(lock_fd, pid, sizeof(pid) - 1, 0);
		pid[n > 0 ? n : 0] = 0;
		pid[strcspn(pid, "\n")] = 0;
		if (err == EWOULDBLOCK)
			log_err("event=state_dir_locked path=%s pid=%s msg=\"another rindd (pid %s) uses this state directory; refusing to start\"",
				cfg.state_dir, *pid ? pid : "?", *pid ? pid : "?");
		else
			log_err("event=state_lock_failed path=%s/%s errno=%d msg=\"%s\"", cfg.state_dir,
				STATE_LOCK_FILE, err, strerror(err));
		close(lock_fd);
		lock_fd = -1;
		return -err;
	}
	n = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	if (ftruncate(lock_fd, 0) < 0 || pwrite(lock_fd, pid, (size_t)n, 0) != n)
		log_warn("event=state_lock_pid_failed errno=%d", errno);
	return 0;
}

static void check_state_dir_mode(void)
{
	struct stat st;

	if (fstat(dir_fd, &st) == 0 && (st.st_mode & 077))
		log_warn("event=state_dir_permissions path=%s mode=%04o msg=\"the state directory is %saccessible by group or others (expected 0700): chmod 700 it\"",
			 cfg.state_dir, (unsigned int)(st.st_mode & 07777),
			 st.st_mode & 022 ? "writable and " : "");
}

int keystore_init(void)
{
	u8 mk[32];
	DIR *d;
	struct dirent *de;
	struct load_stats ls = { 0 };
	const char *src = "";
	char **unseen;
	size_t nunseen, i;
	int err, fd;

	dir_fd = open(cfg.state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0) {
		err = -errno;
		log_err("event=state_dir_failed path=%s errno=%d msg=\"%s\"", cfg.state_dir, -err,
			strerror(-err));
		return err;
	}
	check_state_dir_mode();
	err = lock_state_dir();
	if (err)
		return err;
	err = master_key_load(dir_fd, mk, &src);
	if (err)
		return err;
	master = rind_aesgcm_alloc();
	if (!master || rind_aesgcm_expandkey(master, mk, 32, 16)) {
		rind_memzero_explicit(mk, sizeof(mk));
		return -ENOMEM;
	}
	rind_memzero_explicit(mk, sizeof(mk));

	err = manifest_load(dir_fd, master);
	if (err == -EKEYREJECTED) {
		log_err("event=master_key_wrong path=%s manifest=%s/%s msg=\"wrong master key: it does not authenticate this state directory's manifest; refusing to start (give the master key the keys were stored under)\"",
			src, cfg.state_dir, STATE_MANIFEST_FILE);
		return err;
	}
	if (err && err != -ENOENT) {
		log_err("event=manifest_bad path=%s/%s errno=%d msg=\"the manifest is damaged (%s) although the master key is right; refusing to start: restore it from a backup\"",
			cfg.state_dir, STATE_MANIFEST_FILE, -err,
			err == -EBADMSG ? "it does not authenticate" : strerror(-err));
		return err;
	}

	fd = dup(dir_fd);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.') {
			if (strstr(de->d_name, ".tmp.")) {
				log_warn("event=temp_file_removed file=%s msg=\"unfinished write from an earlier run\"",
					 de->d_name);
				unlinkat(dir_fd, de->d_name, 0);
			}
			continue;
		}
		if (n <= 5 || strcmp(de->d_name + n - 5, ".rkey"))
			continue;
		load_one(de->d_name, &ls);
	}
	closedir(d);

	err = 0;
	if (!manifest_present()) {
		if (ls.authentic_v2) {
			log_err("event=manifest_missing path=%s/%s files=%u msg=\"key files written with a manifest are here but the manifest is missing; refusing to start: restore it from a backup (rebuilding it would accept old copies of key files)\"",
				cfg.state_dir, STATE_MANIFEST_FILE, ls.authentic_v2);
			err = -ENOENT;
		} else if (ls.files && !ls.authentic) {
			log_err("event=master_key_wrong path=%s files=%u msg=\"wrong master key: it opens none of the %u key files; refusing to start\"",
				src, ls.files, ls.files);
			err = -EKEYREJECTED;
		} else {
			/* a new state directory, or one from before the manifest */
			err = manifest_commit();
			if (!err && ls.nlegacy)
				log_info("event=manifest_created keys=%zu msg=\"format-1 key files are rewritten with generations\"",
					 ls.nlegacy);
		}
	} else {
		unseen = manifest_unseen(&nunseen);
		for (i = 0; unseen && i < nunseen; i++) {
			char why[224];
			bool listed;

			pthread_mutex_lock(&failed_lock);
			listed = failed_find(unseen[i]) != NULL;
			pthread_mutex_unlock(&failed_lock);
			if (listed) {	/* its file is there and failed */
				free(unseen[i]);
				continue;
			}
			snprintf(why, sizeof(why), "missing: the manifest lists key %.64s but its file %.64s.rkey is gone",
				 unseen[i], unseen[i]);
			add_failed(unseen[i], "", (uint32_t)-1, why);
			free(unseen[i]);
		}
		free(unseen);
		err = manifest_commit();	/* records the generations just loaded */
	}
	for (i = 0; i < ls.nlegacy; i++) {
		if (!err)
			err = keystore_write(ls.legacy[i], true);
		key_put(ls.legacy[i]);
	}
	free(ls.legacy);
	if (err) {
		keys_wipe_all();
		return err;
	}
	if (nfailed)
		log_err("event=keystore_loaded loaded=%u failed=%zu msg=\"files that failed were left in place: rind key list --all shows them, rind key delete NAME removes one\"",
			ls.loaded, nfailed);
	else
		log_info("event=keystore_loaded loaded=%u failed=0", ls.loaded);
	return 0;
}

int keystore_save(const struct key *k)
{
	return keystore_write(k, false);
}

/*
 * Write @k's file: a new one (RENAME_NOREPLACE) or, with @replace, in the
 * place of the existing one (rename is atomic: a crash leaves the old or
 * the new file, never a mix), then its generation in the manifest.  A
 * record too large for RINDD_KEY_FILE_MAX is refused (-E2BIG) before
 * anything is written.
 */
int keystore_write(const struct key *k, bool replace)
{
	Rind__StoredKey sk = RIND__STORED_KEY__INIT;
	Rind__KeyVersion kvs[KS_MAX_OLD], *kvp[KS_MAX_OLD];
	u8 file[KS_MAX_FILE], pt[KS_MAX_FILE], ad[KS_HDR + 256];
	char name[128];
	size_t ptlen, adlen, flen, i;
	uint64_t gen;
	int err;

	if (k->n_old > KS_MAX_OLD)
		return -E2BIG;
	for (i = 0; i < k->n_old; i++) {
		rind__key_version__init(&kvs[i]);
		kvs[i].version = k->old[i].version;
		kvs[i].created = k->old[i].created;
		kvs[i].key.data = k->old[i].secret;
		kvs[i].key.len = k->old[i].secret_len;
		kvp[i] = &kvs[i];
	}
	sk.old_versions = kvp;
	sk.n_old_versions = k->n_old;
	sk.min_version = k->min_version;

	sk.name = (char *)k->name;
	sk.algorithm = (char *)key_alg_name(k->alg);
	sk.owner_uid = k->owner_uid;
	sk.allow_uids = k->allow_uids;
	sk.n_allow_uids = k->n_allow_uids;
	sk.allow_gids = k->allow_gids;
	sk.n_allow_gids = k->n_allow_gids;
	sk.created = k->created;
	sk.version = k->version;
	sk.exportable = k->exportable;
	sk.key.data = k->secret;
	sk.key.len = k->secret_len;
	sk.usage = (char *)key_usage_name(k->usage);
	ptlen = rind__stored_key__get_packed_size(&sk);
	if (ptlen + KS_HDR + RIND_SEAL_TAG > key_file_limit()) {
		log_err("event=key_too_large key=%s bytes=%zu limit=%zu msg=\"refused: the key file would exceed the size limit (fewer allowed ids or old versions)\"",
			k->name, ptlen + KS_HDR + RIND_SEAL_TAG, key_file_limit());
		return -E2BIG;
	}
	rind__stored_key__pack(&sk, pt);

	snprintf(name, sizeof(name), "%s.rkey", k->name);
	gen = manifest_begin(k->name);
	memcpy(file, KS_MAGIC, 8);
	rind_frame_put_len(file + 8, KS_VERSION);
	put_unaligned_be64(gen, file + 12);
	err = rind_get_random_bytes(file + 20, 12);
	if (!err) {
		make_ad(ad, &adlen, file, KS_HDR, name);
		err = rind_aesgcm_encrypt(master, file + KS_HDR, pt, ptlen, ad, adlen, file + 20);
	}
	if (err) {
		manifest_abort(k->name, gen);
		goto out;
	}
	flen = KS_HDR + ptlen + RIND_SEAL_TAG;
	err = state_write_file(dir_fd, name, file, flen, replace);
	if (!err)
		err = manifest_set(k->name, gen, k->version);
	if (err && !replace) {
		/* not acknowledged: take the new file back */
		if (unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT) {
			fsync(dir_fd);
			manifest_abort(k->name, gen);
		}
	}
out:
	rind_memzero_explicit(pt, sizeof(pt));
	rind_memzero_explicit(file, sizeof(file));
	if (err)
		log_err("event=key_save_failed key=%s errno=%d msg=\"%s\"", k->name, -err, strerror(-err));
	return err;
}

int keystore_delete(const char *name)
{
	char file[128], why[200];
	int err;

	/* the manifest first: from then on the file is a deleted key's, refused if it stays */
	err = manifest_remove(name);
	if (err)
		return err;
	snprintf(file, sizeof(file), "%s.rkey", name);
	if (unlinkat(dir_fd, file, 0) < 0 && errno != ENOENT) {
		snprintf(why, sizeof(why), "the key was deleted but its file could not be removed: %s",
			 strerror(errno));
		add_failed(name, file, (uint32_t)-1, why);
		return 0;
	}
	if (fsync(dir_fd) < 0)
		log_warn("event=state_dir_fsync_failed errno=%d msg=\"%s\"", errno, strerror(errno));
	return 0;
}

/* True when a file for @name exists (loaded or not), or failed to load. */
bool keystore_exists(const char *name)
{
	char file[128];
	bool r;

	pthread_mutex_lock(&failed_lock);
	r = failed_find(name) != NULL;
	pthread_mutex_unlock(&failed_lock);
	snprintf(file, sizeof(file), "%s.rkey", name);
	return r || faccessat(dir_fd, file, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

struct failed_key *keystore_failed(const struct peer *p, size_t *n)
{
	struct failed_key *v;
	size_t i, m = 0;

	pthread_mutex_lock(&failed_lock);
	v = calloc(nfailed ? nfailed : 1, sizeof(*v));
	for (i = 0; v && i < nfailed; i++)
		if (service_owner(p->uid) || (failed[i].owner != (uint32_t)-1 &&
					      failed[i].owner == p->uid))
			v[m++] = failed[i];
	pthread_mutex_unlock(&failed_lock);
	*n = m;
	return v;
}

/* Caller holds keystore_lock. */
int keystore_remove_failed(const char *name, uid_t uid)
{
	struct failed_key *f;
	int err = 0;

	pthread_mutex_lock(&failed_lock);
	f = failed_find(name);
	if (!f) {
		pthread_mutex_unlock(&failed_lock);
		return -ENOENT;
	}
	if (!service_owner(uid) && (f->owner == (uint32_t)-1 || f->owner != uid)) {
		pthread_mutex_unlock(&failed_lock);
		return -EPERM;
	}
	if (f->file[0] && unlinkat(dir_fd, f->file, 0) < 0 && errno != ENOENT)
		err = -errno;
	if (!err)
		err = manifest_remove(name);
	if (!err && fsync(dir_fd) < 0)
		err = -errno;
	if (!err) {
		*f = failed[--nfailed];
		log_info("event=failed_key_removed key=%s", name);
	}
	pthread_mutex_unlock(&failed_lock);
	return err;
}

void keystore_exit(void)
{
	if (master)
		rind_aesgcm_free(master);
	master = NULL;
	manifest_exit();
	pthread_mutex_lock(&failed_lock);
	free(failed);
	failed = NULL;
	nfailed = 0;
	pthread_mutex_unlock(&failed_lock);
	if (dir_fd >= 0)
		close(dir_fd);
	dir_fd = -1;
	if (lock_fd >= 0)
		close(lock_fd);	/* the lock goes with it */
	lock_fd = -1;
}
