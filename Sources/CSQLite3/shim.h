#ifndef CSQLITE3_SHIM_H
#define CSQLITE3_SHIM_H

// The session extension and the pre-update hook are compiled into Debian's
// libsqlite3; these defines expose their declarations (used by notes-bench).
#define SQLITE_ENABLE_SESSION 1
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast of -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite3_transient(void) {
    return SQLITE_TRANSIENT;
}

#endif
