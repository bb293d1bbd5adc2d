/// Find in an open article's body (Ctrl-F): the text looked for, and, while the prompt in the
/// status line is open, where the cursor was when it opened (Esc goes back there).
struct ArticleFind: Equatable {
    var text = ""
    /// The body's cursor when the prompt opened; nil once the prompt is closed (the matches
    /// stay marked, and F3 goes on finding, until Esc).
    var origin: Int?
    /// The body's top row when the prompt opened (`EditorBuffer.scrollAnchor`): Esc scrolls
    /// back there.
    var originScroll = 0
    /// Whether the cursor was in the title when the prompt opened: Esc puts it back there.
    var openedInTitle = false

    /// Whether the prompt is open and takes the keys.
    var isTyping: Bool { origin != nil }
}
