import Foundation

/// Where tests make their files: one folder per test process under the temporary directory,
/// removed when the process exits, so a run leaves nothing behind whether its tests pass or
/// fail. A crash leaves that one folder, named by the process's id.
public enum TestFiles {
  static let root: URL = {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-tests-\(getpid())")
    try! FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: TestFiles.root) }
    return root
  }()

  /// A new, empty folder; `label` says which tests made it.
  public static func folder(_ label: String) -> URL {
    let folder = root.appendingPathComponent("\(label)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  /// The path of a database file (not made yet) alone in a new folder, so its `-wal` and
  /// `-shm` go with it.
  public static func database(_ label: String) -> String {
    folder(label).appendingPathComponent("tally.sqlite").path
  }

  /// Every file in the folder holding `path`, with its bytes: what a refusal must leave as
  /// it found it.
  public static func contents(ofFolderHolding path: String) throws -> [String: Data] {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    var files: [String: Data] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
    }
    return files
  }
}
