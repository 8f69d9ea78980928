// Counts the heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc,
// memalign) made by the calling thread between `allocation_counter_start` and
// `allocation_counter_stop`. For the tests that prove a run's steps allocate nothing.
//
// Outside AddressSanitizer, this target defines those functions for the whole test
// process: each adds one to the calling thread's count (when it counts) and hands over to
// glibc's own (`__libc_malloc`, ...), so the memory is glibc's as before. Under
// AddressSanitizer (`make sanitize`), which owns those functions itself, it counts through
// the sanitizer's allocation hook instead (`__sanitizer_install_malloc_and_free_hooks`).
#ifndef TILTBOX_ALLOCATION_COUNTER_H
#define TILTBOX_ALLOCATION_COUNTER_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Starts counting the calling thread's allocations from zero.
void allocation_counter_start(void);

/// Stops counting and returns the calling thread's allocations since `allocation_counter_start`.
uint64_t allocation_counter_stop(void);

#ifdef __cplusplus
}
#endif

#endif
