import Foundation
import NoteStore
import SQLiteDatabase

/// The small dialog of `a`: type to filter the authors, Enter to choose (or to create the author
/// typed), Delete to delete one with their articles after a confirmation.
struct AuthorPicker {
    /// The article whose author is being chosen.
    let articleID: Int64
    var filter = ""
    var matches: [Author] = []
    var selected = 0
    /// The author waiting for "y" to be deleted with their articles.
    var confirmingDeletion: (author: Author, articles: Int)?

    /// The choices: the matching authors, then "create" when the typed name is new.
    var createsNewAuthor: Bool {
        let name = filter.trimmingCharacters(in: .whitespaces)
        return !name.isEmpty && !matches.contains { $0.name.lowercased() == name.lowercased() }
    }

    var choiceCount: Int { matches.count + (createsNewAuthor ? 1 : 0) }

    mutating func refresh(_ db: Database) throws {
        matches = try Notebook.authors(db, matching: filter)
        selected = max(0, min(selected, choiceCount - 1))
    }
}
