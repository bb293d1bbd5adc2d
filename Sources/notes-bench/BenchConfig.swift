/// Sizes and repetition counts of a run: the full run that BENCHMARKS.md's targets are read at,
/// CI's check of the targets, or a quick smoke run.
struct BenchConfig {
    /// Rows of the articles-like table of the capture, undo and 1-row measures.
    let rows: Int
    /// Timed repetitions of each side of a 10k-row capture or undo.
    let bulkRepetitions: Int
    /// Timed repetitions of each side of the 1-row barrier.
    let singleRowRepetitions: Int
    /// Barriers of history of the long-history side, and of the short one.
    let longHistory: Int
    let shortHistory = 10
    /// Timed undo+redo pairs on each side of the history measure.
    let historyRepetitions: Int
    /// Articles of the big notebook, and of the small one.
    let bigNotebook: Int
    let smallNotebook = 100
    /// Timed starts of each notebook.
    let startRepetitions: Int
    /// Timed keystrokes of each kind on each notebook.
    let keyRepetitions: Int
    /// Timed undos of a typing run on each side (long bodies).
    let undoRepetitions: Int
    /// The long body of the keystroke and undo measures (against 1 KB), and the characters
    /// typed into a 100 KB body by the bytes measures and into each body before the undo.
    let longBody: Int
    let typedCharacters: Int
    /// Child processes per notebook for peak memory.
    let memoryRepetitions: Int
    /// Barriers recorded by the log-bound measure, and its `levelsOfUndo`.
    let boundedBarriers: Int
    let boundedLevels = 100
    /// How deep in the history the step the revert measure takes back lies.
    let revertDepth: Int
    /// Articles of the big actions (an author's deleted, an import undone), and the timed
    /// undos and redos of each side.
    let bigActionArticles: Int
    let bigActionRepetitions: Int

    /// The headless terminal of the app measures.
    static let terminalWidth = 120
    static let terminalHeight = 40

    static let full = BenchConfig(
        rows: 10_000, bulkRepetitions: 15, singleRowRepetitions: 400, longHistory: 100_000,
        historyRepetitions: 101, bigNotebook: 100_000, startRepetitions: 9, keyRepetitions: 61,
        undoRepetitions: 15, longBody: 1_000_000, typedCharacters: 1000, memoryRepetitions: 3,
        boundedBarriers: 10_000, revertDepth: 10_000, bigActionArticles: 100_000,
        bigActionRepetitions: 3)

    /// CI's check of the targets (`--check`): the sizes at which each ratio reads as in the
    /// full run, with fewer repetitions (a miss is measured again anyway): a minute or two.
    static let check = BenchConfig(
        rows: 10_000, bulkRepetitions: 7, singleRowRepetitions: 200, longHistory: 10_000,
        historyRepetitions: 51, bigNotebook: 20_000, startRepetitions: 7, keyRepetitions: 31,
        undoRepetitions: 7, longBody: 1_000_000, typedCharacters: 1000, memoryRepetitions: 1,
        boundedBarriers: 10_000, revertDepth: 5_000, bigActionArticles: 10_000,
        bigActionRepetitions: 3)

    static let quick = BenchConfig(
        rows: 2_000, bulkRepetitions: 3, singleRowRepetitions: 40, longHistory: 2_000,
        historyRepetitions: 11, bigNotebook: 5_000, startRepetitions: 3, keyRepetitions: 11,
        undoRepetitions: 3, longBody: 100_000, typedCharacters: 100, memoryRepetitions: 1,
        boundedBarriers: 1_000, revertDepth: 1_000, bigActionArticles: 1_000,
        bigActionRepetitions: 3)
}

/// A count for a measure's name: 10k, 100k, 2000.
func countLabel(_ count: Int) -> String {
    count >= 10_000 && count % 1000 == 0 ? "\(count / 1000)k" : "\(count)"
}
