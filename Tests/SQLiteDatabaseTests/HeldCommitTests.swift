import Dispatch
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// `BackgroundCheck` and `DatabaseQueue.holdCommits(until:)`: nothing changes the file before the
/// check has passed, nothing at all when it fails, and what changes nothing does not wait.
@Suite struct HeldCommitTests {
    let folder: TemporaryFolder
    let path: String
    let db: DatabaseQueue
    /// Signalled by a test to let its check end.
    let release = DispatchSemaphore(value: 0)

    struct Damaged: Error {}

    /// What another thread saw, read after the semaphore it signals.
    final class Seen: @unchecked Sendable {
        var error: (any Error)?
        var ran = false
    }

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path("held.db")
        db = try DatabaseQueue(path: path)
        try db.write { try $0.execute("CREATE TABLE t(x UNIQUE); INSERT INTO t VALUES (1)") }
    }

    /// A check that ends when the test signals `release`: passing, or failing with `Damaged`.
    func heldCheck(failing: Bool = false) -> BackgroundCheck {
        let release = release
        let check = BackgroundCheck(path: path) { _ in
            release.wait()
            if failing { throw Damaged() }
        }
        db.holdCommits(until: check)
        check.start()
        return check
    }

    /// Runs `write` on another thread; the returned semaphore is signalled when it has ended.
    func inBackground(_ write: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread {
            write()
            done.signal()
        }.start()
        return done
    }

    /// The rows of `t` as another connection sees them: what is committed.
    func committedRows() throws -> [Int] {
        try DatabaseQueue(path: path).read {
            try $0.fetchAll(Int.self, "SELECT x FROM t ORDER BY x")
        }
    }

    @Test func aChangeCommitsOnlyOnceTheCheckHasPassed() throws {
        let check = heldCheck()
        let db = db
        let done = inBackground { _ = try? db.write { try $0.execute("INSERT INTO t VALUES (2)") } }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(try committedRows() == [1])
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try committedRows() == [1, 2])
        #expect(check.hasPassed)
        #expect(db.pendingCheck == nil)
    }

    @Test func aFailedCheckRollsTheChangeBackWithItsError() throws {
        _ = heldCheck(failing: true)
        let original = try Data(contentsOf: URL(fileURLWithPath: path))
        let db = db
        let seen = Seen()
        let done = inBackground {
            do {
                try db.write { try $0.execute("ALTER TABLE t ADD COLUMN y") }
            } catch {
                seen.error = error
            }
        }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut)
        release.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(seen.error is Damaged)
        #expect(throws: Damaged.self) { try db.write { try $0.execute("DELETE FROM t") } }
        #expect(try committedRows() == [1])
        let columns = try db.read {
            try $0.fetchAll(String.self, "SELECT name FROM pragma_table_info('t')")
        }
        #expect(columns == ["x"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == original)
    }

    /// Reads, and writes that change neither rows nor the schema (what opening a file does when
    /// it has nothing to add), go on while the check runs.
    @Test func whatChangesNothingDoesNotWait() throws {
        let check = heldCheck()
        defer { release.signal() }
        #expect(try db.read { try $0.fetchOne(Int.self, "SELECT count(*) FROM t") } == 1)
        try db.write { db in
            try db.execute("CREATE TABLE IF NOT EXISTS t(x)")
            try db.execute("INSERT OR IGNORE INTO t VALUES (1)")
            try db.execute("UPDATE t SET x = 5 WHERE x = 99")
            try db.execute("CREATE TEMP TABLE scratch(y)")
        }
        #expect(!check.isFinished)
        #expect(db.pendingCheck === check)
    }

    @Test func theCheckStartsWhenAskedOrWaitedFor() throws {
        let seen = Seen()
        let check = BackgroundCheck(path: path) { _ in seen.ran = true }
        Thread.sleep(forTimeInterval: 0.1)
        #expect(!check.isFinished)
        try check.wait()
        #expect(seen.ran)
        #expect(check.hasPassed)
    }

    /// The check reads on a connection of its own, which cannot write.
    @Test func theCheckCannotWrite() throws {
        let check = BackgroundCheck(path: path) { db in
            try db.execute("INSERT INTO t VALUES (3)")
        }
        #expect(throws: SQLiteError.self) { try check.wait() }
        #expect(try committedRows() == [1])
    }

    @Test func cancellingStopsALongCheck() throws {
        let started = DispatchSemaphore(value: 0)
        let check = BackgroundCheck(path: path) { db in
            started.signal()
            _ = try db.fetchOne(
                Int.self,
                """
                WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n)
                SELECT count(*) FROM n
                """)
        }
        check.start()
        started.wait()
        let start = Date()
        check.cancel()
        #expect(Date().timeIntervalSince(start) < 5)
        #expect(throws: SQLiteError.self) { try check.wait() }
        #expect(!check.hasPassed)
    }
}
