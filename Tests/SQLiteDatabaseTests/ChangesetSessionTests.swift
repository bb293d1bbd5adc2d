import SQLiteDatabase
import Testing

@Suite struct ChangesetSessionTests {
    struct Item: FetchableRecord, Equatable {
        var id: Int64
        var name: String
        var rating: Int64

        init(id: Int64, name: String, rating: Int64) {
            self.id = id
            self.name = name
            self.rating = rating
        }

        init(row: Row) throws {
            id = try row.decode("id")
            name = try row.decode("name")
            rating = try row.decode("rating")
        }
    }

    let db: DatabaseQueue
    let original = [
        Item(id: 1, name: "tab\there", rating: 1), Item(id: 2, name: "é\n✓", rating: 2),
        Item(id: 3, name: "three", rating: 3),
    ]

    init() throws {
        db = try DatabaseQueue()
        try db.write { db in
            try db.execute(
                "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, rating INTEGER)")
            for item in original {
                try db.execute(
                    "INSERT INTO items(id, name, rating) VALUES (?, ?, ?)",
                    [.integer(item.id), .text(item.name), .integer(item.rating)])
            }
        }
    }

    func items() throws -> [Item] {
        try db.read { try $0.fetchAll(Item.self, "SELECT * FROM items ORDER BY id") }
    }

    @Test func invertedChangesetOfAnUpdateRestoresTheRows() throws {
        let session = try db.write { db in
            let session = try ChangesetSession(database: db)
            try session.attach(table: "items")
            return session
        }
        try db.write { db in
            try db.execute("UPDATE items SET rating = rating * 10, name = name || '!'")
        }
        let changes = try db.read { _ in try session.changeset() }
        #expect(!changes.isEmpty)
        #expect(
            try items() == [
                Item(id: 1, name: "tab\there!", rating: 10), Item(id: 2, name: "é\n✓!", rating: 20),
                Item(id: 3, name: "three!", rating: 30),
            ])

        try db.write { db in try db.applyChangeset(try ChangesetSession.invert(changes)) }
        #expect(try items() == original)
    }

    @Test func conflictingChangeAbortsAndChangesNothing() throws {
        let session = try db.write { db in
            let session = try ChangesetSession(database: db)
            try session.attach(table: "items")
            return session
        }
        try db.write { db in try db.execute("UPDATE items SET rating = 0") }
        let undo = try ChangesetSession.invert(try db.read { _ in try session.changeset() })
        try db.write { db in try db.execute("UPDATE items SET rating = 7 WHERE id = 2") }

        #expect(throws: SQLiteError.self) {
            try db.write { db in try db.applyChangeset(undo) }
        }
        #expect(
            try db.read { try $0.fetchAll(Int64.self, "SELECT rating FROM items") } == [0, 7, 0])

        try db.write { db in try db.applyChangeset(undo, onConflict: .omit) }
        #expect(
            try db.read { try $0.fetchAll(Int64.self, "SELECT rating FROM items") } == [1, 7, 3])
    }
}
