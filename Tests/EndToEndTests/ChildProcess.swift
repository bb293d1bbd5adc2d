import Foundation
import Synchronization

/// This test binary started again to run one test as a child process (the way `CrashTests` does),
/// with the child's standard output collected line by line while it runs, so the child never
/// blocks on a full pipe and can be killed at any moment.
///
/// The child test finds its instructions in environment variables and returns at once when they
/// are not set, so in a normal run it passes without doing anything.
final class ChildProcess: Sendable {
    private let process: Process
    private let output = SharedOutput()

    private final class SharedOutput: Sendable {
        let state = Mutex(ChildOutput())
        func withLock<T>(_ body: (inout ChildOutput) -> T) -> T { state.withLock { body(&$0) } }
    }

    private struct ChildOutput {
        var lines: [String] = []
        var partial = Data()
        var ended = false
    }

    /// Starts the test named `test` (a `--filter` pattern matching only it) with `environment`
    /// added to this process's.
    init(test: String, environment: [String: String]) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", test]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let reader = pipe.fileHandleForReading
        Thread.detachNewThread { [output] in
            while true {
                let chunk = reader.availableData
                let ended = chunk.isEmpty
                output.withLock { output in
                    output.partial.append(chunk)
                    while let newline = output.partial.firstIndex(of: UInt8(ascii: "\n")) {
                        let line = output.partial[output.partial.startIndex..<newline]
                        output.lines.append(String(decoding: line, as: UTF8.self))
                        output.partial = Data(output.partial[(newline + 1)...])
                    }
                    output.ended = ended
                }
                if ended { return }
            }
        }
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// The complete lines written so far (a line cut short by a kill is not among them).
    var lines: [String] { output.withLock { $0.lines } }

    /// Waits until a line satisfies `condition` or the output ends; returns whether one did.
    func waitForLine(timeout: Double = 30, where condition: (String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        var checked = 0
        while Date() < deadline {
            let (lines, ended) = output.withLock { ($0.lines, $0.ended) }
            if lines[checked...].contains(where: condition) { return true }
            checked = lines.count
            if ended { return false }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// Kills the child with SIGKILL and waits until it is gone and its output is read.
    func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
        waitUntilExit()
    }

    /// Waits for the child to end and for its last output to be read; returns its exit status.
    @discardableResult
    func waitUntilExit() -> Int32 {
        process.waitUntilExit()
        while !output.withLock({ $0.ended }) { Thread.sleep(forTimeInterval: 0.005) }
        return process.terminationStatus
    }
}
