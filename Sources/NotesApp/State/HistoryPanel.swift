import SQLiteUndo

/// A pane's history (Alt-H): its undo stack's steps, newest at the top, with the steps it
/// undid above a "now" line, and the branches it left (steps undone before a new action) just
/// above the step they were done on; or, opened from an article, the steps of every pane that
/// touched it, those undone above "now" too. Holds a view of the lists (a history of 100k steps
/// is not copied) and the selection, kept on the same step when the lists change.
struct HistoryPanel {
    enum Scope: Equatable {
        /// The pane's own stack.
        case pane
        /// Every stack's steps that touched the article.
        case article(Int64)
    }

    /// One step as the panel lists it.
    struct Line: Equatable {
        let step: UndoStep
        /// The stack the step belongs to.
        let stackID: String
        /// On the redo list, or on a branch: shown dimmed.
        let isUndone: Bool
        /// On a branch (kept when a new action followed undos): Enter goes to it.
        var isOnBranch = false
    }

    /// A branch's lines, just above the line of the step it forks at (`at`, counted without
    /// any branch's lines).
    private struct BranchLines {
        let at: Int
        let steps: [UndoStep]
    }

    let scope: Scope
    /// The pane scope's lists.
    private var history: UndoHistory?
    /// The pane scope's branches, by where they fork, top first.
    private var branches: [BranchLines] = []
    /// The article scope's steps: the undone ones, then those done, each newest first.
    private var rowSteps: [UndoRowStep] = []
    /// How many of `rowSteps` are undone.
    private var undoneRowSteps = 0
    /// The selected line's index.
    private(set) var selected = 0
    /// The first line shown.
    var top = 0
    /// `NotesApp.commits` when the lists were read; nil: read them at the next draw.
    var commitsSeen: Int?
    /// What each step touched, in words, and how many rows (`StepSummary`), by step id: read for
    /// the lines shown.
    var words: [Int64: StepSummary.Touched] = [:]
    /// The steps a take-back done (not undone) took back, with the take-back's name, found
    /// among the lines read so far (`findTakeBacks`): a take-back is listed above its step.
    private(set) var takenBack: [Int64: String] = [:]
    private var linesReadForTakeBacks = 0

    init(scope: Scope) {
        self.scope = scope
    }

    /// Where the "now" line is: below the undone steps.
    var nowIndex: Int {
        guard scope == .pane else { return undoneRowSteps }
        let redo = history?.redo.count ?? 0
        return redo + branches.filter { $0.at <= redo }.reduce(0) { $0 + $1.steps.count }
    }

    var lineCount: Int {
        guard scope == .pane else { return rowSteps.count + 1 }
        return (history?.redo.count ?? 0) + 1 + (history?.undo.count ?? 0)
            + (history?.kept.count ?? 0)
    }

    var stepCount: Int { lineCount - 1 }

    /// The line at `index`, or nil for the "now" line.
    func line(at index: Int, stackID: String) -> Line? {
        switch scope {
        case .pane:
            guard let history else { return nil }
            var index = index
            for branch in branches {
                guard index >= branch.at else { break }
                if index < branch.at + branch.steps.count {
                    return Line(
                        step: branch.steps[index - branch.at], stackID: stackID, isUndone: true,
                        isOnBranch: true)
                }
                index -= branch.steps.count
            }
            let redo = history.redo
            if index < redo.count {
                return Line(step: redo[redo.count - 1 - index], stackID: stackID, isUndone: true)
            }
            let undoIndex = index - redo.count - 1
            guard history.undo.indices.contains(undoIndex) else { return nil }
            return Line(step: history.undo[undoIndex], stackID: stackID, isUndone: false)
        case .article:
            guard index != undoneRowSteps else { return nil }
            let stepIndex = index < undoneRowSteps ? index : index - 1
            guard rowSteps.indices.contains(stepIndex) else { return nil }
            let step = rowSteps[stepIndex]
            return Line(
                step: step.step, stackID: step.stackID, isUndone: step.isUndone,
                isOnBranch: step.isOnBranch)
        }
    }

