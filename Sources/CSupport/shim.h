// What Swift cannot call directly: variadic C functions, and glibc's GNU extensions, wrapped.
#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/prctl.h>

/// Names the calling thread (the kernel keeps the first 15 bytes).
static inline int somniq_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

/// The ELF types of this machine's word size, as glibc's <link.h> chooses them (its `ElfW`):
/// a loaded object's headers and dynamic section are Elf64 on a 64-bit machine, Elf32 on a
/// 32-bit one.
#if UINTPTR_MAX == UINT64_MAX
typedef Elf64_Addr somniq_elf_addr;
typedef Elf64_Half somniq_elf_half;
typedef Elf64_Phdr somniq_elf_phdr;
typedef Elf64_Dyn somniq_elf_dyn;
#else
typedef Elf32_Addr somniq_elf_addr;
typedef Elf32_Half somniq_elf_half;
typedef Elf32_Phdr somniq_elf_phdr;
typedef Elf32_Dyn somniq_elf_dyn;
#endif

/// The start of glibc's `struct dl_phdr_info`, which <link.h> declares only under _GNU_SOURCE
/// (a module defining it would see glibc's types differ from Swift's Glibc): where an object
/// is loaded, its file's name ("" for the program), its program headers and their count.
struct somniq_loaded_object {
    somniq_elf_addr address;
    const char *name;
    const somniq_elf_phdr *headers;
    somniq_elf_half count;
};

/// glibc's `dl_iterate_phdr`: calls `callback` with each loaded object (the program, its
/// libraries, the vDSO) until it returns non-zero.
int somniq_each_loaded_object(int (*callback)(struct somniq_loaded_object *object, size_t size, void *context), void *context)
    __asm__("dl_iterate_phdr");
