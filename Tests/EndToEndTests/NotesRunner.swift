import Foundation
import TestSupport

/// Runs the real `notes` binary once and reports how it ended: without a terminal (a plain child
/// process), or in a tmux terminal with its standard error going to a file, so the exact message
/// and exit code are known without reading them off the screen.
enum NotesRunner {
    /// How a run ended.
    struct Outcome: Equatable, CustomStringConvertible {
        let status: Int32
        /// Everything written to standard error.
        let errors: String
        /// The terminal's `icanon` and `echo` modes after the run ("icanon echo" when sane);
        /// empty for a run without a terminal.
        var modes = ""

        var description: String { "exit \(status), stderr \(errors.debugDescription)" }
    }

    /// Runs `notes` as a plain child process: standard input, output and error are pipes.
    static func withoutTerminal(_ arguments: [String], environment: [String: String] = [:])
        throws -> Outcome
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: TmuxSession.notesBinary)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let errors = Pipe()
        process.standardInput = Pipe()
        process.standardOutput = Pipe()
        process.standardError = errors
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, errors: String(decoding: data, as: UTF8.self))
    }

    /// Runs `notes` in a detached tmux terminal of `width` x `height`.
    ///
    /// - Parameters:
    ///   - environment: Variables set for `notes` (TERM is xterm-256color unless given).
    ///   - unsetting: Variables removed from its environment.
    ///   - pipingOutput: Whether its standard output goes into a pipe instead of the terminal.
    ///   - shellCommands: Shell commands run before `notes` (such as `umask 000`).
    ///   - folder: Where the run's files (stderr, exit code, terminal modes) are kept.
    ///   - timeout: Seconds to wait for `notes` to end.
    ///   - drive: Called with the tmux session's name once `notes` started, to type into it.
    static func inTerminal(
        _ arguments: [String], environment: [String: String] = [:], unsetting: [String] = [],
        pipingOutput: Bool = false, shellCommands: String = "", folder: TemporaryFolder,
        width: Int = 100,
        height: Int = 30, timeout: Double = 20, drive: ((String) throws -> Void)? = nil
    ) throws -> Outcome {
        let run = folder.url.appendingPathComponent("run-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: run) }
        let file = { (name: String) in
            TmuxSession.shellQuoted(run.appendingPathComponent(name).path)
        }
        let command = ([TmuxSession.notesBinary] + arguments).map(TmuxSession.shellQuoted)
            .joined(separator: " ")
        var script =
            "\(shellCommands)\(command) 2>\(file("errors")); echo $? >\(file("status.tmp"))"
        if pipingOutput { script = "{ \(script); } | cat >/dev/null" }
        script +=
            "; stty -a | tr -s ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '"
            + " >\(file("modes")); mv \(file("status.tmp")) \(file("status")); sleep 600"
        var variables = ["TERM": "xterm-256color", "LANG": "C.UTF-8"].merging(environment) { $1 }
        for name in unsetting { variables.removeValue(forKey: name) }
        let assignments = variables.sorted { $0.key < $1.key }
            .map { TmuxSession.shellQuoted("\($0.key)=\($0.value)") }
        let env =
            (["env"] + unsetting.map { "-u \($0)" } + assignments).joined(separator: " ")
        let session = "notes-run-\(UUID().uuidString.prefix(8))"
        try TmuxSession.startSession(
            name: session, width: width, height: height,
            command: "\(env) sh -c \(TmuxSession.shellQuoted(script))")
        defer {
            _ = try? TmuxSession.tmux(capturingOutput: false, ["kill-session", "-t", session])
        }
        try drive?(session)
        let statusPath = run.appendingPathComponent("status").path
        let deadline = Date().addingTimeInterval(timeout)
        while !FileManager.default.fileExists(atPath: statusPath) {
            guard Date() < deadline else {
                let screen = try TmuxSession.tmux(["capture-pane", "-t", session, "-p"])
                throw TmuxSession.TimedOut(waitingFor: "notes to exit", screen: screen)
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let read = { (name: String) in
            (try? String(contentsOf: run.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        return Outcome(
            status: Int32(read("status").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1,
            errors: read("errors"),
            modes: read("modes").trimmingCharacters(in: .whitespaces))
    }
}
