import Foundation
import NoteStore
import SQLiteUndo

extension NotesApp {
    /// Steps of more rows than this are not previewed as the selection moves (the preview
    /// replays the step): the status line names them instead.
    static let previewedRowsAtMost = 2_000

    /// Closes the panel, and the status line's words about its selected step ("x takes back
    /// …"), which no key of the pane does any more.
    private func closeHistory(of pane: Pane) {
        pane.historyPanel = nil
        message = nil
    }

    /// Alt-H: opens the focused pane's history, or, in an open article, the article's; closes
    /// it when open.
    func toggleHistory() {
        let pane = focusedPane
        guard pane.historyPanel == nil else {
            closeHistory(of: pane)
            return
        }
        guard pane.stack != nil else {
            message = "Undo is off (notes was started with --no-undo): there is no history"
            return
        }
        switch pane.mode {
        case .list: pane.historyPanel = HistoryPanel(scope: .pane)
        case .article(let id), .gone(let id):
            // Typing on the screen is a step too: written first, so that it is listed.
            _ = saveTyping(in: pane, waitingAtMost: .seconds(1))
            pane.historyPanel = HistoryPanel(scope: .article(id))
        }
        refreshHistory(of: pane)
        pane.historyPanel?.selectNewestDone(stackID: pane.stackID)
        refreshHistory(of: pane, height: screenLayout.listHeight(focus))
        showPreview(in: pane)
    }

    /// Reads the panel's lists again when anything was committed since (a step of this pane,
    /// another pane's or another program's), and the words of the lines `height` shows.
    func refreshHistory(of pane: Pane, height: Int? = nil) {
        guard var panel = pane.historyPanel, let stack = pane.stack else { return }
        let now = commits.value
        if panel.commitsSeen != now {
            panel.commitsSeen = now
            panel.words = stepSummaries.commits == now ? stepSummaries.words : [:]
            switch panel.scope {
            case .pane:
                let history = stack.history
                if historyBranches.commits != now || historyBranches.stackID != pane.stackID {
                    historyBranches = (now, pane.stackID, history.branches)
                }
                panel.update(
                    history: history, branches: historyBranches.branches, stackID: pane.stackID)
            case .article(let id):
                let steps = (try? engine?.history(of: Article.self, id: id)) ?? []
                panel.update(rowSteps: steps, stackID: pane.stackID)
            }
        }
        if let height {
            panel.fit(height: height)
            panel.findTakeBacks(through: panel.top + height, stackID: pane.stackID)
            // The lines shown that have no words yet, by the stack their step belongs to.
            var missing: [String: [UndoStep]] = [:]
            for index in panel.top..<min(panel.lineCount, panel.top + height) {
                guard let line = panel.line(at: index, stackID: pane.stackID),
                    panel.words[line.step.id] == nil
                else { continue }
                missing[line.stackID, default: []].append(line.step)
            }
            for (stackID, steps) in missing {
                guard let owner = try? engine?.stack(id: stackID) else { continue }
                let words = try? StepSummary.describe(steps, of: owner, in: database)
                for (index, step) in steps.enumerated() {
                    panel.words[step.id] = words?[index] ?? StepSummary.Touched(words: "", rows: 0)
                }
            }
        }
        stepSummaries = (now, panel.words)
        pane.historyPanel = panel
    }

