import SQLiteDatabase

/// The articles-like table of the engine measures: integer id, short title, 500-byte body,
/// integer rating; no index but the primary key.
enum ArticlesTable {
    static let name = "articles"

    /// How the table's rows are keyed.
    enum Key {
        /// `id INTEGER PRIMARY KEY`, 1 to the number of rows.
        case integer
        /// `id TEXT PRIMARY KEY`, a UUID-shaped text (36 characters) per row.
        case text

        fileprivate var declaration: String {
            switch self {
            case .integer: "id INTEGER PRIMARY KEY"
            case .text: "id TEXT PRIMARY KEY NOT NULL"
            }
        }

        /// The SQL of row `x`'s key.
        fileprivate var value: String {
            switch self {
            case .integer: "x"
            case .text: "printf('%08x-0000-4000-8000-%012x', x * 2654435761 % 4294967296, x)"
            }
        }
    }

    /// Creates the table in `db` and fills it with `rows` rows, the same in every database.
    static func create(rows: Int, key: Key = .integer, in db: some DatabaseWriter) throws {
        try db.write { db in
            try db.execute(
                """
                CREATE TABLE articles (
                    \(key.declaration), title TEXT NOT NULL, body TEXT NOT NULL,
                    rating INTEGER NOT NULL)
                """)
            try db.execute(
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < ?)
                INSERT INTO articles(id, title, body, rating)
                SELECT \(key.value), 'Article ' || x,
                       substr(x || ' ' || replace(hex(zeroblob(50)), '00', 'lorem ipsum '), 1, 500),
                       x % 6
                FROM n
                """, [.integer(Int64(rows))])
        }
    }

    /// A bulk UPDATE of every row, the statement the capture and undo measures time.
    struct BulkUpdate: Sendable {
        let label: String
        /// The column it sets, and that column's slot in the engine's log (its place in the
        /// table: `id` 0, `title` 1, `body` 2, `rating` 3).
        let column: String
        let slot: Int
        /// The most its capture may cost, as a multiple of the same statement untracked.
        let captureLimit: Double
        /// The most its undo may cost, as a multiple of the forward statement untracked.
        let undoLimit: Double
        private let makeStatement: @Sendable (Int) -> (String, [SQLiteValue])
        private var round = 0

        /// `UPDATE articles SET rating = rating + 1`: the integer column.
        static let integerColumn = BulkUpdate(
            label: "int column", column: "rating", slot: 3, captureLimit: 3.0, undoLimit: 2.5
        ) { _ in
            ("UPDATE articles SET rating = rating + 1", [])
        }

        /// `UPDATE articles SET body = ?` with one of two 500-byte texts, alternately, so every
        /// run changes every row.
        static let textColumn = BulkUpdate(
            label: "500-byte text column", column: "body", slot: 2, captureLimit: 3.5,
            undoLimit: 2.5
        ) { round in
            let letter = round.isMultiple(of: 2) ? "a" : "b"
            return ("UPDATE articles SET body = ?", [.text(String(repeating: letter, count: 500))])
        }

        private init(
            label: String, column: String, slot: Int, captureLimit: Double, undoLimit: Double,
            makeStatement: @escaping @Sendable (Int) -> (String, [SQLiteValue])
        ) {
            self.label = label
            self.column = column
            self.slot = slot
            self.captureLimit = captureLimit
            self.undoLimit = undoLimit
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
