#include "TallyHeap.h"

#include <stdlib.h> // defines __GLIBC__ where it is glibc

// Swift's Glibc module leaves <malloc.h> out, and with it glibc's own allocator calls.
#ifdef __GLIBC__
#include <malloc.h>

int tally_heap_trim(void) { return malloc_trim(0); }

#else

int tally_heap_trim(void) { return 0; }

#endif
