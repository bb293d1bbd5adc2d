import NoteStore
import SQLiteDatabase

extension Pane {
    /// Shows what this pane's last undo or redo brought back (`restoredToReveal`), once, as the
    /// pane loads: an open article that came back stays open (or opens again, if it was gone)
    /// with the cursor at the change, the list selecting it; an open article the undo took
    /// away leaves the pane in its "deleted" state; otherwise the list selects the restored
    /// article that comes first in its order, clearing a filter that hides it. Returns whether
    /// the open article's cursor goes to the change.
    func revealRestored(_ db: Database) throws -> Bool {
        guard let ids = restoredToReveal else { return false }
        restoredToReveal = nil
        let openCameBack = { (open: Int64) in
            try ids.contains(open) && Notebook.articleExists(db, id: open)
        }
        switch mode {
        case .article(let open):
            if try openCameBack(open) {
                editor?.endRun()
                // The list, back with Esc, selects it where the undo put it.
                try select(articleID: open, db)
                return true
            }
            guard try !Notebook.articleExists(db, id: open) else {
                mode = .list  // to show what came back
                break
            }
            // Taken back by this undo (a New Article): typing stays harmless, and the redo
            // opens it again.
            mode = .gone(open)
            editor = nil
            return false
        case .gone(let open):
            if try openCameBack(open) {
                try self.open(articleID: open, db)
                return true
            }
        case .list:
            break
        }
        // One walk of the list's order, however many came back; else the first in the order
        // of the whole list (selecting it clears the filter that hides it).
        let first =
            try Notebook.firstArticle(db, among: ids, in: query)
            ?? Notebook.firstArticle(db, among: ids, in: ArticleQuery(order: query.order))
        if let first { try select(articleID: first, db) }
        return false
    }
}
