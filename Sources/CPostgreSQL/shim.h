#ifndef HEARTH_CPOSTGRESQL_SHIM_H
#define HEARTH_CPOSTGRESQL_SHIM_H
// Debian's libpq-dev puts libpq-fe.h under /usr/include/postgresql; it includes its siblings by
// quoted name, which resolves next to it.
#include <postgresql/libpq-fe.h>
#endif
