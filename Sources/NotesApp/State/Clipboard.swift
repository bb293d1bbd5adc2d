/// What Ctrl-C and Ctrl-X took, for Ctrl-V in any pane of the window.
struct Clipboard {
    /// The text copied or cut last, or nil before the first.
    private(set) var text: String?
    /// The number of the event (`NotesApp.eventsHandled`) that cut a line last: a line cut by
    /// the very next one adds its line to the clipboard, as nano's and micro's do; a key, a
    /// click or a paste in between starts again.
    private var lineCutByEvent: Int?

    mutating func copy(_ text: String) {
        self.text = text
        lineCutByEvent = nil
    }

    /// Takes the line cut by event number `event`; returns the clipboard's text now.
    @discardableResult
    mutating func cutLine(_ line: String, byEvent event: Int) -> String {
        let taken = lineCutByEvent == event - 1 ? (text ?? "") + line : line
        text = taken
        lineCutByEvent = event
        return taken
    }
}
