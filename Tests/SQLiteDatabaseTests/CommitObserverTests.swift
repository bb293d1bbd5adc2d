import Foundation
import Synchronization
import TestSupport
import Testing

@testable import SQLiteDatabase

/// A write transaction observer hears how each transaction ended, and the file's data version
/// tells a connection whether anyone committed since it last looked.
@Suite struct CommitObserverTests {
    struct Boom: Error {}

    /// Records the ends it is told about, with the version the file had then.
    final class Ends: WriteTransactionObserver, Sendable {
        let heard = Mutex<[String]>([])
        func didBeginWrite() { heard.withLock { $0.append("begin") } }
        func willCommit(_ db: Database) throws { heard.withLock { $0.append("will commit") } }
        func didCommit(_ db: Database) {
            heard.withLock { $0.append("committed, in a transaction: \(db.isInsideTransaction)") }
        }
        func didRollback(_ db: Database) { heard.withLock { $0.append("rolled back") } }
    }

    @Test func anObserverHearsACommitOnlyWhenTheTransactionCommitted() throws {
        let db = try DatabaseQueue()
        let ends = Ends()
        try db.write { db in
            db.add(writeTransactionObserver: ends)
            try db.execute("CREATE TABLE t(x)")
        }
        try db.write { try $0.execute("INSERT INTO t VALUES (1)") }
        _ = try? db.write { db in
            try db.execute("INSERT INTO t VALUES (2)")
            throw Boom()
        }
        #expect(
            ends.heard.withLock { $0 } == [
                "will commit", "committed, in a transaction: false",
                "begin", "will commit", "committed, in a transaction: false",
                "begin", "rolled back",
            ])
    }

    /// SQLite ends the transaction inside the block (an `OR ROLLBACK` conflict it catches): the
    /// block's later write commits on its own, `write` throws saying so, and observers hear a
    /// rollback, never a commit to write into.
    @Test func aTransactionSQLiteEndedInsideTheBlockIsReportedAsSuch() throws {
        let db = try DatabaseQueue()
        let ends = Ends()
        try db.write { db in
            db.add(writeTransactionObserver: ends)
            try db.execute("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1), (2)")
        }
        let error = #expect(throws: SQLiteError.self) {
            try db.write { db in
                try db.execute("INSERT INTO t VALUES (3)")
                _ = try? db.execute("UPDATE OR ROLLBACK t SET x = 1")
                try db.execute("INSERT INTO t VALUES (4)")
            }
        }
        #expect(error?.code == .error)
        #expect(
            error?.message
                == "the transaction ended inside the write block (an OR ROLLBACK conflict, "
                + "RAISE(ROLLBACK), or the block's own COMMIT or ROLLBACK): what the block "
                + "wrote after that was not part of it")
        #expect(
            try db.read { try $0.fetchAll(Int64.self, "SELECT x FROM t ORDER BY x") } == [1, 2, 4])
        #expect(
            ends.heard.withLock { $0 } == [
                "will commit", "committed, in a transaction: false", "begin", "rolled back",
            ])
    }

    /// Equal readings mean nobody committed in between: this connection's own commit changes
    /// it (not its writes before), a read does not, another connection's commit does once this
    /// one begins again.
    @Test func theFileDataVersionChangesWithEveryCommitToTheFile() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("version.db")
        let db = try DatabaseQueue(path: path)
        let other = try DatabaseQueue(path: path)
        try db.write { try $0.execute("CREATE TABLE t(x)") }
        // Read once the transaction has read the file (`BEGIN` alone reads nothing yet).
        let version = { (queue: DatabaseQueue) throws -> UInt32? in
            try queue.read { db in
                _ = try db.fetchOne(Int64.self, "SELECT count(*) FROM t")
                return db.fileDataVersion
            }
        }
        let first = try #require(try version(db))
        #expect(try version(db) == first)
        _ = try db.read { try $0.fetchAll(Int64.self, "SELECT x FROM t") }
        #expect(try version(db) == first)
        let insideAWrite = try db.write { db in
            try db.execute("INSERT INTO t VALUES (0)")
            return db.fileDataVersion
        }
        #expect(insideAWrite == first)
        let afterFirstWrite = try #require(try version(db))
        #expect(afterFirstWrite != first)
        try db.write { try $0.execute("INSERT INTO t VALUES (1)") }
        let afterOwn = try #require(try version(db))
        #expect(afterOwn != afterFirstWrite)
        try other.write { try $0.execute("INSERT INTO t VALUES (2)") }
        #expect(try version(db) != afterOwn)
    }
}
