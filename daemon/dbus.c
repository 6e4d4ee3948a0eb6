// SPDX-License-Identifier: MIT
/*
 * The D-Bus management API (sd-bus): bus name org.rind.KeyService1, object
 * /org/rind/KeyService1, interface org.rind.KeyService1.  Methods create,
 * import, delete, list, rotate and retire keys, export public keys and set
 * a key's allow lists; properties Version, KeyCount, Requests; signals
 * KeyCreated, KeyDeleted, KeyRotated (also for keys created or deleted
 * over the data-plane socket).  See systemd/README.md.
 *
 * Authorization uses the caller's credentials as the bus reports them
 * (sd_bus_query_sender_creds): anyone the bus policy lets call may create
 * or import keys (owned by the caller's uid) and list the keys they may
 * use; only root or the key's owner may delete, rotate, retire or change
 * a key.  Every action, allowed or not, is an audit record (log.c).
 *
 * One thread runs the bus: poll() on the bus fd and an eventfd through
 * which other threads queue signals (sd-bus objects are not shared
 * between threads).
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <systemd/sd-bus.h>

#include <rind/crypto.h>

#include "rindd.h"

#define BUS_NAME	"org.rind.KeyService1"
#define BUS_PATH	"/org/rind/KeyService1"
#define BUS_IFACE	"org.rind.KeyService1"
#define ERR_PREFIX	"org.rind.KeyService1.Error."

static sd_bus *bus;
static sd_bus_slot *vt_slot;
static pthread_t bus_thread;
static atomic_bool running;
static atomic_bool bus_stop;
static atomic_ullong bus_beat;
static int sig_fd = -1;

/* ---- signals queued from any thread ---- */
enum { SIG_CREATED, SIG_DELETED, SIG_ROTATED, SIG_SEAL_LIMIT };

struct pending_sig {
	int type;
	char name[RINDD_NAME_MAX + 1];
	char alg[32];
	uint32_t num;
	uint64_t num64;
	struct pending_sig *next;
};

static pthread_mutex_t sig_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pending_sig *sig_head, **sig_tail = &sig_head;

static void queue_sig(int type, const char *name, const char *alg, uint32_t num, uint64_t num64)
{
	struct pending_sig *p;
	uint64_t one = 1;

	if (!running)
		return;
	p = calloc(1, sizeof(*p));
	if (!p)
		return;
	p->type = type;
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(p->alg, sizeof(p->alg), "%s", alg ? alg : "");
	p->num = num;
	p->num64 = num64;
	pthread_mutex_lock(&sig_lock);
	*sig_tail = p;
	sig_tail = &p->next;
	pthread_mutex_unlock(&sig_lock);
	if (write(sig_fd, &one, sizeof(one)) < 0)
		log_warn("event=dbus_signal_wake_failed errno=%d", errno);
}

void dbus_signal_created(const char *name, const char *alg, uint32_t owner)
{
	queue_sig(SIG_CREATED, name, alg, owner, 0);
}

void dbus_signal_deleted(const char *name)
{
	queue_sig(SIG_DELETED, name, NULL, 0, 0);
}

void dbus_signal_rotated(const char *name, uint32_t version)
{
	queue_sig(SIG_ROTATED, name, NULL, version, 0);
}

/* A seal counter nears its limit (manifest.c): rotate the key. */
void dbus_signal_seal_limit(const char *name, uint32_t version, uint64_t remaining)
{
	queue_sig(SIG_SEAL_LIMIT, name, NULL, version, remaining);
}

static void emit_pending(bool send)
{
	struct pending_sig *p, *next;
	int r = 0;

	pthread_mutex_lock(&sig_lock);
	p = sig_head;
	sig_head = NULL;
	sig_tail = &sig_head;
	pthread_mutex_unlock(&sig_lock);
	for (; p; p = next) {
		next = p->next;
		switch (send ? p->type : -1) {
		case SIG_CREATED:
			r = sd_bus_emit_signal(bus, BUS_PATH, BUS_IFACE, "KeyCreated", "ssu",
					       p->name, p->alg, p->num);
			break;
		case SIG_DELETED:
			r = sd_bus_emit_signal(bus, BUS_PATH, BUS_IFACE, "KeyDeleted", "s", p->name);
			break;
		case SIG_ROTATED:
			r = sd_bus_emit_signal(bus, BUS_PATH, BUS_IFACE, "KeyRotated", "su",
					       p->name, p->num);
			break;
		case SIG_SEAL_LIMIT:
			r = sd_bus_emit_signal(bus, BUS_PATH, BUS_IFACE, "SealLimitNear", "sut",
					       p->name, p->num, p->num64);
			break;
		}
		if (r < 0)
			log_warn("event=dbus_signal_failed errno=%d", -r);
		free(p);
	}
}

