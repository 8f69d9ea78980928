// See allocation_counter.h.
#include "allocation_counter.h"

#include <errno.h>
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TILTBOX_UNDER_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define TILTBOX_UNDER_ASAN 1
#endif

static __thread int counting;
static __thread uint64_t counted;

static inline void count_one(void) {
    if (counting) counted += 1;
}

void allocation_counter_start(void) {
    counted = 0;
    counting = 1;
}

uint64_t allocation_counter_stop(void) {
    counting = 0;
    return counted;
}

#ifdef TILTBOX_UNDER_ASAN

#include <sanitizer/allocator_interface.h>

static void on_malloc(const volatile void *pointer, size_t size) {
    (void)pointer;
    (void)size;
    count_one();
}

static void on_free(const volatile void *pointer) {
    (void)pointer;
}

__attribute__((constructor)) static void install_hooks(void) {
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

#else

// glibc's own allocator, under the names it exports for exactly this use.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    count_one();
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer && size != 0) return ENOMEM;
    *out = pointer;
    return 0;
}

#endif
