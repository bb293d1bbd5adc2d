import NoteStore
import SQLiteUndo

extension NotesApp {
    /// Undo or redo in the focused pane only, then show what came back.
    func replay(undoing: Bool) {
        let pane = focusedPane
        let number = focus + 1
        guard let stack = pane.stack else {
            message = "Undo is off (notes was started with --no-undo)"
            return
        }
        // The typing on the screen is the newest change: written first, or nothing is replayed.
        guard saveTyping(in: pane, waitingAtMost: .seconds(1)) else {
            let reason = pane.editor?.unsaved?.reason ?? ""
            message = "Cannot \(undoing ? "undo" : "redo") yet: the typing is not saved (\(reason))"
            return
        }
        do {
            let oppositeCount = { (undoing ? stack.state.redo : stack.state.undo).count }
            let before = oppositeCount()
            let commitsBefore = commits.value
            let report = replayProgress(undoing ? "Undoing" : "Redoing")
            // Undoing a cut or a paste puts the cursor and the selection back as they were.
            pane.editor?.prepareForReplay(
                undoing: undoing, of: undoing ? stack.history.undo.first : nil)
            guard
                let event = undoing
                    ? try stack.undo(reportingEvery: progressTiming.interval, progress: report)
                    : try stack.redo(reportingEvery: progressTiming.interval, progress: report)
            else {
                message = "Pane \(number): nothing to \(undoing ? "undo" : "redo")"
                return
            }
            pane.noteOwnReplay(
                commitsBefore: commitsBefore, after: commits.value,
                rewriting: event.ids(for: ArticleChunk.self) ?? [])
            reveal(event, in: pane)
            // A replay that restored nothing (all of it changed since) files nothing to replay
            // back: the step leaves the lists.
            message = describe(event, changedNothing: oppositeCount() == before)
        } catch {
            message = ErrorWords.describe(error)
        }
    }

    /// Marks what came back for the pane to show at its next load (`Pane.revealRestored`), and
    /// highlights the rows for a second.
    func reveal(_ event: UndoEvent, in pane: Pane) {
        for other in panes { other.invalidate() }
        var ids = event.ids(for: Article.self) ?? []
        if let chunks = event.ids(for: ArticleChunk.self), !chunks.isSubset(of: ids) {
            // A body's chunks: their articles (a chunk the replay removed has none now).
            ids.formUnion(
                (try? database.read { try Notebook.articleIDs(ofChunks: chunks, $0) }) ?? [])
        }
        guard !ids.isEmpty else { return }
        if let selected = pane.selectedID, ids.contains(selected) {
            pane.selectWhatTakesItsPlace()
        }
        pane.highlighted = ids
        pane.highlightUntil = .now + .seconds(1)
        pane.restoredToReveal = ids
    }

    /// "Undid Delete Article", with what was kept and why, in words: "Undid Typing; kept Title:
    /// pane 2 changed it since", or, when all of it was kept, "Nothing undone: pane 2 changed
    /// Title since". A take-back (`revert`, `tookBack`) reads "Took back Set Rating", or
    /// "Nothing taken back: …".
    func describe(_ event: UndoEvent, changedNothing: Bool = false, tookBack: Bool = false)
        -> String
    {
        let clauses = keptClauses(
            of: event, changedNothing: changedNothing, takingBack: tookBack)
        let takeBack = "Take back "
        if changedNothing {
            let verb = tookBack ? "taken back" : event.kind == .undo ? "undone" : "redone"
            return "Nothing \(verb)"
                + (clauses.isEmpty ? "" : ": " + clauses.joined(separator: ", "))
        }
        let text =
            tookBack
            ? "Took back " + event.name.dropFirst(takeBack.count)
            : (event.kind == .undo ? "Undid " : "Redid ") + event.name
        return clauses.isEmpty ? text : text + "; " + clauses.joined(separator: ", ")
    }

