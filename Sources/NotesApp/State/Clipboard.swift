/// What Ctrl-C and Ctrl-X took, for Ctrl-V in any pane of the window.
struct Clipboard {
    /// The text copied or cut last, or nil before the first.
    private(set) var text: String?
    /// The number of the key that cut a line last: a line cut by the very next key adds its
    /// line to the clipboard, as nano's and micro's do.
    private var lineCutByKey: Int?

    mutating func copy(_ text: String) {
        self.text = text
        lineCutByKey = nil
    }

    /// Takes the line cut by key number `key` (`NotesApp.keysHandled`).
    mutating func cutLine(_ line: String, byKey key: Int) {
        if let text, lineCutByKey == key - 1 {
            self.text = text + line
        } else {
            self.text = line
        }
        lineCutByKey = key
    }
}
