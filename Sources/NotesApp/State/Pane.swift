import NoteStore
import SQLiteDatabase
import SQLiteUndo
import TerminalUI

/// One document view: a list of articles (or one article open), its own undo stack, and the
/// window of rows it has loaded. A pane never loads more rows than it shows.
@MainActor
final class Pane {
    enum Mode: Equatable {
        case list
        case article(Int64)
        /// The article open here was deleted (by another pane or program, or by an undo): keys
        /// that would edit it do nothing (they never become list commands) until Esc, and it
        /// opens again when an undo or redo brings it back.
        case gone(Int64)
    }

    /// The id of this pane's undo stack, stored with the layout so history survives restarts.
    let stackID: String
    /// The pane's undo stack, or nil when undo is off.
    let stack: UndoStack?
    var mode = Mode.list
    var query = ArticleQuery() {
        didSet { if query != oldValue { invalidate() } }
    }
    /// The search text being typed (`/`), or nil when not typing a search.
    var searchInput: String?

    /// Lists the articles that `text` finds, best match first (every article, newest first,
    /// when it is empty).
    func search(for text: String) {
        query.search = text
        query.order = text.isEmpty ? .updatedDescending : .relevance
    }

    /// The selected article: the selection follows it wherever other panes, processes or undos
    /// move it in the list (nil when the list is empty).
    private(set) var selectedID: Int64?
    /// Index of the selected article in the query's list, found again at every load.
    private(set) var selected = 0
    /// Where a key or a click moved the selection, resolved to an article at the next load.
    private var requestedIndex: Int?
    /// The article the selection was on when it was deleted (by another pane, another program,
    /// an undo) since the app last asked; the selection is on its neighbour.
    private(set) var lostArticle: Int64?
    /// Index of the first article shown.
    private(set) var top = 0
    private(set) var total = 0
    /// The articles shown, from `top`.
    private(set) var rows: [ArticleSummary] = []
    private var loadedHeight = 0
    private var needsReload = true
    private var countIsStale = true
    /// `NotesApp.commits` when the pane last loaded, or after its own typing when that was the
    /// only commit since: the editor then holds what is stored, and is not read again (a body
    /// of megabytes is not read at every key).
    private var commitsSeen = -1

    /// The open article's editor, when `mode` is `.article` (nil otherwise).
    var editor: ArticleEditor?
    /// The editor of the article deleted while open (`mode` `.gone`): brought back (an undo,
    /// here or in another pane), the article opens where its cursor was.
    private var editorOfGoneArticle: ArticleEditor?

    /// The history panel (Alt-H), drawn over what the pane shows while it is open.
    var historyPanel: HistoryPanel?

    /// Articles this pane's last undo or redo brought back, shown at the next load
    /// (`revealRestored`): nil once shown.
    var restoredToReveal: Set<Int64>?

    /// Rows restored by this pane's last undo or redo, highlighted until `highlightUntil`.
    var highlighted: Set<Int64> = []
    var highlightUntil: ContinuousClock.Instant?

    init(stackID: String, stack: UndoStack?) {
        self.stackID = stackID
        self.stack = stack
    }

    /// The selected article's summary, if it is loaded.
    var selectedSummary: ArticleSummary? {
        rows.first { $0.id == selectedID }
    }

    /// The article that left the list since the last call, once.
    func takeLostArticle() -> Int64? {
        defer { lostArticle = nil }
        return lostArticle
    }

    /// Marks the data as changed: the next `load` reads it again.
    /// - Parameter recounting: false when no article was added or removed and the query filters
    ///   nothing, so the number of articles listed cannot have changed.
    func invalidate(recounting: Bool = true) {
        needsReload = true
        if recounting || query.isFiltered { countIsStale = true }
    }

    /// Moves the selection by `delta` rows (clamped).
    func moveSelection(by delta: Int) {
        let (moved, overflow) = (requestedIndex ?? selected).addingReportingOverflow(delta)
        select(index: overflow ? Int.max / 2 : moved)
    }

    /// Selects whatever comes to be at the selection's place: the selected article is going
    /// away by this pane's own action (its Delete, its undo), so no "deleted elsewhere" notice.
    func selectWhatTakesItsPlace() {
        select(index: selected)
    }

    /// Whether a key or click moved the selection since the last load.
    var hasRequestedIndex: Bool { requestedIndex != nil }

    /// Selects the article at `index` in the list as it is at the next load (clamped then).
    func select(index: Int) {
        requestedIndex = max(0, index)
        needsReload = true
    }

    /// Selects an article by id in the current query; clears the search and author filter when
    /// they hide it. Returns whether it was found.
    @discardableResult
    func select(articleID id: Int64, _ db: Database) throws -> Bool {
        var position = try Notebook.position(db, ofArticle: id, in: query)
        if position == nil, query.search != "" || query.authorId != nil {
            query = ArticleQuery(order: query.order)
            searchInput = nil
            position = try Notebook.position(db, ofArticle: id, in: query)
        }
        guard position != nil else { return false }
        selectedID = id
        requestedIndex = nil
        needsReload = true
        return true
    }

    /// The chunks this pane's own undo or redo rewrote, when it was the only commit since the
    /// pane last loaded: the open article's body is brought up to date from them alone.
    private var ownReplayRewrote: Set<Int64>?

