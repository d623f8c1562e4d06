import TallyHTTP

#if canImport(Glibc)
  import Glibc
#endif

/// glibc keeps what a large import freed in its malloc arenas (one per thread that
/// allocated), so a server that imported 50 MB stayed at ~300 MiB resident long after
/// (issue 17). Trimming after such work hands the free pages back to the system.
enum MemoryRelease {
  static func afterLargeWork() {
    _ = trim?(0)
  }

  /// glibc's `malloc_trim`, looked up at run time: `<malloc.h>` is not in Swift's Glibc module,
  /// and another C library may not have it.
  private static let trim: (@convention(c) (UInt) -> Int32)? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(nil, "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (UInt) -> Int32).self)
    #else
      return nil
    #endif
  }()
}
