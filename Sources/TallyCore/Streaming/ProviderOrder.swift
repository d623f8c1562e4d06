extension Provider {
  /// The order a day's providers are shown in: longest name first, then lowest id.
  ///
  /// The first provider in this order is the day's primary, whose logo gets the centre of the
  /// cell. Longer names tend to be the more specific services, and the id breaks ties so the
  /// choice never depends on the order the data arrived in.
  public static func displayOrder(_ lhs: Provider, _ rhs: Provider) -> Bool {
    let (left, right) = (lhs.name.count, rhs.name.count)
    return left != right ? left > right : lhs.id < rhs.id
  }
}
