import Dispatch
import Foundation
import SQLiteDatabase
import TestSupport
import Testing

/// `write(waitingAtMost:)`: a write that waits a bounded time for another connection's lock,
/// and leaves the connection's own wait (5 s) as it was.
@Suite struct BoundedWaitTests {
    @Test func aBoundedWriteGivesUpWhileAnotherConnectionHoldsTheLock() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("wait.db")
        let db = try DatabaseQueue(path: path)
        try db.write { try $0.execute("CREATE TABLE t(name TEXT)") }
        let other = try DatabaseQueue(path: path)
        let held = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        Thread {
            try? other.write { db in
                try db.execute("INSERT INTO t VALUES ('other')")
                held.signal()
                Thread.sleep(forTimeInterval: 0.4)
            }
            done.signal()
        }.start()
        held.wait()

        let started = ContinuousClock.now
        let error = #expect(throws: SQLiteError.self) {
            try db.write(waitingAtMost: .milliseconds(20)) {
                try $0.execute("INSERT INTO t VALUES ('bounded')")
            }
        }
        #expect(error?.code.primary == .busy)
        #expect(ContinuousClock.now - started < .milliseconds(300))
        // The connection's own wait is back: this write waits for the other's commit.
        try db.write { try $0.execute("INSERT INTO t VALUES ('patient')") }
        done.wait()
        #expect(
            try db.read { try $0.fetchAll(String.self, "SELECT name FROM t ORDER BY rowid") }
                == ["other", "patient"])
    }
}