/* ---- callers ---- */
struct caller {
	uid_t uid;
	gid_t gid;		/* (gid_t)-1: the bus did not say */
	pid_t pid;
	gid_t *groups;		/* the bus's UnixGroupIDs */
	size_t ngroups;
};

static void caller_release(struct caller *c)
{
	free(c->groups);
	c->groups = NULL;
	c->ngroups = 0;
}

static void caller_peer(const struct caller *c, struct peer *p)
{
	p->uid = c->uid;
	p->gid = c->gid;
	p->pid = c->pid;
	p->groups = c->groups;
	p->ngroups = c->ngroups;
}

/*
 * The caller's uid, pid and groups from the bus's GetConnectionCredentials
 * (UnixUserID, ProcessID, UnixGroupIDs): 1 when it answered, 0 when it
 * does not know the method, -errno.
 */
static int bus_credentials(sd_bus_message *m, struct caller *c)
{
	sd_bus_message *reply = NULL;
	sd_bus_error err = SD_BUS_ERROR_NULL;
	bool have_uid = false;
	int r;

	if (!sd_bus_message_get_sender(m))
		return 0;	/* a direct connection: no bus to ask */
	r = sd_bus_call_method(sd_bus_message_get_bus(m), "org.freedesktop.DBus",
			       "/org/freedesktop/DBus", "org.freedesktop.DBus",
			       "GetConnectionCredentials", &err, &reply, "s",
			       sd_bus_message_get_sender(m));
	if (r < 0) {
		r = sd_bus_error_has_name(&err, SD_BUS_ERROR_UNKNOWN_METHOD) ? 0 : r;
		sd_bus_error_free(&err);
		return r;
	}
	r = sd_bus_message_enter_container(reply, 'a', "{sv}");
	while (r >= 0 && (r = sd_bus_message_enter_container(reply, 'e', "sv")) > 0) {
		const char *key;

		r = sd_bus_message_read(reply, "s", &key);
		if (r < 0)
			break;
		if (!strcmp(key, "UnixUserID")) {
			uint32_t v;

			r = sd_bus_message_read(reply, "v", "u", &v);
			c->uid = v;
			have_uid = r >= 0;
		} else if (!strcmp(key, "ProcessID")) {
			uint32_t v;

			r = sd_bus_message_read(reply, "v", "u", &v);
			c->pid = (pid_t)v;
		} else if (!strcmp(key, "UnixGroupIDs")) {
			const void *g;
			size_t n;

			r = sd_bus_message_enter_container(reply, 'v', "au");
			if (r >= 0)
				r = sd_bus_message_read_array(reply, 'u', &g, &n);
			if (r >= 0 && n) {
				free(c->groups);
				c->groups = malloc(n);
				if (!c->groups)
					r = -ENOMEM;
				else
					memcpy(c->groups, g, n);
				c->ngroups = c->groups ? n / sizeof(uint32_t) : 0;
			}
			if (r >= 0)
				r = sd_bus_message_exit_container(reply);
		} else {
			r = sd_bus_message_skip(reply, "v");
		}
		if (r >= 0)
			r = sd_bus_message_exit_container(reply);
	}
	sd_bus_message_unref(reply);
	if (r < 0)
		return r;
	return have_uid ? 1 : -ENODATA;
}

