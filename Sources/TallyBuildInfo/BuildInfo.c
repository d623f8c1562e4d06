#include "TallyBuildInfo.h"

// C, because only a C preprocessor can take a string from outside the sources: scripts/release
// writes commit.h for its build and removes it afterwards; it is never committed.
#if __has_include("commit.h")
#include "commit.h"
#endif

#ifndef TALLY_COMMIT
#define TALLY_COMMIT "unknown"
#endif

const char *tally_build_commit(void) {
  return TALLY_COMMIT;
}
