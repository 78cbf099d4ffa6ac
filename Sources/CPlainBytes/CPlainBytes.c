/* Everything is inline in the header; a C target needs one source file. */
#include "CPlainBytes.h"
