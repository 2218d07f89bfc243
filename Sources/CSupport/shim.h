// What Swift cannot call directly: variadic C functions, wrapped.
#include <sys/prctl.h>

/// Names the calling thread (the kernel keeps the first 15 bytes).
static inline int somniq_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}
