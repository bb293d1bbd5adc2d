import Foundation

extension TmuxSession {
    /// The tests' own tmux server (not the user's), started without any configuration file.
    public static let serverArguments = ["-L", "notes-tests", "-f", "/dev/null"]

    /// Runs a tmux command against the tests' server and returns what it printed.
    @discardableResult
    public static func tmux(capturingOutput: Bool = true, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tmux")
        process.arguments = serverArguments + arguments
        process.standardError = FileHandle.nullDevice
        guard capturingOutput else {
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return ""
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts a detached session running `command` in a `width` x `height` terminal.
    ///
    /// The first session starts the tmux server, a daemon that keeps every descriptor it inherits.
    /// Foundation learns that a child ended when the child's end of a socket pair closes, so a
    /// server holding it would make `waitUntilExit` wait for the server, not the client: bash
    /// closes every descriptor above standard error before it becomes tmux.
    public static func startSession(name: String, width: Int, height: Int, command: String)
        throws
    {
        // One at a time, and again after a moment if it failed: two clients that both find no
        // server each start one, and one of them loses.
        sessionStarts.lock()
        defer { sessionStarts.unlock() }
        var reason = ""
        for attempt in 0..<5 {
            if attempt > 0 { Thread.sleep(forTimeInterval: 0.2) }
            let scratch = try TemporaryFolder(prefix: "tmux-start")
            let errors = scratch.url.appendingPathComponent("errors")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments =
                [
                    "-c",
                    "for fd in /proc/$$/fd/*; do fd=${fd##*/}; "
                        + "if [ \"$fd\" -gt 2 ]; then exec {fd}>&-; fi; done; exec \"$@\"",
                    "bash", "/usr/bin/tmux",
                ] + serverArguments + [
                    "new-session", "-d", "-s", name, "-x", "\(width)", "-y", "\(height)", command,
                ]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: errors)
            try process.run()
            process.waitUntilExit()
            if process.terminationStatus == 0 { return }
            reason = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        }
        throw SessionNotStarted(name: name, reason: reason)
    }

    private static let sessionStarts = NSLock()

    /// tmux refused to start a session, five times.
    public struct SessionNotStarted: Error, CustomStringConvertible {
        /// The session's name.
        public let name: String
        /// What tmux printed the last time.
        public let reason: String

        public var description: String { "tmux could not start the session \(name): \(reason)" }
    }
}
