import HummingbirdCore
import Logging
import NIOCore

/// A connection's channel, reading into a 512-byte buffer at first instead of NIO's 2 KiB.
/// NIO keeps a connection's last receive buffer for its next read, so an idle connection —
/// a held live stream above all — holds one for as long as it is open; most request heads fit
/// in 512 bytes, and a connection that reads more grows its buffer read by read up to 64 KiB,
/// as it would from 2 KiB (docs/sync.md "A connection's receive buffer").
struct SmallFirstReads<Base: ServerChildChannel>: ServerChildChannel {
  static var receiveAllocator: AdaptiveRecvByteBufferAllocator {
    AdaptiveRecvByteBufferAllocator(minimum: 64, initial: 512, maximum: 65_536)
  }

  let base: Base

  func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Base.Value> {
    do {
      try channel.syncOptions?.setOption(ChannelOptions.recvAllocator, value: Self.receiveAllocator)
    } catch {
      return channel.eventLoop.makeFailedFuture(error)
    }
    return base.setup(channel: channel, logger: logger)
  }

  func handle(value: Base.Value, logger: Logger) async {
    await base.handle(value: value, logger: logger)
  }
}
