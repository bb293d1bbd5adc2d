import Foundation
import SQLiteDatabase
import SQLiteUndo
import TerminalUI

/// The history panel opened (Alt-H, lines described, the selected step's
/// take-back previewed, drawn) and closed again on a pane whose stack holds a long history,
/// against a short one; and a take-back (`revert`) of a step deep in a history, against one of
/// the newest step.
@MainActor
struct HistoryPanelBenchmarks {
    let config: BenchConfig
    let folder: ScratchFolder

    func run() throws -> [Measurement] {
        try [measurePanel(), measureRevert()]
    }

    private func measurePanel() throws -> Measurement {
        let long = try app(withSteps: config.longHistory, "long")
        let short = try app(withSteps: config.shortHistory, "short")
        let toggle = { (app: RunningApp) in
            app.press(.alt("h"))
            app.press(.escape)
        }
        let medians = try Interleaving.medianSeconds(
            [Contender { toggle(long) }, Contender { toggle(short) }],
            repetitions: config.keyRepetitions)
        for (app, steps) in [(long, config.longHistory), (short, config.shortHistory)] {
            app.press(.alt("h"))
            guard app.backend.screenText.contains("History · \(steps) steps"),
                app.backend.screenText.contains("Set Rating · Article")
            else {
                throw BenchFailure("the panel did not list the steps:\n\(app.backend.screenText)")
            }
        }
        return Measurement(
            measure: "history panel opened and closed (Alt-H, Esc, drawn), a tree of "
                + "\(countLabel(config.longHistory)) steps / \(config.shortHistory)",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.2))
    }

    /// The app on a notebook of `smallNotebook` articles whose first pane's stack holds `steps`
    /// ratings (the first pressed in the app, the others written through its engine), as a tree:
    /// a step undone before the next one every `branchEvery` steps (once in a short history)
    /// is a branch of its own.
    private func app(withSteps steps: Int, _ name: String) throws -> RunningApp {
        let path = folder.path("panel-\(name).db")
        try NotebookFixture.create(articles: config.smallNotebook, at: path)
        let app = try RunningApp(notebook: path)
        app.press(.character("1"))
        guard let engine = app.engine, let stackID = try engine.storedStackIDs().first else {
            throw BenchFailure("the app's rating filed no step")
        }
        let stack = try engine.stack(id: stackID)
        stack.levelsOfUndo = steps + 1
        let started = Date()
        let branchEvery = min(1000, steps / 2)
        try withUndoStack(stack) {
            for index in 1..<steps {
                if index % branchEvery == 0 { try stack.undo() }
                try undoable("Set Rating") {
                    try app.database.write { db in
                        try db.execute(
                            "UPDATE article_rows SET rating = (rating + 1) % 6 WHERE id = ?",
                            [.integer(Int64(index % config.smallNotebook + 1))])
                    }
                }
            }
        }
        let history = stack.history
        guard history.undo.count + history.kept.count == steps, !history.kept.isEmpty else {
            throw BenchFailure(
                "the stack kept \(history.undo.count) + \(history.kept.count) of \(steps) steps")
        }
        Progress.note(
            "built \(steps) steps of a pane's history in "
                + String(format: "%.1f s", Date().timeIntervalSince(started)))
        return app
    }

    /// A take-back of the step `revertDepth` steps deep against one of the newest, each undone
    /// again untimed (an exact replay) so that every round takes back the same step.
    private func measureRevert() throws -> Measurement {
        let depth = config.revertDepth
        let db = try DatabaseQueue()
        try ArticlesTable.create(rows: depth + 1, in: db)
        let engine = try UndoEngine(for: db, tableNames: [ArticlesTable.name])
        let stack = engine.defaultStack
        stack.levelsOfUndo = depth + 10
        // Each step rates a row of its own: a take-back always restores.
        for index in 0...depth {
            try undoable("Set Rating") {
                try db.write { db in
                    try db.execute(
                        "UPDATE articles SET rating = rating + 10 WHERE id = ?",
                        [.integer(Int64(index + 1))])
                }
            }
        }
        let deep = stack.history.undo[depth]
        let newest = stack.history.undo[0]
        let takeBack = { (step: UndoStep) in
            guard let event = try stack.revert(step), event.conflicts.isEmpty,
                stack.history.undo.first?.name == "Take back Set Rating"
            else { throw BenchFailure("the take-back of \(step.name) did not restore it") }
        }
        let undoTakeBack = {
            if stack.history.undo.first?.name == "Take back Set Rating" { try stack.undo() }
        }
        let medians = try Interleaving.medianSeconds(
            [
                Contender(prepare: undoTakeBack) { try takeBack(deep) },
                Contender(prepare: undoTakeBack) { try takeBack(newest) },
            ], repetitions: config.historyRepetitions)
        return Measurement(
            measure: "take back one step (revert), \(countLabel(depth)) steps deep / the newest",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.5))
    }
}
