import Foundation
import NoteStore
import SQLiteDatabase

/// Notebook files for the app measures: the real schema, ten authors and `articles` articles
/// with 500-byte bodies, searchable and undo-free (the seed is not a user action). The articles
/// whose number is 12 modulo 997 (one in 997, and article 12 of a small notebook) have a word
/// of Chinese and its English in their title, for the search measures.
enum NotebookFixture {
    /// Creates the notebook at `path` (replacing nothing: the path must be new).
    static func create(articles: Int, at path: String) throws {
        let db = try DatabaseQueue(path: path)
        try NoteStoreSchema.migrate(db)
        try db.write { db in
            for index in 1...10 { _ = try Notebook.insertAuthor(db, name: "Author \(index)") }
            try db.execute(
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO articles(title, body, authorId, rating, createdAt, updatedAt)
                SELECT 'Article ' || x || CASE WHEN x % 997 = 12 THEN ' 搬家到成都 chengdu' ELSE '' END,
                       substr('word' || (x % 997) || ' '
                              || replace(hex(zeroblob(50)), '00', 'lorem ipsum '), 1, 500),
                       x % 10 + 1, x % 6,
                       strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + x, 'unixepoch'),
                       strftime('%Y-%m-%dT%H:%M:%fZ', 1700000000 + x, 'unixepoch')
                FROM n
                """, [.integer(Int64(articles))])
        }
    }

    /// Copies a closed notebook file (so each measure starts from the same file).
    static func copy(_ path: String, to destination: String) throws {
        try FileManager.default.copyItem(atPath: path, toPath: destination)
    }
}
