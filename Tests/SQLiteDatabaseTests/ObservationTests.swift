import Foundation
import SQLiteDatabase
import Synchronization
import TestSupport
import Testing

final class ChangeRecorder: Sendable {
    let changes = Mutex<[DatabaseChange]>([])
    func record(_ change: DatabaseChange) { changes.withLock { $0.append(change) } }
    var all: [DatabaseChange] { changes.withLock { $0 } }
}

@Suite struct ObservationTests {
    @Test func observersLearnWhichTablesACommitChanged() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute("CREATE TABLE a(x); CREATE TABLE b(x); CREATE TABLE c(x)")
        }
        let recorder = ChangeRecorder()
        let observation = db.observe { recorder.record($0) }
        try db.write { db in
            try db.execute("INSERT INTO a VALUES (1)")
            try db.execute("INSERT INTO b VALUES (1)")
        }
        try db.write { try $0.execute("UPDATE a SET x = 2") }
        try? db.write { db in
            try db.execute("INSERT INTO c VALUES (1)")
            throw CancellationError()
        }
        _ = try db.read { try $0.fetchAll(Row.self, "SELECT * FROM a") }
        #expect(
            recorder.all == [
                DatabaseChange(tables: ["a", "b"], isExternal: false),
                DatabaseChange(tables: ["a"], isExternal: false, resizedTables: []),
            ])
        observation.cancel()
        try db.write { try $0.execute("INSERT INTO c VALUES (1)") }
        #expect(recorder.all.count == 2)
    }

    @Test func observersLearnWhichTablesGainedOrLostRows() throws {
        let db = try DatabaseQueue()
        try db.write { db in
            try db.execute(
                """
                CREATE TABLE a(x); CREATE TABLE b(x); CREATE TABLE c(x);
                INSERT INTO a VALUES (1), (2), (3); INSERT INTO c VALUES (1);
                """)
        }
        let recorder = ChangeRecorder()
        let observation = db.observe { recorder.record($0) }
        // Many rows of one table, then others, then the first again: each table's kind of change
        // is told, whatever the order.
        try db.write { db in
            try db.execute("UPDATE a SET x = x + 1")
            try db.execute("INSERT INTO b VALUES (1)")
            try db.execute("UPDATE a SET x = x + 1")
            try db.execute("UPDATE c SET x = 5")
            try db.execute("DELETE FROM c WHERE x = 5")
        }
        try db.write { db in try db.execute("UPDATE a SET x = x + 1") }
        #expect(
            recorder.all == [
                DatabaseChange(
                    tables: ["a", "b", "c"], isExternal: false, resizedTables: ["b", "c"]),
                DatabaseChange(tables: ["a"], isExternal: false, resizedTables: []),
            ])
        withExtendedLifetime(observation) {}
    }

    @Test func commitsOfAnotherConnectionAreNoticedByPolling() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("shared.db")
        let mine = try DatabaseQueue(path: path)
        try mine.write { try $0.execute("CREATE TABLE notes(x)") }
        let theirs = try DatabaseQueue(path: path)
        let recorder = ChangeRecorder()
        let observation = mine.observe { recorder.record($0) }
        #expect(try mine.pollForExternalChanges() == false)
        try theirs.write { try $0.execute("INSERT INTO notes VALUES (1)") }
        #expect(try mine.pollForExternalChanges() == true)
        #expect(try mine.pollForExternalChanges() == false)
        #expect(recorder.all == [DatabaseChange(tables: ["notes"], isExternal: true)])
        // Own commits are not reported as external.
        try mine.write { try $0.execute("INSERT INTO notes VALUES (2)") }
        #expect(try mine.pollForExternalChanges() == false)
        withExtendedLifetime(observation) {}
    }
}
