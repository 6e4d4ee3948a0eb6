// SPDX-License-Identifier: MIT
/*
 * Access control: the peer's credentials come from SO_PEERCRED when the
 * connection is accepted.  A key's owner (the uid that created or imported
 * it) and root may use, export and delete it; uids and gids on the key's
 * allow lists may use it (sign, verify, seal, open, derive, public key).
 */
#include <errno.h>
#include <sys/socket.h>

#include "rindd.h"

int peer_get(int fd, struct peer *p)
{
	struct ucred uc;
	socklen_t len = sizeof(uc);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &uc, &len) < 0)
		return -errno;
	p->pid = uc.pid;
	p->uid = uc.uid;
	p->gid = uc.gid;
	return 0;
}

bool acl_may_admin(const struct key *k, const struct peer *p)
{
	return p->uid == 0 || p->uid == k->owner_uid;
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
		if (k->allow_gids[i] == p->gid)
			return true;
	return false;
}

bool acl_may_see(const struct key *k, const struct peer *p)
{
	return acl_may_use(k, p);
}
