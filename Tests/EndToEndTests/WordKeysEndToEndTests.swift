import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// The word keys of micro and nano users in the real program: Ctrl-Left and Ctrl-Right move by
/// words, Ctrl-Backspace (^H from a terminal whose Backspace sends ^?) and Ctrl-Delete delete a
/// word, Backspace still one character; each an undo step.
extension NotesEndToEndTests {
    /// The first line of the open article's body, as the left pane shows it ("" before it
    /// shows).
    func firstBodyLine(_ screen: String) -> String {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count > 5 else { return "" }
        return String(lines[5].prefix { $0 != "│" }).trimmingCharacters(in: .whitespaces)
    }

    @Test func controlArrowsBackspaceAndDeleteWorkByWords() throws {
        let session = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try session.waitFor("Welcome to notes")
        try session.send("Enter")
        try session.waitFor("L1/")
        try session.send("Down", "Home")
        try session.waitUntil("the body's first line") {
            firstBodyLine($0).hasPrefix("notes is a small note editor")
        }
        try session.send("C-Right", "C-Right", "C-h")
        try session.waitUntil("\"is\" deleted by Ctrl-Backspace") {
            firstBodyLine($0).hasPrefix("notes  a small note editor")
        }
        try session.send("C-Right", "C-Delete")
        try session.waitUntil("\" small\" deleted by Ctrl-Delete") {
            firstBodyLine($0).hasPrefix("notes  a note editor")
        }
        try session.send("C-Left", "BSpace")
        try session.waitUntil("one space deleted by Backspace") {
            firstBodyLine($0).hasPrefix("notes a note editor")
        }
        // A cursor move ends a run of deletes: each delete above is an undo step of its own.
        for restored in ["notes  a note editor", "notes  a small note editor", "notes is a small"] {
            try session.send("C-z")
            try session.waitUntil("undone to \"\(restored)\"") {
                firstBodyLine($0).hasPrefix(restored)
            }
        }
        try session.send("C-q")
        try session.waitFor("EXIT=0")
        #expect(
            try body(titled: "Welcome to notes 👋").hasPrefix(
                "notes is a small note editor for the terminal."))
    }
}
