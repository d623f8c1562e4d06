/// "1 Chat", "0 Chats", "3 Days Streak": a count with the noun in the form English needs.
/// Zero takes the plural, as it does in speech.
func counted(_ count: Int, _ singular: String, _ plural: String) -> String {
  "\(count) \(count == 1 ? singular : plural)"
}
