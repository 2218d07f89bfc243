// What Swift cannot call directly: variadic C functions, and glibc's GNU extensions, wrapped.
#include <elf.h>
#include <stddef.h>
#include <sys/prctl.h>

/// Names the calling thread (the kernel keeps the first 15 bytes).
static inline int somniq_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// The start of glibc's `struct dl_phdr_info`, which <link.h> declares only under _GNU_SOURCE
/// (a module defining it would see glibc's types differ from Swift's Glibc): where an object
/// is loaded, its file's name ("" for the program), its program headers and their count.
struct somniq_loaded_object {
    Elf64_Addr address;
    const char *name;
    const Elf64_Phdr *headers;
    Elf64_Half count;
};

/// glibc's `dl_iterate_phdr`: calls `callback` with each loaded object (the program, its
/// libraries, the vDSO) until it returns non-zero.
int somniq_each_loaded_object(int (*callback)(struct somniq_loaded_object *object, size_t size, void *context), void *context)
    __asm__("dl_iterate_phdr");