static int get_caller(sd_bus_message *m, struct caller *c, sd_bus_error *e)
{
	sd_bus_creds *creds = NULL;
	int r;

	memset(c, 0, sizeof(*c));
	c->gid = (gid_t)-1;	/* the bus reports groups, not a primary gid */
	r = bus_credentials(m, c);
	if (r > 0)
		return 0;
	caller_release(c);
	if (r < 0)
		return sd_bus_error_setf(e, ERR_PREFIX "Failed",
					 "cannot determine the caller's credentials (errno %d)", -r);
	/* a bus without GetConnectionCredentials: uid and pid, no groups */
	r = sd_bus_query_sender_creds(m, SD_BUS_CREDS_UID | SD_BUS_CREDS_EUID | SD_BUS_CREDS_GID |
				      SD_BUS_CREDS_EGID | SD_BUS_CREDS_PID, &creds);
	if (r < 0)
		return sd_bus_error_setf(e, ERR_PREFIX "Failed",
					 "cannot determine the caller's credentials (errno %d)", -r);
	if (sd_bus_creds_get_euid(creds, &c->uid) < 0 && sd_bus_creds_get_uid(creds, &c->uid) < 0) {
		sd_bus_creds_unref(creds);
		return sd_bus_error_setf(e, ERR_PREFIX "Failed", "the bus did not report the caller's uid");
	}
	if (sd_bus_creds_get_egid(creds, &c->gid) < 0 && sd_bus_creds_get_gid(creds, &c->gid) < 0)
		c->gid = (gid_t)-1;
	if (sd_bus_creds_get_pid(creds, &c->pid) < 0)
		c->pid = 0;
	sd_bus_creds_unref(creds);
	return 0;
}

/* A D-Bus error for -errno @err of an action on key @name. */
static int bus_err(sd_bus_error *e, int err, const char *name, const char *what)
{
	switch (err) {
	case -ENOENT:
		return sd_bus_error_setf(e, ERR_PREFIX "NotFound", "no key named %.64s", name);
	case -EPERM:
	case -EACCES:
		return sd_bus_error_setf(e, ERR_PREFIX "PermissionDenied",
					 "only root or the key's owner may %s key %.64s", what, name);
	case -EEXIST:
		return sd_bus_error_setf(e, ERR_PREFIX "Exists", "key %.64s exists", name);
	case -EINVAL:
		return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument", "%s %.64s: invalid argument",
					 what, name);
	case -E2BIG:
		return sd_bus_error_setf(e, ERR_PREFIX "LimitExceeded",
					 "%s %.64s: too many versions or ids (retire old versions first)",
					 what, name);
	default:
		return sd_bus_error_setf(e, ERR_PREFIX "Failed", "%s %.64s failed (errno %d)", what,
					 name, -err);
	}
}

/*
 * A name argument that no key can have (D-Bus strings hold no NUL, but
 * may be anything else): InvalidArgument, as the socket's ERR_INVALID.
 */
static int check_name(const char *name, sd_bus_error *e)
{
	if (key_name_valid(name))
		return 0;
	return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument",
				 "name: 1 to 64 characters of [A-Za-z0-9._-], not starting with '.'");
}

/* The key-name argument, next in @m, refused if no key can have it. */
static int read_name(sd_bus_message *m, const char **name, sd_bus_error *e)
{
	int r;

	r = sd_bus_message_read(m, "s", name);
	if (r < 0)
		return r;
	return check_name(*name, e);
}

/*
 * The caller's uid and pid alone: the groups matter only to the allow
 * lists (acl_may_see, acl_may_use), not to creating a key, to counting
 * one's keys, or to the owner-or-root checks of key administration.
 */
static int caller_ids(sd_bus_message *m, struct caller *c, sd_bus_error *e)
{
	int r;

	r = get_caller(m, c, e);
	if (r < 0)
		return r;
	caller_release(c);
	return 0;
}

/* The key-name argument and the caller, for an owner-or-root action on it. */
static int named_caller(sd_bus_message *m, const char **name, struct caller *c,
			sd_bus_error *e)
{
	int r;

	r = read_name(m, name, e);
	if (r < 0)
		return r;
	return caller_ids(m, c, e);
}

/* Parse the a{sv} options: only "exportable" (b) is known. */
static int read_options(sd_bus_message *m, bool *exportable, sd_bus_error *e)
{
	int r;

	r = sd_bus_message_enter_container(m, 'a', "{sv}");
	if (r < 0)
		return r;
	while ((r = sd_bus_message_enter_container(m, 'e', "sv")) > 0) {
		const char *key;

		r = sd_bus_message_read(m, "s", &key);
		if (r < 0)
			return r;
		if (!strcmp(key, "exportable")) {
			int b;

			r = sd_bus_message_read(m, "v", "b", &b);
			if (r < 0)
				return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument",
							 "option exportable: must be a boolean");
			*exportable = b;
		} else {
			return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument",
						 "unknown option \"%.64s\" (known: exportable)", key);
		}
		r = sd_bus_message_exit_container(m);
		if (r < 0)
			return r;
	}
	if (r < 0)
		return r;
	return sd_bus_message_exit_container(m);
}

