import Foundation
import NoteStore
import SQLiteDatabase

/// Where a pane was when notes quit, kept in the notebook (`PaneLayoutStore.savePlaces`), so
/// that reopening puts the pane back: on the article it had open, in the same field, with both
/// fields' cursors and the body's scroll; otherwise on the list, with its search and its selected
/// article. Articles are named by id and creation time: SQLite gives the id of the newest
/// article, once deleted, to the next new one, which is another article.
struct PanePlace: Codable, Equatable {
    /// The article open in the pane (nil for the list), and when it was created.
    var article: Int64?
    var articleCreatedAt: String?
    var inTitle = false
    /// The cursors, and the start of the body's top row on screen, as UTF-8 offsets (clamped
    /// to the text when it has changed since).
    var titleCursor = 0
    var bodyCursor = 0
    var bodyScroll = 0
    /// The list's search, and its selected article with when it was created.
    var search = ""
    var selected: Int64?
    var selectedCreatedAt: String?
}

extension Pane {
    /// Where this pane is now.
    func place(_ db: Database) throws -> PanePlace {
        var place = PanePlace(search: query.search, selected: selectedID)
        if let selectedID {
            place.selectedCreatedAt = try Notebook.articleWithoutBody(db, id: selectedID)?.createdAt
        }
        if case .article(let id) = mode, let editor {
            place.article = id
            place.articleCreatedAt = editor.article.createdAt
            place.inTitle = editor.field == .title
            place.titleCursor = editor.title.cursorOffset
            place.bodyCursor = editor.body.cursorOffset
            place.bodyScroll = editor.body.scrollAnchor
        }
        return place
    }

    /// Goes back to a saved place: its search, its selection when that article is still listed,
    /// and its article when it still exists (else the pane shows the list).
    func restore(_ place: PanePlace, _ db: Database) throws {
        if !place.search.isEmpty { search(for: place.search) }
        if let selected = place.selected,
            try Self.exists(selected, createdAt: place.selectedCreatedAt, db),
            try Notebook.position(db, ofArticle: selected, in: query) != nil
        {
            _ = try select(articleID: selected, db)
        }
        guard let id = place.article, try Self.exists(id, createdAt: place.articleCreatedAt, db)
        else { return }
        try open(articleID: id, db)
        guard var editor else { return }
        editor.field = place.inTitle ? .title : .body
        editor.title.restore(cursor: place.titleCursor, scrollAnchor: 0)
        editor.body.restore(cursor: place.bodyCursor, scrollAnchor: place.bodyScroll)
        self.editor = editor
    }

    /// Whether the article `id` is the one created at `createdAt`.
    private static func exists(_ id: Int64, createdAt: String?, _ db: Database) throws -> Bool {
        try Notebook.articleWithoutBody(db, id: id)?.createdAt == createdAt
    }
}

extension PaneLayoutStore {
    static let placePrefix = "place."

    /// Saves where each pane is, by its stack id.
    func savePlaces(_ places: [String: PanePlace]) throws {
        let encoder = JSONEncoder()
        try database.write { db in
            for (stackID, place) in places {
                let text = String(decoding: try encoder.encode(place), as: UTF8.self)
                try Self.store(text, as: Self.placePrefix + stackID, db)
            }
        }
    }

    /// Where the pane of `stackID` was, or nil when nothing (readable) was saved.
    func place(of stackID: String) throws -> PanePlace? {
        let text = try database.read { try Self.value(of: Self.placePrefix + stackID, $0) }
        return text.flatMap { try? JSONDecoder().decode(PanePlace.self, from: Data($0.utf8)) }
    }
}
