#ifndef HEARTH_CSQLITE_SHIM_H
#define HEARTH_CSQLITE_SHIM_H
#include <dlfcn.h>
#include <stddef.h>
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

/// What SQLite's preupdate hook calls before each row an INSERT, UPDATE or DELETE changes:
/// (context, connection, operation, database name, table name, old rowid, new rowid).
typedef void (*hearth_sqlite3_preupdate_callback)(void *, sqlite3 *, int, const char *, const char *, sqlite3_int64, sqlite3_int64);

/// Registers `callback` as the connection's preupdate hook, when the library was built with one
/// (SQLITE_ENABLE_PREUPDATE_HOOK, as Debian's is; its header declares the function only then,
/// so it is looked up by name). Returns 1 when registered, 0 when the library has none.
static inline int hearth_sqlite3_preupdate_hook(sqlite3 *db, hearth_sqlite3_preupdate_callback callback, void *context) {
    typedef void *(*hearth_register)(sqlite3 *, hearth_sqlite3_preupdate_callback, void *);
    void *program = dlopen(NULL, RTLD_LAZY);
    hearth_register registerHook = program ? (hearth_register)dlsym(program, "sqlite3_preupdate_hook") : NULL;
    if (program) dlclose(program);
    if (!registerHook) return 0;
    registerHook(db, callback, context);
    return 1;
}
#endif
