// SPDX-License-Identifier: MIT
/*
 * Access control: the peer's credentials come from SO_PEERCRED (pid, uid,
 * primary gid) and SO_PEERGROUPS (its supplementary groups) when the
 * connection is accepted; over D-Bus from the bus's
 * GetConnectionCredentials (dbus.c).  A key's owner (the uid that created
 * or imported it) and root may use, export and delete it; uids on the
 * key's allow list, and members of a group on it -- primary or
 * supplementary --, may use it (sign, verify, seal, open, derive, public
 * key).  (gid_t)-1 stands for "no group" (setgid(2) reserves it, the bus
 * reports it when it knows none): it is never matched, on either side.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

#include "rindd.h"

#define GROUPS_FIRST	64

/* The supplementary groups of the peer of @fd into @p (none on old kernels). */
static int peer_groups(int fd, struct peer *p)
{
	socklen_t len = GROUPS_FIRST * sizeof(gid_t);
	gid_t *g = malloc(len);

	for (int tries = 0; g && tries < 4; tries++) {
		socklen_t want = len;

		if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, g, &want) == 0) {
			p->groups = g;
			p->ngroups = want / sizeof(gid_t);
			return 0;
		}
		if (errno != ERANGE || want <= len) {
			int err = errno;

			free(g);
			/* Linux < 4.13 has no SO_PEERGROUPS: the primary gid only */
			return err == ENOPROTOOPT ? 0 : -err;
		}
		len = want;
		free(g);
		g = malloc(len);
	}
	free(g);
	return -ENOMEM;
}

int peer_get(int fd, struct peer *p)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);

	p->groups = NULL;
	p->ngroups = 0;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
		return -errno;
	p->pid = uc.pid;
	p->uid = uc.uid;
	p->gid = uc.gid;
	return peer_groups(fd, p);
}

void peer_release(struct peer *p)
{
	free(p->groups);
	p->groups = NULL;
	p->ngroups = 0;
}

bool acl_may_admin(const struct key *k, const struct peer *p)
{
	return p->uid == 0 || p->uid == k->owner_uid;
}

static bool peer_in_group(const struct peer *p, gid_t g)
{
	size_t i;

	if (g == (gid_t)-1)
		return false;
	if (p->gid == g)
		return true;
	for (i = 0; i < p->ngroups; i++)
		if (p->groups[i] == g)
			return true;
	return false;
}

bool acl_may_use(const struct key *k, const struct peer *p)
{
	size_t i;

	if (acl_may_admin(k, p))
		return true;
	for (i = 0; i < k->n_allow_uids; i++)
		if (k->allow_uids[i] == p->uid)
			return true;
	for (i = 0; i < k->n_allow_gids; i++)
		if (peer_in_group(p, (gid_t)k->allow_gids[i]))
			return true;
	return false;
}

bool acl_may_see(const struct key *k, const struct peer *p)
{
	return acl_may_use(k, p);
}
