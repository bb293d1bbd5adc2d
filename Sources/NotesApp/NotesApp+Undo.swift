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
        do {
            guard let event = undoing ? try stack.undo() : try stack.redo() else {
                message = "Pane \(number): nothing to \(undoing ? "undo" : "redo")"
                return
            }
            reveal(event, in: pane)
            message = describe(event)
        } catch {
            message = "\(error)"
        }
    }

    /// Selects and scrolls to the first restored article (clearing a filter that hides it),
    /// keeps an open article open when it still exists, and highlights the rows for a second.
    func reveal(_ event: UndoEvent, in pane: Pane) {
        for other in panes { other.invalidate() }
        let ids = event.ids(for: Article.self) ?? []
        guard !ids.isEmpty else { return }
        if let selected = pane.selectedID, ids.contains(selected) {
            pane.selectWhatTakesItsPlace()
        }
        pane.highlighted = ids
        pane.highlightUntil = .now + .seconds(1)
        do {
            try database.read { db in
                let present = try ids.sorted().prefix(200).filter {
                    try Notebook.article(db, id: $0) != nil
                }
                switch pane.mode {
                case .article(let open) where present.contains(open):
                    pane.editor?.placeCursorAtChange = true
                    pane.editor?.endRun()
                    return
                case .gone(let open) where present.contains(open):
                    try pane.open(articleID: open, db)
                    pane.editor?.placeCursorAtChange = true
                    return
                case .article(let open):
                    guard try Notebook.article(db, id: open) == nil else {
                        pane.mode = .list  // to show what came back
                        break
                    }
                    // Taken back by this undo (a New Article): typing stays harmless, and the
                    // redo opens it again.
                    pane.mode = .gone(open)
                    pane.editor = nil
                    return
                case .list, .gone:
                    break
                }
                var best: (position: Int, id: Int64)?
                for id in present {
                    if let position = try Notebook.position(db, ofArticle: id, in: pane.query),
                        best.map({ position < $0.position }) ?? true
                    {
                        best = (position, id)
                    }
                }
                // By id: the position is resolved when the pane loads, counting the restored rows.
                if let id = best?.id ?? present.first {
                    try pane.select(articleID: id, db)
                }
            }
        } catch {
            message = "\(error)"
        }
    }

    /// "Undid Delete Article", with the later edits that were kept, in words:
    /// "Undid Typing; kept pane 2's later edit of Title".
    func describe(_ event: UndoEvent) -> String {
        var text = (event.kind == .undo ? "Undid " : "Redid ") + event.name
        var kept: [String] = []
        // updatedAt is bookkeeping, not something the person edited.
        for conflict in event.conflicts where conflict.column != "updatedAt" {
            let phrase: String
            switch conflict.reason {
            case .changedSince:
                let field =
                    conflict.column.map(Self.fieldName)
                    ?? (conflict.table == Author.tableName ? "the author" : "the whole article")
                phrase = "kept \(author(of: conflict))'s later edit of \(field)"
            case .foreignKey:
                phrase = Self.describeKeptReference(conflict)
            }
            if !kept.contains(phrase) { kept.append(phrase) }
        }
        if !kept.isEmpty { text += "; " + kept.joined(separator: ", ") }
        return text
    }

    /// Who made a kept change: "pane 2", "a closed pane", or "someone else" (another program).
    private func author(of conflict: UndoConflict) -> String {
        guard let stackID = conflict.keptFrom else { return "someone else" }
        if let index = panes.firstIndex(where: { $0.stackID == stackID }) {
            return "pane \(index + 1)"
        }
        return "a closed pane"
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
        default: return column.prefix(1).uppercased() + column.dropFirst()
        }
    }
}
