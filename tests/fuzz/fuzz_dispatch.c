// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: rindd's request handling -- daemon/dispatch.c and
 * what it calls (key-admin.c, key-object.c, key-file.c with a real state
 * directory, acl.c, arena.c, batch.c, conn.c, log.c, store-thread.c) --
 * without io_uring, sockets or D-Bus.  The Makefile links this target
 * with the daemon's objects built for fuzzing (ASan, coverage), all but
 * main.c, loop.c, dbus.c and secmem.c: those are replaced by the few
 * definitions below, secmem.c by an exact-size heap allocator so that
 * ASan sees every key slot.  Create, import and delete go to the store
 * thread, as in the daemon; the answer is awaited on the wake eventfd and
 * delivered by store_complete().
 *
 * Input: one serialized rind.Request, or several separated by the four
 * bytes fe fe 52 51 (at most 32); each is unpacked as the daemon's loop
 * does and handed to dispatch() from a connection whose peer is uid 1000,
 * gid 1000, pid 4242.  Sign and seal requests are batched as in the
 * daemon (--max-batch 3 here, so full batches also run); the batches
 * left run at the end of the input, as at the end of a loop turn.  An
 * input whose piece does not unpack ends there (the daemon closes the
 * connection).
 *
 * State: a state directory under /dev/shm (or $TMPDIR) made once per
 * process, with keys of every algorithm: owned by the peer ("ed": three
 * versions, the first retired; "aes": two versions; "x"; "exp":
 * exportable), usable through an allow list ("other-ed" by uid,
 * "other-aes" by gid) and not at all ("other-x").  After each input every
 * key it created is deleted and every one it deleted or replaced is put
 * back, so that inputs do not depend on each other; the directory must
 * then hold exactly the key files of the table.
 *
 * Checks, for every request:
 *   - exactly one response, framed, that parses back as a rind.Response
 *     (protobuf_c_message_check) with the request's id and a status of
 *     the enum; an error has error text and no result; OK has no error
 *     text.  Immediate operations answer at once, sign and seal when
 *     their batch runs.
 *   - the status is what the request and the state call for: missing
 *     name, unknown key, uid/gid not allowed, wrong algorithm, bad
 *     lengths, retired or unknown versions, bad names and algorithms for
 *     create/import, existing names, owner-only delete and PKCS#8 export.
 *   - results are right, computed independently: public keys (raw, and
 *     the raw key inside SPKI/PKCS#8) from libsodium; signatures equal
 *     libsodium's (Ed25519 is deterministic); verify and open succeed
 *     exactly when libsodium / OpenSSL AES-256-GCM accept under one of
 *     the versions tried, reporting the newest that does; sealed boxes
 *     open with OpenSSL under the key's current version; derive equals
 *     libsodium's X25519 (an all-zero result refused); create/import
 *     responses describe the key the table then holds, and the D-Bus
 *     signals (stubs here) are sent for exactly the successful creates
 *     and deletes; list shows exactly the keys the peer may see.
 *   - every log and audit line is one line: no control characters (a
 *     newline from a request would forge log records on stderr); journal
 *     fields are RIND_ + [A-Z0-9_]=value.
 *   - no crash, no sanitizer report, no leak (libFuzzer's per-input leak
 *     check, and keys' reference counts: only the table's and this
 *     file's references remain after each input).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/eventfd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <sodium.h>

#include <rind/crypto.h>

#include "rindd.h"

#define FAIL(...) do {							\
	fprintf(stderr, "FAIL fuzz_dispatch: request %u (%s): ", cur_index, cur_op); \
	fprintf(stderr, __VA_ARGS__);					\
	fputc('\n', stderr);						\
	remove_state_dir();						\
	abort();							\
} while (0)

static void remove_state_dir(void);

static unsigned int cur_index;
static const char *cur_op = "set-up";

static struct worker worker;
static struct conn *conn;

#define PEER_UID	1000u
#define PEER_GID	1000u
#define PEER_PID	4242
#define OTHER_UID	2000u
#define MAX_PIECES	32
#define NSTATUS		11	/* OK .. ERR_RETIRED */

/* ---- what main.c, loop.c, dbus.c and libsystemd provide ---------------- */

struct rindd_config cfg;
atomic_bool rindd_stopping;
struct rindd_stats stats;

static unsigned int sig_created, sig_deleted;

/* loop.c: a connection with output to send */
void worker_mark_ready(struct worker *w, struct conn *c)
{
	if (w != &worker || c != conn)
		FAIL("worker_mark_ready for another connection");
}

void dbus_signal_rotated(const char *name, uint32_t version)
{
	(void)name;
	(void)version;
}

void dbus_signal_created(const char *name, const char *alg, uint32_t owner)
{
	if (!key_name_valid(name) || !alg || owner != PEER_UID)
		FAIL("Created signal for %s (%s, owner %u)", name, alg ? alg : "-", owner);
	sig_created++;
}

void dbus_signal_seal_limit(const char *name, uint32_t version, uint64_t remaining)
{
	(void)name;
	(void)version;
	(void)remaining;
}

void dbus_signal_deleted(const char *name)
{
	if (!key_name_valid(name))
		FAIL("Deleted signal for a bad name");
	sig_deleted++;
}

static void check_line(const char *what, const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			FAIL("%s carries control character 0x%02x at %zu: \"%.*s\"", what,
			     (unsigned char)s[i], i, (int)n, s);
}

/*
 * log.c's journal output (selected in LLVMFuzzerInitialize): check each
 * record.  sd_journal_sendv is a macro for this function.
 */
int sd_journal_sendv_with_location(const char *file, const char *line, const char *func,
				   const struct iovec *iov, int n)
{
	int i;

	(void)file;
	(void)line;
	(void)func;
	if (n < 3 || iov[0].iov_len < 8 || memcmp(iov[0].iov_base, "MESSAGE=", 8))
		FAIL("journal record without MESSAGE=");
	check_line("log line", iov[0].iov_base, iov[0].iov_len);
	for (i = 3; i < n; i++) {
		const char *f = iov[i].iov_base;
		size_t len = iov[i].iov_len, k;

		if (len < 6 || memcmp(f, "RIND_", 5))
			FAIL("journal field \"%.*s\"", (int)len, f);
		for (k = 5; k < len && f[k] != '='; k++)
			if (!((f[k] >= 'A' && f[k] <= 'Z') || (f[k] >= '0' && f[k] <= '9') || f[k] == '_'))
				FAIL("journal field name \"%.*s\"", (int)len, f);
		if (k == len)
			FAIL("journal field without '=': \"%.*s\"", (int)len, f);
		check_line("journal field", f, len);
	}
	return 0;
}

/*
 * secmem.c's interface, from the heap: exact sizes (ASan sees overreads of
 * a 32-byte key slot), and every free must give back the size allocated.
 */
#define SM_MAX 4096
static struct {
	void *p;
	size_t size;
} sm[SM_MAX];

void *secmem_alloc(size_t size)
{
	void *p;
	unsigned int i;

	if (posix_memalign(&p, 64, size ? size : 1))
		return NULL;
	memset(p, 0, size ? size : 1);
	for (i = 0; i < SM_MAX; i++)
		if (!sm[i].p) {
			sm[i].p = p;
			sm[i].size = size;
			return p;
		}
	FAIL("more than %d secure allocations", SM_MAX);
}

void secmem_free(void *p, size_t size)
{
	unsigned int i;

	if (!p)
		return;
	for (i = 0; i < SM_MAX; i++)
		if (sm[i].p == p) {
			if (sm[i].size != size)
				FAIL("secmem_free of %zu bytes, %zu allocated", size, sm[i].size);
			rind_memzero_explicit(p, size ? size : 1);
			free(p);
			sm[i].p = NULL;
			return;
		}
	FAIL("secmem_free of memory it did not allocate");
}

void secmem_init(void)
{
}

size_t secmem_locked_bytes(void)
{
	return 0;
}

/* ---- the fixed keys ------------------------------------------------------ */

struct fixed_key {
	const char *name;
	enum key_alg alg;
	enum key_usage usage;
	uint32_t owner, allow_uid, allow_gid;
	unsigned int versions, min_version;
	bool exportable;
	struct key *tmpl;	/* not in the table */
	struct key *installed;	/* in the table, with a reference of ours */
};

static struct fixed_key fixed[] = {
	{ "ed", KEY_ED25519, 0, PEER_UID, 0, 0, 3, 2, false, NULL, NULL },
	{ "aes", KEY_AES256GCM, 0, PEER_UID, 0, 0, 2, 0, false, NULL, NULL },
	{ "x", KEY_X25519, 0, PEER_UID, 0, 0, 1, 0, false, NULL, NULL },
	{ "exp", KEY_ED25519, 0, PEER_UID, 0, 0, 1, 0, true, NULL, NULL },
	{ "other-ed", KEY_ED25519, 0, OTHER_UID, PEER_UID, 0, 1, 0, false, NULL, NULL },
	{ "other-aes", KEY_AES256GCM, 0, OTHER_UID, 0, PEER_GID, 2, 0, false, NULL, NULL },
	{ "other-x", KEY_X25519, 0, OTHER_UID, 0, 0, 1, 0, false, NULL, NULL },
	/* the other key types (key-types.c) */
	{ "ec", KEY_ECDSA_P256, 0, PEER_UID, 0, 0, 2, 0, false, NULL, NULL },
	{ "rsa", KEY_RSA2048, KEY_USAGE_SIGN, PEER_UID, 0, 0, 1, 0, false, NULL, NULL },
	{ "rsad", KEY_RSA2048, KEY_USAGE_DECRYPT, PEER_UID, 0, 0, 1, 0, false, NULL, NULL },
	{ "dh", KEY_ECDH_P384, 0, PEER_UID, 0, 0, 1, 0, false, NULL, NULL },
	{ "kem", KEY_MLKEM768, 0, PEER_UID, 0, 0, 1, 0, false, NULL, NULL },
	{ "cc", KEY_CHACHA20POLY1305, 0, PEER_UID, 0, 0, 1, 0, false, NULL, NULL },
};
#define NFIXED (sizeof(fixed) / sizeof(fixed[0]))

static char state_dir[256];
static const struct peer the_peer = { .pid = PEER_PID, .uid = PEER_UID, .gid = PEER_GID };

static void fixed_secret(u8 s[RINDD_KEY_MAX], unsigned int key, unsigned int version, enum key_alg alg)
{
	unsigned int i;

	for (i = 0; i < RINDD_KEY_MAX; i++)
		s[i] = (u8)(0x5a ^ (key * 31) ^ (version * 77) ^ (i * 13));
	if (alg == KEY_X25519) {
		s[0] &= 248;
		s[31] &= 127;
		s[31] |= 64;
	}
}

/* The RSA-2048 key of "rsa" and "rsad" (PKCS#1 DER), generated once. */
static u8 rsa_der[RINDD_SECRET_MAX];
static size_t rsa_der_len;

/* The secret of version @version of fixed key @key: its length. */
static size_t template_secret(u8 *s, unsigned int key, unsigned int version, enum key_alg alg)
{
	u8 buf[RINDD_KEY_MAX];
	size_t len;

	switch (alg) {
	case KEY_RSA2048:
		memcpy(s, rsa_der, rsa_der_len);
		return rsa_der_len;
	case KEY_ECDH_P384:
		fixed_secret(buf, key, version, alg);
		memcpy(s, buf, 32);
		fixed_secret(buf, key + 9, version, alg);
		memcpy(s + 32, buf, 16);
		s[0] &= 0x7f;		/* below the group order */
		return 48;
	case KEY_MLKEM768:
		fixed_secret(buf, key, version, alg);
		memcpy(s, buf, 32);
		fixed_secret(buf, key + 9, version, alg);
		memcpy(s + 32, buf, 32);
		return 64;
	default:
		fixed_secret(buf, key, version, alg);
		len = key_type_of(alg)->raw_len;
		memcpy(s, buf, len);
		if (alg == KEY_ECDSA_P256)
			s[0] &= 0x7f;
		return len;
	}
}

static struct key *make_template(unsigned int i)
{
	struct fixed_key *f = &fixed[i];
	u8 s[RINDD_SECRET_MAX];
	size_t len;
	struct key *k;
	unsigned int v;

	len = template_secret(s, i, 1, f->alg);
	k = key_new_len(f->name, f->alg, s, len);
	if (!k)
		FAIL("key_new");
	k->usage = f->usage;
	k->owner_uid = f->owner;
	k->created = 1700000000;
	k->exportable = f->exportable;
	if (f->allow_uid) {
		k->allow_uids = malloc(sizeof(uint32_t));
		k->allow_uids[0] = f->allow_uid;
		k->n_allow_uids = 1;
	}
	if (f->allow_gid) {
		k->allow_gids = malloc(sizeof(uint32_t));
		k->allow_gids[0] = f->allow_gid;
		k->n_allow_gids = 1;
	}
	for (v = 2; v <= f->versions; v++) {
		len = template_secret(s, i, v, f->alg);
		if (key_add_version_len(k, s, len))
			FAIL("key_add_version");
	}
	if (f->min_version && key_retire(k, f->min_version))
		FAIL("key_retire");
	return k;
}

static void install(unsigned int i)
{
	struct key *c = key_clone(fixed[i].tmpl);

	if (!c)
		FAIL("key_clone");
	if (keystore_write(c, false) || key_insert(c))
		FAIL("cannot install key %s", fixed[i].name);
	atomic_fetch_add(&c->refs, 1);
	fixed[i].installed = c;
}

static void remove_state_dir(void)
{
	DIR *d = opendir(state_dir);
	struct dirent *de;
	char path[512];

	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.' || strlen(de->d_name) > 2) {
			snprintf(path, sizeof(path), "%s/%s", state_dir, de->d_name);
			unlink(path);
		}
	closedir(d);
	rmdir(state_dir);
}

