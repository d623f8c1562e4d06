#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

// Swift Testing in this toolchain starts every test case at once unless the environment bounds
// it. On two cores, 870 cases in flight made each one wait its turn for seconds, so the servers
// and PostgreSQL transactions the tests start outlived their clients' time limits (a 15 s read,
// a migration holding its lock for a minute). Four cases per core keeps both cores busy and
// every case's wait short. Set by a constructor, before Swift Testing reads its configuration
// (SwiftPM links the object file into the test binary whole); a width already set wins.
__attribute__((constructor)) static void tally_bound_test_width(void) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  char width[24];
  snprintf(width, sizeof width, "%ld", (cores > 0 ? cores : 1) * 4);
  setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", width, 0);
}
