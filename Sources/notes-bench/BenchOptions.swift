/// What the command line asked `notes-bench` for.
enum BenchInvocation: Equatable {
    case benchmark(BenchOptions)
    case help
    /// Hidden: a child process opening `notebook` in the app and printing its peak RSS.
    case peakMemoryChild(notebook: String)
}

/// A command line that does not make sense; printed with the usage, exit code 2.
struct BenchUsageError: Error, CustomStringConvertible {
    let description: String
}

/// The options of a benchmark run.
struct BenchOptions: Equatable {
    /// Fewer rows and repetitions (CI smoke: under a minute); every measure still runs.
    var quick = false
    /// Print the results as JSON instead of a table.
    var json = false
    /// Only these groups of measures (all when empty): for profiling one of them.
    var groups: Set<BenchGroup> = []
    /// Fail (exit code 1) when a row misses its target every time it is measured
    /// (`TargetCheck`).
    var check = false

    static let peakMemoryChildFlag = "--peak-memory-child"

    static let usage = """
        usage: notes-bench [--quick] [--json] [--check] [--only GROUP]...

          --quick        fewer rows and repetitions (under a minute, for CI smoke)
          --json         print the results as JSON instead of a table
          --check        exit 1 when a row misses its target, measured again twice first;
                         sizes between --quick and the full run (a minute or two)
          --only GROUP   run only this group (repeatable), to profile it:
                         \(BenchGroup.allCases.map(\.rawValue).joined(separator: ", "))

        Build and run in release: swift run -c release notes-bench
        """

    static func parse(_ arguments: [String]) -> Result<BenchInvocation, BenchUsageError> {
        var options = BenchOptions()
        var arguments = arguments[...]
        while let argument = arguments.popFirst() {
            switch argument {
            case "--quick": options.quick = true
            case "--json": options.json = true
            case "--check": options.check = true
            case "--help", "-h": return .success(.help)
            case "--only":
                guard let name = arguments.popFirst(), let group = BenchGroup(rawValue: name) else {
                    return .failure(BenchUsageError(description: "--only needs a group name"))
                }
                options.groups.insert(group)
            case peakMemoryChildFlag:
                guard let path = arguments.popFirst() else {
                    return .failure(BenchUsageError(description: "\(argument) needs a path"))
                }
                return .success(.peakMemoryChild(notebook: path))
            default:
                return .failure(BenchUsageError(description: "unknown argument '\(argument)'"))
            }
        }
        if options.quick, options.check {
            return .failure(
                BenchUsageError(description: "--check measures at its own sizes: not with --quick"))
        }
        return .success(.benchmark(options))
    }
}

/// The groups of measures, in the order a run measures them.
enum BenchGroup: String, CaseIterable, Equatable, Hashable {
    case capture
    case undo
    case singleRow = "single-row"
    case history
    case historyPanel = "history-panel"
    case app
    case memory
    case log
    case longBody = "long-body"
    case bigActions = "big-actions"
    case keyed
}
