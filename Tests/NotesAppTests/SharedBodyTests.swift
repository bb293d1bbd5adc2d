import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI
import TestSupport
import Testing

@testable import NotesApp

/// Two panes and another program typing into one body, key by key interleaved: pane 1 at the
/// start, pane 2 at the end, the other program after a marker in the middle; the panes also
/// undo and redo between their words. Each word stays one undo step though the others typed
/// between its keys (`UndoEngine.mergeText`, `treatAsTimestamps`), and each Ctrl-Z or Ctrl-Y
/// takes back or brings back exactly one word of that pane's, keeping everyone else's text.
@MainActor @Suite struct SharedBodyTests {
    /// A writer's part of the body: before the `|W|` marker (pane 1), or after the other
    /// program's `w<n> ` words that follow it (pane 2).
    static func part(of body: String, atEnd: Bool) -> String {
        guard let marker = body.range(of: "|W|") else { return body }
        guard atEnd else { return String(body[..<marker.lowerBound]) }
        var rest = body[marker.upperBound...]
        while let token = rest.prefixMatch(of: #/w\d+ /#) { rest = rest[token.range.upperBound...] }
        return String(rest)
    }

    @Test(arguments: 1...4) func interleavedTypingAndUndoKeepEveryonesText(seed: UInt64) throws {
        let folder = try TemporaryFolder(prefix: "notes-app-tests")
        let path = folder.path("notes.db")
        defer { withExtendedLifetime(folder) {} }
        let fixture = try AppFixture(size: Size(width: 120, height: 12), path: path)
        let writer = try DatabaseQueue(path: path)
        try fixture.db.write { try $0.execute("UPDATE articles SET body = '|W|' WHERE id = 3") }
        fixture.press(.enter, .controlHome)  // pane 1: the start
        fixture.press(.control("w"), .enter, .controlEnd)  // pane 2: the end
        var random = SeededRandom(seed: seed)
        var queues: [[Key]] = [[], []]
        var done: [[String]] = [[], []]
        var undone: [[String]] = [[], []]
        var written = 0
        var focus = 1
        func body() throws -> String {
            try fixture.db.read { try Notebook.article($0, id: 3)?.body } ?? ""
        }
        func expected(_ who: Int) -> String {
            who == 0 ? done[0].reversed().joined() : done[1].joined()
        }
        for step in 0..<600 {
            let who = Int(random.next() % 3)
            if who == 2 {
                written += 1
                try writer.write {
                    try $0.execute(
                        "UPDATE articles SET body = replace(body, '|W|', '|W|w\(written) ') WHERE id = 3"
                    )
                }
                continue
            }
            if focus != who {
                fixture.press(.control("w"))
                focus = who
            }
            // A cursor move, which ends the typing run (Ctrl-End alone does not move at the end).
            let place: [Key] = who == 0 ? [.controlHome] : [.left, .controlEnd]
            if queues[who].isEmpty {
                let roll = random.next() % 10
                if roll < 7 {
                    let token = (who == 0 ? "alpha" : "bravo") + "\(step) "
                    queues[who] = token.map { .character($0) } + place
                    done[who].append(token)
                    undone[who] = []
                } else {
                    let undoing = roll < 9
                    if undoing, let token = done[who].popLast() { undone[who].append(token) }
                    if !undoing, let token = undone[who].popLast() { done[who].append(token) }
                    fixture.press(.control(undoing ? "z" : "y"))
                    for key in place { fixture.press(key) }
                    let now = try body()
                    #expect(
                        Self.part(of: now, atEnd: who == 1) == expected(who),
                        "step \(step) pane \(who + 1) \(undoing ? "undo" : "redo"): \(now)")
                    if Self.part(of: now, atEnd: who == 1) != expected(who) { return }
                    continue
                }
            }
            fixture.press(queues[who].removeFirst())
        }
    }
}
