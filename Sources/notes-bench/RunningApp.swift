import NoteStore
import NotesApp
import SQLiteDatabase
import SQLiteUndo
import TerminalUI

/// The notes app opened on a notebook file as `notes --db PATH` opens it (migrations, undo
/// engine, two panes), drawing on a headless 120×40 terminal.
@MainActor
final class RunningApp {
    let database: DatabaseQueue
    let engine: UndoEngine?
    let backend: HeadlessBackend
    let app: NotesApp

    /// Opens the notebook and draws the first frame.
    init(notebook path: String) throws {
        (database, engine) = try NotebookOpener.open(path: path, seed: .welcome, undo: true)
        backend = HeadlessBackend(
            size: Size(width: BenchConfig.terminalWidth, height: BenchConfig.terminalHeight))
        app = try NotesApp(
            database: database, engine: engine, backend: backend, notebookName: "bench.db",
            paneCount: 2)
        app.processPendingEvents()
    }

    /// Waits for the check for damage that opening started in the background (`NotebookOpener`).
    func waitForCheck() throws {
        try database.pendingCheck?.wait()
    }

    /// Handles one key and draws the frame that follows.
    func press(_ key: Key) {
        backend.enqueue(.key(key))
        app.processPendingEvents()
    }

    /// Fails unless the last frame shows articles.
    func checkFrameShowsArticles() throws {
        guard backend.drawCount > 0, backend.screenText.contains("Article") else {
            throw BenchFailure("the app drew no article list:\n\(backend.screenText)")
        }
    }
}
