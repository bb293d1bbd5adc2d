import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// Bytes another program wrote that are not UTF-8, in the real program: shown as `�`, and kept
/// byte for byte when the user types elsewhere in the same text.
extension NotesEndToEndTests {
    func hexOfBody(titled title: String) throws -> String? {
        let db = try DatabaseQueue(path: notebook)
        return try db.read {
            try $0.fetchOne(
                String.self, "SELECT hex(body) FROM articles WHERE title = ?", [.text(title)])
        }
    }

    @Test func typingKeepsTheBytesAnotherProgramWroteThatAreNotUTF8() throws {
        var session: TmuxSession? = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try newArticle(session!, title: "Bytes", body: "start")
        try session!.send("Escape", "C-q")
        try session!.waitFor("EXIT=0")
        session = nil
        // "abc \xFF def \xC0\xAF ghi", written by sqlite3 as text.
        let stored = "61626320FF2064656620C0AF20676869"
        try TmuxSession.sqlite3(
            notebook, "UPDATE articles SET body = CAST(X'\(stored)' AS TEXT) WHERE title = 'Bytes'")
        #expect(try hexOfBody(titled: "Bytes") == stored)

        session = try TmuxSession(arguments: ["--db", notebook], folder: folder)
        try session!.waitFor("Bytes")
        try session!.send("Enter")
        try session!.waitUntil("the body shown") { firstBodyLine($0) == "abc � def �� ghi" }
        try session!.send("C-End")
        try session!.sendLiteral("!")
        try session!.waitUntil("typed at the end") { firstBodyLine($0) == "abc � def �� ghi!" }
        try session!.send("C-q")
        try session!.waitFor("EXIT=0")
        #expect(try hexOfBody(titled: "Bytes") == stored + "21")
    }
}
