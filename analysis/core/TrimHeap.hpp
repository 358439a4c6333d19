#pragma once
// Gives the pages that glibc's heaps hold free back to the system (malloc_trim), so that what a
// load parsed on several threads and then freed stops counting as resident.
#include <malloc.h>

namespace marey {

inline void TrimFreedHeap() {
#if defined(__SANITIZE_ADDRESS__)
    // AddressSanitizer's allocator owns the heap: glibc's trim would walk arenas that served no
    // allocation, and crashes when two loading threads trim at once.
#else
    malloc_trim(0);
#endif
}

}  // namespace marey
