import SQLiteDatabase
import SQLiteUndo
import TerminalUI

/// Long work (undoing 100k rows, deleting an author with all their articles) shows how far it
/// has come: once it has taken half a second, the status line names it with its rows done of
/// rows, drawn again about ten times a second over the last frame (which needs no read: the
/// work holds the notebook). Keys typed meanwhile wait in the terminal and are handled after
/// it, in order.
extension NotesApp {
    /// A report for replays starting now (one, or the steps of a jump through the history):
    /// "Undoing Delete Author: 40,210 of 100,001 rows".
    func replayProgress(_ verb: String) -> (ReplayProgress) -> Void {
        let start = ContinuousClock.now
        let shownAfter = progressTiming.shownAfter
        return { [self] progress in
            guard ContinuousClock.now - start >= shownAfter else { return }
            showProgress(
                "\(verb) \(progress.name): "
                    + Self.rows(progress.rowsDone, of: progress.rowsTotal))
        }
    }

    /// Runs `body` (a write of `expected` rows of `tables`, in the open transaction of `db`),
    /// showing its progress as "`name`: 40,210 of 100,001 rows" once it takes half a second.
    func showingProgress(
        of name: String, expected: Int, in tables: [String], _ db: Database,
        _ body: () throws -> Void
    ) throws {
        let start = ContinuousClock.now
        let before = db.changedRowCount(of: tables)
        try db.reportingProgress(
            every: progressTiming.interval,
            to: {
                guard ContinuousClock.now - start >= progressTiming.shownAfter else { return }
                let done = db.changedRowCount(of: tables) - before
                showProgress("\(name): " + Self.rows(min(done, expected), of: expected))
            }, body)
    }

    /// "40,210 of 100,001 rows".
    static func rows(_ done: Int, of total: Int) -> String {
        "\(grouped(done)) of \(grouped(total)) \(total == 1 ? "row" : "rows")"
    }

    /// Draws the last frame again with `text` in the status line, after the pane's number.
    private func showProgress(_ text: String) {
        guard var frame = lastFrame else { return }
        let line = screenLayout.statusLine
        guard !screenLayout.isTooSmall, line.width > 0 else { return }
        StatusLine.draw(StatusLine.text(pane: focus + 1, [text]), on: &frame, in: line)
        backend.draw(frame, cursor: nil)
    }
}
