#ifndef TALLY_BUILD_INFO_H
#define TALLY_BUILD_INFO_H

/// The commit a release was built from: scripts/release compiles with
/// `-Xcc -DTALLY_COMMIT=<sha>`. A build from source without it says "unknown".
const char *tally_build_commit(void);

#endif
