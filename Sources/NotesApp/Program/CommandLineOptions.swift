/// What the command line asked for.
public enum Invocation: Equatable, Sendable {
    /// Run the editor.
    case edit(EditOptions)
    /// Print the notebook to stdout.
    case export(path: String?, format: ExportFormat)
    case help
    case version
}

/// Options of the editor.
public struct EditOptions: Equatable, Sendable {
    public var path: String?
    /// How many panes to open; nil: as the notebook was left (2 for a new one).
    public var panes: Int?
    public var demo = false
    public var undo = true

    public init(path: String? = nil, panes: Int? = nil, demo: Bool = false, undo: Bool = true) {
        self.path = path
        self.panes = panes
        self.demo = demo
        self.undo = undo
    }
}

/// The formats of `notes export`.
public enum ExportFormat: String, Equatable, Sendable {
    case json
    case markdown
}

/// A command line that does not make sense; printed with the usage, exit code 2.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
}

/// Parses `notes`' arguments (without the program name).
public enum CommandLineOptions {
    public static let usage = """
        usage: notes [PATH] [--panes N] [--demo] [--no-undo]
               notes export [PATH] [--format json|markdown]
               notes --help | --version

          PATH          the notebook, also given as --db PATH (default:
                        $XDG_DATA_HOME/notes/notes.db, that is ~/.local/share/notes/notes.db)
          --panes N     how many panes to open, 1 to 9 (default: as the notebook was
                        left, with their widths, focus and history; 2 for a new one)
          --demo        open a throwaway notebook with hundreds of articles
          --no-undo     edit with undo off (nothing is recorded)

        exit codes: 0 ok, 1 the notebook cannot be used, 2 bad command line,
                    3 no usable terminal
        """

    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        var arguments = arguments[...]
        if arguments.first == "export" {
            arguments = arguments.dropFirst()
            var path: String?
            var format = ExportFormat.json
            while let argument = arguments.popFirst() {
                switch argument {
                case "--db": try setNotebook(try value(of: argument, &arguments), &path)
                case "--format":
                    let name = try value(of: argument, &arguments)
                    guard let parsed = ExportFormat(rawValue: name) else {
                        throw UsageError(
                            description: "unknown export format '\(name)' (json or markdown)")
                    }
                    format = parsed
                default: try setNotebook(try positional(argument), &path)
                }
            }
            return .export(path: path, format: format)
        }
        var options = EditOptions()
        while let argument = arguments.popFirst() {
            switch argument {
            case "--help", "-h": return .help
            case "--version": return .version
            case "--db": try setNotebook(try value(of: argument, &arguments), &options.path)
            case "--demo": options.demo = true
            case "--no-undo": options.undo = false
            case "--panes":
                let text = try value(of: argument, &arguments)
                guard let count = Int(text), (1...9).contains(count) else {
                    throw UsageError(
                        description: "--panes takes a number from 1 to 9, not '\(text)'")
                }
                options.panes = count
            default: try setNotebook(try positional(argument), &options.path)
            }
        }
        if let path = options.path, options.demo {
            throw UsageError(
                description: "--demo opens its own throwaway notebook, not '\(path)': drop one")
        }
        return .edit(options)
    }

    private static func value(of flag: String, _ arguments: inout ArraySlice<String>)
        throws(UsageError)
        -> String
    {
        guard let value = arguments.popFirst() else {
            throw UsageError(description: "\(flag) needs a value")
        }
        return value
    }

    /// An argument that is not an option: the notebook's path. One starting with `-` is an
    /// unknown option (a path like that can be given as `./-name`).
    private static func positional(_ argument: String) throws(UsageError) -> String {
        guard !argument.hasPrefix("-") else {
            throw UsageError(description: "unknown option '\(argument)'")
        }
        return argument
    }

    /// Sets the notebook's path, given as `PATH` or `--db PATH`: notes opens one notebook.
    private static func setNotebook(_ path: String, _ notebook: inout String?)
        throws(UsageError)
    {
        if let given = notebook {
            throw UsageError(
                description: "two notebooks given, '\(given)' and '\(path)': notes opens one")
        }
        notebook = path
    }
}