    /// A key in the focused pane's history panel.
    func performHistory(_ action: HistoryAction) {
        let pane = focusedPane
        guard var panel = pane.historyPanel else { return }
        let page = max(1, screenLayout.listHeight(focus) - 1)
        switch action {
        case .up: panel.move(by: -1, stackID: pane.stackID)
        case .down: panel.move(by: 1, stackID: pane.stackID)
        case .pageUp: panel.move(by: -page, stackID: pane.stackID)
        case .pageDown: panel.move(by: page, stackID: pane.stackID)
        case .top: panel.select(0, stackID: pane.stackID, direction: 1)
        case .bottom: panel.select(panel.lineCount - 1, stackID: pane.stackID, direction: -1)
        case .close:
            closeHistory(of: pane)
            return
        case .goTo:
            return goTo(panel.line(at: panel.selected, stackID: pane.stackID), in: pane)
        case .takeBack:
            return takeBack(
                panel.line(at: panel.selected, stackID: pane.stackID), of: panel, in: pane)
        }
        pane.historyPanel = panel
        refreshHistory(of: pane, height: screenLayout.listHeight(focus))
        showPreview(in: pane)
    }

    /// The stack a line's step belongs to (another pane's, in an article's history).
    private func owner(of line: HistoryPanel.Line) -> UndoStack? {
        try? engine?.stack(id: line.stackID)
    }

    /// Says in the status line what Enter and x would do with the selected step: x's preview
    /// replays it in a transaction that is rolled back (not for steps of thousands of rows).
    private func showPreview(in pane: Pane) {
        guard let panel = pane.historyPanel, let stack = pane.stack else { return }
        guard let line = panel.line(at: panel.selected, stackID: pane.stackID) else {
            message = panel.lineCount <= 1 ? "No steps yet" : nil
            return
        }
        let name = describe(line, in: panel)
        if line.isOnBranch {
            message = "On a branch: Enter goes to \(name)"
            return
        }
        if line.isUndone {
            message =
                line.stackID == pane.stackID
                ? "Undone: Enter redoes \(stepsAbove(line, in: panel, of: pane)) up to \(name)"
                : "Undone in \(paneName(ofStack: line.stackID)): \(name)"
            return
        }
        let owner = owner(of: line)
        var text = "x takes back \(name)"
        // The line's words were read for the lines shown, with its rows.
        if let owner, (panel.words[line.step.id]?.rows ?? 0) <= Self.previewedRowsAtMost,
            let preview = try? stack.previewRevert(
                line.step, of: owner === stack ? nil : owner, reading: { _ in () })
        {
            let clauses = keptClauses(
                of: preview.event, changedNothing: !preview.restores, takingBack: true)
            if !preview.restores {
                let taker = panel.takenBack[line.step.id].map { ["taken back by " + $0] } ?? []
                let reasons = clauses.isEmpty ? taker : clauses
                text =
                    "x would change nothing"
                    + (reasons.isEmpty ? "" : ": " + reasons.joined(separator: ", "))
            } else if !clauses.isEmpty {
                text += "; " + clauses.joined(separator: ", ")
            }
        }
        if line.stackID == pane.stackID {
            let above = stepsAbove(line, in: panel, of: pane)
            if above != "0 steps" { text = "Enter undoes \(above) · " + text }
        } else {
            text += " (a step of \(paneName(ofStack: line.stackID)))"
        }
        message = text
    }

    /// "Set Rating · Art 012 ★★★☆☆", "Typing "second" · Art 012: Body"; without the value set
    /// (the stars), which a panel line draws apart.
    func describe(_ line: HistoryPanel.Line, in panel: HistoryPanel, withValue: Bool = true)
        -> String
    {
        let touched = panel.words[line.step.id]
        let text = [
            line.step.name + (touched.map { $0.detail.isEmpty ? "" : " " + $0.detail } ?? ""),
            touched?.words ?? "",
        ].filter { !$0.isEmpty }.joined(separator: " · ")
        let value = withValue ? touched.map { $0.value.isEmpty ? "" : " " + $0.value } ?? "" : ""
        let taken = panel.takenBack[line.step.id].map { " · taken back by " + $0 } ?? ""
        return text + value + taken
    }

