import Foundation
import TerminalUI

/// Peak resident memory of the app on a big notebook against a small one. Each sample is a fresh
/// child process (this executable, re-run with a hidden flag) that opens the notebook, uses it a
/// little and reports its `VmHWM`.
@MainActor
enum PeakMemory {
    private static let reportPrefix = "peak-rss-kb "

    static func measure(
        config: BenchConfig, notebooks: (big: String, small: String), folder: ScratchFolder
    ) throws -> Measurement {
        let big = folder.path("memory-big.db")
        let small = folder.path("memory-small.db")
        try NotebookFixture.copy(notebooks.big, to: big)
        try NotebookFixture.copy(notebooks.small, to: small)
        var samples: (big: [Double], small: [Double]) = ([], [])
        for round in 0..<config.memoryRepetitions {
            // Alternate which size goes first, as the timed measures do.
            if round.isMultiple(of: 2) {
                samples.big.append(try childPeak(notebook: big))
                samples.small.append(try childPeak(notebook: small))
            } else {
                samples.small.append(try childPeak(notebook: small))
                samples.big.append(try childPeak(notebook: big))
            }
        }
        return Measurement(
            measure:
                "peak RSS (start, \(keys.count) keys, new process): \(countLabel(config.bigNotebook)) "
                + "articles / \(config.smallNotebook)",
            value: Interleaving.median(samples.big), baseline: Interleaving.median(samples.small),
            unit: .kilobytes, target: .atMost(1.3))
    }

    /// What the child does after the first frame: moves through the list, types into an
    /// article, undoes and redoes.
    private static let keys: [Key] =
        Array(repeating: .down, count: 20) + Array(repeating: .pageDown, count: 5) + [.end, .home]
        + [.enter] + Array(repeating: .character("x"), count: 10) + [.escape]
        + [.control("z"), .control("z"), .control("y")]

    /// Runs a child on `notebook` and returns its peak RSS in kilobytes.
    private static func childPeak(notebook: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [BenchOptions.peakMemoryChildFlag, notebook]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0,
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix(reportPrefix) }),
            let kilobytes = Double(line.dropFirst(reportPrefix.count))
        else {
            throw BenchFailure(
                "the peak-memory child failed (status \(process.terminationStatus)): \(text)")
        }
        return kilobytes
    }

    /// The child's side: opens the app on `notebook`, presses keys, prints its peak RSS.
    /// - Returns: the process exit code.
    static func runChild(notebook: String) -> Int32 {
        do {
            let running = try RunningApp(notebook: notebook)
            for key in keys { running.press(key) }
            try running.checkFrameShowsArticles()
            guard let peak = try peakResidentKilobytes() else {
                throw BenchFailure("no VmHWM in /proc/self/status")
            }
            print("\(reportPrefix)\(peak)")
            return 0
        } catch {
            FileHandle.standardError.write(Data("notes-bench child: \(error)\n".utf8))
            return 1
        }
    }

    /// `VmHWM` of /proc/self/status: the process's peak resident set, in kilobytes.
    private static func peakResidentKilobytes() throws -> Int? {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first
    }
}
