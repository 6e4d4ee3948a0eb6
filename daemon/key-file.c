// SPDX-License-Identifier: MIT
/*
 * The key store: one file per key, "<name>.rkey" in the state directory,
 *
 *   "RINDKEY\0" (8) | format version, 32-bit big-endian (=1) | nonce (12)
 *   | AES-256-GCM( master key, nonce, AD = the 24 header bytes || file name,
 *                  rind.StoredKey protobuf ) || tag (16)
 *
 * so a file renamed to another key's name, or edited, fails to open.
 * Writes are atomic and durable: a temp file ".<name>.rkey.tmp.<pid>" in
 * the same directory, write, fsync, renameat2(RENAME_NOREPLACE), fsync of
 * the directory; the client is answered only after that.  At start every
 * "*.rkey" file is loaded; one that fails to decrypt or parse is logged
 * and skipped, never deleted.  Leftover temp files (never acknowledged)
 * are removed.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rind/crypto.h>

#include "rindd.h"

#define KS_MAGIC	"RINDKEY"	/* with its NUL: 8 bytes */
#define KS_VERSION	1
#define KS_HDR		24
#define KS_MAX_FILE	32768	/* RSA-4096: about a dozen versions */
#define KS_MAX_OLD	64	/* live older versions per key; retire to rotate further */

pthread_mutex_t keystore_lock = PTHREAD_MUTEX_INITIALIZER;
static int dir_fd = -1;
static struct rind_aesgcm_ctx *master;

