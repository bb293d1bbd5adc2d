internal import CSQLite3

/// A connection to an SQLite database, handed to `read` and `write` closures.
///
/// Deliberately not `Sendable`: only the `DatabaseQueue` that owns it uses it, one closure at a
/// time.
public final class Database {
    let handle: OpaquePointer
    private var statementCache = StatementCache(capacity: 256)
    /// The tables the update hook saw in the current transaction, each with whether it gained
    /// or lost rows and how many row changes it saw: a statement changing many rows (and,
    /// through triggers, rows of a few other tables) makes one `String` per table, not one per
    /// row. The hook reads it at every changed row, on the connection's one thread: no dynamic
    /// exclusivity check.
    @exclusivity(unchecked) private var hookedTables: [(name: String, resized: Bool, rows: Int)] =
        []
    /// What the current transaction changed, as observers are told once it commits: the
    /// tables, and those that gained or lost rows, read in one pass.
    var changeSoFar: DatabaseChange {
        var tables = Set<String>(minimumCapacity: hookedTables.count)
        var resized = Set<String>()
        for table in hookedTables {
            tables.insert(table.name)
            if table.resized { resized.insert(table.name) }
        }
        return DatabaseChange(tables: tables, isExternal: false, resizedTables: resized)
    }
    /// The rowids changed since `recordingChangedRowids` began, by index in `hookedTables`
    /// (nil: not recording).
    @exclusivity(unchecked) private var recordedRowids: [Int: Set<Int64>]?

    /// How many row changes (inserts, updates, deletes) the current transaction has made to
    /// `table` so far, those of triggers included, as the update hook saw them; what a
    /// `savepoint` rolled back is not counted.
    public func changedRowCount(of table: String) -> Int {
        table.withCString { name in
            hookedTables.first { $0.name.withCString { sqlite3_stricmp($0, name) == 0 } }?.rows ?? 0
        }
    }
    /// The tick of the current `reportingProgress`, if any.
    var progressTicker: ProgressTicker?
    /// The row changes the current transaction has made to all of `tables` so far
    /// (`changedRowCount(of:)`, summed).
    public func changedRowCount(of tables: [String]) -> Int {
        tables.reduce(0) { $0 + changedRowCount(of: $1) }
    }
    /// Observers of the write transactions a `DatabaseQueue` runs on this connection.
    var writeObservers: [WeakWriteObserver] = []
    /// Whether `watchRowChanges`' handler is called, written and read on the connection's thread
    /// only. The pre-update hook is installed only while it is true (or `withoutRowidTables`
    /// has a table), so that other row changes pay nothing for it.
    @exclusivity(unchecked) public var isWatchingRowChanges = false {
        didSet { installPreUpdateHookIfNeeded() }
    }
    /// The handler `watchRowChanges` installed.
    var rowChangeHandler: ((RowBeingChanged) -> Void)?
    /// Tables of the main schema declared `WITHOUT ROWID`, lowercased, whose row changes SQLite's
    /// update hook never reports: while `watchRowChanges` has a handler, the pre-update hook
    /// counts them instead (`changedRowCount`, `changeSoFar`, `recordingChangedRowids`, which
    /// gets rowid 0 for each).
    @exclusivity(unchecked) public var withoutRowidTables: Set<String> = [] {
        didSet { installPreUpdateHookIfNeeded() }
    }
    /// Whether SQLite's pre-update hook is installed now (see `installPreUpdateHookIfNeeded`).
    @exclusivity(unchecked) var isPreUpdateHookInstalled = false
    /// The update value feed functions registered on this connection, by name.
    var updateValueFeeds: [String: UpdateValueFeed] = [:]
    /// The values `memoized` keeps, by key, with the schema versions they were read at.
    var schemaMemos: [String: (versions: [Int64], value: Any)] = [:]

    init(handle: OpaquePointer) {
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        installUpdateHook()
    }

    deinit {
        statementCache.removeAll()
        sqlite3_update_hook(handle, nil, nil)
        sqlite3_preupdate_hook(handle, nil, nil)
        sqlite3_progress_handler(handle, 0, nil, nil)
        sqlite3_close_v2(handle)
    }

    // MARK: Executing

    /// Runs one or more statements; arguments (bound, never spliced) apply to a single statement.
    /// - Throws: `SQLiteError` with SQLite's message and the failing SQL.
    public func execute(_ sql: String, _ arguments: [SQLiteValue] = []) throws {
        let cached = statementCache.statement(for: sql)
        if cached == nil && arguments.isEmpty && !Self.isSingleStatement(sql) {
            let code = sqlite3_exec(handle, sql, nil, nil, nil)
            guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
            return
        }
        let statement = try cached ?? cachedStatement(sql)
        try statement.bind(arguments)
        while try statement.step() {}
        sqlite3_reset(statement.handle)
    }