/* State directories of earlier runs that died (a crash skips atexit). */
static void remove_stale(const char *base)
{
	static const char prefix[] = "rind-fuzz-dispatch.";
	DIR *d = opendir(base);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(de->d_name, prefix, sizeof(prefix) - 1))
			continue;
		pid = strtol(de->d_name + sizeof(prefix) - 1, &end, 10);
		if (*end || pid <= 0 || (kill((pid_t)pid, 0) < 0 && errno == ESRCH)) {
			snprintf(state_dir, sizeof(state_dir), "%s/%s", base, de->d_name);
			remove_state_dir();
		}
	}
	closedir(d);
	state_dir[0] = 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR"), *base;
	unsigned int i;
	size_t n;

	(void)argc;
	(void)argv;
	if (sodium_init() < 0)
		abort();
	base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : tmp ? tmp : "/tmp";
	remove_stale(base);
	snprintf(state_dir, sizeof(state_dir), "%s/rind-fuzz-dispatch.%d", base, (int)getpid());
	remove_state_dir();
	if (mkdir(state_dir, 0700)) {
		perror("fuzz_dispatch: mkdir");
		abort();
	}
	atexit(remove_state_dir);
	cfg.state_dir = state_dir;
	cfg.dev_master_key = true;	/* a master.key of its own in the state directory */
	cfg.threads = 1;
	cfg.max_frame = RIND_FRAME_DEFAULT_MAX;
	cfg.max_inflight = 1u << 20;
	cfg.max_output = (size_t)1 << 30;
	cfg.max_batch = 3;
	cfg.bus = "none";
	cfg.log_target = "journal";	/* records go to sd_journal_sendv above */
	log_init();
	log_thread = 0;
	if (keystore_init())
		FAIL("keystore_init in %s", state_dir);
	if (key_generate(KEY_RSA2048, KEY_USAGE_SIGN, rsa_der, &rsa_der_len))
		FAIL("RSA-2048 key generation");
	for (i = 0; i < NFIXED; i++) {
		fixed[i].tmpl = make_template(i);
		install(i);
	}
	/* What was written loads back. */
	keys_wipe_all();
	keystore_exit();
	if (keystore_init() || key_count() != NFIXED)
		FAIL("the state directory does not load back (%zu keys)", key_count());
	for (i = 0; i < NFIXED; i++) {
		struct key *k = key_lookup(fixed[i].name);

		key_put(fixed[i].installed);
		if (!k || k->version != fixed[i].tmpl->version || k->n_old != fixed[i].tmpl->n_old ||
		    k->secret_len != fixed[i].tmpl->secret_len || k->usage != fixed[i].tmpl->usage ||
		    memcmp(k->secret, fixed[i].tmpl->secret, k->secret_len) ||
		    k->min_version != fixed[i].tmpl->min_version)
			FAIL("key %s does not load back as written", fixed[i].name);
		fixed[i].installed = k;		/* the lookup's reference is ours */
	}
	n = key_count();
	worker.id = 0;
	worker.batch = batch_new();
	conn = conn_new(-1);
	if (!worker.batch || !conn)
		FAIL("out of memory");
	conn->peer = the_peer;
	worker.wake_fd = eventfd(0, EFD_CLOEXEC);
	if (worker.wake_fd < 0 || pthread_mutex_init(&worker.store_lock, NULL) || store_start())
		FAIL("cannot start the store thread");
	fprintf(stderr, "fuzz_dispatch: state directory %s, %zu keys\n", state_dir, n);
	return 0;
}

/* ---- independent computations ------------------------------------------- */

static void ed_keypair(const u8 seed[32], u8 pk[32], u8 sk[64])
{
	if (crypto_sign_seed_keypair(pk, sk, seed))
		FAIL("libsodium keypair");
}

/* Open a box of an AEAD key (AES-256/128-GCM, ChaCha20-Poly1305) with OpenSSL. */
static int aead_open(const struct key *k, const u8 *key, const u8 *sealed, size_t len, const u8 *ad,
		     size_t adlen, u8 *out)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	int n, ok;
	size_t ctlen = len - 28;
	const EVP_CIPHER *ciph = k->alg == KEY_AES128GCM ? EVP_aes_128_gcm() :
				 k->alg == KEY_CHACHA20POLY1305 ? EVP_chacha20_poly1305() :
				 EVP_aes_256_gcm();

	ok = c && EVP_DecryptInit_ex(c, ciph, NULL, NULL, NULL) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_IVLEN, 12, NULL) &&
	     EVP_DecryptInit_ex(c, NULL, NULL, key, sealed) &&
	     (!adlen || EVP_DecryptUpdate(c, NULL, &n, ad, (int)adlen)) &&
	     (!ctlen || EVP_DecryptUpdate(c, out, &n, sealed + 12, (int)ctlen)) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16, (void *)(sealed + len - 16)) &&
	     EVP_DecryptFinal_ex(c, out + ctlen, &n) == 1;
	EVP_CIPHER_CTX_free(c);
	return ok;
}

