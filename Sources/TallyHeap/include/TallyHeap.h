#ifndef TALLY_HEAP_H
#define TALLY_HEAP_H

/// Gives the allocator's whole free pages back to the system (glibc's `malloc_trim`); 1 when
/// some went back, 0 when none did or the allocator is not glibc's.
int tally_heap_trim(void);

/// Fixes glibc's mmap and trim thresholds (1 MiB and 4 MiB) for the rest of the process, so
/// that a thread arena never keeps more than 4 MiB of free top; 1 when both were set, 0 when
/// not or the allocator is not glibc's.
int tally_heap_bound_arena_tops(void);

/// 1 when glibc mapped `block` (from `malloc`) on its own, so freeing it unmaps it; 0 when it
/// lies in an arena or the allocator is not glibc's.
int tally_heap_is_mapped(const void *block);

#endif
