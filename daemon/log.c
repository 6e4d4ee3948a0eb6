// SPDX-License-Identifier: MIT
/*
 * Structured logging: one line per event on stderr,
 *   ts=2025-01-01T00:00:00.123Z level=info thread=0 event=... key=value ...
 * (the systemd unit routes stderr to the journal).
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "rindd.h"

__thread int log_thread = -1;

void rlog(const char *level, const char *fmt, ...)
{
	char line[1024];
	struct timespec ts;
	struct tm tm;
	va_list ap;
	int n;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	n = snprintf(line, sizeof(line),
		     "ts=%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ level=%s thread=%d ",
		     tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		     tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, level, log_thread);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof(line) - (size_t)n, fmt, ap);
	va_end(ap);
	/* one fputs per line keeps lines whole across threads */
	flockfile(stderr);
	fputs(line, stderr);
	fputc('\n', stderr);
	funlockfile(stderr);
}
