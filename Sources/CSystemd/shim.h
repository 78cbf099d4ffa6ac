#ifndef NOTIFYD_CSYSTEMD_SHIM_H
#define NOTIFYD_CSYSTEMD_SHIM_H
#define _GNU_SOURCE 1
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
#endif