    /// What a replay kept and why, one clause each: "kept Title: pane 2 changed it since", or,
    /// when it changed nothing, "pane 2 changed Title since" ("this pane" for the focused
    /// pane's own later steps, which a take-back of a past step keeps). An undo or a redo never
    /// keeps a change of its own pane's: a value its pane's own replay left there is one that
    /// replay gave back, someone else's, so it is not named ("Body was changed since").
    func keptClauses(of event: UndoEvent, changedNothing: Bool, takingBack: Bool = false)
        -> [String]
    {
        var clauses: [String] = []
        // Each stack named once: one no pane shows is looked up among the leases.
        var names: [String?: String] = [:]
        // updatedAt is bookkeeping, not something the person edited.
        for conflict in event.conflicts where conflict.column != "updatedAt" {
            let clause: String
            switch conflict.reason {
            case .changedSince:
                let (verb, what) = change(kept: conflict)
                guard takingBack || conflict.keptFrom != focusedPane.stackID else {
                    clause =
                        changedNothing
                        ? "\(what) was \(verb) since" : "kept \(what): it was \(verb) since"
                    break
                }
                // The focused pane's own later step (a take-back of a past one): "this pane".
                let who =
                    names[conflict.keptFrom]
                    ?? (conflict.keptFrom == focusedPane.stackID
                        ? "this pane" : paneName(ofStack: conflict.keptFrom))
                names[conflict.keptFrom] = who
                clause =
                    changedNothing
                    ? "\(who) \(verb) \(what) since" : "kept \(what): \(who) \(verb) it since"
            case .foreignKey:
                clause = Self.describeKeptReference(conflict)
            case .constraint:
                let what = conflict.column.map { "the earlier " + Self.fieldName($0) }
                clause =
                    changedNothing
                    ? "\(what ?? "the earlier article") would break a rule of the notebook"
                    : "kept \(conflict.column.map(Self.fieldName) ?? "an article"): "
                        + "the earlier one would break a rule of the notebook"
            }
            if !clauses.contains(clause) { clauses.append(clause) }
        }
        return clauses
    }

    /// Who made a change, by its stack: "pane 2", "a closed pane" (of this window, or of a
    /// notes that quit), "pane 1 of window 4321" or "a closed pane of window 4321" (a notes
    /// running on the notebook, named by its process id, which its title bar shows), or
    /// "someone else" (no stack: another program, or a change outside any undo step). Reads
    /// nothing: other windows are as the last look found them (`otherWindows`).
    func paneName(ofStack stackID: String?) -> String {
        guard let stackID else { return "someone else" }
        if let index = panes.firstIndex(where: { $0.stackID == stackID }) {
            return "pane \(index + 1)"
        }
        guard let window = otherWindows[stackID] else { return "a closed pane" }
        return (window.pane.map { "pane \($0)" } ?? "a closed pane")
            + " of window \(window.process)"
    }

    /// What the kept change did, and to what: ("changed", "Title"), ("deleted", "the
    /// article"), ("changed", "the author's name").
    private func change(kept conflict: UndoConflict) -> (verb: String, what: String) {
        let isAuthor = conflict.table == Author.tableName
        if conflict.table == ArticleChunk.tableName { return ("changed", "Body") }
        if let column = conflict.column {
            return ("changed", isAuthor ? "the author's name" : Self.fieldName(column))
        }
        let exists = try? database.read { db in
            try db.fetchOne(
                Int.self, "SELECT EXISTS (SELECT 1 FROM \"\(conflict.table)\" WHERE rowid = ?)",
                [.integer(conflict.rowid)]) == 1
        }
        return (exists == false ? "deleted" : "changed", isAuthor ? "the author" : "the article")
    }

    /// A value kept because the replay would have broken a reference between articles and
    /// authors.
    private static func describeKeptReference(_ conflict: UndoConflict) -> String {
        if let column = conflict.column {
            return "kept \(fieldName(column)): the earlier one is gone"
        }
        if conflict.table == Author.tableName { return "kept the author: articles still use it" }
        return "left out an article whose author is gone"
    }

    static func fieldName(_ column: String) -> String {
        switch column {
        case "authorId": return "Author"
        case "text": return "Body"
        default: return column.prefix(1).uppercased() + column.dropFirst()
        }
    }
}