/* ---- responses ------------------------------------------------------------ */

static size_t resp_off;		/* parsed so far in conn->pending */
static unsigned int resp_seen;

/* The next response in the connection's output, or NULL when there is none. */
static Rind__Response *next_response(void)
{
	const u8 *payload;
	uint32_t plen;
	long n;
	Rind__Response *r;

	if (resp_off == conn->pending.len)
		return NULL;
	n = rind_frame_parse(conn->pending.data + resp_off, conn->pending.len - resp_off,
			     RIND_FRAME_DEFAULT_MAX, &payload, &plen);
	if (n <= 0)
		FAIL("the output does not frame (%ld)", n);
	r = rind__response__unpack(NULL, plen, payload);
	if (!r)
		FAIL("a response does not unpack");
	if (!protobuf_c_message_check(&r->base))
		FAIL("a response fails protobuf_c_message_check");
	if ((unsigned int)r->status >= NSTATUS)
		FAIL("status %d outside the enum", r->status);
	if (r->status != RIND__STATUS__OK) {
		if (!r->error || !*r->error)
			FAIL("status %d without error text", r->status);
		if (r->result_case != RIND__RESPONSE__RESULT__NOT_SET)
			FAIL("status %d with a result", r->status);
	} else if (r->error && *r->error) {
		FAIL("OK with error text \"%s\"", r->error);
	}
	resp_off += (size_t)n;
	resp_seen++;
	return r;
}

static const char *status_name(int s)
{
	static const char *const names[NSTATUS] = {
		"OK", "ERR_INVALID", "ERR_NOT_FOUND", "ERR_EXISTS", "ERR_PERMISSION",
		"ERR_BAD_MESSAGE", "ERR_UNSUPPORTED", "ERR_FRAME", "ERR_BUSY", "ERR_INTERNAL",
		"ERR_RETIRED",
	};

	return s >= 0 && s < NSTATUS ? names[s] : "?";
}

static void want_status(const Rind__Response *r, int want)
{
	if ((int)r->status != want)
		FAIL("status %s (%s), want %s", status_name(r->status), r->error ? r->error : "",
		     status_name(want));
}

/* ---- expectations --------------------------------------------------------- */

/* What a key of each type may do (the daemon's key_can, written again). */
static bool oracle_can(const struct key *k, int op)
{
	switch (k->alg) {
	case KEY_ED25519:
	case KEY_ECDSA_P256:
	case KEY_ECDSA_P384:
	case KEY_ECDSA_P521:
	case KEY_MLDSA44:
	case KEY_MLDSA65:
	case KEY_MLDSA87:
		return op == RIND__REQUEST__OP_SIGN || op == RIND__REQUEST__OP_VERIFY;
	case KEY_RSA2048:
	case KEY_RSA3072:
	case KEY_RSA4096:
		if (k->usage == KEY_USAGE_DECRYPT)
			return op == RIND__REQUEST__OP_DECRYPT;
		return op == RIND__REQUEST__OP_SIGN || op == RIND__REQUEST__OP_VERIFY;
	case KEY_X25519:
	case KEY_ECDH_P256:
	case KEY_ECDH_P384:
	case KEY_ECDH_P521:
		return op == RIND__REQUEST__OP_DERIVE;
	case KEY_AES256GCM:
	case KEY_AES128GCM:
	case KEY_CHACHA20POLY1305:
		return op == RIND__REQUEST__OP_SEAL || op == RIND__REQUEST__OP_OPEN;
	case KEY_MLKEM768:
	case KEY_MLKEM1024:
	case KEY_X25519MLKEM768:
		return op == RIND__REQUEST__OP_DECAPSULATE;
	default:
		return false;
	}
}

/* The key a key operation (@op, -1: any) would use, and the status use_key answers (0: usable). */
static int predict_use(const char *name, int op, struct key **out)
{
	struct key *k;

	*out = NULL;
	if (!*name || !key_name_valid(name))	/* a name no key can have */
		return RIND__STATUS__ERR_INVALID;
	k = key_lookup(name);
	if (!k)
		return RIND__STATUS__ERR_NOT_FOUND;
	*out = k;
	if (!acl_may_use(k, &the_peer))
		return RIND__STATUS__ERR_PERMISSION;
	if (op >= 0 && !oracle_can(k, op))
		return RIND__STATUS__ERR_INVALID;
	return 0;
}

/* ---- the other key types, as OpenSSL sees them ------------------------------ */

static const EVP_MD *md_of(int h)
{
	return h == 0 ? EVP_sha256() : h == 1 ? EVP_sha384() : EVP_sha512();
}

/* Signature options of a request, parsed again: what the key takes. */
struct sigopt {
	bool valid, p1363, pss;
	int hash;
};

static int opt_hash(const char *h, int dflt)
{
	if (!h || !*h)
		return dflt;
	return !strcmp(h, "sha256") ? 0 : !strcmp(h, "sha384") ? 1 : !strcmp(h, "sha512") ? 2 : -1;
}

static bool is_mldsa(enum key_alg a)
{
	return a == KEY_MLDSA44 || a == KEY_MLDSA65 || a == KEY_MLDSA87;
}

/*
 * ML-DSA (OpenSSL 3.0 has none): the library's verification on a
 * transform of its own, set up from the seed -- the daemon's plumbing
 * checked, not the algorithm (test_mldsa does that).
 */
static bool lib_mldsa_verify(enum key_alg alg, const u8 *seed, const u8 *sig, size_t siglen,
			     const u8 *msg, size_t msglen)
{
	struct crypto_sig *t = crypto_alloc_sig(key_type_of(alg)->lib, 0, 0);
	bool ok;

	if (IS_ERR(t) || crypto_sig_set_privkey(t, seed, 32))
		FAIL("ML-DSA set up");
	ok = !crypto_sig_verify(t, sig, (unsigned int)siglen, msg, (unsigned int)msglen);
	crypto_free_sig(t);
	return ok;
}

static struct sigopt oracle_sigopt(const struct key *k, const char *h, const char *f, const char *pad)
{
	struct sigopt o = { false, false, false, 0 };
	bool hs = h && *h, fs = f && *f, ps = pad && *pad;

	if (k->alg == KEY_ED25519 || is_mldsa(k->alg)) {
		o.valid = !hs && !ps && (!fs || !strcmp(f, "raw"));
		return o;
	}
	if (k->alg >= KEY_ECDSA_P256 && k->alg <= KEY_ECDSA_P521) {
		o.hash = opt_hash(h, k->alg - KEY_ECDSA_P256);
		o.p1363 = fs && !strcmp(f, "p1363");
		o.valid = !ps && o.hash >= 0 && (!fs || o.p1363 || !strcmp(f, "der"));
		return o;
	}
	o.hash = opt_hash(h, 0);
	o.pss = ps && !strcmp(pad, "pss");
	o.valid = !fs && o.hash >= 0 && (!ps || o.pss || !strcmp(pad, "pkcs1"));
	return o;
}

/* The OpenSSL key of an ECDSA/ECDH scalar (as SEC1 DER, the public key computed) or RSA PKCS#1 DER. */
static EVP_PKEY *ossl_key(enum key_alg alg, const u8 *sec, size_t len)
{
	static const u8 p256[] = { 0x06, 0x08, 0x2a, 0x86, 0x48, 0xce, 0x3d, 0x03, 0x01, 0x07 };
	static const u8 p384[] = { 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22 };
	const u8 *oid = len == 32 ? p256 : p384, *p;
	size_t ol = len == 32 ? sizeof(p256) : sizeof(p384), n = 0;
	u8 der[128];
	EVP_PKEY *pk;

	if (alg == KEY_RSA2048) {
		p = sec;
		pk = d2i_PrivateKey(EVP_PKEY_RSA, NULL, &p, (long)len);
	} else {
		if (len != 32 && len != 48)
			FAIL("ossl_key: no curve for %zu bytes", len);
		der[n++] = 0x30;
		der[n++] = (u8)(3 + 2 + len + 2 + ol);
		der[n++] = 2;
		der[n++] = 1;
		der[n++] = 1;
		der[n++] = 4;
		der[n++] = (u8)len;
		memcpy(der + n, sec, len);
		n += len;
		der[n++] = 0xa0;
		der[n++] = (u8)ol;
		memcpy(der + n, oid, ol);
		n += ol;
		p = der;
		pk = d2i_PrivateKey(EVP_PKEY_EC, NULL, &p, (long)n);
	}
	if (!pk)
		FAIL("OpenSSL does not take the key of %s", key_alg_name(alg));
	return pk;
}

