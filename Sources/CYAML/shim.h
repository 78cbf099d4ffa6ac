#ifndef NOTIFYD_CYAML_SHIM_H
#define NOTIFYD_CYAML_SHIM_H
// No _GNU_SOURCE here: libyaml needs none, and defining it changes fd_set (via <stdlib.h>) so this module
// would no longer agree with Foundation's CDispatch in the same compilation ("__fds_bits ... not present").
#include <yaml.h>
#endif