    /// Notes this pane's undo or redo, the commit that took `NotesApp.commits` from `before`
    /// to `after`, which rewrote `chunks` of bodies.
    func noteOwnReplay(commitsBefore before: Int, after: Int, rewriting chunks: Set<Int64>) {
        ownReplayRewrote = commitsSeen == before && after == before + 1 ? chunks : nil
    }

    /// Notes that the editor's typing was written in the commit that took `NotesApp.commits`
    /// from `before` to `after`: when the pane had seen every commit before it, the editor holds
    /// what is stored.
    func noteOwnWrite(commitsBefore before: Int, after: Int) {
        if commitsSeen == before, after == before + 1 { commitsSeen = after }
    }

    /// Opens an article in the editor, loading it now so that the next key already edits it.
    func open(articleID id: Int64, _ db: Database) throws {
        mode = .article(id)
        editor = try Notebook.article(db, id: id).map(ArticleEditor.init)
        if editor == nil { mode = .list }
    }

    /// Loads what a view of `height` rows shows, when the data or the window changed;
    /// `commits` is `NotesApp.commits` now.
    func load(height: Int, commits: Int, _ db: Database) throws {
        let height = max(1, height)
        let cursorToChange = try revealRestored(db)
        let editorIsCurrent = commitsSeen == commits && cursorToChange == false
        let rewritten = ownReplayRewrote
        ownReplayRewrote = nil
        commitsSeen = commits
        switch mode {
        case .article(let id) where (needsReload && !editorIsCurrent) || editor?.articleID != id:
            if let rewritten, editor?.articleID == id,
                try refreshBody(ofArticle: id, rewritten: rewritten, cursorToChange, db)
            {
                break
            }
            if let stored = try Notebook.article(db, id: id) {
                if editor?.articleID == id {
                    editor?.refresh(from: stored, cursorToChange: cursorToChange)
                } else {
                    editor = ArticleEditor(article: stored)
                }
            } else {
                editorOfGoneArticle = editor?.articleID == id ? editor : nil
                mode = .gone(id)  // deleted (by another pane or program, or an undo)
            }
        case .gone(let id) where needsReload:
            if let stored = try Notebook.article(db, id: id) {
                mode = .article(id)
                if var kept = editorOfGoneArticle, kept.articleID == id {
                    kept.refresh(from: stored)
                    editor = kept
                } else {
                    editor = ArticleEditor(article: stored)
                }
            }
        default:
            break
        }
        if case .gone = mode {} else { editorOfGoneArticle = nil }
        if case .article = mode {} else { editor = nil }
        guard needsReload || height != loadedHeight || !(top..<top + height).contains(selected)
        else { return }
        // Counting reads the whole index: only when the data or the query changed, not when
        // the selection leaves the window.
        if countIsStale {
            total = try Notebook.count(db, query)
            countIsStale = false
        }
        // The rows at the current top, when following the article already read them.
        var shown: (top: Int, rows: [ArticleSummary])?
        if let index = requestedIndex {
            selected = index
            requestedIndex = nil
        } else if let id = selectedID, needsReload {
            let page = try Notebook.page(db, query, offset: top, limit: height)
            shown = (top, page)
            try follow(id, among: page, db)
        }
        selected = max(0, min(selected, total - 1))
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        top = max(0, min(top, max(0, total - height)))
        rows =
            try shown.flatMap { $0.top == top ? $0.rows : nil }
            ?? Notebook.page(db, query, offset: top, limit: height)
        selectedID = rows.indices.contains(selected - top) ? rows[selected - top].id : nil
        loadedHeight = height
        needsReload = false
    }

    /// Brings the open article up to date after this pane's own undo or redo rewrote the
    /// chunks `rewritten`, reading those chunks only; false when it cannot (no layout of the
    /// body yet, typing not written, the article gone), for the caller to read it whole.
    private func refreshBody(
        ofArticle id: Int64, rewritten: Set<Int64>, _ cursorToChange: Bool, _ db: Database
    ) throws -> Bool {
        guard let layout = editor?.bodyLayout, editor?.unsavedFields.isEmpty == true,
            let fields = try Notebook.articleWithoutBody(db, id: id),
            let change = try Notebook.bodyChange(
                db, ofArticle: id, since: layout, rewritten: rewritten)
        else { return false }
        editor?.refresh(from: fields, bodyChange: change, cursorToChange: cursorToChange)
        return true
    }

    /// Finds the selected article's place after the data changed: among the rows `shown` from
    /// `top` when it did not move far (no counting), else by its sort key. When it left the list
    /// (deleted, or no longer matching the search), the selection stays at its index, on a
    /// neighbour.
    private func follow(_ id: Int64, among shown: [ArticleSummary], _ db: Database) throws {
        if let offset = shown.firstIndex(where: { $0.id == id }) {
            selected = top + offset
        } else if let position = try Notebook.position(db, ofArticle: id, in: query) {
            selected = position
        } else if try !Notebook.articleExists(db, id: id) {
            lostArticle = id
        }
    }

    /// The page size for PgUp/PgDn.
    var pageSize: Int { max(1, loadedHeight - 1) }

    /// Fits the open article's editor to where the pane shows it in `rect` (`ArticleView`'s
    /// areas): wrapping and paging follow. Done when the pane loads, before drawing, which only
    /// reads.
    func fitEditor(to rect: Rect) {
        let area = ArticleView.areas(in: rect)
        guard var editor,
            editor.title.viewport != area.title.size || editor.body.viewport != area.body.size
        else { return }
        editor.title.viewport = area.title.size
        editor.body.viewport = area.body.size
        self.editor = editor
    }
}
