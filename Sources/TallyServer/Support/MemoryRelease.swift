#if canImport(Glibc)
  import Glibc
#endif

/// glibc keeps what a large import freed in its malloc arenas (one per thread that
/// allocated), so a server that imported 50 MB stayed at ~300 MiB resident long after
/// (issue 17). Trimming after such work hands the free pages back to the system.
enum MemoryRelease {
  static func afterLargeWork() {
    #if canImport(Glibc)
      _ = malloc_trim(0)
    #endif
  }
}
