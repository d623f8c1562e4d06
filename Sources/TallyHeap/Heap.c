#include "TallyHeap.h"

#include <stdlib.h> // defines __GLIBC__ where it is glibc

// Swift's Glibc module leaves <malloc.h> out, and with it glibc's own allocator calls.
#ifdef __GLIBC__
#include <malloc.h>

int tally_heap_trim(void) { return malloc_trim(0); }

// glibc raises its thresholds whenever a mapped block is freed: after a 50 MB import, blocks
// under 32 MiB came from arenas and an arena's top was kept up to 64 MiB. `malloc_trim` gives
// a thread arena's free chunks back but never its top, so up to 37 MiB more stayed resident
// after some imports. Setting either threshold turns that growth off.
int tally_heap_bound_arena_tops(void) {
  return mallopt(M_MMAP_THRESHOLD, 1 << 20) && mallopt(M_TRIM_THRESHOLD, 4 << 20);
}

// glibc's chunk header, the word before the block, marks a mapped chunk with its second bit.
int tally_heap_is_mapped(const void *block) { return (((const size_t *)block)[-1] & 2) != 0; }

#else

int tally_heap_trim(void) { return 0; }

int tally_heap_bound_arena_tops(void) { return 0; }

int tally_heap_is_mapped(const void *block) { return 0; }

#endif
