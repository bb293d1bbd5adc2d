import Foundation

extension NotesApp {
    /// The frame's value (`ScreenState`): the app and its panes as they are once loaded, the
    /// history panels' lines on screen put into words.
    func screenState(in screen: ScreenLayout) -> ScreenState {
        let now = clock()
        return ScreenState(
            notebookName: notebookName, windowName: windowName,
            panes: panes.enumerated().map { index, pane in
                paneState(
                    pane, height: screen.isTooSmall ? 0 : screen.content(index).height, now: now)
            },
            focus: focus, overlay: overlay, message: message,
            messageAnswersAKey: messageAnswersAKey)
    }

    private func paneState(_ pane: Pane, height: Int, now: Date) -> PaneState {
        PaneState(
            mode: pane.mode, query: pane.query, rows: pane.rows, top: pane.top,
            selected: pane.selected, total: pane.total, highlighted: pane.highlighted,
            searchInput: pane.searchInput, editor: pane.editor,
            history: pane.historyPanel.map {
                historyState($0, of: pane, height: height, now: now)
            },
            undoActionName: pane.stack?.undoActionName,
            redoActionName: pane.stack?.redoActionName, hasStack: pane.stack != nil)
    }

    /// The panel's lines from its top, `height` of them, in words; in an article's history,
    /// each step's pane first (each stack named once a frame).
    private func historyState(_ panel: HistoryPanel, of pane: Pane, height: Int, now: Date)
        -> HistoryState
    {
        var paneNames: [String: String] = [:]
        var rows: [HistoryState.Row] = []
        for index in panel.top..<max(panel.top, min(panel.lineCount, panel.top + height)) {
            guard let line = panel.line(at: index, stackID: pane.stackID) else {
                rows.append(.now)
                continue
            }
            var words = describe(line, in: panel, withValue: false)
            if case .article = panel.scope {
                let name = paneNames[line.stackID] ?? paneName(ofStack: line.stackID)
                paneNames[line.stackID] = name
                words = name.prefix(1).uppercased() + name.dropFirst() + " · " + words
            }
            rows.append(
                .step(
                    words: words, value: panel.words[line.step.id]?.value ?? "",
                    ago: StepSummary.ago(line.step.date, now: now), isUndone: line.isUndone,
                    isOnBranch: line.isOnBranch))
        }
        return HistoryState(panel: panel, rows: rows)
    }
}