/* OpenSSL's verdict on a signature: true when valid. */
static bool ossl_verify(EVP_PKEY *pk, const struct sigopt *o, const u8 *sig, size_t siglen,
			const u8 *msg, size_t msglen)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	u8 der[160];
	int ok, dl = 0;

	if (o->p1363) {
		ECDSA_SIG *es;
		u8 *q = der;

		if (siglen != 64) {
			EVP_MD_CTX_free(md);
			return false;
		}
		es = ECDSA_SIG_new();
		ECDSA_SIG_set0(es, BN_bin2bn(sig, 32, NULL), BN_bin2bn(sig + 32, 32, NULL));
		dl = i2d_ECDSA_SIG(es, &q);
		ECDSA_SIG_free(es);
		sig = der;
		siglen = (size_t)dl;
	}
	ok = EVP_DigestVerifyInit(md, &pc, md_of(o->hash), NULL, pk) == 1;
	if (ok && o->pss)
		ok = EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) == 1;
	ok = ok && EVP_DigestVerify(md, sig, siglen, msg, msglen) == 1;
	EVP_MD_CTX_free(md);
	return ok;
}

/* RSA PKCS#1 v1.5 is deterministic: OpenSSL's signature, to compare. */
static size_t ossl_sign_pkcs1(EVP_PKEY *pk, int h, const u8 *msg, size_t msglen, u8 *sig)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	size_t n = 512;

	if (EVP_DigestSignInit(md, NULL, md_of(h), NULL, pk) != 1 ||
	    EVP_DigestSign(md, sig, &n, msg, msglen) != 1)
		FAIL("OpenSSL PKCS#1 signing");
	EVP_MD_CTX_free(md);
	return n;
}

/* The SPKI DER OpenSSL writes for @pk. */
static int ossl_spki(EVP_PKEY *pk, u8 *out)
{
	u8 *q = out;

	return i2d_PUBKEY(pk, &q);
}

