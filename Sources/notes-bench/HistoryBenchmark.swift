import Foundation
import SQLiteDatabase
import SQLiteUndo

/// Undo (and redo) of one barrier when the stack holds a long history, against a short one; and
/// an undo that keeps a change another stack made since (and names that stack), likewise.
@MainActor
struct HistoryBenchmark {
    let config: BenchConfig

    func run() throws -> [Measurement] {
        let long = try History(barriers: config.longHistory, rows: config.rows)
        let short = try History(barriers: config.shortHistory, rows: config.rows)
        let medians = try Interleaving.medianSeconds(
            [Contender(run: long.undoAndRedo), Contender(run: short.undoAndRedo)],
            repetitions: config.historyRepetitions)
        let measure =
            "undo+redo with \(countLabel(config.longHistory)) barriers of history "
            + "/ \(config.shortHistory)"
        let conflicts = try Interleaving.medianSeconds(
            [
                Contender(prepare: long.editThenOverwrite, run: long.undoKeepingTheOverwrite),
                Contender(prepare: short.editThenOverwrite, run: short.undoKeepingTheOverwrite),
            ],
            repetitions: config.historyRepetitions)
        return [
            Measurement(
                measure: measure, value: medians[0], baseline: medians[1], unit: .seconds,
                target: .atMost(1.2)),
            Measurement(
                measure: "undo keeping another stack's later edit, "
                    + "\(countLabel(config.longHistory)) barriers of history / \(config.shortHistory)",
                value: conflicts[0], baseline: conflicts[1], unit: .seconds,
                target: .atMost(1.2)),
        ]
    }

    /// An in-memory database whose stack holds `barriers` one-row barriers.
    private struct History {
        let db: DatabaseQueue
        let engine: UndoEngine
        let stack: UndoStack

        init(barriers: Int, rows: Int) throws {
            db = try DatabaseQueue()
            try ArticlesTable.create(rows: rows, in: db)
            engine = try UndoEngine(for: db, tableNames: [ArticlesTable.name])
            stack = engine.defaultStack
            stack.levelsOfUndo = barriers + 1
            let started = Date()
            for index in 0..<barriers {
                let id = Int64(index * 7919 % rows + 1)
                try undoable("Set Rating") {
                    try db.write { db in
                        try db.execute(
                            "UPDATE articles SET rating = rating + 1 WHERE id = ?", [.integer(id)])
                    }
                }
            }
            guard stack.state.undo.count == barriers else {
                throw BenchFailure(
                    "the stack kept \(stack.state.undo.count) of \(barriers) barriers")
            }
            Progress.note(
                "built \(barriers) barriers of history in "
                    + String(format: "%.1f s", Date().timeIntervalSince(started)))
        }

        /// Untimed: the stack edits a title and sets a rating, then another stack edits the
        /// title.
        func editThenOverwrite() throws {
            try undoable("Edit") {
                try db.write { db in
                    try db.execute(
                        "UPDATE articles SET title = title || '+', rating = 9 WHERE id = 1")
                }
            }
            try withUndoStack(try engine.stack(id: "other")) {
                try undoable("Set Title") {
                    try db.write { db in
                        try db.execute("UPDATE articles SET title = title || '!' WHERE id = 1")
                    }
                }
            }
        }

        /// The undo sets the rating back and keeps the title, naming the stack that wrote it
        /// (which reads the log back to that stack's write).
        func undoKeepingTheOverwrite() throws {
            let conflicts = try stack.undo()?.conflicts ?? []
            guard conflicts.map(\.keptFrom) == ["other"] else {
                throw BenchFailure("the undo kept \(conflicts), not the other stack's title")
            }
        }

        func undoAndRedo() throws {
            guard try stack.undo() != nil, try stack.redo() != nil else {
                throw BenchFailure("nothing to undo or redo")
            }
        }
    }
}