static int read_file(int dfd, const char *path, u8 *buf, size_t cap, size_t *len)
{
	int fd = openat(dfd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	size_t n = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r = read(fd, buf + n, cap - n);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return (int)r;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == cap) {
			close(fd);
			return -EFBIG;
		}
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

static int hexval(int ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* 32 raw bytes, or 64 hex digits with optional trailing whitespace. */
static int parse_master(const u8 *buf, size_t len, u8 key[32])
{
	size_t i;

	if (len == 32) {
		memcpy(key, buf, 32);
		return 0;
	}
	while (len > 64 && (buf[len - 1] == '\n' || buf[len - 1] == '\r' ||
			    buf[len - 1] == ' '))
		len--;
	if (len != 64)
		return -EINVAL;
	for (i = 0; i < 32; i++) {
		int hi = hexval(buf[2 * i]), lo = hexval(buf[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		key[i] = (u8)(hi << 4 | lo);
	}
	return 0;
}

static int load_master(u8 key[32])
{
	u8 buf[256];
	size_t len;
	char path[4096];
	const char *creds = getenv("CREDENTIALS_DIRECTORY");
	const char *src;
	int err;

	if (cfg.master_key_file) {
		src = cfg.master_key_file;
	} else if (creds && (snprintf(path, sizeof(path), "%s/rindd.master", creds),
			     access(path, R_OK) == 0)) {
		src = path;
	} else {
		err = read_file(dir_fd, "master.key", buf, sizeof(buf), &len);
		if (err == -ENOENT) {
			int fd;

			if (rind_get_random_bytes(key, 32))
				return -EIO;
			fd = openat(dir_fd, "master.key", O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
			if (fd < 0) {
				err = -errno;
				log_err("event=master_key_create_failed dir=%s errno=%d", cfg.state_dir, -err);
				return err;
			}
			err = write_all(fd, key, 32);
			if (!err && fsync(fd) < 0)
				err = -errno;
			close(fd);
			if (!err && fsync(dir_fd) < 0)
				err = -errno;
			if (err)
				return err;
			log_warn("event=master_key_generated path=%s/master.key msg=\"DEVELOPMENT ONLY: the master key sits next to the keys it protects; use --master-key-file or systemd credentials (rindd.master) in production\"",
				 cfg.state_dir);
			return 0;
		}
		if (err) {
			log_err("event=master_key_read_failed path=%s/master.key errno=%d", cfg.state_dir, -err);
			return err;
		}
		log_warn("event=master_key_dev path=%s/master.key msg=\"DEVELOPMENT ONLY: master key stored in the state directory\"",
			 cfg.state_dir);
		err = parse_master(buf, len, key);
		rind_memzero_explicit(buf, sizeof(buf));
		if (err)
			log_err("event=master_key_bad path=%s/master.key msg=\"need 32 raw bytes or 64 hex digits\"",
				cfg.state_dir);
		return err;
	}
	err = read_file(AT_FDCWD, src, buf, sizeof(buf), &len);
	if (err) {
		log_err("event=master_key_read_failed path=%s errno=%d", src, -err);
		return err;
	}
	err = parse_master(buf, len, key);
	rind_memzero_explicit(buf, sizeof(buf));
	if (err)
		log_err("event=master_key_bad path=%s msg=\"need 32 raw bytes or 64 hex digits\"", src);
	else
		log_info("event=master_key_loaded path=%s", src);
	return err;
}

static void make_ad(u8 *ad, size_t *adlen, const u8 hdr[KS_HDR], const char *file)
{
	size_t n = strlen(file);

	memcpy(ad, hdr, KS_HDR);
	memcpy(ad + KS_HDR, file, n);
	*adlen = KS_HDR + n;
}

static int load_one(const char *file)
{
	u8 buf[KS_MAX_FILE], pt[KS_MAX_FILE], ad[KS_HDR + 256];
	char stem[256];
	size_t len, adlen, ptlen, flen = strlen(file);
	Rind__StoredKey *sk;
	enum key_alg alg;
	struct key *k;
	size_t i;
	int err;

	if (flen - 5 >= sizeof(stem))
		return -EINVAL;
	memcpy(stem, file, flen - 5);
	stem[flen - 5] = 0;
	err = read_file(dir_fd, file, buf, sizeof(buf), &len);
	if (err) {
		log_err("event=key_load_failed file=%s reason=read errno=%d", file, -err);
		return err;
	}
	if (len < KS_HDR + RIND_SEAL_TAG || memcmp(buf, KS_MAGIC, 8) ||
	    rind_frame_get_len(buf + 8) != KS_VERSION) {
		log_err("event=key_load_failed file=%s reason=\"bad header or truncated (%zu bytes)\"", file, len);
		return -EINVAL;
	}
	make_ad(ad, &adlen, buf, file);
	ptlen = len - KS_HDR - RIND_SEAL_TAG;
	err = rind_aesgcm_decrypt(master, pt, buf + KS_HDR, len - KS_HDR, ad, adlen, buf + 12);
	if (err) {
		log_err("event=key_load_failed file=%s reason=\"authentication failed: wrong master key, or the file was altered or renamed\"",
			file);
		return -EBADMSG;
	}
	sk = rind__stored_key__unpack(NULL, ptlen, pt);
	rind_memzero_explicit(pt, ptlen);
	if (!sk) {
		log_err("event=key_load_failed file=%s reason=\"record does not parse\"", file);
		return -EINVAL;
	}
	err = -EINVAL;
	if (strcmp(sk->name, stem)) {
		log_err("event=key_load_failed file=%s reason=\"name in record (%s) differs\"", file, sk->name);
		goto out;
	}
	if (key_alg_parse(sk->algorithm, &alg) || !key_secret_len_ok(alg, sk->key.len)) {
		log_err("event=key_load_failed file=%s reason=\"unknown algorithm or key size\" alg=%s", file,
			sk->algorithm);
		goto out;
	}
	k = key_new_len(sk->name, alg, sk->key.data, sk->key.len);
	if (!k) {
		err = -ENOMEM;
		goto out;
	}
	if (sk->usage && key_usage_parse(sk->usage, &k->usage)) {
		log_err("event=key_load_failed file=%s reason=\"unknown usage\" usage=%.32s", file,
			sk->usage);
		key_put(k);
		goto out;
	}
	k->owner_uid = sk->owner_uid;
	k->created = sk->created;
	k->version = sk->version;
	k->exportable = sk->exportable;
	if (sk->n_allow_uids) {
		k->allow_uids = malloc(sk->n_allow_uids * sizeof(uint32_t));
		if (k->allow_uids) {
			memcpy(k->allow_uids, sk->allow_uids, sk->n_allow_uids * sizeof(uint32_t));
			k->n_allow_uids = sk->n_allow_uids;
		}
	}
	if (sk->n_allow_gids) {
		k->allow_gids = malloc(sk->n_allow_gids * sizeof(uint32_t));
		if (k->allow_gids) {
			memcpy(k->allow_gids, sk->allow_gids, sk->n_allow_gids * sizeof(uint32_t));
			k->n_allow_gids = sk->n_allow_gids;
		}
	}
	k->min_version = sk->min_version;
	for (i = 0; i < sk->n_old_versions; i++) {
		Rind__KeyVersion *kv = sk->old_versions[i];
		struct key_old *o;

		if (!key_secret_len_ok(alg, kv->key.len) || kv->version >= k->version || i >= KS_MAX_OLD ||
		    (k->n_old && kv->version <= k->old[k->n_old - 1].version)) {
			log_err("event=key_load_failed file=%s reason=\"bad old version record\"", file);
			key_put(k);
			err = -EINVAL;
			goto out;
		}
		o = realloc(k->old, (k->n_old + 1) * sizeof(*o));
		if (!o) {
			key_put(k);
			err = -ENOMEM;
			goto out;
		}
		k->old = o;
		memset(&o[k->n_old], 0, sizeof(*o));
		o[k->n_old].secret = key_slot_dup_len(kv->key.data, kv->key.len);
		o[k->n_old].secret_len = kv->key.len;
		if (!o[k->n_old].secret) {
			key_put(k);
			err = -ENOMEM;
			goto out;
		}
		o[k->n_old].version = kv->version;
		o[k->n_old].created = kv->created;
		k->n_old++;
	}
	err = key_insert(k);
	if (err) {
		log_err("event=key_load_failed file=%s reason=duplicate", file);
		key_put(k);
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

int keystore_init(void)
{
	u8 mk[32];
	DIR *d;
	struct dirent *de;
	unsigned int loaded = 0, failed = 0;
	int err, fd;

	dir_fd = open(cfg.state_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir_fd < 0) {
		log_err("event=state_dir_failed path=%s errno=%d", cfg.state_dir, errno);
		return -errno;
	}
	err = load_master(mk);
	if (err)
		return err;
	master = rind_aesgcm_alloc();
	if (!master || rind_aesgcm_expandkey(master, mk, 32, 16)) {
		rind_memzero_explicit(mk, sizeof(mk));
		return -ENOMEM;
	}
	rind_memzero_explicit(mk, sizeof(mk));

	fd = dup(dir_fd);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_name[0] == '.') {
			if (strstr(de->d_name, ".rkey.tmp.")) {
				log_warn("event=temp_file_removed file=%s msg=\"unfinished write from an earlier run\"",
					 de->d_name);
				unlinkat(dir_fd, de->d_name, 0);
			}
			continue;
		}
		if (n <= 5 || strcmp(de->d_name + n - 5, ".rkey"))
			continue;
		if (load_one(de->d_name))
			failed++;
		else
			loaded++;
	}
	closedir(d);
	if (failed)
		log_err("event=keystore_loaded loaded=%u failed=%u msg=\"files that failed were left in place\"",
			loaded, failed);
	else
		log_info("event=keystore_loaded loaded=%u failed=0", loaded);
	return 0;
}

int keystore_save(const struct key *k)
{
	return keystore_write(k, false);
}

/*
 * Write @k's file: a new one (RENAME_NOREPLACE) or, with @replace, in the
 * place of the existing one (rename is atomic: a crash leaves the old or
 * the new file, never a mix).
 */
int keystore_write(const struct key *k, bool replace)
{
	Rind__StoredKey sk = RIND__STORED_KEY__INIT;
	Rind__KeyVersion kvs[KS_MAX_OLD], *kvp[KS_MAX_OLD];
	u8 file[KS_MAX_FILE], pt[KS_MAX_FILE], ad[KS_HDR + 256];
	char name[128], tmp[160];
	size_t ptlen, adlen, flen, i;
	int fd, err;

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
	if (ptlen + KS_HDR + RIND_SEAL_TAG > sizeof(file))
		return -E2BIG;
	rind__stored_key__pack(&sk, pt);

	snprintf(name, sizeof(name), "%s.rkey", k->name);
	memcpy(file, KS_MAGIC, 8);
	rind_frame_put_len(file + 8, KS_VERSION);
	err = rind_get_random_bytes(file + 12, 12);
	if (err)
		goto out;
	make_ad(ad, &adlen, file, name);
	err = rind_aesgcm_encrypt(master, file + KS_HDR, pt, ptlen, ad, adlen, file + 12);
	if (err)
		goto out;
	flen = KS_HDR + ptlen + RIND_SEAL_TAG;

	snprintf(tmp, sizeof(tmp), ".%s.tmp.%d", name, (int)getpid());
	fd = openat(dir_fd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	err = write_all(fd, file, flen);
	if (!err && fsync(fd) < 0)
		err = -errno;
	close(fd);
	if (!err && renameat2(dir_fd, tmp, dir_fd, name, replace ? 0 : RENAME_NOREPLACE) < 0)
		err = -errno;
	if (err) {
		unlinkat(dir_fd, tmp, 0);
		goto out;
	}
	if (fsync(dir_fd) < 0)
		err = -errno;
out:
	rind_memzero_explicit(pt, sizeof(pt));
	if (err)
		log_err("event=key_save_failed key=%s errno=%d", k->name, -err);
	return err;
}

int keystore_delete(const char *name)
{
	char file[128];

	snprintf(file, sizeof(file), "%s.rkey", name);
	if (unlinkat(dir_fd, file, 0) < 0 && errno != ENOENT) {
		log_err("event=key_unlink_failed key=%s errno=%d", name, errno);
		return -errno;
	}
	if (fsync(dir_fd) < 0)
		return -errno;
	return 0;
}

/* True when a file for @name exists (loaded or not). */
bool keystore_exists(const char *name)
{
	char file[128];

	snprintf(file, sizeof(file), "%s.rkey", name);
	return faccessat(dir_fd, file, F_OK, AT_SYMLINK_NOFOLLOW) == 0;
}

void keystore_exit(void)
{
	if (master)
		rind_aesgcm_free(master);
	master = NULL;
	if (dir_fd >= 0)
		close(dir_fd);
	dir_fd = -1;
}
