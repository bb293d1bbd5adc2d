import Foundation
import NoteStore
import SQLiteDatabase

/// Where a pane was when notes quit, kept in the notebook (`PaneLayoutStore.savePlaces`), so
/// that reopening puts the pane back: on the article it had open, in the same field, with its
/// cursor and scroll; otherwise on the list, with its search and its selected article.
struct PanePlace: Codable, Equatable {
    /// The article open in the pane, or nil for the list.
    var article: Int64?
    var inTitle = false
    /// The cursor in the open field, and the start of the body's top row on screen, as UTF-8
    /// offsets (clamped to the text when it has changed since).
    var cursor = 0
    var scrollAnchor = 0
    /// The list's search and selected article.
    var search = ""
    var selected: Int64?
}

extension Pane {
    /// Where this pane is now.
    var place: PanePlace {
        var place = PanePlace(search: query.search, selected: selectedID)
        if case .article(let id) = mode, let editor {
            place.article = id
            place.inTitle = editor.field == .title
            place.cursor = editor.buffer.cursorOffset
            place.scrollAnchor = editor.body.scrollAnchor
        }
        return place
    }

    /// Goes back to a saved place: its search and selection in the list, and its article when
    /// it still exists (else the pane shows the list).
    func restore(_ place: PanePlace, _ db: Database) throws {
        if !place.search.isEmpty {
            query.search = place.search
            query.order = .relevance
        }
        if let selected = place.selected { _ = try select(articleID: selected, db) }
        guard let id = place.article else { return }
        try open(articleID: id, db)
        guard editor != nil else { return }
        if place.inTitle { editor?.field = .title }
        editor?.body.restore(
            cursor: place.inTitle ? 0 : place.cursor, scrollAnchor: place.scrollAnchor)
        if place.inTitle { editor?.title.restore(cursor: place.cursor, scrollAnchor: 0) }
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
        let text = try database.read {
            try $0.fetchOne(
                String.self, "SELECT value FROM settings WHERE key = ?",
                [.text(Self.placePrefix + stackID)])
        }
        return text.flatMap { try? JSONDecoder().decode(PanePlace.self, from: Data($0.utf8)) }
    }
}