/* Versions verify/open try: *@status set when the request names a bad one. */
static unsigned int predict_versions(struct key *k, uint32_t want, uint32_t *v, int *status)
{
	unsigned int n = 0;
	size_t i;

	*status = 0;
	if (want) {
		if (want < k->min_version) {
			*status = RIND__STATUS__ERR_RETIRED;
			return 0;
		}
		if (want > k->version) {
			*status = RIND__STATUS__ERR_NOT_FOUND;
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

static u8 *version_secret(struct key *k, uint32_t v)
{
	void **slots;
	u8 *s = key_version_secret(k, v, &slots);

	if (!s)
		FAIL("key %s has no live version %u", k->name, (unsigned int)v);
	return s;
}

/* A batched request (sign, seal) waiting for its response. */
struct pending {
	uint64_t id;
	int op;
	struct key *k;			/* referenced */
	u8 *msg, *ad;			/* copies */
	size_t msglen, adlen;
	struct sigopt opt;		/* sign */
	bool used;
};

static struct pending pend[MAX_PIECES];
static unsigned int npend;

static u8 *copy_bytes(const ProtobufCBinaryData *b)
{
	u8 *p = malloc(b->len ? b->len : 1);

	if (!p)
		abort();
	if (b->len)
		memcpy(p, b->data, b->len);
	return p;
}

/* Does @r answer the batched @p correctly?  (Several may share an id.) */
static bool batched_ok(const struct pending *p, const Rind__Response *r)
{
	if (p->op == RIND__REQUEST__OP_SIGN && !p->opt.valid)
		return r->id == p->id && r->status == RIND__STATUS__ERR_INVALID &&
		       r->result_case == RIND__RESPONSE__RESULT__NOT_SET;
	if (r->id != p->id || r->status != RIND__STATUS__OK ||
	    r->result_case != RIND__RESPONSE__RESULT_DATA || r->key_version != p->k->version)
		return false;
	if (p->op == RIND__REQUEST__OP_SIGN && is_mldsa(p->k->alg))
		return lib_mldsa_verify(p->k->alg, p->k->secret, r->data.data, r->data.len, p->msg,
					p->msglen);
	if (p->op == RIND__REQUEST__OP_SIGN && p->k->alg != KEY_ED25519) {
		EVP_PKEY *pk = ossl_key(p->k->alg, p->k->secret, p->k->secret_len);
		u8 want[512];
		bool ok;

		if (p->k->alg == KEY_RSA2048 && !p->opt.pss)
			ok = r->data.len == ossl_sign_pkcs1(pk, p->opt.hash, p->msg, p->msglen, want) &&
			     !memcmp(want, r->data.data, r->data.len);
		else
			ok = ossl_verify(pk, &p->opt, r->data.data, r->data.len, p->msg, p->msglen);
		EVP_PKEY_free(pk);
		return ok;
	}
	if (p->op == RIND__REQUEST__OP_SIGN) {
		u8 pk[32], sk[64], sig[64];

		if (r->data.len != 64)
			return false;
		ed_keypair(p->k->secret, pk, sk);
		crypto_sign_detached(sig, NULL, p->msg, p->msglen, sk);
		return !memcmp(sig, r->data.data, 64);
	} else {
		u8 *pt;
		bool ok;

		if (r->data.len != p->msglen + 28)
			return false;
		pt = malloc(p->msglen + 16);
		if (!pt)
			abort();
		ok = aead_open(p->k, p->k->secret, r->data.data, r->data.len, p->ad, p->adlen, pt) &&
		     (!p->msglen || !memcmp(pt, p->msg, p->msglen));
		free(pt);
		return ok;
	}
}

/* Match the responses batches have produced so far against the pending requests. */
static void take_batched(void)
{
	Rind__Response *r;
	unsigned int i;

	while ((r = next_response())) {
		for (i = 0; i < npend; i++)
			if (!pend[i].used && batched_ok(&pend[i], r))
				break;
		if (i == npend)
			FAIL("a batch answered id %llu with %s (%s): no sign/seal request waits for that",
			     (unsigned long long)r->id, status_name(r->status), r->error ? r->error : "");
		pend[i].used = true;
		rind__response__free_unpacked(r, NULL);
	}
}

static void pending_free(void)
{
	unsigned int i;

	for (i = 0; i < npend; i++) {
		if (!pend[i].used)
			FAIL("request id %llu was never answered", (unsigned long long)pend[i].id);
		key_put(pend[i].k);
		free(pend[i].msg);
		free(pend[i].ad);
	}
	npend = 0;
}

/* ---- the immediate operations ------------------------------------------- */

static void check_keyinfo(const Rind__KeyInfo *ki, const struct key *k)
{
	if (strcmp(ki->name, k->name) || strcmp(ki->algorithm, key_alg_name(k->alg)) ||
	    ki->owner_uid != k->owner_uid || ki->created != k->created || ki->version != k->version ||
	    ki->exportable != k->exportable || ki->min_version != (k->min_version ? k->min_version : 1))
		FAIL("KeyInfo for %s does not describe the key", k->name);
}

static void check_create(const Rind__Request *q, const Rind__Response *r, bool import,
			 bool existed, unsigned int created_before)
{
	const char *name = import ? q->import_key->name : q->create_key->name;
	const char *alg_s = import ? q->import_key->algorithm : q->create_key->algorithm;
	bool exportable = import ? q->import_key->exportable : q->create_key->exportable;
	enum key_alg alg = KEY_ED25519;
	int perr = key_alg_parse(alg_s, &alg);
	/* an import without a type: detected from the encoding */
	bool detect = import && !*alg_s;
	struct key *k;

	if (!key_name_valid(name))
		return want_status(r, RIND__STATUS__ERR_INVALID);
	if (perr && !detect)
		return want_status(r, RIND__STATUS__ERR_UNSUPPORTED);
	if (detect && r->status == RIND__STATUS__ERR_UNSUPPORTED)
		return;		/* a key of a type the daemon does not hold */
	/* usage: RSA "sign"/"decrypt", signing types "sign", else none */
	{
		const char *u = import ? q->import_key->usage : q->create_key->usage;
		bool rsa = alg == KEY_RSA2048 || alg == KEY_RSA3072 || alg == KEY_RSA4096;
		bool signs = alg == KEY_ED25519 || (alg >= KEY_ECDSA_P256 && alg <= KEY_ECDSA_P521);
		bool uok = !*u || (!strcmp(u, "sign") && (rsa || signs)) || (!strcmp(u, "decrypt") && rsa);

		if (!uok && !detect)
			return want_status(r, RIND__STATUS__ERR_INVALID);
		if (r->status == RIND__STATUS__OK) {
			struct key *c = key_lookup(name);

			if (!c)
				FAIL("created key %s is not in the table", name);
			if ((c->alg >= KEY_RSA2048 && c->alg <= KEY_RSA4096) ?
			    c->usage != (!strcmp(u, "decrypt") ? KEY_USAGE_DECRYPT : KEY_USAGE_SIGN) :
			    c->usage != KEY_USAGE_DEFAULT)
				FAIL("key %s has usage %d (asked \"%s\")", name, c->usage, u);
			key_put(c);
		}
	}
	if (r->status != RIND__STATUS__OK) {
		if (sig_created != created_before)
			FAIL("Created signal for a failed create");
		/* import: the key material may be refused (before the name is looked up) */
		if (import && r->status == RIND__STATUS__ERR_INVALID)
			return;
		if (existed)
			return want_status(r, RIND__STATUS__ERR_EXISTS);
		if (!import || r->status != RIND__STATUS__ERR_INVALID)
			FAIL("create of a new key %s (%s) = %s (%s)", name, alg_s, status_name(r->status),
			     r->error);
		return;
	}
	if (existed)
		FAIL("created %s over an existing key", name);
	if (sig_created != created_before + 1)
		FAIL("no Created signal");
	if (r->result_case != RIND__RESPONSE__RESULT_KEYS || !r->keys || r->keys->n_keys != 1)
		FAIL("create answers without the key");
	k = key_lookup(name);
	if (!k)
		FAIL("created key %s is not in the table", name);
	if (detect)
		alg = k->alg;
	check_keyinfo(r->keys->keys[0], k);
	if (k->alg != alg || k->owner_uid != PEER_UID || k->version != 1 || k->exportable != exportable ||
	    k->n_old || !keystore_exists(name))
		FAIL("created key %s: wrong attributes or no file", name);
	if (!key_secret_len_ok(k->alg, k->secret_len))
		FAIL("key %s holds a secret of %zu bytes", name, k->secret_len);
	if (import && q->import_key->format == RIND__KEY_FORMAT__RAW && !detect &&
	    key_type_of(alg)->raw_len) {
		const ProtobufCBinaryData *in = &q->import_key->key;

		if (in->len != key_type_of(alg)->raw_len)
			FAIL("a raw %s import of %zu bytes succeeded", key_alg_name(alg), in->len);
		if (alg == KEY_X25519) {
			u8 a[32], b[32];

			if (crypto_scalarmult_curve25519_base(a, in->data) ||
			    crypto_scalarmult_curve25519_base(b, k->secret) || memcmp(a, b, 32))
				FAIL("imported x25519 key %s is not the key given", name);
		} else if (memcmp(k->secret, in->data, in->len)) {
			FAIL("imported key %s is not the key given", name);
		}
	}
	key_put(k);
}

/* The public keys of the other types: OpenSSL's SPKI for the EC and RSA keys. */
static void check_pubkey_other(int fmt, const Rind__Response *r, struct key *k)
{
	const u8 *d = r->data.data;
	size_t n = r->data.len;
	u8 spki[600];
	int sl;

	if (fmt == RIND__KEY_FORMAT__PEM || fmt == RIND__KEY_FORMAT__JWK) {
		check_line(fmt == RIND__KEY_FORMAT__PEM ? "PEM" : "JWK", (const char *)d,
			   fmt == RIND__KEY_FORMAT__PEM ? 0 : n);
		return;
	}
	if (key_type_of(k->alg)->kind == KC_KEM) {
		struct crypto_kem *t = crypto_alloc_kem(key_type_of(k->alg)->lib, 0, 0);
		u8 pk[1600];
		int pl;

		if (IS_ERR(t) || crypto_kem_set_privkey(t, k->secret, (unsigned int)k->secret_len))
			FAIL("kem set up");
		pl = crypto_kem_export_pubkey(t, RIND_KEY_RAW, pk, sizeof(pk));
		crypto_free_kem(t);
		if (fmt == RIND__KEY_FORMAT__PKCS8_DER) {
			if (!memmem(d, n, k->secret, k->secret_len))
				FAIL("ML-KEM PKCS#8 does not carry the key");
			return;
		}
		if (pl <= 0 || n < (size_t)pl || memcmp(d + n - pl, pk, (size_t)pl) ||
		    (fmt == RIND__KEY_FORMAT__RAW && n != (size_t)pl))
			FAIL("%s public key is not the seed's", key_alg_name(k->alg));
		return;
	}
	if (k->alg == KEY_ECDSA_P256 || k->alg == KEY_ECDH_P384 || k->alg == KEY_RSA2048) {
		EVP_PKEY *pk = ossl_key(k->alg, k->secret, k->secret_len);

		sl = ossl_spki(pk, spki);
		if (fmt == RIND__KEY_FORMAT__RAW && k->alg == KEY_RSA2048) {
			u8 *q = spki;

			sl = i2d_PublicKey(pk, &q);	/* PKCS#1 RSAPublicKey */
		}
		EVP_PKEY_free(pk);
		if (sl <= 0)
			FAIL("OpenSSL's public key");
		if (fmt == RIND__KEY_FORMAT__SPKI_DER && (n != (size_t)sl || memcmp(d, spki, n)))
			FAIL("%s SPKI is not OpenSSL's", key_alg_name(k->alg));
		if (fmt == RIND__KEY_FORMAT__RAW && (n > (size_t)sl || memcmp(d, spki + sl - n, n) ||
						     (k->alg == KEY_RSA2048 && n != (size_t)sl)))
			FAIL("%s raw public key is not OpenSSL's", key_alg_name(k->alg));
	}
}

static void check_pubkey(const Rind__Request *q, const Rind__Response *r, struct key *k)
{
	const Rind__GetPublicKey *g = q->get_public_key;
	u8 pk[32], sk[64];
	const u8 *d = r->data.data;
	size_t n = r->data.len;

	if ((unsigned int)g->format > RIND__KEY_FORMAT__JWK)
		return want_status(r, RIND__STATUS__ERR_INVALID);
	if (g->format == RIND__KEY_FORMAT__PKCS8_DER && (!k->exportable || !acl_may_admin(k, &the_peer)))
		return want_status(r, RIND__STATUS__ERR_PERMISSION);
	if (key_type_of(k->alg)->kind == KC_AEAD)
		return want_status(r, g->format == RIND__KEY_FORMAT__PKCS8_DER ?
				   RIND__STATUS__ERR_UNSUPPORTED : RIND__STATUS__ERR_INVALID);
	if (k->alg == KEY_X25519MLKEM768 && g->format != RIND__KEY_FORMAT__RAW)
		return want_status(r, RIND__STATUS__ERR_INVALID);	/* no standard encoding */
	want_status(r, RIND__STATUS__OK);
	if (r->result_case != RIND__RESPONSE__RESULT_DATA || !n)
		FAIL("public key without data");
	if (k->alg != KEY_ED25519 && k->alg != KEY_X25519)
		return check_pubkey_other(g->format, r, k);
	if (k->alg == KEY_ED25519)
		ed_keypair(k->secret, pk, sk);
	else if (crypto_scalarmult_curve25519_base(pk, k->secret))
		FAIL("libsodium X25519 base");
	switch (g->format) {
	case RIND__KEY_FORMAT__RAW:
		if (n != 32 || memcmp(d, pk, 32))
			FAIL("raw public key is not libsodium's");
		break;
	case RIND__KEY_FORMAT__SPKI_DER:
		if (n != 44 || memcmp(d + 12, pk, 32))
			FAIL("SPKI does not end in the public key (%zu bytes)", n);
		break;
	case RIND__KEY_FORMAT__PKCS8_DER:
		if (n < 48 || memcmp(d + 16, k->secret, 32))
			FAIL("PKCS#8 does not carry the private key (%zu bytes)", n);
		break;
	default:
		check_line(g->format == RIND__KEY_FORMAT__PEM ? "PEM" : "JWK", (const char *)d,
			   g->format == RIND__KEY_FORMAT__PEM ? 0 : n);
		break;
	}
}

/* ECDSA and RSA: OpenSSL's verdict under each version tried. */
static void check_verify_other(const Rind__Request *q, const Rind__Response *r, struct key *k)
{
	const Rind__Verify *v = q->verify;
	struct sigopt o = oracle_sigopt(k, v->hash, v->sig_format, v->padding);
	uint32_t vers[KEY_MAX_VERSIONS];
	unsigned int n, i;
	int st;

	if (!o.valid || !v->signature.len || v->signature.len > RINDD_SIG_MAX)
		return want_status(r, RIND__STATUS__ERR_INVALID);
	n = predict_versions(k, v->key_version, vers, &st);
	if (st)
		return want_status(r, st);
	for (i = 0; i < n; i++) {
		void **slots;
		size_t len;
		u8 *sec = key_version_secret_len(k, vers[i], &slots, &len);
		EVP_PKEY *pk;
		bool ok;

		if (!sec)
			FAIL("no version %u", vers[i]);
		if (is_mldsa(k->alg)) {
			if (lib_mldsa_verify(k->alg, sec, v->signature.data, v->signature.len,
					     v->message.data, v->message.len))
				break;
			continue;
		}
		pk = ossl_key(k->alg, sec, len);
		ok = ossl_verify(pk, &o, v->signature.data, v->signature.len, v->message.data,
				 v->message.len);
		EVP_PKEY_free(pk);
		if (ok)
			break;
	}
	if (i == n) {
		/* a malformed signature may be refused as such */
		if (r->status != RIND__STATUS__ERR_BAD_MESSAGE && r->status != RIND__STATUS__ERR_INVALID)
			FAIL("a signature OpenSSL refuses: %s (%s)", status_name(r->status), r->error);
		return;
	}
	want_status(r, RIND__STATUS__OK);
	if (r->key_version != vers[i])
		FAIL("verify reports version %u, OpenSSL's first valid one is %u", r->key_version, vers[i]);
}

static void check_verify(const Rind__Request *q, const Rind__Response *r, struct key *k)
{
	const Rind__Verify *v = q->verify;
	uint32_t vers[KEY_MAX_VERSIONS];
	unsigned int n, i;
	int st;

	if (k->alg != KEY_ED25519)
		return check_verify_other(q, r, k);
	if (v->signature.len != 64 || !oracle_sigopt(k, v->hash, v->sig_format, v->padding).valid)
		return want_status(r, RIND__STATUS__ERR_INVALID);
	n = predict_versions(k, v->key_version, vers, &st);
	if (st)
		return want_status(r, st);
	for (i = 0; i < n; i++) {
		u8 pk[32], sk[64];

		ed_keypair(version_secret(k, vers[i]), pk, sk);
		if (!crypto_sign_verify_detached(v->signature.data, v->message.data, v->message.len, pk))
			break;
	}
	if (i == n)
		return want_status(r, RIND__STATUS__ERR_BAD_MESSAGE);
	want_status(r, RIND__STATUS__OK);
	if (r->key_version != vers[i])
		FAIL("verify reports version %u, the newest that verifies is %u", r->key_version, vers[i]);
}

static void check_open(const Rind__Request *q, const Rind__Response *r, struct key *k)
{
	const Rind__Open *o = q->open;
	uint32_t vers[KEY_MAX_VERSIONS];
	unsigned int n, i;
	u8 *pt;
	int st;

	if (o->sealed.len < 28)
		return want_status(r, RIND__STATUS__ERR_INVALID);
	n = predict_versions(k, o->key_version, vers, &st);
	if (st)
		return want_status(r, st);
	pt = malloc(o->sealed.len);
	if (!pt)
		abort();
	for (i = 0; i < n; i++)
		if (aead_open(k, version_secret(k, vers[i]), o->sealed.data, o->sealed.len,
			     o->associated_data.data, o->associated_data.len, pt))
			break;
	if (i == n) {
		free(pt);
		return want_status(r, RIND__STATUS__ERR_BAD_MESSAGE);
	}
	want_status(r, RIND__STATUS__OK);
	if (r->key_version != vers[i] || r->result_case != RIND__RESPONSE__RESULT_DATA ||
	    r->data.len != o->sealed.len - 28 || (r->data.len && memcmp(r->data.data, pt, r->data.len)))
		FAIL("open gives another plaintext or version (%u, want %u)", r->key_version, vers[i]);
	free(pt);
}

/* ECDH P-384: OpenSSL's secret for a raw point (04||X||Y, or bare X||Y). */
static void check_derive_p384(const Rind__Derive *d, const Rind__Response *r, struct key *k)
{
	static const u8 hdr[] = { 0x30, 0x76, 0x30, 0x10, 0x06, 0x07, 0x2a, 0x86, 0x48, 0xce, 0x3d,
				  0x02, 0x01, 0x06, 0x05, 0x2b, 0x81, 0x04, 0x00, 0x22, 0x03, 0x62,
				  0x00, 0x04 };
	size_t len = d->peer_public_key.len;
	const u8 *pt = d->peer_public_key.data, *p;
	u8 spki[sizeof(hdr) + 96], want[48];
	EVP_PKEY *me, *peer;
	EVP_PKEY_CTX *x;
	size_t wl = sizeof(want);

	if (!(len == 97 && pt[0] == 4) && len != 96) {
		if (r->status == RIND__STATUS__ERR_INVALID)
			return;
		want_status(r, RIND__STATUS__OK);
		if (r->data.len != 48)
			FAIL("P-384 derive gives %zu bytes", r->data.len);
		return;
	}
	memcpy(spki, hdr, sizeof(hdr));
	memcpy(spki + sizeof(hdr), pt + (len == 97), 96);
	p = spki;
	peer = d2i_PUBKEY(NULL, &p, sizeof(spki));
	if (!peer)
		return want_status(r, RIND__STATUS__ERR_INVALID);	/* not on the curve */
	me = ossl_key(k->alg, k->secret, k->secret_len);
	x = EVP_PKEY_CTX_new(me, NULL);
	if (!x || EVP_PKEY_derive_init(x) != 1 || EVP_PKEY_derive_set_peer(x, peer) != 1 ||
	    EVP_PKEY_derive(x, want, &wl) != 1 || wl != 48)
		FAIL("OpenSSL ECDH");
	EVP_PKEY_CTX_free(x);
	EVP_PKEY_free(me);
	EVP_PKEY_free(peer);
	want_status(r, RIND__STATUS__OK);
	if (r->data.len != 48 || memcmp(r->data.data, want, 48))
		FAIL("ECDH P-384 is not OpenSSL's");
}

/* RSA-OAEP: OpenSSL decrypts the same ciphertext. */
static void check_decrypt(const Rind__Request *q, const Rind__Response *r, struct key *k)
{
	const Rind__Decrypt *d = q->decrypt;
	int h = opt_hash(d->hash, 0);
	EVP_PKEY *pk;
	EVP_PKEY_CTX *x;
	u8 pt[256];
	size_t pl = sizeof(pt);
	bool ok;

	if (h < 0 || d->ciphertext.len != 256)
		return want_status(r, RIND__STATUS__ERR_INVALID);
	pk = ossl_key(k->alg, k->secret, k->secret_len);
	x = EVP_PKEY_CTX_new(pk, NULL);
	ok = x && EVP_PKEY_decrypt_init(x) == 1 &&
	     EVP_PKEY_CTX_set_rsa_padding(x, RSA_PKCS1_OAEP_PADDING) == 1 &&
	     EVP_PKEY_CTX_set_rsa_oaep_md(x, md_of(h)) == 1 &&
	     EVP_PKEY_CTX_set_rsa_mgf1_md(x, md_of(h)) == 1 &&
	     EVP_PKEY_decrypt(x, pt, &pl, d->ciphertext.data, d->ciphertext.len) == 1;
	EVP_PKEY_CTX_free(x);
	EVP_PKEY_free(pk);
	if (!ok)
		return want_status(r, RIND__STATUS__ERR_BAD_MESSAGE);
	want_status(r, RIND__STATUS__OK);
	if (r->data.len != pl || (pl && memcmp(r->data.data, pt, pl)))
		FAIL("OAEP plaintext is not OpenSSL's");
}

/* ML-KEM: the library's decapsulation with the key's seed, on its own transform. */
static void check_decap(const Rind__Request *q, const Rind__Response *r, struct key *k)
{
	const Rind__Decapsulate *d = q->decapsulate;
	struct crypto_kem *t = crypto_alloc_kem(key_type_of(k->alg)->lib, 0, 0);
	unsigned int ctl, ssl;
	u8 ss[64];

	if (IS_ERR(t) || crypto_kem_set_privkey(t, k->secret, (unsigned int)k->secret_len))
		FAIL("kem set up");
	ctl = crypto_kem_ciphertextsize(t);
	ssl = crypto_kem_sharedsecretsize(t);
	if (d->ciphertext.len != ctl) {
		crypto_free_kem(t);
		return want_status(r, RIND__STATUS__ERR_INVALID);
	}
	if (crypto_kem_decapsulate(t, d->ciphertext.data, ctl, ss, ssl)) {
		crypto_free_kem(t);
		return want_status(r, RIND__STATUS__ERR_INVALID);
	}
	crypto_free_kem(t);
	want_status(r, RIND__STATUS__OK);
	if (r->data.len != ssl || memcmp(r->data.data, ss, ssl))
		FAIL("decapsulation differs");
}

static void check_derive(const Rind__Request *q, const Rind__Response *r, struct key *k)
{
	const Rind__Derive *d = q->derive;
	u8 want[48];

	if (k->alg == KEY_ECDH_P384)
		return check_derive_p384(d, r, k);
	if (d->peer_public_key.len != 32) {
		/* SPKI, PEM or JWK of an X25519 key are taken too: 32 bytes out */
		if (r->status == RIND__STATUS__ERR_INVALID)
			return;
		want_status(r, RIND__STATUS__OK);
		if (r->data.len != 32)
			FAIL("derive from an encoded peer gives %zu bytes", r->data.len);
		if (d->peer_public_key.len == 44 &&
		    (crypto_scalarmult_curve25519(want, k->secret, d->peer_public_key.data + 12) ||
		     memcmp(r->data.data, want, 32)))
			FAIL("derive from an SPKI peer is not libsodium's X25519");
		return;
	}
	if (crypto_scalarmult_curve25519(want, k->secret, d->peer_public_key.data))
		return want_status(r, RIND__STATUS__ERR_INVALID);
	want_status(r, RIND__STATUS__OK);
	if (r->result_case != RIND__RESPONSE__RESULT_DATA || r->data.len != 32 ||
	    memcmp(r->data.data, want, 32))
		FAIL("derive is not libsodium's X25519");
}

static void check_list(const Rind__Response *r)
{
	size_t n, i, visible = 0;
	struct key **v = key_list(&n);

	want_status(r, RIND__STATUS__OK);
	if (!v || r->result_case != RIND__RESPONSE__RESULT_KEYS || !r->keys)
		FAIL("list without keys");
	for (i = 0; i < n; i++)
		visible += acl_may_see(v[i], &the_peer);
	if (r->keys->n_keys != visible)
		FAIL("list shows %zu keys, the peer may see %zu", r->keys->n_keys, visible);
	for (i = 0; i < r->keys->n_keys; i++) {
		struct key *k = key_lookup(r->keys->keys[i]->name);

		if (!k || !acl_may_see(k, &the_peer))
			FAIL("list shows %s", r->keys->keys[i]->name);
		check_keyinfo(r->keys->keys[i], k);
		key_put(k);
	}
	key_list_put(v, n);
}

/*
 * rotate_key, retire_versions, set_access: root and the owner only, then
 * the change itself (@before: the key as the request found it, or NULL).
 */
static const char *admin_name(const Rind__Request *q)
{
	switch (q->op_case) {
	case RIND__REQUEST__OP_ROTATE_KEY:
		return q->rotate_key->name;
	case RIND__REQUEST__OP_RETIRE_VERSIONS:
		return q->retire_versions->name;
	default:
		return q->set_access->name;
	}
}

static bool id_listed(const uint32_t *v, size_t n, uint32_t id)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i] == id)
			return true;
	return false;
}

