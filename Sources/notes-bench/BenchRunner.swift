import Foundation

/// Runs every measure in turn and prints the results.
@MainActor
enum BenchRunner {
    /// - Returns: the exit code: 0 when every measure ran (whatever the results, unless
    ///   `--check`), 1 otherwise, and with `--check` when a row missed its target every time it
    ///   was measured (`TargetCheck`).
    static func run(_ options: BenchOptions) -> Int32 {
        let config =
            options.quick ? BenchConfig.quick : options.check ? BenchConfig.check : BenchConfig.full
        do {
            let started = Date()
            let blocks = try measureAll(config, groups: options.groups)
            let measurements = blocks.flatMap(\.rows)
            Progress.note(String(format: "done in %.0f s", Date().timeIntervalSince(started)))
            print(
                options.json
                    ? try ResultsReport.json(measurements, quick: options.quick)
                    : ResultsReport.table(measurements))
            guard options.check else { return 0 }
            let misses = try TargetCheck.misses(in: blocks) { groups in
                Progress.note("measuring again: \(groups.map(\.rawValue).sorted())")
                return try measureAll(config, groups: groups).flatMap(\.rows)
            }
            for miss in misses { Progress.note("target missed: \(miss)") }
            return misses.isEmpty ? 0 : 1
        } catch {
            Progress.note("failed: \(error)")
            return 1
        }
    }

    /// The rows of the groups asked for (all when `groups` is empty), each block with the
    /// groups that measure it again.
    private static func measureAll(_ config: BenchConfig, groups: Set<BenchGroup>) throws
        -> [MeasuredBlock]
    {
        let runs = { (group: BenchGroup) in groups.isEmpty || groups.contains(group) }
        let folder = try ScratchFolder()
        var results: [MeasuredBlock] = []
        if runs(.capture) || runs(.undo) {
            Progress.note("capture and undo of bulk updates (\(config.rows) rows)")
            results.append(
                MeasuredBlock(
                    Set([.capture, .undo].filter(runs)),
                    try BulkChangeBenchmarks(config: config)
                        .run(capture: runs(.capture), undo: runs(.undo))))
        }
        if runs(.keyed) {
            Progress.note("capture and undo on a table keyed by text (\(config.rows) rows)")
            results.append(MeasuredBlock([.keyed], try KeyedTableBenchmarks(config: config).run()))
        }
        if runs(.singleRow) {
            Progress.note("1-row barrier in a WAL file")
            results.append(
                MeasuredBlock(
                    [.singleRow], try SingleRowBenchmark(config: config, folder: folder).run()))
        }
        if runs(.history) {
            Progress.note("undo with \(config.longHistory) barriers of history")
            results.append(MeasuredBlock([.history], try HistoryBenchmark(config: config).run()))
            Progress.note("going to a step on another branch")
            results.append(MeasuredBlock([.history], try BranchBenchmark(config: config).run()))
        }
        if runs(.historyPanel) {
            Progress.note("history panel and take-backs")
            results.append(
                MeasuredBlock(
                    [.historyPanel],
                    try HistoryPanelBenchmarks(config: config, folder: folder).run()))
        }
        if runs(.app) || runs(.memory) {
            Progress.note(
                "seeding notebooks of \(config.bigNotebook) and \(config.smallNotebook) articles")
            let notebooks = (big: folder.path("big.db"), small: folder.path("small.db"))
            try NotebookFixture.create(articles: config.bigNotebook, at: notebooks.big)
            try NotebookFixture.create(articles: config.smallNotebook, at: notebooks.small)
            if runs(.app) {
                Progress.note("app start and keystrokes")
                results.append(
                    MeasuredBlock(
                        [.app],
                        try AppBenchmarks(config: config, notebooks: notebooks, folder: folder)
                            .run()))
            }
            if runs(.memory) {
                Progress.note("peak memory (child processes)")
                results.append(
                    MeasuredBlock(
                        [.memory],
                        [
                            try PeakMemory.measure(
                                config: config, notebooks: notebooks, folder: folder)
                        ]
                    ))
            }
        }
        if runs(.log) {
            Progress.note("log bound")
            results.append(MeasuredBlock([.log], try LogBoundBenchmark(config: config).run()))
        }
        if runs(.longBody) {
            Progress.note("typing into long articles")
            results.append(
                MeasuredBlock(
                    [.longBody], try LongBodyBenchmarks(config: config, folder: folder).run()))
        }
        if runs(.bigActions) {
            Progress.note("undo and redo of big actions (\(config.bigActionArticles) articles)")
            results.append(
                MeasuredBlock(
                    [.bigActions], try BigActionBenchmarks(config: config, folder: folder).run()))
        }
        return results
    }
}
