import NoteStore
import SQLiteUndo

/// What a step changed, in words, so that two steps of one name are told apart by more than
/// their age: the text a typing run typed or deleted (`Typing "second"`, `Delete Text "ab"`), a
/// paste's or a cut's size, a rating's stars.
extension StepSummary {
    /// The longest typed text a line quotes; longer is cut with "…".
    static let quotedAtMost = 24

    /// Words after the step's name (`"second"`, `1,204 characters`) and after what it touched
    /// (`★★★☆☆`); empty when the name says it all.
    static func change(made step: UndoStep, of stack: UndoStack) throws
        -> (detail: String, value: String)
    {
        switch step.name {
        case "Set Rating":
            let ratings = try stack.newValues(of: step, column: "rating", in: Article.self)
            guard ratings.count == 1, case .integer(let rating) = ratings.first?.value else {
                return ("", "")
            }
            return ("", RatingStars.text(for: Int(rating)))
        case "Typing", "Delete Text", "Paste", "Cut":
            let edits =
                try stack.textEdits(of: step, column: "text", in: ArticleChunk.self).values
                .flatMap { $0 }
                + stack.textEdits(of: step, column: "title", in: Article.self).values
                .flatMap { $0 }
            let inserted = edits.map(\.inserted).joined()
            let removed = edits.map(\.removed).joined()
            switch step.name {
            case "Paste": return (counted(inserted.count, "character"), "")
            case "Cut": return (counted(removed.count, "character"), "")
            case "Delete Text" where inserted.isEmpty: return (quoted(removed), "")
            default: return (typed(inserted, removed), "")
            }
        default:
            return ("", "")
        }
    }

    /// `"second"`, `deleted "first"`, or `"new" for "old"`.
    static func typed(_ inserted: String, _ removed: String) -> String {
        switch (inserted.isEmpty, removed.isEmpty) {
        case (true, true): ""
        case (false, true): quoted(inserted)
        case (true, false): "deleted " + quoted(removed)
        case (false, false): quoted(inserted) + " for " + quoted(removed)
        }
    }

    /// The text in quotes on one line (a line break as "↵"), cut to `quotedAtMost` characters.
    static func quoted(_ text: String) -> String {
        let line = text.replacingOccurrences(of: "\n", with: "↵").replacingOccurrences(
            of: "\t", with: " ")
        let cut = line.count > quotedAtMost ? line.prefix(quotedAtMost - 1) + "…" : line[...]
        return "\"\(cut)\""
    }
}