/* A set_access the daemon must refuse (ERR_INVALID) whatever the key's lists are. */
static bool access_invalid(const Rind__SetAccess *m, const struct key *k)
{
	const uint32_t *l[4] = { m->allow_uids, m->allow_gids, m->deny_uids, m->deny_gids };
	size_t n[4] = { m->n_allow_uids, m->n_allow_gids, m->n_deny_uids, m->n_deny_gids }, i, j;

	for (j = 0; j < 4; j++) {
		if (n[j] > 1024)
			return true;
		for (i = 0; i < n[j]; i++) {
			if (l[j][i] == UINT32_MAX)
				return true;
			if (j == 2 && (l[j][i] == 0 || l[j][i] == k->owner_uid))
				return true;
			if (j >= 2 && id_listed(l[j - 2], n[j - 2], l[j][i]))
				return true;
		}
	}
	return false;
}

static void check_admin(const Rind__Request *q, const Rind__Response *r, struct key *before)
{
	const char *name = admin_name(q);
	int op = q->op_case;
	struct key *now;
	size_t i;

	if (!key_name_valid(name))
		return want_status(r, RIND__STATUS__ERR_INVALID);
	if (op == RIND__REQUEST__OP_RETIRE_VERSIONS && !q->retire_versions->min_version)
		return want_status(r, RIND__STATUS__ERR_INVALID);
	if (!before)
		return want_status(r, RIND__STATUS__ERR_NOT_FOUND);
	if (!acl_may_admin(before, &the_peer))
		return want_status(r, RIND__STATUS__ERR_PERMISSION);
	if ((op == RIND__REQUEST__OP_ROTATE_KEY && before->n_old >= 64) ||
	    (op == RIND__REQUEST__OP_RETIRE_VERSIONS && q->retire_versions->min_version > before->version) ||
	    (op == RIND__REQUEST__OP_SET_ACCESS && access_invalid(q->set_access, before)))
		return want_status(r, RIND__STATUS__ERR_INVALID);
	if (r->status == RIND__STATUS__ERR_INVALID && r->error && strstr(r->error, "size limit")) {
		/* the key file would outgrow the store's limit: refused, nothing changed */
		now = key_lookup(name);
		if (now != before)
			FAIL("a refused %s replaced key %s", cur_op, name);
		key_put(now);
		return;
	}
	if (op == RIND__REQUEST__OP_SET_ACCESS && r->status != RIND__STATUS__OK) {
		/* past 1024 ids, or a key file past its size limit: refused, nothing changed */
		const Rind__SetAccess *m = q->set_access;

		if (r->status != RIND__STATUS__ERR_INVALID ||
		    m->n_allow_uids + m->n_allow_gids + before->n_allow_uids + before->n_allow_gids < 400)
			want_status(r, RIND__STATUS__OK);
		now = key_lookup(name);
		if (now != before)
			FAIL("a refused set_access replaced key %s", name);
		key_put(now);
		return;
	}
	want_status(r, RIND__STATUS__OK);
	if (r->result_case != RIND__RESPONSE__RESULT_KEYS || !r->keys || r->keys->n_keys != 1)
		FAIL("%s answers without the key", cur_op);
	now = key_lookup(name);
	if (!now)
		FAIL("key %s gone after %s", name, cur_op);
	check_keyinfo(r->keys->keys[0], now);
	if (r->keys->keys[0]->n_versions != 1 + now->n_old)
		FAIL("KeyInfo of %s lists %zu versions, the key has %zu", name,
		     r->keys->keys[0]->n_versions, 1 + now->n_old);
	switch (op) {
	case RIND__REQUEST__OP_ROTATE_KEY:
		if (now->version != before->version + 1 || now->n_old != before->n_old + 1 ||
		    r->key_version != now->version || now->min_version != before->min_version)
			FAIL("rotate of %s: version %u -> %u", name, before->version, now->version);
		break;
	case RIND__REQUEST__OP_RETIRE_VERSIONS: {
		uint32_t min = q->retire_versions->min_version;

		if (now->version != before->version ||
		    now->min_version != (min > before->min_version ? min : before->min_version))
			FAIL("retire of %s below %u: min_version %u", name, min, now->min_version);
		for (i = 0; i < now->n_old; i++)
			if (now->old[i].version < min)
				FAIL("retired version %u of %s still live", now->old[i].version, name);
		break;
	}
	default: {
		const Rind__SetAccess *m = q->set_access;
		const Rind__KeyInfo *ki = r->keys->keys[0];

		for (i = 0; i < m->n_allow_uids; i++)
			if (!id_listed(now->allow_uids, now->n_allow_uids, m->allow_uids[i]))
				FAIL("allowed uid %u not on the list", m->allow_uids[i]);
		for (i = 0; i < m->n_allow_gids; i++)
			if (!id_listed(now->allow_gids, now->n_allow_gids, m->allow_gids[i]))
				FAIL("allowed gid %u not on the list", m->allow_gids[i]);
		for (i = 0; i < m->n_deny_uids; i++)
			if (id_listed(now->allow_uids, now->n_allow_uids, m->deny_uids[i]))
				FAIL("denied uid %u still on the list", m->deny_uids[i]);
		for (i = 0; i < m->n_deny_gids; i++)
			if (id_listed(now->allow_gids, now->n_allow_gids, m->deny_gids[i]))
				FAIL("denied gid %u still on the list", m->deny_gids[i]);
		if (ki->n_allow_uids != now->n_allow_uids || ki->n_allow_gids != now->n_allow_gids ||
		    (now->n_allow_uids && memcmp(ki->allow_uids, now->allow_uids, now->n_allow_uids * 4)) ||
		    (now->n_allow_gids && memcmp(ki->allow_gids, now->allow_gids, now->n_allow_gids * 4)))
			FAIL("set_access answers lists other than the key's");
		if (!m->replace && !m->n_allow_uids && !m->n_allow_gids && !m->n_deny_uids &&
		    !m->n_deny_gids && now != before)
			FAIL("a set_access query rewrote key %s", name);
		break;
	}
	}
	if (!keystore_exists(name))
		FAIL("key %s has no file after %s", name, cur_op);
	key_put(now);
}

