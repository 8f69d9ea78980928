// The file-system boundary of Tiltbox: statfs/fstatfs from the C library (Swift's Glibc
// module does not bring in <sys/vfs.h>), to tell the kernel's own file systems (/proc,
// /sys, ...) from files that can be inputs. Nothing else belongs here.
#ifndef TILTBOX_CFILESYSTEM_SHIM_H
#define TILTBOX_CFILESYSTEM_SHIM_H

#include <sys/vfs.h>

#endif
