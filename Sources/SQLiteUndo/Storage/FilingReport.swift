import SQLiteDatabase
import Synchronization

/// What the statement filing an entry found (`UndoLogSchema.file`), told by the SQL function it
/// calls for the row it inserts: reading the answers back would take a statement of its own,
/// which cost a 1-row action about 5 % of its time (notes-bench, BENCHMARKS.md).
final class FilingReport: Sendable {
    /// The function's SQL name; its arguments are the log's highest `seq` and whether the
    /// entry has rows to pack, and it returns the first (the entry's `lastSeq`).
    static let function = "sqliteundo_filing"

    /// What the filing statement found, for the entry it inserted.
    struct Found {
        /// The log's highest `seq` then.
        let logEnd: Int64
        /// Whether some of its log rows may be packed (`packNewEntry` then reads them); false
        /// when none can be, or when they are too many to be read again.
        let mayPack: Bool
    }

    private let found = Mutex<Found?>(nil)

    /// Registers the function on the engine's connection.
    func install(_ db: Database) throws {
        try db.createFunction(Self.function, argumentCount: 2) { [weak self] arguments in
            // The highest `seq` is an integer: `coalesce(max(seq), 0)`.
            let logEnd = if case .integer(let seq) = arguments[0] { seq } else { Int64(0) }
            let found = Found(logEnd: logEnd, mayPack: arguments[1] == .integer(1))
            self?.found.withLock { $0 = found }
            return .integer(logEnd)
        }
    }

    /// Forgets what an earlier filing found, before a filing statement runs.
    func clear() {
        found.withLock { $0 = nil }
    }

    /// What the filing statement run since `clear` found; nil when it inserted no entry.
    func take() -> Found? {
        found.withLock { found in
            defer { found = nil }
            return found
        }
    }
}
