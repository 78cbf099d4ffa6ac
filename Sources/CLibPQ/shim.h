#ifndef NOTIFYD_CLIBPQ_SHIM_H
#define NOTIFYD_CLIBPQ_SHIM_H
/* No _GNU_SOURCE, as for CSQLite: libpq-fe.h needs none, and Swift's Glibc module must see the same headers. */
#include <libpq-fe.h>
#endif
