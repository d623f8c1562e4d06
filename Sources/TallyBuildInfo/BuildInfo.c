#include "TallyBuildInfo.h"

// C, because only a C preprocessor can take a string from the build command: Swift's
// conditions are true or false.
#define TALLY_TEXT(x) #x
#define TALLY_STRING(x) TALLY_TEXT(x)

const char *tally_build_commit(void) {
#ifdef TALLY_COMMIT
  return TALLY_STRING(TALLY_COMMIT);
#else
  return "unknown";
#endif
}
