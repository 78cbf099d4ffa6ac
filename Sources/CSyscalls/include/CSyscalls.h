#ifndef NOTIFYD_CSYSCALLS_H
#define NOTIFYD_CSYSCALLS_H
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/random.h>
#include <sys/eventfd.h>
/* Linux calls that glibc only declares with _GNU_SOURCE (accept4, struct ucred) or that use macros
   Swift cannot import (errno). The header declares plain C types only, so importing it never
   changes how the system headers look to other modules; the .c file defines _GNU_SOURCE. */

/// The peer's credentials of a connected Unix socket (SO_PEERCRED); returns -1 and sets errno on failure.
int notifyd_peer_credentials(int fd, int *pid, unsigned int *uid, unsigned int *gid);

/// accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC; -1 and errno on failure.
int notifyd_accept_nonblocking(int fd);

/// The current thread's errno.
int notifyd_errno(void);
#endif
