import Foundation

/// A program running in a detached tmux session of a given size, driven as a person would: keys
/// in, screen text out. The session ends when this is released.
public final class TmuxSession {
    /// The tmux session's name, for commands sent with `tmux(_:)`.
    public let name: String
    /// The folder the program works in, kept for as long as the session runs.
    public let folder: TemporaryFolder

    /// Starts `program` (its path, then its arguments) in a detached tmux session of `width` x
    /// `height`, with TERM xterm-256color and LANG C.UTF-8.
    ///
    /// After the program exits, the session's shell prints `EXIT=<code>` and the terminal's
    /// `icanon` and `echo` modes (`MODES ...`), then waits, so a test can read how it ended.
    public init(program: [String], width: Int = 120, height: Int = 40, folder: TemporaryFolder)
        throws
    {
        name = "notes-e2e-\(UUID().uuidString.prefix(8))"
        self.folder = folder
        let command = program.map(Self.shellQuoted).joined(separator: " ")
        let script =
            "\(command); echo \"EXIT=$?\"; "
            + "echo MODES $(stty -a | tr -s ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$'); sleep 600"
        try Self.startSession(
            name: name, width: width, height: height,
            command: "env TERM=xterm-256color LANG=C.UTF-8 sh -c \(Self.shellQuoted(script))")
    }

    deinit { _ = try? Self.tmux(capturingOutput: false, ["kill-session", "-t", name]) }

    /// Sends tmux key names (`Down`, `C-z`, `Enter`, `BTab`, `DC`) or literal text.
    public func send(_ keys: String...) throws {
        try Self.tmux(["send-keys", "-t", name] + keys)
    }

    /// Types `text` as it is, with no key names read in it.
    public func sendLiteral(_ text: String) throws {
        try Self.tmux(["send-keys", "-t", name, "-l", text])
    }

    /// The process id of the program the session runs: the first child of the session's shell.
    public func programID() throws -> Int32 {
        let shell = try Self.tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let children = try String(
            contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        guard let first = children.split(separator: " ").first, let id = Int32(first) else {
            throw ProgramNotRunning(session: name)
        }
        return id
    }

    /// A session whose shell runs no program (any more).
    public struct ProgramNotRunning: Error {
        /// The tmux session's name.
        public let session: String
    }

    /// The screen as text (`-J` joins lines the terminal wrapped).
    public func screen() throws -> String {
        try Self.tmux(["capture-pane", "-t", name, "-p", "-J"])
    }

    /// The screen with its attributes as escape sequences (`-e`), wrapped lines not joined.
    public func styledScreen() throws -> String {
        try Self.tmux(["capture-pane", "-t", name, "-p", "-e"])
    }

    /// Waits until the screen contains `text` (up to `timeout` seconds); returns the screen.
    @discardableResult
    public func waitFor(_ text: String, timeout: Double = 30) throws -> String {
        try waitUntil(text, timeout: timeout) { $0.contains(text) }
    }

    /// Waits until `isReached` holds for the screen (up to `timeout` seconds); returns that
    /// screen. `state` names what is awaited in the error when it never comes. With `styled`,
    /// the screen is the `styledScreen()`, to wait for attributes (a selected row).
    @discardableResult
    public func waitUntil(
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

    /// A screen that never showed what a test waited for.
    public struct TimedOut: Error, CustomStringConvertible {
        /// What was awaited.
        public let waitingFor: String
        /// The last screen read.
        public let screen: String

        /// A wait for `waitingFor` that ended on `screen`.
        public init(waitingFor: String, screen: String) {
            self.waitingFor = waitingFor
            self.screen = screen
        }

        public var description: String {
            "timed out waiting for \"\(waitingFor)\"; screen:\n\(screen)"
        }
    }
}