/* ---- one request ------------------------------------------------------------ */

static const u8 SEP[4] = { 0xfe, 0xfe, 0x52, 0x51 };

/* Handle the request in @buf; false when it does not unpack (the input ends). */
static bool one_request(const u8 *buf, size_t len)
{
	Rind__Request *req, *q;
	Rind__Response *r;
	struct key *k = NULL;
	unsigned int created = sig_created, deleted = sig_deleted;
	const char *name = NULL;
	int use = 0, op;
	bool existed = false, batched = false;

	req = rind__request__unpack(NULL, len, buf);
	if (!req)
		return false;
	q = rind__request__unpack(NULL, len, buf);	/* ours: dispatch frees req */
	if (!q)
		FAIL("unpack is not deterministic");
	op = q->op_case;
	cur_op = req_name(q);

	/* What the operation will find. */
	switch (op) {
	case RIND__REQUEST__OP_GET_PUBLIC_KEY:
		name = q->get_public_key->name;
		break;
	case RIND__REQUEST__OP_VERIFY:
		name = q->verify->name;
		break;
	case RIND__REQUEST__OP_OPEN:
		name = q->open->name;
		break;
	case RIND__REQUEST__OP_DERIVE:
		name = q->derive->name;
		break;
	case RIND__REQUEST__OP_SIGN:
		name = q->sign->name;
		break;
	case RIND__REQUEST__OP_SEAL:
		name = q->seal->name;
		break;
	case RIND__REQUEST__OP_DECRYPT:
		name = q->decrypt->name;
		break;
	case RIND__REQUEST__OP_DECAPSULATE:
		name = q->decapsulate->name;
		break;
	case RIND__REQUEST__OP_CREATE_KEY:
	case RIND__REQUEST__OP_IMPORT_KEY: {
		const char *n = op == RIND__REQUEST__OP_CREATE_KEY ? q->create_key->name :
								   q->import_key->name;
		struct key *e = key_name_valid(n) ? key_lookup(n) : NULL;

		existed = e || (key_name_valid(n) && keystore_exists(n));
		key_put(e);
		break;
	}
	case RIND__REQUEST__OP_DELETE_KEY:
		if (*q->delete_key->name)
			k = key_lookup(q->delete_key->name);
		break;
	case RIND__REQUEST__OP_ROTATE_KEY:
	case RIND__REQUEST__OP_RETIRE_VERSIONS:
	case RIND__REQUEST__OP_SET_ACCESS:
		if (key_name_valid(admin_name(q)))
			k = key_lookup(admin_name(q));
		break;
	default:
		break;
	}
	if (name) {
		use = predict_use(name, op == RIND__REQUEST__OP_GET_PUBLIC_KEY ? -1 : op, &k);
		batched = !use && (op == RIND__REQUEST__OP_SIGN || op == RIND__REQUEST__OP_SEAL);
	}
	if (batched) {
		struct pending *p = &pend[npend++];

		memset(p, 0, sizeof(*p));
		p->id = q->id;
		p->op = op;
		p->k = k;
		atomic_fetch_add(&k->refs, 1);
		if (op == RIND__REQUEST__OP_SIGN) {
			p->msg = copy_bytes(&q->sign->message);
			p->msglen = q->sign->message.len;
			p->opt = oracle_sigopt(k, q->sign->hash, q->sign->sig_format, q->sign->padding);
		} else {
			p->msg = copy_bytes(&q->seal->plaintext);
			p->msglen = q->seal->plaintext.len;
			p->ad = copy_bytes(&q->seal->associated_data);
			p->adlen = q->seal->associated_data.len;
		}
	}

	dispatch(&worker, conn, req);
	/* A key store request comes back through the loop's wake eventfd. */
	while (conn->store_jobs) {
		uint64_t v;
		ssize_t r = read(worker.wake_fd, &v, sizeof(v));

		if (r < 0 && errno == EINTR)
			continue;	/* libFuzzer's timeout alarm */
		if (r != sizeof(v))
			FAIL("wake eventfd: %zd (errno %d)", r, errno);
		store_complete(&worker);
	}
	if (atomic_load(&worker.store_out))
		FAIL("store jobs out with none on the connection");

	if (batched) {
		take_batched();
		goto out;
	}
	r = next_response();
	if (!r)
		FAIL("no response");
	if (r->id != q->id)
		FAIL("response id %llu for request %llu", (unsigned long long)r->id,
		     (unsigned long long)q->id);
	if (name && use) {
		want_status(r, use);
		goto done;
	}
	switch (op) {
	case RIND__REQUEST__OP_ROTATE_KEY:
	case RIND__REQUEST__OP_RETIRE_VERSIONS:
	case RIND__REQUEST__OP_SET_ACCESS:
		check_admin(q, r, k);
		break;
	case RIND__REQUEST__OP_HELLO:
		if (q->hello->protocol_version > RIND_PROTOCOL_VERSION) {
			want_status(r, RIND__STATUS__ERR_UNSUPPORTED);
		} else {
			want_status(r, RIND__STATUS__OK);
			if (r->result_case != RIND__RESPONSE__RESULT_VERSION || strcmp(r->version, RINDD_VERSION))
				FAIL("hello without the version");
		}
		break;
	case RIND__REQUEST__OP_STATS:
		want_status(r, RIND__STATUS__OK);
		{
			/* the peer's own keys (every key if it owned the service) */
			size_t own = 0, nk, j;
			struct key **all = key_list(&nk);

			for (j = 0; all && j < nk; j++)
				own += all[j]->owner_uid == PEER_UID;
			key_list_put(all, nk);
			if (peer_is_service_owner(PEER_UID))
				own = nk;
			if (r->result_case != RIND__RESPONSE__RESULT_STATS || r->stats->keys != own ||
			    r->stats->threads != 1 || r->stats->all_keys != peer_is_service_owner(PEER_UID))
				FAIL("stats");
		}
		break;
	case RIND__REQUEST__OP_CREATE_KEY:
	case RIND__REQUEST__OP_IMPORT_KEY:
		check_create(q, r, op == RIND__REQUEST__OP_IMPORT_KEY, existed, created);
		break;
	case RIND__REQUEST__OP_DELETE_KEY:
		if (!*q->delete_key->name || !key_name_valid(q->delete_key->name))
			want_status(r, RIND__STATUS__ERR_INVALID);
		else if (!k)
			want_status(r, RIND__STATUS__ERR_NOT_FOUND);
		else if (!acl_may_admin(k, &the_peer))
			want_status(r, RIND__STATUS__ERR_PERMISSION);
		else
			want_status(r, RIND__STATUS__OK);
		if ((r->status == RIND__STATUS__OK) != (sig_deleted == deleted + 1) ||
		    sig_deleted > deleted + 1)
			FAIL("Deleted signals do not match the result");
		if (r->status == RIND__STATUS__OK) {
			struct key *g = key_lookup(q->delete_key->name);

			if (g || keystore_exists(q->delete_key->name))
				FAIL("deleted key %s is still there", q->delete_key->name);
			if (!k->deleted)
				FAIL("deleted key not marked deleted");
		}
		break;
	case RIND__REQUEST__OP_LIST_KEYS:
		check_list(r);
		break;
	case RIND__REQUEST__OP_GET_PUBLIC_KEY:
		check_pubkey(q, r, k);
		break;
	case RIND__REQUEST__OP_VERIFY:
		check_verify(q, r, k);
		break;
	case RIND__REQUEST__OP_OPEN:
		check_open(q, r, k);
		break;
	case RIND__REQUEST__OP_DERIVE:
		check_derive(q, r, k);
		break;
	case RIND__REQUEST__OP_DECRYPT:
		check_decrypt(q, r, k);
		break;
	case RIND__REQUEST__OP_DECAPSULATE:
		check_decap(q, r, k);
		break;
	default:
		want_status(r, RIND__STATUS__ERR_UNSUPPORTED);
		break;
	}
done:
	rind__response__free_unpacked(r, NULL);
	if ((r = next_response()))
		FAIL("a second response (id %llu)", (unsigned long long)r->id);
	if (op != RIND__REQUEST__OP_CREATE_KEY && op != RIND__REQUEST__OP_IMPORT_KEY &&
	    sig_created != created)
		FAIL("Created signal from %s", cur_op);
	if (op != RIND__REQUEST__OP_DELETE_KEY && sig_deleted != deleted)
		FAIL("Deleted signal from %s", cur_op);
out:
	key_put(k);
	rind__request__free_unpacked(q, NULL);
	return true;
}

