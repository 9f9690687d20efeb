#ifndef HEARTH_CSQLITE_SHIM_H
#define HEARTH_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLITE_TRANSIENT is a macro casting -1 to a function pointer; Swift cannot import it.
static inline int hearth_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

static inline int hearth_sqlite3_bind_blob_transient(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

/// sqlite3_config is variadic, which Swift cannot call. Turns SQLite's memory statistics off:
/// while they are on, every sqlite3_malloc and sqlite3_free takes one mutex global to the
/// process, which connections used at once on different threads contend for. Takes effect only
/// before SQLite initializes (before the first connection opens); SQLITE_MISUSE after.
static inline int hearth_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
#endif
