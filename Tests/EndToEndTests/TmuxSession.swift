import Foundation
import Testing

/// The real `notes` binary running in a tmux session of a given size, driven like a person would:
/// keys in, screen text out.
final class TmuxSession {
    let name: String
    let folder: URL

    /// The `notes` executable built next to this test bundle.
    static var notesBinary: String {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("notes").path
    }

    /// Starts `notes` with `arguments` in a detached tmux session of `width` x `height`.
    convenience init(arguments: [String], width: Int = 120, height: Int = 40, folder: URL) throws {
        try self.init(
            program: [Self.notesBinary] + arguments, width: width, height: height, folder: folder)
    }

    /// Starts the `sqlite3` shell on `path`: another program, typing SQL as a person would.
    static func sqlite3Shell(_ path: String, folder: URL) throws -> TmuxSession {
        try TmuxSession(
            program: ["/usr/bin/sqlite3", path], width: 120, height: 20, folder: folder)
    }

    private init(program: [String], width: Int, height: Int, folder: URL) throws {
        name = "notes-e2e-\(UUID().uuidString.prefix(8))"
        self.folder = folder
        let command = program.map(Self.shellQuoted).joined(separator: " ")
        // After the program exits, the shell prints its exit code and the terminal's mode, then
        // waits.
        let script =
            "\(command); echo \"EXIT=$?\"; "
            + "echo MODES $(stty -a | tr -s ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$'); sleep 600"
        try Self.startSession(
            name: name, width: width, height: height,
            command: "env TERM=xterm-256color LANG=C.UTF-8 sh -c \(Self.shellQuoted(script))")
    }

    deinit { _ = try? Self.tmux(capturingOutput: false, ["kill-session", "-t", name]) }

    /// Sends tmux key names (`Down`, `C-z`, `Enter`, `BTab`, `DC`) or literal text.
    func send(_ keys: String...) throws {
        try Self.tmux(["send-keys", "-t", name] + keys)
    }

    func sendLiteral(_ text: String) throws {
        try Self.tmux(["send-keys", "-t", name, "-l", text])
    }

    /// The screen as text (`-J` joins lines the terminal wrapped).
    func screen() throws -> String {
        try Self.tmux(["capture-pane", "-t", name, "-p", "-J"])
    }

    /// The screen with its attributes as escape sequences (`-e`), wrapped lines not joined.
    func styledScreen() throws -> String {
        try Self.tmux(["capture-pane", "-t", name, "-p", "-e"])
    }

    /// Waits until the screen contains `text` (up to `timeout` seconds); returns the screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = 30) throws -> String {
        try waitUntil(text, timeout: timeout) { $0.contains(text) }
    }

    /// Waits until `isReached` holds for the screen (up to `timeout` seconds); returns that
    /// screen. `state` names what is awaited in the error when it never comes. With `styled`,
    /// the screen is the `styledScreen()`, to wait for attributes (a selected row).
    @discardableResult
    func waitUntil(
        _ state: String, styled: Bool = false, timeout: Double = 30,
        _ isReached: (String) -> Bool
    ) throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while Date() < deadline {
            last = try styled ? styledScreen() : screen()
            if isReached(last) { return last }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TimedOut(waitingFor: state, screen: last)
    }

    struct TimedOut: Error, CustomStringConvertible {
        let waitingFor: String
        let screen: String
        var description: String { "timed out waiting for \"\(waitingFor)\"; screen:\n\(screen)" }
    }

    /// The tests' own tmux server (not the user's), started without any configuration file.
    static let serverArguments = ["-L", "notes-tests", "-f", "/dev/null"]

    /// Runs SQL on `path` in the sqlite3 shell, as another program writes (foreign keys off,
    /// its default), and expects it to succeed.
    static func sqlite3(_ path: String, _ sql: String) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        shell.arguments = [path, sql]
        try shell.run()
        shell.waitUntilExit()
        #expect(shell.terminationStatus == 0)
    }

    /// Runs a tmux command against the tests' server and returns what it printed.
    @discardableResult
    static func tmux(capturingOutput: Bool = true, _ arguments: [String]) throws -> String {
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
    static func startSession(name: String, width: Int, height: Int, command: String) throws {
        // One at a time, and again after a moment if it failed: two clients that both find no
        // server each start one, and one of them loses.
        sessionStarts.lock()
        defer { sessionStarts.unlock() }
        var reason = ""
        for attempt in 0..<5 {
            if attempt > 0 { Thread.sleep(forTimeInterval: 0.2) }
            let errors = FileManager.default.temporaryDirectory
                .appendingPathComponent("tmux-start-\(UUID().uuidString).err")
            defer { try? FileManager.default.removeItem(at: errors) }
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

    struct SessionNotStarted: Error, CustomStringConvertible {
        let name: String
        let reason: String
        var description: String { "tmux could not start the session \(name): \(reason)" }
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