static int create_common(sd_bus_message *m, sd_bus_error *e, bool import)
{
	const char *name, *alg;
	const void *key = NULL;
	size_t keylen = 0;
	bool exportable = false;
	struct caller c;
	struct key *k;
	char msg[256];
	int r;

	r = sd_bus_message_read(m, "ss", &name, &alg);
	if (r < 0)
		return r;
	if (import) {
		r = sd_bus_message_read_array(m, 'y', &key, &keylen);
		if (r < 0)
			return r;
	}
	r = read_options(m, &exportable, e);
	if (r < 0)
		return r;
	r = caller_ids(m, &c, e);
	if (r < 0)
		return r;
	r = key_create(name, alg, import ? (key ? key : (const void *)"") : NULL, keylen,
		       import && keylen != 32, exportable, c.uid, c.pid, "dbus", msg, sizeof(msg), &k);
	if (r == -EEXIST)
		return sd_bus_error_setf(e, ERR_PREFIX "Exists", "%s", msg);
	if (r == -EDQUOT)
		return sd_bus_error_setf(e, ERR_PREFIX "QuotaExceeded", "%s", msg);
	if (r == -EOPNOTSUPP)
		return sd_bus_error_setf(e, ERR_PREFIX "Unsupported", "%s", msg);
	if (r == -EINVAL)
		return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument", "%s", msg);
	if (r)
		return sd_bus_error_setf(e, ERR_PREFIX "Failed", "%s", msg);
	r = sd_bus_reply_method_return(m, "u", k->version);
	key_put(k);
	return r;
}

static int m_create(sd_bus_message *m, void *u, sd_bus_error *e)
{
	(void)u;
	return create_common(m, e, false);
}

static int m_import(sd_bus_message *m, void *u, sd_bus_error *e)
{
	(void)u;
	return create_common(m, e, true);
}

static int m_delete(sd_bus_message *m, void *u, sd_bus_error *e)
{
	const char *name;
	struct caller c;
	int r;

	(void)u;
	r = named_caller(m, &name, &c, e);
	if (r < 0)
		return r;
	r = key_delete(name, c.uid, c.pid, "dbus");
	if (r)
		return bus_err(e, r, name, "delete");
	return sd_bus_reply_method_return(m, NULL);
}

static int m_rotate(sd_bus_message *m, void *u, sd_bus_error *e)
{
	const char *name;
	struct caller c;
	uint32_t ver = 0;
	int r;

	(void)u;
	r = named_caller(m, &name, &c, e);
	if (r < 0)
		return r;
	r = key_rotate(name, c.uid, c.pid, "dbus", &ver);
	if (r)
		return bus_err(e, r, name, "rotate");
	return sd_bus_reply_method_return(m, "u", ver);
}

static int m_retire(sd_bus_message *m, void *u, sd_bus_error *e)
{
	const char *name;
	struct caller c;
	uint32_t min;
	int r;

	(void)u;
	r = named_caller(m, &name, &c, e);
	if (r < 0)
		return r;
	r = sd_bus_message_read(m, "u", &min);
	if (r < 0)
		return r;
	r = key_set_min_version(name, min, c.uid, c.pid, "dbus");
	if (r == -EINVAL)
		return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument",
					 "min_version %u is above key %.64s's current version", min, name);
	if (r)
		return bus_err(e, r, name, "retire versions of");
	return sd_bus_reply_method_return(m, NULL);
}

static int m_set_access(sd_bus_message *m, void *u, sd_bus_error *e)
{
	const char *name;
	const void *uids, *gids;
	size_t nu, ng;
	struct caller c;
	int r;

	(void)u;
	r = read_name(m, &name, e);
	if (r < 0)
		return r;
	r = sd_bus_message_read_array(m, 'u', &uids, &nu);
	if (r < 0)
		return r;
	r = sd_bus_message_read_array(m, 'u', &gids, &ng);
	if (r < 0)
		return r;
	r = caller_ids(m, &c, e);
	if (r < 0)
		return r;
	r = key_set_access(name, uids, nu / sizeof(uint32_t), gids, ng / sizeof(uint32_t), c.uid,
			   c.pid, "dbus");
	if (r)
		return bus_err(e, r, name, "change access to");
	return sd_bus_reply_method_return(m, NULL);
}

