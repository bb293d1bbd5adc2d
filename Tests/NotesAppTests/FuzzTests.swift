import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI
import TestSupport
import Testing

@testable import NotesApp

/// Seeded random input into the headless app on the demo notebook: text (CJK, emoji, combining
/// marks, controls), Ctrl and Alt keys, arrows, pastes, resizes and mouse events; never Ctrl-Q
/// (quit) or Alt-S (suspend). After each key the app's invariants hold (`FuzzSession.violation`).
///
/// 20,000 keys by default, 1,000,000 with `NOTES_LONG_TESTS=1` (or `NOTES_FUZZ_KEYS`);
/// `NOTES_FUZZ_SEED` replays a run.
/// A violation or crash-free failure prints the seed and the key sequence, minimised.
@MainActor @Suite struct FuzzTests {
    @Test func randomKeysKeepTheAppConsistent() throws {
        let environment = ProcessInfo.processInfo.environment
        let total =
            environment["NOTES_FUZZ_KEYS"].flatMap(Int.init)
            ?? (environment["NOTES_LONG_TESTS"] == "1" ? 1_000_000 : 20_000)
        let seed = environment["NOTES_FUZZ_SEED"].flatMap(UInt64.init) ?? .random(in: 1...1_000_000)
        print("FuzzTests: NOTES_FUZZ_SEED=\(seed)")
        // Fresh sessions in chunks keep the notebook and its history at a realistic size.
        let chunk = 20_000
        var random = SeededRandom(seed: seed)
        for start in stride(from: 0, to: total, by: chunk) {
            let steps = (0..<min(chunk, total - start)).map { _ in FuzzStep.random(&random) }
            let session = try FuzzSession()
            guard let failure = try session.run(steps) else { continue }
            let minimal = try FuzzSession.minimise(Array(steps[...failure.index]))
            Issue.record(
                """
                \(failure.violation) after key \(start + failure.index + 1), \
                NOTES_FUZZ_SEED=\(seed); minimised to \(minimal.count) steps:
                \(minimal.map { "    \($0)" }.joined(separator: "\n"))
                """)
            return
        }
    }

    /// The minimiser itself: an invariant that fails on a late key is cut down to that key.
    @Test func minimiserKeepsOnlyWhatFails() throws {
        let steps =
            (0..<60).map { _ in FuzzStep.event(.key(.down)) }
            + [.event(.key(.function(1)))] + (0..<20).map { _ in FuzzStep.event(.key(.up)) }
        let minimal = try FuzzSession.minimise(steps) { session in
            session.app.overlay != nil ? "help is open" : nil
        }
        #expect(minimal == [.event(.key(.function(1)))])
    }
}

/// One fuzzing step: an input event, or the terminal changing size.
enum FuzzStep: Equatable, CustomStringConvertible {
    case event(InputEvent)
    case resize(Size)

    var description: String {
        switch self {
        case .event(let event): return ".event(\(event))"
        case .resize(let size): return ".resize(\(size.width)x\(size.height))"
        }
    }

    static let text: [Character] = [
        "a", "z", "Q", "0", "3", "5", "/", " ", ".", "'", "\"", "é", "e\u{301}", "ß", "漢", "字",
        "日", "😀", "👍🏽", "👨‍👩‍👧", "🇫🇷", "\u{301}", "\u{200D}", "\t", "\u{7F}", "\u{1B}",
    ]
    static let pastes = [
        "", "pasted", "two\nlines", "tab\there", "漢字かな交じり文", "emoji 😀👨‍👩‍👧🇫🇷",
        "crlf\r\nline", "\u{1B}[31mred\u{1B}[0m", String(repeating: "long paste ", count: 300),
        "'); DROP TABLE articles; --",
    ]
    /// Small sizes mostly: drawing is most of a key's time in a debug build.
    static let sizes = [
        Size(width: 64, height: 16), Size(width: 80, height: 24), Size(width: 40, height: 10),
        Size(width: 10, height: 4), Size(width: 160, height: 12), Size(width: 33, height: 9),
        Size(width: 1, height: 1),
    ]
    static let named: [Key] = [
        .up, .down, .left, .right, .home, .end, .pageUp, .pageDown, .insert, .delete, .backspace,
        .enter, .tab, .backTab, .escape,
    ]

