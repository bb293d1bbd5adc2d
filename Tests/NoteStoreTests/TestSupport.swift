import Foundation
import NoteStore
import SQLiteDatabase

/// A new in-memory notebook with the schema applied.
func makeNotebook() throws -> DatabaseQueue {
    let db = try DatabaseQueue()
    try NoteStoreSchema.migrate(db)
    return db
}

/// A fresh folder under the system temporary directory, removed when released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("notestore-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Whether a timestamp has the notebook's shape: ISO-8601 UTC with milliseconds.
func isTimestamp(_ text: String) -> Bool {
    text.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil
}

extension Database {
    /// Sets an article's dates directly (an UPDATE that writes `updatedAt` keeps it).
    func setDates(ofArticle id: Int64, created: String, updated: String) throws {
        try execute(
            "UPDATE articles SET createdAt = ?, updatedAt = ? WHERE id = ?",
            [.text(created), .text(updated), .integer(id)])
    }
}
