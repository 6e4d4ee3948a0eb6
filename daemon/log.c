// SPDX-License-Identifier: MIT
/*
 * Structured logging: one event per line,
 *   ts=2025-01-01T00:00:00.123Z level=info thread=0 event=... key=value ...
 * on stderr; or, when stderr is the journal (systemd sets $JOURNAL_STREAM
 * to its device:inode) or --log journal, to the journal through
 * sd_journal_send() with MESSAGE= the line (without ts) and each key=value
 * pair also as a field RIND_<KEY>=value, so that
 *   journalctl -u rindd RIND_EVENT=audit RIND_KEY=web
 * selects records.  Audit records (management actions, denied requests)
 * are event=audit lines with action, key, uid, pid, via and result.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <syslog.h>
#include <time.h>
#include <systemd/sd-journal.h>

#include "rindd.h"

__thread int log_thread = -1;
static bool use_journal;
static bool use_syslog;		/* --log syslog, a detached rindd's default */

void log_init(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (cfg.log_target && !strcmp(cfg.log_target, "syslog")) {
		use_syslog = true;
		openlog("rindd", LOG_PID | LOG_NDELAY, LOG_DAEMON);
		return;
	}
	if (cfg.log_target) {
		use_journal = !strcmp(cfg.log_target, "journal");
		return;
	}
	/* stderr is the journal's stream: log natively (fields, priorities) */
	if (js && sscanf(js, "%llu:%llu", &dev, &ino) == 2 && fstat(2, &st) == 0 &&
	    (unsigned long long)st.st_dev == dev && (unsigned long long)st.st_ino == ino)
		use_journal = true;
}

static int priority(const char *level)
{
	if (!strcmp(level, "error"))
		return LOG_ERR;
	if (!strcmp(level, "warn"))
		return LOG_WARNING;
	return LOG_INFO;
}

#define MAX_FIELDS 24

/* Send @msg with its key=value pairs as RIND_ fields. */
static void journal_send(const char *level, const char *msg)
{
	struct iovec iov[MAX_FIELDS + 3];
	char fields[MAX_FIELDS][256], mline[1100], pline[16];
	const char *p = msg;
	int n = 0, i;

	snprintf(mline, sizeof(mline), "MESSAGE=%s", msg);
	snprintf(pline, sizeof(pline), "PRIORITY=%d", priority(level));
	iov[n].iov_base = mline;
	iov[n++].iov_len = strlen(mline);
	iov[n].iov_base = pline;
	iov[n++].iov_len = strlen(pline);
	iov[n].iov_base = (void *)"SYSLOG_IDENTIFIER=rindd";
	iov[n++].iov_len = strlen("SYSLOG_IDENTIFIER=rindd");
	for (i = 0; i < MAX_FIELDS && *p; i++) {
		char *f = fields[i], *end = f + sizeof(fields[i]) - 1;
		const char *eq;

		while (*p == ' ')
			p++;
		eq = strchr(p, '=');
		if (!eq || eq == p || strchr(p, ' ') < eq)
			break;
		f += snprintf(f, (size_t)(end - f), "RIND_");
		for (; p < eq && f < end; p++)
			*f++ = (char)(isalnum((unsigned char)*p) ? toupper((unsigned char)*p) : '_');
		p++;	/* '=' */
		if (f < end)
			*f++ = '=';
		if (*p == '"') {
			/* log_quote()'s form: \" and \\ stand for themselves */
			for (p++; *p && *p != '"'; p++) {
				if (*p == '\\' && p[1])
					p++;
				if (f < end)
					*f++ = *p;
			}
			if (*p == '"')
				p++;
		} else {
			for (; *p && *p != ' '; p++)
				if (f < end)
					*f++ = *p;
		}
		*f = 0;
		iov[n].iov_base = fields[i];
		iov[n++].iov_len = strlen(fields[i]);
	}
	sd_journal_sendv(iov, n);
}

/*
 * One event, one line: a control character from a request field (an
 * unknown algorithm name is quoted back) would otherwise start a forged
 * record on stderr.
 */
