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

/// Binds text that SQLite reads where it is (SQLITE_STATIC): the caller keeps it valid until the statement is reset
/// and the parameter bound again. An empty text binds "" (a null pointer would bind NULL).
static inline int notifyd_sqlite_bind_text_in_place(sqlite3_stmt *stmt, int index, const char *text, int length) {
    static const char empty[] = "";
    return sqlite3_bind_text(stmt, index, length > 0 ? text : empty, length > 0 ? length : 0, SQLITE_STATIC);
}

/// Binds a blob that SQLite copies at once.
static inline int notifyd_sqlite_bind_blob(sqlite3_stmt *stmt, int index, const void *data, int length) {
    return sqlite3_bind_blob(stmt, index, data, length, SQLITE_TRANSIENT);
}

/// Turns off SQLite's memory statistics (`SQLITE_CONFIG_MEMSTATUS`), which take a process-wide mutex around every
/// allocation and free. Only takes effect before SQLite initializes (the first connection opened); SQLITE_MISUSE after.
static inline int notifyd_sqlite_disable_memory_statistics(void) { return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); }
#endif