/* ---- back to the fixed state --------------------------------------------------- */

static void restore(void)
{
	size_t n, i, nfiles = 0;
	struct key **v = key_list(&n);
	unsigned int f;
	DIR *d;
	struct dirent *de;

	if (!v)
		FAIL("out of memory");
	for (i = 0; i < n; i++) {
		for (f = 0; f < NFIXED; f++)
			if (v[i] == fixed[f].installed)
				break;
		if (f == NFIXED && key_delete(v[i]->name, 0, 0, "fuzz"))
			FAIL("cannot delete %s", v[i]->name);
	}
	key_list_put(v, n);
	for (f = 0; f < NFIXED; f++) {
		struct key *k = key_lookup(fixed[f].name);

		if (k != fixed[f].installed) {
			if (k)
				FAIL("%s still in the table", fixed[f].name);
			if (atomic_load(&fixed[f].installed->refs) != 1)
				FAIL("deleted key %s: %d references left", fixed[f].name,
				     atomic_load(&fixed[f].installed->refs));
			key_put(fixed[f].installed);
			install(f);
		} else {
			/* the table's, ours, and this lookup's */
			if (atomic_load(&k->refs) != 3)
				FAIL("key %s: %d references after the input", k->name,
				     atomic_load(&k->refs));
			key_put(k);
		}
	}
	if (key_count() != NFIXED)
		FAIL("%zu keys after the input", key_count());
	/* The state directory holds exactly the table's keys. */
	d = opendir(state_dir);
	if (!d)
		FAIL("opendir");
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);
		char name[256];
		struct key *k;

		if (l <= 5 || strcmp(de->d_name + l - 5, ".rkey"))
			continue;
		if (de->d_name[0] == '.')
			FAIL("temporary file %s left", de->d_name);
		memcpy(name, de->d_name, l - 5);
		name[l - 5] = 0;
		k = key_lookup(name);
		if (!k)
			FAIL("key file %s without a key", de->d_name);
		key_put(k);
		nfiles++;
	}
	closedir(d);
	if (nfiles != NFIXED)
		FAIL("%zu key files", nfiles);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t start = 0, i;
	unsigned int pieces = 0;
	bool go = true;

	resp_off = 0;
	resp_seen = 0;
	for (i = 0; go && pieces < MAX_PIECES; i++) {
		if (i + 4 <= size && memcmp(data + i, SEP, 4))
			continue;
		if (i + 4 > size)
			i = size;
		{
			/* an exact-size heap copy, as the daemon's buffer would be */
			size_t len = i - start;
			u8 *p = malloc(len ? len : 1);

			if (!p)
				abort();
			memcpy(p, data + start, len);
			cur_index = pieces++;
			go = one_request(p, len);
			free(p);
		}
		if (i == size)
			break;
		start = i + 4;
		i += 3;
	}
	/* The end of the loop turn: the batches run. */
	cur_op = "batch_run";
	batch_run(&worker);
	take_batched();
	pending_free();
	if (resp_off != conn->pending.len || resp_seen != conn->pending_count)
		FAIL("%u responses counted, %u queued", resp_seen, conn->pending_count);
	cur_op = "restore";
	restore();
	rind_memzero_explicit(conn->pending.data, conn->pending.len);
	conn->pending.len = 0;
	conn->pending_count = 0;
	return 0;
}