    /// The rows of a query, decoded whole.
    public func fetchAll<T: FetchableRecord>(
        _ type: T.Type, _ sql: String, _ arguments: [SQLiteValue] = []
    ) throws -> [T] {
        try withRows(sql, arguments, limit: nil) { try T(row: $0.currentRow()) }
    }

    /// The first column of every row of a query, decoded as `T`.
    public func fetchAll<T: SQLiteValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: [SQLiteValue] = []
    ) throws -> [T] {
        try withRows(sql, arguments, limit: nil) { try $0.decodeFirstColumn(as: T.self) }
    }

    /// `fetchAll` of integers, without the generic decoding: the undo engine reads thousands
    /// of rowids this way.
    public func fetchAll(
        _ type: Int64.Type, _ sql: String, _ arguments: [SQLiteValue] = []
    ) throws -> [Int64] {
        try withRows(sql, arguments, limit: nil) { try $0.decodeFirstColumn(as: Int64.self) }
    }

    /// The first row of a query, decoded whole; nil when there is no row.
    public func fetchOne<T: FetchableRecord>(
        _ type: T.Type, _ sql: String, _ arguments: [SQLiteValue] = []
    ) throws -> T? {
        try withRows(sql, arguments, limit: 1) { try T(row: $0.currentRow()) }.first
    }

    /// The first column of the first row of a query; nil when there is no row or it is NULL.
    public func fetchOne<T: SQLiteValueConvertible>(
        _ type: T.Type, _ sql: String, _ arguments: [SQLiteValue] = []
    ) throws -> T? {
        let row = try withRows(sql, arguments, limit: 1) { $0.currentRow() }.first
        guard let row, !row[0].isNull else { return nil }
        return try row.decode(at: 0, as: T.self)
    }

    /// Reads up to `limit` rows with a cached statement, reset when done, so that repeated
    /// queries are prepared once. (A cursor, which may outlive the call, takes the statement out
    /// of the cache while it reads: `fetchCursor`.)
    private func withRows<T>(
        _ sql: String, _ arguments: [SQLiteValue], limit: Int?,
        _ decode: (Statement) throws -> T
    ) throws -> [T] {
        let statement = try cachedStatement(sql)
        try statement.bind(arguments)
        defer { sqlite3_reset(statement.handle) }
        var result: [T] = []
        while limit.map({ result.count < $0 }) ?? true, try statement.step() {
            result.append(try decode(statement))
        }
        return result
    }

    /// Streams the rows of a query one at a time, without loading them all.
    ///
    /// The cursor must not outlive the closure that received this `Database`. It takes the
    /// statement prepared for `sql` out of the cache (two cursors of the same SQL each have
    /// their own) and gives it back when it is released, so a repeated query is prepared once.
    public func fetchCursor(_ sql: String, _ arguments: [SQLiteValue] = []) throws -> RowCursor {
        let statement = try statementCache.take(sql) ?? Statement(database: self, sql: sql)
        do {
            try statement.bind(arguments)
        } catch {
            giveBack(statement, for: sql)
            throw error
        }
        return RowCursor(statement: statement, sql: sql, database: self)
    }

    /// Keeps a cursor's statement for the next query of `sql`, reset.
    fileprivate func giveBack(_ statement: Statement, for sql: String) {
        sqlite3_reset(statement.handle)
        if !statementCache.contains(sql) { statementCache.insert(statement, for: sql) }
    }

    /// A number that changes when another connection commits to the database file
    /// (`PRAGMA data_version`): equal readings mean nothing but this connection wrote in between.
    public func dataVersion() throws -> Int64 {
        try fetchOne(Int64.self, "PRAGMA data_version") ?? 0
    }

    /// A number that changes whenever a transaction commits to the main database file, on this
    /// connection or any other (SQLite's `SQLITE_FCNTL_DATA_VERSION`, read without a statement):
    /// equal readings mean the file holds what it held at the first. Another connection's commit
    /// shows once this connection has read the file in a later transaction (`BEGIN` alone reads
    /// nothing). Nil when SQLite cannot tell.
    public var fileDataVersion: UInt32? {
        var version: UInt32 = 0
        let code = sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return code == SQLITE_OK ? version : nil
    }

    /// The rowid of the last row inserted on this connection.
    public var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// How many rows the last INSERT, UPDATE or DELETE changed.
    public var changesCount: Int { Int(sqlite3_changes64(handle)) }

    /// How long a statement waits for another connection's lock before failing with `.busy`.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Whether a transaction is open on this connection.
    public var isInsideTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    // MARK: Internals

    /// How many prepared statements the connection keeps for reuse.
    var cachedStatementCount: Int { statementCache.count }

    /// How many times SQLite prepared each cached statement again (`Statement.timesPreparedAgain`),
    /// by SQL: tests check that repeated work does not parse its SQL again.
    func timesCachedStatementsWerePreparedAgain() -> [String: Int] {
        statementCache.statements.mapValues(\.timesPreparedAgain)
    }

    func cachedStatement(_ sql: String) throws -> Statement {
        if let statement = statementCache.statement(for: sql) { return statement }
        let statement = try Statement(database: self, sql: sql)
        statementCache.insert(statement, for: sql)
        return statement
    }

    func error(code: Int32, sql: String?) -> SQLiteError {
        let extended = sqlite3_extended_errcode(handle)
        let message = String(cString: sqlite3_errmsg(handle))
        let resultCode = (extended & 0xFF) == (code & 0xFF) ? extended : code
        return SQLiteError(code: ResultCode(rawValue: resultCode), message: message, sql: sql)
    }

    private static func isSingleStatement(_ sql: String) -> Bool {
        // A cheap check, on bytes: sqlite3_exec handles multi-statement scripts, prepared
        // statements the rest (only single statements are cached). `sqlite3_complete` treats a
        // trailing statement without semicolon as incomplete.
        let bytes = sql.utf8
        guard let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) else { return true }
        return bytes[bytes.index(after: semicolon)...].allSatisfy {
            [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains($0)
        }
    }

    /// How many row changes each table the update hook saw has had, in the order it saw them
    /// (`restoreChangedRowCounts` puts them back).
    func changedRowCounts() -> [Int] { hookedTables.map(\.rows) }

    /// Puts back the row counts `changedRowCounts` returned, when a savepoint rolled back what
    /// was done since: a table first seen since counts none. The tables stay listed.
    func restoreChangedRowCounts(_ counts: [Int]) {
        for index in hookedTables.indices {
            hookedTables[index].rows = index < counts.count ? counts[index] : 0
        }
    }

    /// Forgets the tables changed so far (at the start and end of a transaction).
    func clearChangedTables() {
        hookedTables = []
    }

    /// Runs `body` and returns, with its result, the rowids that its statements and their
    /// triggers and foreign key actions inserted, updated or deleted, by table name (as SQLite
    /// names the table; tables of the main schema). A replay checks with them that what
    /// triggers and cascades wrote stayed among its own rows.
    /// - Throws: what `body` throws.
    public func recordingChangedRowids<T>(_ body: () throws -> T) throws -> (
        result: T, rowids: [String: Set<Int64>]
    ) {
        let outer = recordedRowids
        recordedRowids = [:]
        defer { recordedRowids = outer }
        let result = try body()
        var byName: [String: Set<Int64>] = [:]
        for (index, rowids) in recordedRowids ?? [:] {
            byName[hookedTables[index].name, default: []].formUnion(rowids)
        }
        return (result, byName)
    }

    private func installUpdateHook() {
        let context = Unmanaged.passUnretained(self).toOpaque()
        sqlite3_update_hook(
            handle,
            { context, operation, _, table, rowid in
                guard let context, let table else { return }
                let database = Unmanaged<Database>.fromOpaque(context).takeUnretainedValue()
                database.noteChange(of: table, resizing: operation != SQLITE_UPDATE, rowid: rowid)
            }, context)
    }

    func noteChange(of table: UnsafePointer<CChar>, resizing: Bool, rowid: Int64) {
        let index: Int
        if let seen = hookedTables.firstIndex(where: {
            $0.name.withCString { sqlite3_stricmp($0, table) == 0 }
        }) {
            index = seen
            if resizing { hookedTables[seen].resized = true }
            hookedTables[seen].rows += 1
        } else {
            index = hookedTables.count
            hookedTables.append((String(cString: table), resizing, 1))
        }
        if recordedRowids != nil { recordedRowids![index, default: []].insert(rowid) }
    }
}

/// Rows of a query read one at a time (`while let row = try cursor.next()`).
public final class RowCursor {
    private let statement: Statement
    private let sql: String
    /// The connection, which keeps the statement again when the cursor is released.
    private weak var database: Database?
    private var done = false

    init(statement: Statement, sql: String, database: Database) {
        self.statement = statement
        self.sql = sql
        self.database = database
    }

    deinit { database?.giveBack(statement, for: sql) }

    /// The next row, or nil when there are no more.
    public func next() throws -> Row? {
        guard !done else { return nil }
        if try statement.step() { return statement.currentRow() }
        done = true
        return nil
    }
}