static int m_list(sd_bus_message *m, void *u, sd_bus_error *e)
{
	sd_bus_message *reply = NULL;
	struct caller c;
	struct peer p;
	struct key **v;
	size_t n, i;
	int r;

	(void)u;
	r = get_caller(m, &c, e);
	if (r < 0)
		return r;
	caller_peer(&c, &p);
	v = key_list(&n);
	if (!v) {
		caller_release(&c);
		return -ENOMEM;
	}
	r = sd_bus_message_new_method_return(m, &reply);
	if (r >= 0)
		r = sd_bus_message_open_container(reply, 'a', "(ssuut)");
	for (i = 0; r >= 0 && i < n; i++)
		if (acl_may_see(v[i], &p))
			r = sd_bus_message_append(reply, "(ssuut)", v[i]->name,
						  key_alg_name(v[i]->alg), v[i]->version,
						  v[i]->owner_uid, v[i]->created);
	key_list_put(v, n);
	caller_release(&c);
	if (r >= 0)
		r = sd_bus_message_close_container(reply);
	if (r >= 0)
		r = sd_bus_send(NULL, reply, NULL);
	sd_bus_message_unref(reply);
	return r;
}

static int m_pubkey(sd_bus_message *m, void *u, sd_bus_error *e)
{
	static const struct { const char *name; enum rind_key_format f; } fmts[] = {
		{ "raw", RIND_KEY_RAW }, { "der", RIND_KEY_SPKI_DER }, { "spki", RIND_KEY_SPKI_DER },
		{ "pem", RIND_KEY_PEM }, { "jwk", RIND_KEY_JWK },
	};
	const char *name, *fmt_s;
	enum rind_key_format fmt = RIND_KEY_RAW;
	struct caller c;
	struct peer p;
	struct key *k;
	u8 out[8192];
	unsigned int i;
	int r, n = -EINVAL;

	(void)u;
	r = read_name(m, &name, e);
	if (r < 0)
		return r;
	r = sd_bus_message_read(m, "s", &fmt_s);
	if (r < 0)
		return r;
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++)
		if (!strcmp(fmt_s, fmts[i].name))
			break;
	if (i == sizeof(fmts) / sizeof(fmts[0]))
		return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument",
					 "format \"%.32s\": use raw, der (SPKI), pem or jwk", fmt_s);
	fmt = fmts[i].f;
	r = get_caller(m, &c, e);
	if (r < 0)
		return r;
	caller_peer(&c, &p);
	k = key_lookup(name);
	if (!k) {
		caller_release(&c);
		return bus_err(e, -ENOENT, name, "read");
	}
	if (!acl_may_use(k, &p)) {
		caller_release(&c);
		audit("get_public_key", k->name, c.uid, c.pid, "dbus", "denied", "owner=%u",
		      (unsigned int)k->owner_uid);
		key_put(k);
		return sd_bus_error_setf(e, ERR_PREFIX "PermissionDenied",
					 "uid %u may not use key %.64s", (unsigned int)c.uid, name);
	}
	caller_release(&c);
	/* a transform of our own: per-thread slots belong to the workers */
	{
		char msg[256];

		n = key_export(k, fmt, false, -1, out, sizeof(out), msg, sizeof(msg));
		if (n == -EINVAL) {
			key_put(k);
			return sd_bus_error_setf(e, ERR_PREFIX "InvalidArgument", "%s", msg);
		}
	}
	key_put(k);
	if (n < 0)
		return sd_bus_error_setf(e, ERR_PREFIX "Failed", "export failed (errno %d)", -n);
	{
		sd_bus_message *reply = NULL;

		r = sd_bus_message_new_method_return(m, &reply);
		if (r >= 0)
			r = sd_bus_message_append_array(reply, 'y', out, (size_t)n);
		if (r >= 0)
			r = sd_bus_send(NULL, reply, NULL);
		sd_bus_message_unref(reply);
		return r;
	}
}

