import Foundation
import NoteStore
import SQLiteDatabase
import SQLiteUndo

/// What a step touched, in words, for the history panel: "Art 012", "Art 3: Body", "Jane Doe
/// and 5 articles". Rows that are gone now are named by the values the step logged.
@MainActor
enum StepSummary {
    /// The words for `step` of `stack`, and how many rows it wrote.
    static func describe(_ step: UndoStep, of stack: UndoStack, in database: DatabaseQueue)
        throws -> Touched
    {
        try describe([step], of: stack, in: database)[0]
    }

    /// What a step touched, in words, and how many rows it wrote; and what it changed, when
    /// that says more than its name: the text typed (`detail`, after the name), the stars set
    /// (`value`, after the words).
    struct Touched: Equatable {
        let words: String
        let rows: Int
        var detail = ""
        var value = ""
    }

    /// What a step touched: its rows, and the names of its one article and one author.
    private struct Rows {
        var chunks: Set<Int64>
        var articles: Set<Int64>
        var authors: Set<Int64>
        var title: String?
        var name: String?
    }

    /// The words for each of `steps` of `stack`, read in two transactions whatever their
    /// number (the lines of a panel).
    static func describe(_ steps: [UndoStep], of stack: UndoStack, in database: DatabaseQueue)
        throws -> [Touched]
    {
        let rows = try stack.rows(of: steps)
        let touched = try database.read { db in
            try rows.map { rows in
                var touched = Rows(
                    chunks: rows.ids(for: ArticleChunk.self) ?? [],
                    articles: rows.ids(for: Article.self) ?? [],
                    authors: rows.ids(for: Author.self) ?? [])
                if !touched.chunks.isEmpty {
                    touched.articles.formUnion(
                        try Notebook.articleIDs(ofChunks: touched.chunks, db))
                }
                if touched.articles.count == 1 {
                    touched.title = try Notebook.articleWithoutBody(
                        db, id: touched.articles.first!)?.title
                }
                if touched.authors.count == 1 {
                    touched.name = try Notebook.authorName(db, id: touched.authors.first!)
                }
                return touched
            }
        }
        let changes = try changes(made: steps, of: stack)
        return try zip(steps, zip(touched, changes)).map { step, touchedAndChange in
            var words = try words(for: step, touchedAndChange.0, of: stack)
            (words.detail, words.value) = touchedAndChange.1
            return words
        }
    }

    private static func words(for step: UndoStep, _ touched: Rows, of stack: UndoStack)
        throws -> Touched
    {
        let (chunks, articles, authors) = (touched.chunks, touched.articles, touched.authors)
        // Rows gone now: named as the step logged them.
        let title =
            try articles.count != 1
            ? nil
            : touched.title
                ?? text(
                    try stack.values(of: step, column: "title", in: Article.self)[
                        articles.first!])
        let name =
            try authors.count != 1
            ? nil
            : touched.name
                ?? text(try stack.values(of: step, column: "name", in: Author.self)[authors.first!])
        let article = title.map { $0.isEmpty ? ArticleView.untitled : $0 } ?? "an article"
        let author = name ?? "an author"
        var words: String
        switch (articles.count, authors.count) {
        case (0, 0): words = ""
        case (0, 1): words = author
        case (0, _): words = counted(authors.count, "author")
        case (1, 0): words = article
        case (_, 0): words = counted(articles.count, "article")
        case (1, 1): words = "\(article), \(author)"
        case (_, 1): words = "\(author) and \(counted(articles.count, "article"))"
        default:
            words = "\(counted(authors.count, "author")) and \(counted(articles.count, "article"))"
        }
        if step.name == "Typing", articles.count == 1, authors.isEmpty {
            words += chunks.isEmpty ? ": Title" : ": Body"
        }
        return Touched(words: words, rows: articles.count + chunks.count + authors.count)
    }

    private static func text(_ value: SQLiteValue?) -> String? {
        if case .text(let text) = value { text } else { nil }
    }

    /// "now", "12 s ago", "5 min ago", "3 h ago", "2 days ago".
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<5: return "now"
        case ..<60: return "\(seconds) s ago"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return counted(seconds / 86_400, "day") + " ago"
        }
    }
}