    static func random(_ random: inout SeededRandom) -> FuzzStep {
        switch random.next(below: 100) {
        case 0..<38: return .event(.key(.character(random.pick(text))))
        case 38..<60: return .event(.key(random.pick(named)))
        case 60..<72:
            let letter = random.pick(Array("abcdefghijklmnoprstuvwxyz@"))  // no q: quit
            return .event(.key(.control(letter)))
        case 72..<80:
            let key = random.pick(Array("123456789uezymb f<>.,x"))  // no s: suspend
            return .event(.key(.alt(key)))
        case 80..<83: return .event(.key(.function(random.next(below: 12) + 1)))
        case 83..<88: return .event(.paste(random.pick(pastes)))
        case 88..<90:
            return .resize(random.pick(sizes))
        default:
            let kinds: [MouseEvent.Kind] = [
                .press(.left), .press(.right), .release, .wheelUp, .wheelDown, .drag,
            ]
            let point = Point(x: random.next(below: 110) - 5, y: random.next(below: 36) - 3)
            return .event(.mouse(MouseEvent(kind: random.pick(kinds), position: point)))
        }
    }
}

/// The app on the demo notebook (in memory) with undo, on a small headless terminal.
@MainActor
final class FuzzSession {
    let db: DatabaseQueue
    let engine: UndoEngine
    let backend = HeadlessBackend(size: FuzzStep.sizes[0])
    let app: NotesApp
    /// How often the whole-database checks run.
    static let databaseCheckInterval = 250

    init() throws {
        db = try DatabaseQueue()
        try NoteStoreSchema.migrate(db)
        try db.write { try Notebook.seedDemo($0) }
        engine = try UndoEngine(for: db, tables: Article.self, ArticleChunk.self, Author.self)
        app = try NotesApp(
            database: db, engine: engine, backend: backend, notebookName: "demo", paneCount: 2)
        app.processPendingEvents()
    }

    /// Runs the steps; returns the first one after which `check` (the invariants by default)
    /// finds something wrong.
    func run(
        _ steps: [FuzzStep], check: ((FuzzSession) throws -> String?)? = nil
    ) throws -> (index: Int, violation: String)? {
        for (index, step) in steps.enumerated() {
            switch step {
            case .event(let event): backend.enqueue(event)
            case .resize(let size): backend.size = size
            }
            app.processPendingEvents()
            let full = (index + 1) % Self.databaseCheckInterval == 0 || index == steps.count - 1
            let found = try check.map { try $0(self) } ?? violation(checkingDatabase: full)
            if let found { return (index, found) }
        }
        return nil
    }

    /// What is wrong with the app now, or nil.
    func violation(checkingDatabase: Bool) throws -> String? {
        guard !app.quitRequested else { return "the app quit" }
        guard backend.suspendCount == 0 else { return "the app suspended" }
        guard (1...9).contains(app.panes.count), app.panes.indices.contains(app.focus) else {
            return "focus \(app.focus) outside \(app.panes.count) panes"
        }
        if let canvas = backend.lastCanvas {
            guard canvas.size == backend.size else {
                return "drew \(canvas.size) on \(backend.size)"
            }
            if let cursor = backend.cursor, !canvas.bounds.contains(cursor) {
                return "cursor \(cursor) off the screen"
            }
            if let control = Self.controlCharacter(on: canvas) { return control }
        }
        let isTooSmall = app.screenLayout.isTooSmall
        for (number, pane) in zip(1..., app.panes) {
            if let problem = Self.selectionProblem(pane, isTooSmall: isTooSmall) {
                return "pane \(number): \(problem)"
            }
            if let editor = pane.editor {
                for (name, buffer) in [("title", editor.title), ("body", editor.body)] {
                    if let problem = Self.cursorProblem(buffer) {
                        return "pane \(number) \(name): \(problem)"
                    }
                }
            } else if case .article = pane.mode {
                return "pane \(number) shows an article without an editor"
            }
        }
        if let problem = try stacksProblem(all: checkingDatabase) { return problem }
        if checkingDatabase {
            let integrity = try db.read { try $0.fetchAll(String.self, "PRAGMA integrity_check") }
            guard integrity == ["ok"] else { return "integrity_check: \(integrity)" }
            let dangling = try db.read { try $0.fetchAll(Row.self, "PRAGMA foreign_key_check") }
            guard dangling.isEmpty else { return "foreign_key_check: \(dangling)" }
        }
        return nil
    }

