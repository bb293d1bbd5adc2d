import SQLiteDatabase

/// The articles-like table of the engine measures: integer id, short title, 500-byte body,
/// integer rating; no index but the primary key.
enum ArticlesTable {
    static let name = "articles"

    /// Creates the table in `db` and fills it with `rows` rows, the same in every database.
    static func create(rows: Int, in db: some DatabaseWriter) throws {
        try db.write { db in
            try db.execute(
                """
                CREATE TABLE articles (
                    id INTEGER PRIMARY KEY, title TEXT NOT NULL, body TEXT NOT NULL,
                    rating INTEGER NOT NULL)
                """)
            try db.execute(
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO articles(id, title, body, rating)
                SELECT x, 'Article ' || x,
                       substr(x || ' ' || replace(hex(zeroblob(50)), '00', 'lorem ipsum '), 1, 500),
                       x % 6
                FROM n
                """, [.integer(Int64(rows))])
        }
    }

    /// A bulk UPDATE of every row, the statement the capture and undo measures time.
    struct BulkUpdate: Sendable {
        let label: String
        private let makeStatement: @Sendable (Int) -> (String, [SQLiteValue])
        private var round = 0

        /// `UPDATE articles SET rating = rating + 1`: the integer column.
        static let integerColumn = BulkUpdate(label: "int column") { _ in
            ("UPDATE articles SET rating = rating + 1", [])
        }

        /// `UPDATE articles SET body = ?` with one of two 500-byte texts, alternately, so every
        /// run changes every row.
        static let textColumn = BulkUpdate(label: "500-byte text column") { round in
            let letter = round.isMultiple(of: 2) ? "a" : "b"
            return ("UPDATE articles SET body = ?", [.text(String(repeating: letter, count: 500))])
        }

        private init(
            label: String, makeStatement: @escaping @Sendable (Int) -> (String, [SQLiteValue])
        ) {
            self.label = label
            self.makeStatement = makeStatement
        }

        /// Runs the next statement of the series on `db` (inside the caller's transaction).
        mutating func run(_ db: Database) throws {
            let (sql, arguments) = makeStatement(round)
            round += 1
            try db.execute(sql, arguments)
        }
    }
}
