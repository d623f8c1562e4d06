#ifndef TALLY_BUILD_INFO_H
#define TALLY_BUILD_INFO_H

/// The commit a release was built from, as scripts/release records it; "unknown" for a build
/// from source.
const char *tally_build_commit(void);

#endif