static void one_line(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

static void vlog(const char *level, const char *fmt, va_list ap)
{
	char line[1024];
	struct timespec ts;
	struct tm tm;
	int n;

	if (use_syslog) {
		n = snprintf(line, sizeof(line), "level=%s thread=%d ", level, log_thread);
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
		one_line(line);
		syslog(priority(level), "%s", line);
		return;
	}
	if (use_journal) {
		n = snprintf(line, sizeof(line), "level=%s thread=%d ", level, log_thread);
		vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
		one_line(line);
		journal_send(level, line);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = snprintf(line, sizeof(line),
		     "ts=%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ level=%s thread=%d ",
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		     tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, level, log_thread);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	one_line(line);
	/* one fputs per line keeps lines whole across threads */
	flockfile(stderr);
	fputs(line, stderr);
	fputc('\n', stderr);
	funlockfile(stderr);
}

void rlog(const char *level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vlog(level, fmt, ap);
	va_end(ap);
}

const char *log_quote(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	if (size < 3)
		return size ? (*buf = 0, buf) : "";
	buf[n++] = '"';
	for (; *s && n + 5 < size; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\') {
			buf[n++] = '\\';
			buf[n++] = (char)ch;
		} else if (ch < 0x20 || ch == 0x7f) {
			n += (size_t)snprintf(buf + n, size - n, "\\x%02x", ch);
		} else {
			buf[n++] = (char)ch;
		}
	}
	buf[n++] = '"';
	buf[n] = 0;
	return buf;
}

/* The fields audit() itself writes (and the line's prefix): never from @fmt. */
static bool reserved_field(const char *k, size_t n)
{
	static const char *const names[] = {
		"ts", "level", "thread", "event", "action", "key", "uid", "pid", "via", "result",
		"detail",
	};
	unsigned int i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n && !memcmp(names[i], k, n))
			return true;
	return false;
}

/*
 * Whether @s is a clean run of "name=value" fields, separated by single
 * spaces: each name [a-z0-9_]+, not reserved, not repeated; each value
 * bare (no space, quote, backslash or '=') or log_quote()d.  Only then do
 * audit()'s extra fields go into the line as they are.
 */
static bool clean_fields(const char *s)
{
	const char *names[32];
	size_t lens[32], nn = 0, i;

	while (*s) {
		const char *k = s;
		size_t kl;

		while ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_')
			s++;
		kl = (size_t)(s - k);
		if (!kl || *s != '=' || reserved_field(k, kl) || nn == 32)
			return false;
		for (i = 0; i < nn; i++)
			if (lens[i] == kl && !memcmp(names[i], k, kl))
				return false;
		names[nn] = k;
		lens[nn++] = kl;
		s++;
		if (*s == '"') {
			for (s++; *s && *s != '"'; s++)
				if (*s == '\\' && !*++s)
					return false;
			if (*s++ != '"')
				return false;
		} else {
			for (; *s && *s != ' '; s++)
				if (*s == '"' || *s == '\\' || *s == '=' || (unsigned char)*s < 0x20)
					return false;
		}
		if (*s == ' ' && s[1])
			s++;
		else if (*s)
			return false;
	}
	return true;
}

/*
 * The text form must not let a client forge fields: an algorithm named
 * x" result=ok uid=0 key=web action=delete_key via=dbus x=" came back in
 * an error message and made a line with a second result and action.  So
 * the extra text goes in as fields only when it is clean (clean_fields);
 * anything else -- a sentence, a quoted client string -- becomes one
 * escaped detail="..." field.  The key is a valid name or "-"; action,
 * via and result are the daemon's own words.
 */
void audit(const char *action, const char *key, uid_t uid, pid_t pid, const char *via,
	   const char *result, const char *fmt, ...)
{
	char extra[512], fields[600];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(extra, sizeof(extra), fmt, ap);
	va_end(ap);
	if (clean_fields(extra)) {
		memcpy(fields, extra, strlen(extra) + 1);
	} else {
		memcpy(fields, "detail=", 7);
		log_quote(fields + 7, sizeof(fields) - 7, extra);
	}
	rlog(strcmp(result, "ok") ? "warn" : "info",
	     "event=audit action=%s key=%s uid=%u pid=%d via=%s result=%s%s%s", action,
	     key_name_valid(key) ? key : "-",
	     (unsigned int)uid, (int)pid, via, result, *fields ? " " : "", fields);
}
