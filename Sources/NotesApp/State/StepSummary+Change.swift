import NoteStore
import SQLiteDatabase
import SQLiteUndo

/// What a step changed, in words, so that two steps of one name are told apart by more than
/// their age: the text a typing run typed or deleted (`Typing "second"`, `Delete Text "ab"`), a
/// paste's or a cut's size, a rating's stars.
extension StepSummary {
    /// The longest typed text a line quotes; longer is cut with "…".
    static let quotedAtMost = 24

    /// For each of `steps`, words after its name (`"second"`, `1,204 characters`) and after
    /// what it touched (`★★★☆☆`); empty when the name says it all. Read in a few transactions
    /// whatever the number of steps (the lines of a panel).
    static func changes(made steps: [UndoStep], of stack: UndoStack) throws
        -> [(detail: String, value: String)]
    {
        let rated = steps.filter { $0.name == "Set Rating" }
        let ratings = try stack.newValues(of: rated, column: "rating", in: Article.self)
        let edited = steps.filter { ["Typing", "Delete Text", "Paste", "Cut"].contains($0.name) }
        let bodies = try stack.textEdits(of: edited, column: "text", in: ArticleChunk.self)
        let titles = try stack.textEdits(of: edited, column: "title", in: Article.self)
        var ratingOf: [Int64: [Int64: SQLiteValue]] = [:]
        for (step, values) in zip(rated, ratings) { ratingOf[step.id] = values }
        var editsOf: [Int64: [UndoTextEdit]] = [:]
        for (step, (body, title)) in zip(edited, zip(bodies, titles)) {
            editsOf[step.id] = body.values.flatMap { $0 } + title.values.flatMap { $0 }
        }
        return steps.map { step in
            if let values = ratingOf[step.id] {
                guard values.count == 1, case .integer(let rating) = values.first?.value else {
                    return ("", "")
                }
                return ("", RatingStars.text(for: Int(rating)))
            }
            guard let edits = editsOf[step.id] else { return ("", "") }
            let inserted = edits.map(\.inserted).joined()
            let removed = edits.map(\.removed).joined()
            switch step.name {
            case "Paste": return (counted(inserted.count, "character"), "")
            case "Cut": return (counted(removed.count, "character"), "")
            case "Delete Text" where inserted.isEmpty: return (quoted(removed), "")
            default: return (typed(inserted, removed), "")
            }
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
