import NoteStore
import TerminalUI

/// An open article being edited in a pane: a buffer for the title and one for the body, the
/// field with the cursor, and the current typing run (one undo step).
struct ArticleEditor {
    enum Field: String {
        case title
        case body
    }

    private(set) var article: Article
    var field = Field.body
    var title: EditorBuffer
    var body: EditorBuffer
    /// Counts typing runs; part of the coalescing key, so a new run starts a new undo step.
    private(set) var run = 0
    /// Whether the current run inserts (true) or deletes (false).
    private var runInserts: Bool?

    init(article: Article) {
        self.article = article
        title = EditorBuffer(text: article.title, cursorOffset: article.title.utf8.count)
        body = EditorBuffer(text: article.body)
    }

    var articleID: Int64 { article.id }

    /// The buffer with the cursor.
    var buffer: EditorBuffer {
        get { field == .title ? title : body }
        set {
            if field == .title { title = newValue } else { body = newValue }
        }
    }

    /// The coalescing key of the current run: typing in one field merges until the run ends.
    var runKey: String { "article-\(article.id)-\(field.rawValue)-\(run)" }

    /// The field's text as last written or read: what an edit of it started from.
    func saved(_ field: Field) -> String {
        field == .title ? article.title : article.body
    }

    /// Notes that `text` was written to the field (maybe merged with someone else's change).
    mutating func noteSaved(_ text: String, in field: Field) {
        switch field {
        case .title: article.title = text
        case .body: article.body = text
        }
    }

    /// Ends the typing run: the next edit is a new undo step (a cursor jump, leaving, undo).
    mutating func endRun() {
        run += 1
        runInserts = nil
    }

    /// Notes an edit; switching between inserting and deleting ends the run first.
    mutating func noteEdit(inserting: Bool) {
        if let runInserts, runInserts != inserting { endRun() }
        runInserts = inserting
    }

    mutating func switchField() {
        field = field == .title ? .body : .title
        endRun()
    }

    /// Takes the article as stored now (another pane's typing, an undo): texts are replaced
    /// keeping the cursor on the same text, or at the change (`cursorToChange`: after this
    /// pane's own undo or redo).
    mutating func refresh(from stored: Article, cursorToChange: Bool = false) {
        article = stored
        let titleChange = title.replaceText(stored.title)
        let bodyChange = body.replaceText(stored.body)
        guard cursorToChange else { return }
        if let change = bodyChange {
            field = .body
            body.moveCursor(toOffset: change.upperBound)
        } else if let change = titleChange {
            field = .title
            title.moveCursor(toOffset: change.upperBound)
        }
    }
}
