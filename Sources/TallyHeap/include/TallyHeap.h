#ifndef TALLY_HEAP_H
#define TALLY_HEAP_H

/// Gives the allocator's whole free pages back to the system (glibc's `malloc_trim`); 1 when
/// some went back, 0 when none did or the allocator is not glibc's.
int tally_heap_trim(void);

#endif
