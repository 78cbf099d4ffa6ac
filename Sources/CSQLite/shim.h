#ifndef NOTIFYD_CSQLITE_SHIM_H
#define NOTIFYD_CSQLITE_SHIM_H
/* No _GNU_SOURCE: sqlite3.h needs none, and system headers seen with it differ from Swift's Glibc
   module (fd_set, __rusage_who), which breaks any module importing both. */
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline sqlite3_destructor_type notifyd_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/// Binds text that SQLite copies at once, so the caller's buffer may go away after the call.
static inline int notifyd_sqlite_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

/// Binds a blob that SQLite copies at once.
static inline int notifyd_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int length) {
    return sqlite3_bind_blob(stmt, index, data, length, SQLITE_TRANSIENT);
}
#endif