    /// How many of this pane's steps Enter on `line` (a step of this pane's lists) would undo
    /// or redo: "2 steps". In the pane's history, the lines between it and "now" but the
    /// branches'; in an article's, which lists only the steps that touched the article, the
    /// steps before it on the stack's list.
    private func stepsAbove(_ line: HistoryPanel.Line, in panel: HistoryPanel, of pane: Pane)
        -> String
    {
        let count: Int
        if let between = panel.stepsFromNow(to: panel.selected) {
            count = between
        } else if let history = pane.stack?.history {
            let id = line.step.id
            count =
                line.isUndone
                ? (history.redo.firstIndex { $0.id == id }).map { $0 + 1 } ?? 0
                : history.undo.firstIndex { $0.id == id } ?? 0
        } else {
            count = 0
        }
        return counted(count, "step")
    }

    /// Enter: goes to the selected step of this pane (undoes or redoes every step between, or
    /// for a step on a branch, undoes to where it forks and redoes down to it), then shows what
    /// came back, as Ctrl-Z does.
    private func goTo(_ line: HistoryPanel.Line?, in pane: Pane) {
        guard let line, let stack = pane.stack else { return }
        guard line.stackID == pane.stackID else {
            message =
                "Enter goes back in this pane's own steps; x takes back "
                + "\(paneName(ofStack: line.stackID))'s"
            return
        }
        let verb = line.isOnBranch ? "Going" : line.isUndone ? "Redoing" : "Undoing"
        let events = travel(in: pane, verb: verb) { report in
            try stack.go(to: line.step, reportingEvery: progressTiming.interval, progress: report)
        }
        guard let events else { return }
        pane.historyPanel = nil
        if events.isEmpty {
            message = "Already there: \(line.step.name) is the newest step done"
        }
    }

    /// x: takes back the selected step only, as a new step of this pane; later steps' changes
    /// are kept and named.
    private func takeBack(_ line: HistoryPanel.Line?, of panel: HistoryPanel, in pane: Pane) {
        guard let line, let stack = pane.stack else { return }
        guard !line.isUndone else {
            message =
                line.isOnBranch
                ? "\(line.step.name) is on a branch: Enter goes to it"
                : "\(line.step.name) is undone: Enter redoes up to it"
            return
        }
        guard saveTyping(in: pane, waitingAtMost: .seconds(1)) else {
            message = "Cannot take back yet: the typing is not saved"
            return
        }
        do {
            let owner = owner(of: line)
            // A take-back that changed something is the pane's newest step (the list's length
            // may stay the same: at `levelsOfUndo` the oldest step goes).
            let newestBefore = stack.history.undo.first?.id
            guard
                let event = try stack.revert(
                    line.step, of: owner === stack ? nil : owner,
                    reportingEvery: progressTiming.interval, progress: replayProgress("Taking back")
                )
            else { return }
            let changedNothing = stack.history.undo.first?.id == newestBefore
            message = describe(event, changedNothing: changedNothing, tookBack: true)
            // Nothing changed: the panel stays, for another step to be chosen.
            guard !changedNothing else { return }
            pane.historyPanel = nil
            reveal(event, in: pane)
            // Text merges keep later typing without a conflict to name: the panel knows who
            // wrote the article since.
            let later = laterWriters(than: panel.selected, in: panel, of: pane)
            if keptClauses(of: event, changedNothing: false, takingBack: true).isEmpty,
                !later.isEmpty
            {
                message! += "; kept what \(later.joined(separator: " and ")) did since"
            }
        } catch {
            message = ErrorWords.describe(error)
        }
    }

    /// The panes whose steps done after line `index` are listed in an article's history.
    private func laterWriters(than index: Int, in panel: HistoryPanel, of pane: Pane)
        -> [String]
    {
        guard case .article = panel.scope else { return [] }
        var names: [String] = []
        for later in 0..<index {
            guard let line = panel.line(at: later, stackID: pane.stackID), !line.isUndone else {
                continue
            }
            let name = paneName(ofStack: line.stackID)
            if !names.contains(name) { names.append(name) }
        }
        return names
    }
}
