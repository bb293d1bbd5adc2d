import NoteStore
import SQLiteUndo

/// Moving a pane through its history tree: Alt-- and Alt-= step back and forward through the
/// states the pane was in, in the order they were made, across branches (vim's g- and g+); the
/// history panel's Enter goes to any step. Both are undos and redos of the pane's own stack,
/// shown as Ctrl-Z shows one.
extension NotesApp {
    /// Alt-- (back) or Alt-= (forward) in the focused pane.
    func travelInTime(forward: Bool) {
        let pane = focusedPane
        guard let stack = pane.stack else {
            message = "Undo is off (notes was started with --no-undo)"
            return
        }
        // "Back in time to Set Rating: undid 1 step": where the pane is now first, as a status
        // line of 80 columns cuts the rest.
        let saying = { [stack] (events: [UndoEvent]) in
            (forward ? "Forward" : "Back") + " in time to "
                + (stack.undoActionName ?? "the start") + ": "
                + Self.counts(events).lowercased()
        }
        let events = travel(
            in: pane, verb: forward ? "Going forward" : "Going back", saying: saying
        ) { report in
            forward
                ? try stack.forward(
                    inTime: 1, reportingEvery: progressTiming.interval, progress: report)
                : try stack.back(
                    inTime: 1, reportingEvery: progressTiming.interval, progress: report)
        }
        if events?.isEmpty == true {
            message = "Pane \(focus + 1): no \(forward ? "later" : "earlier") state"
        }
    }

    /// Runs `go` (undos and redos of the pane's stack, the typing on the screen saved first),
    /// then shows what came back: the rows revealed, and what `saying` says of the replays
    /// ("Undid 2 steps: …" by default), with what they kept. Returns the events, or nil when it
    /// could not run (the message says why).
    @discardableResult
    func travel(
        in pane: Pane, verb: String, saying: ([UndoEvent]) -> String = NotesApp.replays,
        _ go: (@escaping (ReplayProgress) -> Void) throws -> [UndoEvent]
    ) -> [UndoEvent]? {
        guard saveTyping(in: pane, waitingAtMost: .seconds(1)) else {
            message = "Cannot move in the history yet: the typing is not saved"
            return nil
        }
        do {
            let commitsBefore = commits.value
            let events = try go(replayProgress(verb))
            guard let last = events.last else { return [] }
            let merged = UndoEvent(
                kind: last.kind, name: last.name,
                affectedRows: events.reduce(into: [:]) { rows, event in
                    rows.merge(event.affectedRows) { $0.union($1) }
                },
                conflicts: events.flatMap(\.conflicts))
            pane.noteOwnReplay(
                commitsBefore: commitsBefore, after: commits.value,
                rewriting: merged.ids(for: ArticleChunk.self) ?? [])
            reveal(merged, in: pane)
            let clauses = keptClauses(of: merged, changedNothing: false)
            message =
                saying(events) + (clauses.isEmpty ? "" : "; " + clauses.joined(separator: ", "))
            return events
        } catch {
            message = ErrorWords.describe(error)
            return nil
        }
    }

    /// "Undid 2 steps: Set Rating, Typing", "Redid 1 step: Typing", or across branches "Undid
    /// 1, redid 2 steps: Set Rating, Typing, Cut" (the counts first: a status line cuts the
    /// names).
    nonisolated static func replays(_ events: [UndoEvent]) -> String {
        counts(events) + ": " + events.map(\.name).joined(separator: ", ")
    }

    /// "Undid 2 steps", "Redid 1 step", "Undid 1, redid 2 steps".
    nonisolated static func counts(_ events: [UndoEvent]) -> String {
        let undos = events.filter { $0.kind == .undo }.count
        let redos = events.count - undos
        return switch (undos, redos) {
        case (_, 0): "Undid \(counted(undos, "step"))"
        case (0, _): "Redid \(counted(redos, "step"))"
        default: "Undid \(undos), redid \(counted(redos, "step"))"
        }
    }
}
