#ifndef SCOREFEED_CLIBPQ_SHIM_H
#define SCOREFEED_CLIBPQ_SHIM_H
#include <libpq-fe.h>
#endif
