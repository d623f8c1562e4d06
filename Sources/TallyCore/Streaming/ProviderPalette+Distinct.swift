extension ProviderPalette {
  /// Dot colours for the providers shown together (one month of the calendar), no two alike
  /// while there are no more providers than colours.
  ///
  /// Providers are taken by id so the answer does not depend on the order they are given in;
  /// each keeps its own ``color(for:)`` when still free, else takes the next free colour in
  /// palette order. Past ``colors``' count, colours repeat from each provider's own.
  public static func distinctColors(for providers: [Provider]) -> [Int: HexColor] {
    var result: [Int: HexColor] = [:]
    var used = Set<Int>()
    for id in Set(providers.map(\.id)).sorted() {
      let own = Int(fnv1a32(String(id)) % UInt32(colors.count))
      let free = (0..<colors.count).map { (own + $0) % colors.count }.first { !used.contains($0) }
      let index = free ?? own
      used.insert(index)
      result[id] = colors[index]
    }
    return result
  }
}
