/// Why the terminal could not be used; the message says what to do.
public enum TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The TERM environment variable is unset or empty.
    case termNotSet
    /// TERM is `dumb`: a terminal without cursor movement.
    case dumbTerminal
    /// TERM names a terminal the terminfo database does not describe.
    case unknownTerminal(String)
    /// Standard input or output is not a terminal (a pipe or a file).
    case notATerminal
    /// Curses could not start on this terminal.
    case cannotStart(String)
    /// Another `CursesBackend` already owns the terminal.
    case alreadyInUse

    /// A sentence for the user, naming the program as it was invoked.
    public var description: String {
        let program = Self.programName
        switch self {
        case .termNotSet:
            return "\(program) needs a terminal (TERM is not set)"
        case .dumbTerminal:
            return "\(program) needs a terminal with cursor movement (TERM is dumb)"
        case .unknownTerminal(let name):
            return
                "\(program) does not know the terminal \"\(name)\" (no terminfo entry); "
                + "try TERM=xterm-256color"
        case .notATerminal:
            return "\(program) needs a terminal (standard input or output is not one)"
        case .cannotStart(let name):
            return "\(program) could not start the terminal \"\(name)\""
        case .alreadyInUse:
            return "\(program) is already using the terminal"
        }
    }

    private static var programName: String {
        guard let path = CommandLine.arguments.first, !path.isEmpty else { return "the program" }
        return path.split(separator: "/").last.map(String.init) ?? path
    }
}