static int p_version(sd_bus *b, const char *path, const char *iface, const char *prop,
		     sd_bus_message *reply, void *u, sd_bus_error *e)
{
	(void)b; (void)path; (void)iface; (void)prop; (void)u; (void)e;
	return sd_bus_message_append(reply, "s", RINDD_VERSION);
}

/* The caller's own keys; every key for root and rindd's uid (key_count_for). */
static int p_keycount(sd_bus *b, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *u, sd_bus_error *e)
{
	sd_bus_message *m = sd_bus_get_current_message(b);
	struct caller c;
	bool all;
	int r;

	(void)path; (void)iface; (void)prop; (void)u;
	if (!m)
		return sd_bus_error_setf(e, ERR_PREFIX "Failed", "no calling message");
	r = caller_ids(m, &c, e);
	if (r < 0)
		return r;
	return sd_bus_message_append(reply, "u", (uint32_t)key_count_for(c.uid, &all));
}

static int p_requests(sd_bus *b, const char *path, const char *iface, const char *prop,
		      sd_bus_message *reply, void *u, sd_bus_error *e)
{
	(void)b; (void)path; (void)iface; (void)prop; (void)u; (void)e;
	return sd_bus_message_append(reply, "t", (uint64_t)atomic_load(&stats.requests));
}

