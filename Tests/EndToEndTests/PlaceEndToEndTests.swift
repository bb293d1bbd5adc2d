import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// Your place comes back, in the real program: quit with an article open and the cursor inside
/// its body, start again, and the pane is on that article, the cursor where it was.
extension NotesEndToEndTests {
    func body(titled title: String) throws -> String {
        let db = try DatabaseQueue(path: notebook)
        return try db.read {
            try $0.fetchOne(
                String.self, "SELECT body FROM articles WHERE title = ?", [.text(title)])
                ?? ""
        }
    }

    @Test func aRestartPutsThePaneBackOnItsArticleAndCursor() throws {
        var session: TmuxSession? = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try session?.waitFor("Welcome to notes")
        try session?.send("Down", "Enter")
        try session?.waitFor(" 1 Editing")
        let title = "Undo and redo, pane by pane"
        try session?.waitFor(title)
        // Into the body, five characters along its first line.
        try session?.send("Down", "Home", "Right", "Right", "Right", "Right", "Right")
        try session?.send("C-q")
        try session?.waitFor("EXIT=0")
        session = nil

        let reopened = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try reopened.waitUntil("the article open again in pane 1") { screen in
            screen.contains(" 1 Editing") && screen.contains(" \(title)")
        }
        let before = try body(titled: title)
        try reopened.send("X")
        try reopened.waitUntil("X typed at the cursor") { _ in
            (try? body(titled: title)) != before
        }
        #expect(try body(titled: title) == before.prefix(5) + "X" + before.dropFirst(5))
        try reopened.send("C-q")
        try reopened.waitFor("EXIT=0")
    }
}
