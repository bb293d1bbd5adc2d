import Foundation
import NoteStore
import SQLiteDatabase
import TerminalUI

/// Typing into long articles: what history and keystrokes cost when the body is large
/// and the edit small. Each notebook holds one article, typed into with the real app (headless),
/// cursor at the middle of the body.
@MainActor
struct LongBodyBenchmarks {
    let config: BenchConfig
    let folder: ScratchFolder

    var longLabel: String {
        config.longBody % 1_000_000 == 0
            ? "\(config.longBody / 1_000_000) MB" : "\(config.longBody / 1000) KB"
    }

    func run() throws -> [Measurement] {
        [
            try measureBytes(runs: 1, target: 64),
            try measureBytes(runs: config.typedCharacters / 10, target: 256),
            try measureKeystroke(),
            try measureUndo(),
            try measureSelectionKeystroke(),
            try measureFindKeystroke(),
            try measureCopyAndPaste(),
        ]
    }

    /// A notebook of one article whose body is `bytes` long (lines of words), opened in the app
    /// with the cursor in the middle of the body.
    func openArticle(bodyBytes bytes: Int, name: String) throws -> RunningApp {
        let path = folder.path("\(name).db")
        let line = "lorem ipsum dolor sit amet, consectetur adipiscing elit, 😀 sed do eiusmod.\n"
        let body = String(
            String(repeating: line, count: bytes / line.utf8.count + 1).utf8.prefix(bytes))!
        let db = try DatabaseQueue(path: path)
        try NoteStoreSchema.migrate(db)
        try db.write { db in
            _ = try Notebook.insertArticle(db, title: "Long", body: body)
        }
        let app = try RunningApp(notebook: path)
        try app.waitForCheck()
        // The newest article is first: open it, then go to the middle of the body.
        app.press(.enter)
        for _ in 0..<(min(bytes / line.utf8.count, 40_000) / 2) { app.press(.down) }
        return app
    }

    /// The notebook's file and WAL, after a checkpoint that empties the WAL.
    private func notebookBytes(_ app: RunningApp) throws -> Double {
        let path = app.database.path ?? ""
        try app.database.withoutTransaction { try $0.execute("PRAGMA wal_checkpoint(TRUNCATE)") }
        let sizes = try [path, path + "-wal"].map { file in
            FileManager.default.fileExists(atPath: file)
                ? (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0) : 0
        }
        return Double(sizes.reduce(0, +))
    }

    /// Bytes the notebook grows by while 1,000 characters are typed into a 100 KB body, in
    /// `runs` undo steps (a cursor move, Left then Right, ends each run).
    private func measureBytes(runs: Int, target: Double) throws -> Measurement {
        let app = try openArticle(bodyBytes: 100_000, name: "bytes-\(runs)")
        let before = try notebookBytes(app)
        let perRun = config.typedCharacters / runs
        for run in 0..<runs {
            if run > 0 {
                app.press(.left)
                app.press(.right)
            }
            for index in 0..<perRun { app.press(.character(index % 6 == 5 ? " " : "q")) }
        }
        let steps = try app.database.read { db in
            try db.fetchOne(
                Int.self,
                "SELECT count(*) FROM sqliteundo_barriers WHERE list = 0 AND name = 'Typing'")
        }
        guard steps == runs else {
            throw BenchFailure("typing made \(steps ?? 0) undo steps, not \(runs)")
        }
        let grown = try notebookBytes(app) - before
        let shape = runs == 1 ? "one coalesced run" : "\(runs) runs of \(perRun) (separate steps)"
        return Measurement(
            measure: "bytes added to the notebook (file + WAL after checkpoint), "
                + "\(config.typedCharacters) characters typed into a 100 KB body, \(shape) / characters typed",
            value: grown, baseline: Double(config.typedCharacters), unit: .bytes,
            target: .atMost(target))
    }

    /// A character typed into the middle of a long body (1 MB) against a 1 KB one: handled,
    /// written (one coalesced barrier, committed) and drawn.
    private func measureKeystroke() throws -> Measurement {
        let big = try openArticle(bodyBytes: config.longBody, name: "key-big")
        let small = try openArticle(bodyBytes: 1_000, name: "key-small")
        let medians = try Interleaving.medianSeconds(
            [
                Contender { big.press(.character("x")) },
                Contender { small.press(.character("x")) },
            ], repetitions: config.keyRepetitions)
        return Measurement(
            measure: "keystroke typed, handled, committed and drawn: \(longLabel) body / 1 KB body",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(2.0))
    }

    /// Ctrl-Z of a run of 1,000 characters typed into the middle of a long body (1 MB) against
    /// a 1 KB one (Ctrl-Y, untimed, between two undos).
    private func measureUndo() throws -> Measurement {
        let big = try openArticle(bodyBytes: config.longBody, name: "undo-big")
        let small = try openArticle(bodyBytes: 1_000, name: "undo-small")
        for app in [big, small] {
            for index in 0..<config.typedCharacters {
                app.press(.character(index % 6 == 5 ? " " : "u"))
            }
        }
        let undo = Key.control("z")
        let redo = Key.control("y")
        let medians = try Interleaving.medianSeconds(
            [
                Contender(prepare: { big.press(redo) }) { big.press(undo) },
                Contender(prepare: { small.press(redo) }) { small.press(undo) },
            ], repetitions: config.undoRepetitions)
        for app in [big, small] {
            let typed = try app.database.read { db in
                try db.fetchOne(
                    Int.self, "SELECT count(*) FROM articles WHERE instr(body, 'uuuuu u') > 0")
            }
            guard typed == 0 else { throw BenchFailure("the undo left the typed run in place") }
        }
        return Measurement(
            measure:
                "undo of a \(config.typedCharacters)-character run: \(longLabel) body / 1 KB body",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(2.0))
    }
}
