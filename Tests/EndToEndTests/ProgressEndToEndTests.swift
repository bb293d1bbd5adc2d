import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// Long work with the real program in tmux: deleting an author with 30,000 articles, its undo
/// and its redo each show their rows done of rows in the status line while the panes stay on the
/// screen; keys typed meanwhile are handled after it, in order.
///
/// However fast the machine does the work, the test sees it at many points: the program shows
/// its progress at once and every 10 milliseconds (`NOTES_PROGRESS_AFTER_MS=0`,
/// `NOTES_PROGRESS_EVERY_MS=10`), and runs in slices of 20 milliseconds, stopped (SIGSTOP)
/// while the test reads the screen between them.
extension NotesEndToEndTests {
    /// The progress lines seen in the status line until `done` shows, each parsed as (done,
    /// total), with the whole screen seen at each; `keys` are typed once the first one shows.
    private func progress(
        _ session: TmuxSession, prefix: String, until done: String,
        typing keys: [String] = []
    ) throws -> [(done: Int, total: Int, screen: String)] {
        let program = try session.programID()
        defer { kill(program, SIGCONT) }
        var seen: [(Int, Int, String)] = []
        var typed = false
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            kill(program, SIGSTOP)
            let screen = try session.screen()
            let line = status(screen)
            if line.contains(done) { return seen }
            if let range = line.range(of: prefix) {
                let numbers = line[range.upperBound...].replacingOccurrences(of: ",", with: "")
                    .split(separator: " ")
                if numbers.count >= 4, numbers[1] == "of", numbers[3] == "rows",
                    let rows = Int(numbers[0]), let total = Int(numbers[2])
                {
                    seen.append((rows, total, screen))
                }
                if !typed && !keys.isEmpty {
                    try session.sendLiteral(keys.joined())
                    typed = true
                }
            }
            kill(program, SIGCONT)
            Thread.sleep(forTimeInterval: 0.02)
        }
        throw TmuxSession.TimedOut(waitingFor: done, screen: try session.screen())
    }

    /// Every line of the screen but the status line.
    private func allButStatus(_ screen: String) -> [Substring] {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        lines.remove(at: lines.count - 4)
        return lines
    }

    @Test func longWorkShowsItsProgressAndKeepsTheKeysTypedMeanwhile() throws {
        try makeNotebook(articles: 5)
        let db = try DatabaseQueue(path: notebook)
        try db.write { db in
            try db.execute(
                """
                INSERT INTO authors(name) VALUES ('Bulk Writer');
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 30000)
                INSERT INTO articles(title, body, authorId, createdAt, updatedAt)
                SELECT printf('Bulk %05d', x), printf('%.480c word %d', 'b', x),
                    (SELECT id FROM authors WHERE name = 'Bulk Writer'),
                    '2019-01-01T00:00:00.000Z', '2019-01-01T00:00:00.000Z'
                FROM n
                """)
        }
        db.close()
        let session = try TmuxSession(
            program: [
                "env", "NOTES_PROGRESS_AFTER_MS=0", "NOTES_PROGRESS_EVERY_MS=10",
                TmuxSession.notesBinary, "--db", notebook,
            ], folder: folder)
        try session.waitFor("All articles · 30005")
        // The oldest article is a bulk one: End selects it, a opens the authors.
        try session.send("End")
        try session.waitFor("Bulk 00001")
        try session.send("a")
        try session.sendLiteral("Bulk")
        try session.send("DC")
        try session.waitFor("Delete Bulk Writer and 30000 articles? y/n")
        try session.send("y")
        // The author, their articles and their bodies' chunks: 60,001 rows, as the undo counts.
        let deleting = try progress(
            session, prefix: "Deleting Bulk Writer: ", until: "Deleted Bulk Writer")
        #expect(!deleting.isEmpty)
        #expect(deleting.allSatisfy { $0.total == 60001 && $0.done <= 60001 })
        #expect(deleting.allSatisfy { status($0.screen).contains(" of 60,001 rows") })
        // The screen the undo's progress must leave as it is: the frame after the delete, whole,
        // both lists drawn with their five rows (a list that was scrolled to its 30,000th row
        // may draw its header before its rows).
        let before = try session.waitUntil("both panes' lists after the delete, whole") { screen in
            status(screen).contains("Deleted Bulk Writer") && screen.contains("1 All articles · 5")
                && screen.contains("2 All articles · 5") && screen.contains("^Q Quit")
                && (1...5).allSatisfy { number in
                    screen.components(separatedBy: "Art 00\(number) ").count == 3
                }
        }

        // Ctrl-Z: the rows come back.
        // A search typed meanwhile is handled after, letter by letter in order.
        try session.send("C-z")
        let undoing = try progress(
            session, prefix: "Undoing Delete Author: ", until: "Undid Delete Author",
            typing: ["/", "Bulk 29999"])
        #expect(undoing.count >= 2, "\(undoing.count) progress lines seen")
        #expect(undoing.allSatisfy { $0.total == 60001 && $0.done <= 60001 })
        #expect(zip(undoing, undoing.dropFirst()).allSatisfy { $0.done <= $1.done })
        #expect(Set(undoing.map(\.done)).count >= 2)
        // The screen stays as it was around the status line. (The last one read may show the
        // frame after the undo half drawn, its status line not yet: the program was stopped
        // between two of its writes.)
        let changed = undoing.dropLast().first {
            allButStatus($0.screen) != allButStatus(before)
        }
        #expect(changed == nil, "before:\n\(before)\nduring:\n\(changed?.screen ?? "")")
        // The search's one result, once the undo's highlight of the restored rows has faded.
        let searched = try session.waitUntil("the search's result without the restore marker") {
            let lines = $0.split(separator: "\n", omittingEmptySubsequences: false)
            return $0.contains("1 Search: Bulk 29999 ") && lines.count > 3
                && lines[2].hasPrefix(" Bulk 29999  ")
        }.split(separator: "\n")
        #expect(searched[3].hasPrefix("   ") && !searched[3].contains("Bulk"))

        // Esc leaves the search; Ctrl-Y deletes them again, with its progress.
        try session.send("Escape")
        // Pane 1's list (pane 2 showed all the articles since the undo).
        try session.waitFor("1 All articles · 30005")
        try session.send("C-y")
        let redoing = try progress(
            session, prefix: "Redoing Delete Author: ", until: "Redid Delete Author")
        #expect(!redoing.isEmpty)
        #expect(redoing.allSatisfy { $0.total == 60001 && $0.done <= 60001 })
        try session.waitFor("All articles · 5")
        try session.send("C-q")
        try session.waitFor("EXIT=0")
    }
}
