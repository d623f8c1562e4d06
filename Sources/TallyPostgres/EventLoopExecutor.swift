import NIOCore
import Synchronization

/// Runs a task's jobs on one NIO event loop. A store call runs on its connection's loop, so a
/// query's answer resumes the call on the thread that read it, and the next query is written
/// from that same thread: without it, every round trip hands the call from the loop's thread
/// to Swift's pool and back, two wake-ups of a sleeping thread (docs/server.md, "On PostgreSQL").
final class EventLoopExecutor: TaskExecutor {
  let loop: any EventLoop

  private init(_ loop: any EventLoop) { self.loop = loop }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
  }

  private static let made = Mutex<[ObjectIdentifier: EventLoopExecutor]>([:])

  /// The executor of `loop`, one per loop for the life of the process (loops are few and live
  /// as long).
  static func of(_ loop: any EventLoop) -> EventLoopExecutor {
    made.withLock { made in
      if let executor = made[ObjectIdentifier(loop)] { return executor }
      let executor = EventLoopExecutor(loop)
      made[ObjectIdentifier(loop)] = executor
      return executor
    }
  }
}