static const sd_bus_vtable vtable[] = {
	SD_BUS_VTABLE_START(0),
	SD_BUS_METHOD_WITH_NAMES("CreateKey", "ssa{sv}",
				 SD_BUS_PARAM(name) SD_BUS_PARAM(algorithm) SD_BUS_PARAM(options),
				 "u", SD_BUS_PARAM(version), m_create, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("ImportKey", "ssaya{sv}",
				 SD_BUS_PARAM(name) SD_BUS_PARAM(algorithm) SD_BUS_PARAM(key)
				 SD_BUS_PARAM(options),
				 "u", SD_BUS_PARAM(version), m_import, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("DeleteKey", "s", SD_BUS_PARAM(name), "", , m_delete,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("ListKeys", "", , "a(ssuut)", SD_BUS_PARAM(keys), m_list,
				 SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("GetPublicKey", "ss", SD_BUS_PARAM(name) SD_BUS_PARAM(format),
				 "ay", SD_BUS_PARAM(key), m_pubkey, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("RotateKey", "s", SD_BUS_PARAM(name), "u", SD_BUS_PARAM(version),
				 m_rotate, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("RetireVersions", "su", SD_BUS_PARAM(name) SD_BUS_PARAM(min_version),
				 "", , m_retire, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_METHOD_WITH_NAMES("SetAccess", "sauau",
				 SD_BUS_PARAM(name) SD_BUS_PARAM(uids) SD_BUS_PARAM(gids), "", ,
				 m_set_access, SD_BUS_VTABLE_UNPRIVILEGED),
	SD_BUS_PROPERTY("Version", "s", p_version, 0, SD_BUS_VTABLE_PROPERTY_CONST),
	SD_BUS_PROPERTY("KeyCount", "u", p_keycount, 0, 0),
	SD_BUS_PROPERTY("Requests", "t", p_requests, 0, 0),
	SD_BUS_SIGNAL_WITH_NAMES("KeyCreated", "ssu",
				 SD_BUS_PARAM(name) SD_BUS_PARAM(algorithm) SD_BUS_PARAM(owner), 0),
	SD_BUS_SIGNAL_WITH_NAMES("KeyDeleted", "s", SD_BUS_PARAM(name), 0),
	SD_BUS_SIGNAL_WITH_NAMES("KeyRotated", "su", SD_BUS_PARAM(name) SD_BUS_PARAM(version), 0),
	SD_BUS_SIGNAL_WITH_NAMES("SealLimitNear", "sut",
				 SD_BUS_PARAM(name) SD_BUS_PARAM(version) SD_BUS_PARAM(remaining), 0),
	SD_BUS_VTABLE_END
};

static uint64_t mono_usec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

static void *bus_main(void *arg)
{
	(void)arg;
	log_thread = 1000;	/* "thread=1000" in the log: the bus thread */
	while (!atomic_load(&bus_stop)) {
		struct pollfd pfd[2];
		uint64_t usec, val;
		int r, timeout = 250;

		atomic_store(&bus_beat, mono_usec());
		emit_pending(true);
		do {
			r = sd_bus_process(bus, NULL);
		} while (r > 0);
		if (r < 0) {
			log_err("event=dbus_lost errno=%d msg=\"the bus connection failed; management API gone\"",
				-r);
			break;
		}
		pfd[0].fd = sd_bus_get_fd(bus);
		pfd[0].events = (short)sd_bus_get_events(bus);
		pfd[1].fd = sig_fd;
		pfd[1].events = POLLIN;
		if (sd_bus_get_timeout(bus, &usec) >= 0 && usec != UINT64_MAX) {
			uint64_t now = mono_usec();

			if (usec <= now)
				timeout = 0;
			else if ((usec - now) / 1000 < 250)
				timeout = (int)((usec - now + 999) / 1000);
		}
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR)
			break;
		if (pfd[1].revents & POLLIN && read(sig_fd, &val, sizeof(val)) < 0)
			log_warn("event=dbus_signal_read_failed errno=%d", errno);
	}
	emit_pending(true);
	sd_bus_flush(bus);
	return NULL;
}

int dbus_start(void)
{
	int r;

	if (!strcmp(cfg.bus, "none"))
		return 0;
	if (cfg.bus_address) {
		r = sd_bus_new(&bus);
		if (r >= 0)
			r = sd_bus_set_address(bus, cfg.bus_address);
		if (r >= 0)
			r = sd_bus_set_bus_client(bus, 1);
		if (r >= 0)
			r = sd_bus_start(bus);
	} else if (!strcmp(cfg.bus, "user")) {
		r = sd_bus_open_user(&bus);
	} else {
		r = sd_bus_open_system(&bus);
	}
	if (r < 0) {
		log_err("event=dbus_connect_failed bus=%s address=%s errno=%d msg=\"%s\"", cfg.bus,
			cfg.bus_address ? cfg.bus_address : "-", -r, strerror(-r));
		goto fail;
	}
	r = sd_bus_add_object_vtable(bus, &vt_slot, BUS_PATH, BUS_IFACE, vtable, NULL);
	if (r < 0) {
		log_err("event=dbus_vtable_failed errno=%d", -r);
		goto fail;
	}
	r = sd_bus_request_name(bus, BUS_NAME, 0);
	if (r < 0) {
		log_err("event=dbus_name_failed name=%s errno=%d msg=\"%s (is the D-Bus policy %s.conf installed, or does another rindd run?)\"",
			BUS_NAME, -r, strerror(-r), BUS_NAME);
		goto fail;
	}
	sig_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (sig_fd < 0)
		goto fail;
	atomic_store(&bus_beat, mono_usec());
	running = true;
	if (pthread_create(&bus_thread, NULL, bus_main, NULL)) {
		running = false;
		goto fail;
	}
	log_info("event=dbus_ready bus=%s name=%s path=%s", cfg.bus_address ? "address" : cfg.bus,
		 BUS_NAME, BUS_PATH);
	return 0;
fail:
	if (sig_fd >= 0)
		close(sig_fd);
	sig_fd = -1;
	vt_slot = sd_bus_slot_unref(vt_slot);
	bus = sd_bus_flush_close_unref(bus);
	if (cfg.bus_auto) {
		/* only the systemd default, not asked for: serve the socket anyway */
		log_warn("event=dbus_unavailable msg=\"continuing without the D-Bus management API\"");
		return 0;
	}
	return -1;
}

void dbus_stop(void)
{
	uint64_t one = 1;

	if (!running)
		return;
	atomic_store(&bus_stop, true);
	if (write(sig_fd, &one, sizeof(one)) < 0)
		log_warn("event=dbus_wake_failed errno=%d", errno);
	pthread_join(bus_thread, NULL);
	running = false;
	sd_bus_release_name(bus, BUS_NAME);
	vt_slot = sd_bus_slot_unref(vt_slot);
	bus = sd_bus_flush_close_unref(bus);
	close(sig_fd);
	sig_fd = -1;
	emit_pending(false);	/* frees what was queued meanwhile */
}

/* The bus thread went round its loop recently (it wakes at least every 250 ms). */
bool dbus_alive(void)
{
	if (!running)
		return true;
	return mono_usec() - atomic_load(&bus_beat) < 5000000;
}
