#ifndef NOTIFYD_CYAML_SHIM_H
#define NOTIFYD_CYAML_SHIM_H
#define _GNU_SOURCE 1
#include <yaml.h>
#endif
