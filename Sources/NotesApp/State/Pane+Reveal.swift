import NoteStore
import SQLiteDatabase

extension Pane {
    /// Shows what this pane's last undo or redo brought back (`restoredToReveal`), once, as the
    /// pane loads: an open article that came back stays open (or opens again, if it was gone)
    /// with the cursor at the change; an open article the undo took away leaves the pane in its
    /// "deleted" state; otherwise the list selects the restored article that comes first in its
    /// order, clearing a filter that hides it. Returns whether the open article's cursor goes
    /// to the change.
    func revealRestored(_ db: Database) throws -> Bool {
        guard let ids = restoredToReveal else { return false }
        restoredToReveal = nil
        // Enough to find the first in the list's order; a bulk undo restores many thousands.
        let present = try ids.sorted().prefix(200).filter {
            try Notebook.articleExists(db, id: $0)
        }
        switch mode {
        case .article(let open) where present.contains(open):
            editor?.endRun()
            return true
        case .gone(let open) where present.contains(open):
            try self.open(articleID: open, db)
            return true
        case .article(let open):
            guard try !Notebook.articleExists(db, id: open) else {
                mode = .list  // to show what came back
                break
            }
            // Taken back by this undo (a New Article): typing stays harmless, and the redo
            // opens it again.
            mode = .gone(open)
            editor = nil
            return false
        case .list, .gone:
            break
        }
        var best: (position: Int, id: Int64)?
        for id in present {
            if let position = try Notebook.position(db, ofArticle: id, in: query),
                best.map({ position < $0.position }) ?? true
            {
                best = (position, id)
            }
        }
        if let id = best?.id ?? present.first {
            try select(articleID: id, db)
        }
        return false
    }
}
