import Foundation
import SQLiteDatabase
import Testing

@testable import SQLiteUndo

@Suite struct EngineClockTests {
    /// Reading the clock costs the same however often it was read: it is read once per barrier,
    /// and a closure kept in a lock directly grew a wrapper at every read (100k barriers took
    /// minutes). Counted, not timed: the same closure comes back unwrapped, read after read.
    @Test func readingTheClockDoesNotWrapIt() throws {
        let engine = try Fixture().engine
        let counter = CallCounter()
        engine.clock = { counter.tick() }
        for _ in 0..<10_000 { _ = engine.clock() }
        #expect(counter.count == 10_000)
        // A clock read through 10,000 wrappers would overflow a small stack; read it from one.
        let read = Thread {
            _ = engine.clock()
            counter.finish()
        }
        read.stackSize = 64 * 1024
        read.start()
        #expect(counter.waitForFinish())
    }
}

/// Counts the clock's reads and signals a reader thread's end.
private final class CallCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    private let finished = DispatchSemaphore(value: 0)

    func tick() -> Date {
        lock.withLock { calls += 1 }
        return Date(timeIntervalSince1970: 0)
    }

    var count: Int { lock.withLock { calls } }
    func finish() { finished.signal() }
    func waitForFinish() -> Bool { finished.wait(timeout: .now() + 10) == .success }
}