    /// A cell that would send a control character (ESC above all) to the terminal.
    static func controlCharacter(on canvas: Canvas) -> String? {
        // The screen's text has a newline between rows and nothing else below U+0020.
        for (row, line) in canvas.text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
        {
            for scalar in line.unicodeScalars
            where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                return "row \(row) holds control character \(scalar.escaped(asASCII: true))"
            }
        }
        return nil
    }

    static func selectionProblem(_ pane: Pane, isTooSmall: Bool) -> String? {
        guard pane.selected >= 0, pane.top >= 0 else { return "negative selection or top" }
        guard pane.total > 0 else {
            return pane.selected == 0 && pane.rows.isEmpty ? nil : "selection in an empty list"
        }
        guard pane.selected < pane.total else {
            return "selection \(pane.selected) outside \(pane.total) articles"
        }
        // A pane that is not drawn (terminal too small, or showing an article) loads nothing.
        guard pane.mode == .list, !isTooSmall else { return nil }
        guard (pane.top..<pane.top + pane.rows.count).contains(pane.selected) else {
            return "selection \(pane.selected) not among the rows shown from \(pane.top)"
        }
        return nil
    }

    static func cursorProblem(_ buffer: EditorBuffer) -> String? {
        let text = buffer.text
        let offset = buffer.cursorOffset
        guard (0...text.utf8.count).contains(offset) else {
            return "cursor \(offset) outside \(text.utf8.count) bytes"
        }
        let index = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        guard index.samePosition(in: text.unicodeScalars) != nil else {
            return "cursor \(offset) inside a scalar"
        }
        // Rounding down to a character boundary keeps a boundary where it is.
        if index > text.startIndex, index < text.endIndex,
            text.index(before: text.index(after: index)) != index
        {
            return "cursor \(offset) inside a grapheme of \(text.debugDescription.prefix(80))"
        }
        return nil
    }

    /// Each stack's lists as the log records them, and no log without a registered barrier.
    /// - Parameter all: every stack with history, not only the open panes', and the whole log.
    func stacksProblem(all: Bool) throws -> String? {
        var ids = app.panes.map(\.stackID)
        if all { ids = Array(Set(ids).union(try engine.storedStackIDs())).sorted() }
        for id in ids {
            let names = try db.read { db in
                try [0, 1].map { list in
                    try db.fetchAll(
                        String.self,
                        """
                        SELECT name FROM sqliteundo_barriers
                        WHERE stackId = ? AND list = ? AND supersededBy IS NULL
                        ORDER BY position DESC
                        """, [.text(id), .integer(Int64(list))])
                }
            }
            let state = try engine.stack(id: id).state
            guard state == UndoStackState(undo: names[0], redo: names[1]) else {
                return "stack \(id) is \(state), the log says undo \(names[0]), redo \(names[1])"
            }
        }
        guard all else { return nil }
        let (withoutLog, unregistered) = try db.read { db in
            (
                try db.fetchAll(
                    String.self,
                    """
                    SELECT name FROM sqliteundo_barriers
                    WHERE id NOT IN (SELECT barrier FROM sqliteundo_log)
                    """),
                try db.fetchOne(
                    Int.self,
                    """
                    SELECT count(*) FROM sqliteundo_log
                    WHERE barrier != 0 AND barrier NOT IN (SELECT id FROM sqliteundo_barriers)
                    """) ?? 0
            )
        }
        guard withoutLog.isEmpty else { return "barriers without log rows: \(withoutLog)" }
        guard unregistered == 0 else { return "\(unregistered) log rows of no barrier" }
        return nil
    }

    /// The shortest sequence found (delta debugging, within a budget of runs) that still fails.
    static func minimise(
        _ steps: [FuzzStep], check: ((FuzzSession) throws -> String?)? = nil
    ) throws -> [FuzzStep] {
        var current = steps
        var granularity = 2
        var runs = 0
        let deadline = Date().addingTimeInterval(60)
        while current.count > 1, runs < 400, Date() < deadline {
            let size = max(1, current.count / granularity)
            var reduced = false
            var start = 0
            while start < current.count, runs < 400, Date() < deadline {
                var candidate = current
                candidate.removeSubrange(start..<min(start + size, current.count))
                runs += 1
                if !candidate.isEmpty, try FuzzSession().run(candidate, check: check) != nil {
                    current = candidate
                    reduced = true
                } else {
                    start += size
                }
            }
            if !reduced {
                guard size > 1 else { break }
                granularity = min(current.count, granularity * 2)
            }
        }
        return current
    }
}
