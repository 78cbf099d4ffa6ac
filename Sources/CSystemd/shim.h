#ifndef NOTIFYD_CSYSTEMD_SHIM_H
#define NOTIFYD_CSYSTEMD_SHIM_H
/* No _GNU_SOURCE: sd-daemon.h and sd-journal.h need none, and system headers seen with it differ
   from Swift's Glibc module (fd_set), which breaks any module importing both. */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
