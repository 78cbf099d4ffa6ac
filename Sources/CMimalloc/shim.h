// mimalloc (Debian's libmimalloc-dev) replaces the C library's malloc in the notifyd executable: linked before
// libc, its malloc and free serve every allocation in the process (Swift's objects, SQLite, libsystemd).
#include <mimalloc.h>
