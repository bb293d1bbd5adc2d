import Foundation

/// Runs every measure in turn and prints the results.
@MainActor
enum BenchRunner {
    /// - Returns: the exit code: 0 when every measure ran (whatever the results), 1 otherwise.
    static func run(_ options: BenchOptions) -> Int32 {
        let config = options.quick ? BenchConfig.quick : BenchConfig.full
        do {
            let started = Date()
            let measurements = try measureAll(config, groups: options.groups)
            Progress.note(String(format: "done in %.0f s", Date().timeIntervalSince(started)))
            print(
                options.json
                    ? try ResultsReport.json(measurements, quick: options.quick)
                    : ResultsReport.table(measurements))
            return 0
        } catch {
            Progress.note("failed: \(error)")
            return 1
        }
    }

    private static func measureAll(_ config: BenchConfig, groups: Set<BenchGroup>) throws
        -> [Measurement]
    {
        let runs = { (group: BenchGroup) in groups.isEmpty || groups.contains(group) }
        let folder = try ScratchFolder()
        var results: [Measurement] = []
        if runs(.capture) || runs(.undo) {
            Progress.note("capture and undo of bulk updates (\(config.rows) rows)")
            results += try BulkChangeBenchmarks(config: config)
                .run(capture: runs(.capture), undo: runs(.undo))
        }
        if runs(.keyed) {
            Progress.note("capture and undo on a table keyed by text (\(config.rows) rows)")
            results += try KeyedTableBenchmarks(config: config).run()
        }
        if runs(.singleRow) {
            Progress.note("1-row barrier in a WAL file")
            results += try SingleRowBenchmark(config: config, folder: folder).run()
        }
        if runs(.history) {
            Progress.note("undo with \(config.longHistory) barriers of history")
            results += try HistoryBenchmark(config: config).run()
        }
        if runs(.historyPanel) {
            Progress.note("history panel and take-backs")
            results += try HistoryPanelBenchmarks(config: config, folder: folder).run()
        }
        if runs(.app) || runs(.memory) {
            Progress.note(
                "seeding notebooks of \(config.bigNotebook) and \(config.smallNotebook) articles")
            let notebooks = (big: folder.path("big.db"), small: folder.path("small.db"))
            try NotebookFixture.create(articles: config.bigNotebook, at: notebooks.big)
            try NotebookFixture.create(articles: config.smallNotebook, at: notebooks.small)
            if runs(.app) {
                Progress.note("app start and keystrokes")
                results += try AppBenchmarks(config: config, notebooks: notebooks, folder: folder)
                    .run()
            }
            if runs(.memory) {
                Progress.note("peak memory (child processes)")
                results.append(
                    try PeakMemory.measure(config: config, notebooks: notebooks, folder: folder))
            }
        }
        if runs(.log) {
            Progress.note("log bound")
            results += try LogBoundBenchmark(config: config).run()
        }
        if runs(.longBody) {
            Progress.note("typing into long articles")
            results += try LongBodyBenchmarks(config: config, folder: folder).run()
        }
        if runs(.bigActions) {
            Progress.note("undo and redo of big actions (\(config.bigActionArticles) articles)")
            results += try BigActionBenchmarks(config: config, folder: folder).run()
        }
        return results
    }
}
