// SPDX-License-Identifier: MIT
/*
 * The master key that seals every key file and the manifest: from
 * --master-key-file, else the systemd credential
 * $CREDENTIALS_DIRECTORY/rindd.master.  Without either rindd refuses to
 * start: a master key kept next to the keys it protects protects nothing,
 * so the generated <state>/master.key is only used (and created) when
 * --dev-master-key asks for it, for development and tests.  It is created
 * atomically (state_write_file: temp file, fsync, rename, fsync of the
 * directory), so a full disk leaves no empty master.key behind.
 *
 * A key file readable by group or others draws a warning.  Whether the key
 * is the right one for the state directory is the manifest's verifier's
 * business (manifest.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <rind/crypto.h>

#include "rindd.h"

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

/* Warn when the key file can be read by anyone but its owner. */
static void check_mode(int dfd, const char *path)
{
	struct stat st;

	if (fstatat(dfd, path, &st, 0) == 0 && (st.st_mode & 077))
		log_warn("event=master_key_permissions path=%s mode=%04o msg=\"the master key file is accessible by group or others: chmod 600 it (or use systemd credentials)\"",
			 path, (unsigned int)(st.st_mode & 07777));
}

static int read_master(int dfd, const char *path, const char *shown, u8 key[32])
{
	u8 buf[256];
	size_t len = 0;
	int err = state_read_file(dfd, path, buf, sizeof(buf), &len);

	if (err) {
		log_err("event=master_key_read_failed path=%s errno=%d msg=\"%s\"", shown, -err,
			err == -EFBIG ? "longer than 256 bytes: not a master key" : strerror(-err));
		return err;
	}
	check_mode(dfd, path);
	err = parse_master(buf, len, key);
	rind_memzero_explicit(buf, sizeof(buf));
	if (err)
		log_err("event=master_key_bad path=%s bytes=%zu msg=\"need 32 raw bytes or 64 hex digits%s\"",
			shown, len, len ? "" : " (the file is empty)");
	return err;
}

/* --dev-master-key: <state>/master.key, generated on first use. */
static int dev_master(int dir_fd, u8 key[32])
{
	int err;

	if (faccessat(dir_fd, STATE_DEV_MASTER_FILE, F_OK, AT_SYMLINK_NOFOLLOW) == 0) {
		err = read_master(dir_fd, STATE_DEV_MASTER_FILE, STATE_DEV_MASTER_FILE, key);
		if (!err)
			log_warn("event=master_key_dev path=%s/%s msg=\"DEVELOPMENT ONLY (--dev-master-key): the master key sits next to the keys it protects\"",
				 cfg.state_dir, STATE_DEV_MASTER_FILE);
		return err;
	}
	if (rind_get_random_bytes(key, 32))
		return -EIO;
	err = state_write_file(dir_fd, STATE_DEV_MASTER_FILE, key, 32, false);
	if (err) {
		rind_memzero_explicit(key, 32);
		log_err("event=master_key_create_failed path=%s/%s errno=%d msg=\"%s\"", cfg.state_dir,
			STATE_DEV_MASTER_FILE, -err, strerror(-err));
		return err;
	}
	log_warn("event=master_key_generated path=%s/%s msg=\"DEVELOPMENT ONLY (--dev-master-key): the master key sits next to the keys it protects; use --master-key-file or systemd credentials (rindd.master) in production\"",
		 cfg.state_dir, STATE_DEV_MASTER_FILE);
	return 0;
}

int master_key_load(int dir_fd, u8 key[32], const char **src)
{
	static char path[4096];
	const char *creds = getenv("CREDENTIALS_DIRECTORY");
	int err;

	if (cfg.master_key_file) {
		*src = cfg.master_key_file;
	} else if (creds && *creds && (snprintf(path, sizeof(path), "%s/rindd.master", creds),
				       access(path, F_OK) == 0)) {
		*src = path;
	} else if (cfg.dev_master_key) {
		snprintf(path, sizeof(path), "%s/%s", cfg.state_dir, STATE_DEV_MASTER_FILE);
		*src = path;
		return dev_master(dir_fd, key);
	} else {
		bool dev = faccessat(dir_fd, STATE_DEV_MASTER_FILE, F_OK, AT_SYMLINK_NOFOLLOW) == 0;

		log_err("event=no_master_key msg=\"no master key: give --master-key-file FILE or the systemd credential rindd.master (LoadCredentialEncrypted=); --dev-master-key generates one in the state directory, for development only%s\"",
			dev ? " (a development master.key is there: add --dev-master-key to use it)" : "");
		return -ENOKEY;
	}
	err = read_master(AT_FDCWD, *src, *src, key);
	if (!err)
		log_info("event=master_key_loaded path=%s", *src);
	return err;
}
