import TallyLocalization

/// The page that shows an owner's new invitation link once, its words from the catalogs.
struct InviteLink: Sendable {
  let link: String
  let title: String
  let heading: String
  let lead: String
  let label: String
  let back: String

  init(link: String, expires: String, speech: PageSpeech = .english) {
    let t = speech.translator
    self.link = link
    title = t.text("invitation.title")
    heading = t.text("invitation.heading")
    lead = t.text("invitation.lead", ["expires": expires])
    label = t.text("invitation.link")
    back = t.text("invitation.back")
  }
}
