// The zstd boundary of Tiltbox: Debian's libzstd-dev (the streaming API of zstd.h,
// ZSTD_compressStream2 and ZSTD_decompressStream). Nothing else belongs here.
#ifndef TILTBOX_CZSTD_SHIM_H
#define TILTBOX_CZSTD_SHIM_H

#include <zstd.h>
#include <zstd_errors.h>

#endif