    /// In the pane's history, how many steps lie between "now" and line `index` (a step of the
    /// lists): the undos or redos Enter makes there. Nil in an article's history, and for a
    /// line of a branch.
    func stepsFromNow(to index: Int) -> Int? {
        guard scope == .pane, let redo = history?.redo.count else { return nil }
        var main = index
        for branch in branches {
            guard main >= branch.at else { break }
            if main < branch.at + branch.steps.count { return nil }
            main -= branch.steps.count
        }
        return main < redo ? redo - main : main - redo - 1
    }

    /// Reads the lines down to `end` (once for each reading of the lists) for take-backs:
    /// those of the lines shown are listed above them.
    mutating func findTakeBacks(through end: Int, stackID: String) {
        while linesReadForTakeBacks < min(end, lineCount) {
            if let line = line(at: linesReadForTakeBacks, stackID: stackID), !line.isUndone,
                let taken = line.step.takesBack, takenBack[taken] == nil
            {
                takenBack[taken] = line.step.name
            }
            linesReadForTakeBacks += 1
        }
    }

    /// Takes the lists as they are now, and their `branches` (`UndoHistory.branches`, which the
    /// app keeps while nothing is written), keeping the selection on the step it was on (else
    /// at its place).
    mutating func update(history: UndoHistory, branches: [UndoBranch], stackID: String) {
        let kept = line(at: selected, stackID: stackID)?.step.id
        self.history = history
        forgetTakeBacks()
        let redo = history.redo.count
        self.branches = branches.map { branch in
            let at =
                switch branch.fork {
                case .start: redo + 1 + history.undo.count
                case .undo(let index): redo + 1 + index
                case .redo(let index): redo - 1 - index
                }
            return BranchLines(at: at, steps: branch.steps)
        }.sorted { $0.at < $1.at }
        reselect(kept, stackID: stackID)
    }

    mutating func update(rowSteps: [UndoRowStep], stackID: String) {
        let kept = line(at: selected, stackID: stackID)?.step.id
        forgetTakeBacks()
        let undone = rowSteps.filter(\.isUndone)
        self.rowSteps = undone + rowSteps.filter { !$0.isUndone }
        undoneRowSteps = undone.count
        reselect(kept, stackID: stackID)
    }

    private mutating func forgetTakeBacks() {
        takenBack = [:]
        linesReadForTakeBacks = 0
    }

    private mutating func reselect(_ id: Int64?, stackID: String) {
        if let id,
            let index = (0..<lineCount).first(where: {
                line(at: $0, stackID: stackID)?.step.id == id
            })
        {
            selected = index
        } else {
            select(selected, stackID: stackID, direction: 1)
        }
    }

    /// Selects the newest step done (the first line below "now"), or the first line.
    mutating func selectNewestDone(stackID: String) {
        select(nowIndex + 1, stackID: stackID, direction: -1)
    }

    /// Moves the selection by `delta` lines, over the "now" line.
    mutating func move(by delta: Int, stackID: String) {
        select(selected + delta, stackID: stackID, direction: delta < 0 ? -1 : 1)
    }

    /// Selects line `index` (clamped); on the "now" line, the next step in `direction`.
    mutating func select(_ index: Int, stackID: String, direction: Int) {
        selected = max(0, min(index, lineCount - 1))
        if line(at: selected, stackID: stackID) == nil, lineCount > 1 {
            let next = selected + direction
            selected = (0..<lineCount).contains(next) ? next : selected - direction
        }
    }

    /// Keeps the selection within `height` rows from `top`.
    mutating func fit(height: Int) {
        let height = max(1, height)
        if selected < top { top = selected }
        if selected >= top + height { top = selected - height + 1 }
        top = max(0, min(top, max(0, lineCount - height)))
    }
}
