import NoteStore
import NotesApp
import SQLiteDatabase
import SQLiteUndo
import TerminalUI

extension BigActionBenchmarks {
    /// Ctrl-Z in the app after deleting an author with `bigActionArticles` articles (the undo
    /// with its progress, then the reveal: the first restored article selected and shown,
    /// counts, both panes drawn again) against the same undo by the library alone, on a copy.
    func measureUndoInTheApp() throws -> Measurement {
        let running = try RunningApp(notebook: try notebook("app"))
        try running.waitForCheck()
        // The author picker (a), filtered to the prolific author, Delete, y.
        running.press(.character("a"))
        for character in "Prolific" { running.press(.character(character)) }
        for key in [Key.delete, .character("y")] { running.press(key) }
        let (db, engine) = try NotebookOpener.open(
            path: try notebook("app-library"), seed: .welcome, undo: true)
        guard let engine else { throw BenchFailure("no engine") }
        let stack = try engine.stack(id: "bench")
        try withUndoStack(stack) {
            try undoable("Delete Author") { try db.write { try Notebook.deleteAuthor($0, id: 1) } }
        }
        let articles = { (db: DatabaseQueue) in
            try db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM article_rows") ?? 0 }
        }
        guard try articles(running.database) == 1, try articles(db) == 1 else {
            throw BenchFailure("the app did not delete the author:\n\(running.backend.screenText)")
        }
        var isDeleted = (app: true, library: true)
        let medians = try Interleaving.medianSeconds(
            [
                Contender(
                    prepare: {
                        if !isDeleted.app { running.press(.control("y")) }
                        isDeleted.app = true
                    }
                ) {
                    running.press(.control("z"))
                    isDeleted.app = false
                },
                Contender(
                    prepare: {
                        if !isDeleted.library { try stack.redo() }
                        isDeleted.library = true
                    }
                ) {
                    guard try stack.undo() != nil else { throw BenchFailure("nothing to undo") }
                    isDeleted.library = false
                },
            ], repetitions: config.bigActionRepetitions)
        let restored = config.bigActionArticles + 1
        guard try articles(running.database) == restored, try articles(db) == restored,
            running.backend.screenText.contains("Undid Delete Author")
        else {
            throw BenchFailure(
                "the app's undo did not bring them back:\n\(running.backend.screenText)")
        }
        return Measurement(
            measure: "Ctrl-Z in the app after deleting an author with "
                + "\(countLabel(config.bigActionArticles)) articles (undo, reveal, frame) "
                + "/ the same undo by the library",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.2))
    }
}
