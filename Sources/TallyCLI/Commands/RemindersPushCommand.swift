import ArgumentParser
import Foundation
import TallyCore
import TallyDelivery
import TallyPush
import TallyServer
import TallyStore

/// `tally reminders push [list | remove DEVICE | test DEVICE]`: the browsers that receive
/// reminders by Web Push. Browsers subscribe themselves in Settings; here they are listed,
/// removed and tested (docs/reminders.md).
struct RemindersPush: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "push",
    abstract: "The devices 'tally serve' pushes reminders to.",
    discussion: "A browser subscribes itself in the web app's Settings; see docs/reminders.md.",
    subcommands: [RemindersPushList.self, RemindersPushRemove.self, RemindersPushTest.self],
    defaultSubcommand: RemindersPushList.self)
}

/// A device by its id or its name (names compare as habit names do).
struct PushDeviceArgument: ExpressibleByArgument {
  let text: String
  init(argument: String) { text = argument }

  /// The signed-in session and the device it names.
  func open(_ global: GlobalOptions, _ context: CommandContext) async throws -> (Session, PushSubscription) {
    let session = try await SessionOpener(options: global, context: context).open()
    return (session, try find(in: try await session.store.pushSubscriptions(for: session.user.id)))
  }

  func find(in subscriptions: [PushSubscription]) throws -> PushSubscription {
    if let id = UUID(uuidString: text), let found = subscriptions.first(where: { $0.id == id }) { return found }
    let named = subscriptions.filter { NameKey.comparisonKey($0.name) == NameKey.comparisonKey(text) }
    guard named.count <= 1 else {
      throw CommandFailure("\(named.count) devices are named '\(text)': name one by its id ('tally reminders push list').")
    }
    guard let found = named.first else {
      throw CommandFailure("There is no push device '\(text)': 'tally reminders push list' shows them.")
    }
    return found
  }
}

struct RemindersPushList: TallyCommand {
  static let configuration = CommandConfiguration(commandName: "list", abstract: "List the devices that receive reminders.")

  @OptionGroup var global: GlobalOptions

  @Flag(help: "Print JSON only: one object per device.")
  var json = false

  struct DeviceJSON: Encodable {
    var id: UUID
    var name: String
    var endpoint: String
    var createdAt: Date
  }

  func run(in context: CommandContext) async throws {
    let session = try await SessionOpener(options: global, context: context).open()
    let devices = try await session.store.pushSubscriptions(for: session.user.id)
    if json {
      try session.output.json(devices.map { DeviceJSON(id: $0.id, name: $0.name, endpoint: $0.endpoint.absoluteString, createdAt: $0.createdAt) })
      return
    }
    guard !devices.isEmpty else {
      session.output.line("No devices receive reminders: subscribe a browser in the web app's Settings.")
      return
    }
    let calendar = try session.calendar
    var table = TextTable([.left, .left, .left, .left])
    for device in devices {
      table.add([device.name, device.endpoint.host ?? "", "since \(calendar.day(containing: device.createdAt)) \(InstantFormat.wallClock(device.createdAt, in: calendar))", device.id.storeText])
    }
    table.lines.forEach(session.output.line)
  }
}

struct RemindersPushRemove: TallyCommand {
  static let configuration = CommandConfiguration(commandName: "remove", abstract: "Stop pushing reminders to a device.")

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The device's name or id.", valueName: "device"))
  var device: PushDeviceArgument

  func run(in context: CommandContext) async throws {
    let (session, found) = try await device.open(global, context)
    _ = try await session.store.deletePushSubscription(found.id, for: session.user.id)
    session.output.line("'\(found.name)' no longer receives reminders.")
  }
}

struct RemindersPushTest: TallyCommand {
  static let configuration = CommandConfiguration(
    commandName: "test", abstract: "Push one test notification to a device, now.",
    discussion: """
      Uses the server's VAPID key from the database, as 'tally serve' does, and the same \
      $TALLY_PUSH_CONTACT and $TALLY_ALLOW_LOOPBACK_PUSH. A device the push service says is \
      gone (404 or 410) is removed.
      """)

  @OptionGroup var global: GlobalOptions

  @Argument(help: ArgumentHelp("The device's name or id.", valueName: "device"))
  var device: PushDeviceArgument

  func run(in context: CommandContext) async throws {
    let (session, found) = try await device.open(global, context)
    let settings = try PushSettings.read(contact: nil, allowLoopback: false, context.environment)
    let now = session.now
    let poster = PushPoster(
      keys: PushKeys(store: session.store, clock: { now }), settings: settings, transport: context.webhookTransport,
      clock: { now })
    switch await poster.post(.test(at: now), to: found) {
    case .delivered(let status):
      session.output.line("Pushed a test notification to '\(found.name)'; the push service answered \(status).")
    case .gone(let status):
      _ = try await session.store.deletePushSubscription(found.id, for: session.user.id)
      throw CommandFailure(
        "The push service answered \(status): '\(found.name)' no longer takes notifications, so it was removed.",
        exitCode: CommandFailure.unavailable)
    case .failed(let reason):
      throw CommandFailure("The test notification to '\(found.name)' was not delivered: \(reason).", exitCode: CommandFailure.unavailable)
    }
  }
}
