import TerminalUI

/// The app on a big notebook against a small one: start to first frame, and keystrokes.
@MainActor
struct AppBenchmarks {
    let config: BenchConfig
    /// The seeded notebooks, big and small (closed files, copied for each measure).
    let notebooks: (big: String, small: String)
    let folder: ScratchFolder

    private var sizes: String {
        "\(countLabel(config.bigNotebook)) articles / \(config.smallNotebook)"
    }

    func run() throws -> [Measurement] {
        try [measureStart()] + measureKeystrokes()
    }

    private func copies(_ purpose: String) throws -> (big: String, small: String) {
        let big = folder.path("\(purpose)-big.db")
        let small = folder.path("\(purpose)-small.db")
        try NotebookFixture.copy(notebooks.big, to: big)
        try NotebookFixture.copy(notebooks.small, to: small)
        return (big, small)
    }

    private func measureStart() throws -> Measurement {
        let files = try copies("start")
        var bigApp: RunningApp?
        var smallApp: RunningApp?
        // The check for damage a start leaves running beside the first frame ends before the
        // next start, untimed: it would otherwise slow that one down.
        let settle = {
            try bigApp?.waitForCheck()
            try smallApp?.waitForCheck()
        }
        let medians = try Interleaving.medianSeconds(
            [
                Contender(
                    prepare: {
                        try settle()
                        bigApp = nil
                    }
                ) {
                    bigApp = try RunningApp(notebook: files.big)
                },
                Contender(
                    prepare: {
                        try settle()
                        smallApp = nil
                    }
                ) {
                    smallApp = try RunningApp(notebook: files.small)
                },
            ], repetitions: config.startRepetitions)
        try bigApp?.checkFrameShowsArticles()
        try smallApp?.checkFrameShowsArticles()
        return Measurement(
            measure: "start to first frame (open, engine, 2 panes, 120x40): \(sizes)",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.3))
    }

    private func measureKeystrokes() throws -> [Measurement] {
        try [measureMoves(), measureTyping()] + measureSearches()
    }

    /// Search as you type, the list counted, paged and drawn again at each key: a word, in the
    /// big notebook against the small one; and a word inside a run of Chinese against the same
    /// word's search in the big notebook, with the same articles listed. The fixture's one
    /// article in 997 has both in its title (`NotebookFixture`): 100 articles of 100k.
    private func measureSearches() throws -> [Measurement] {
        let files = try copies("search")
        let big = try RunningApp(notebook: files.big)
        let small = try RunningApp(notebook: files.small)
        let chinese = try RunningApp(notebook: try copies("substring-search").big)
        for (app, typed) in [(big, "chengd"), (small, "chengd"), (chinese, "成")] {
            app.press(.character("/"))
            for character in typed { app.press(.character(character)) }
        }
        let word: [Key] = [.character("u"), .backspace]
        let substring: [Key] = [.character("都"), .backspace]
        let name = "search as you type a word (chengd / chengdu)"
        let wordRow = try measureKeys(word, big: big, small: small, name: name, target: .none)
        var rounds = (word: 0, substring: 0)
        let medians = try Interleaving.medianSeconds(
            [
                Contender {
                    chinese.press(substring[rounds.substring % 2])
                    rounds.substring += 1
                },
                Contender {
                    big.press(word[rounds.word % 2])
                    rounds.word += 1
                },
            ], repetitions: config.keyRepetitions)
        for app in [big, small, chinese] {
            guard app.backend.screenText.contains("搬家到成都 chengdu") else {
                throw BenchFailure("the search found nothing:\n\(app.backend.screenText)")
            }
        }
        let substringRow = Measurement(
            measure: "keystroke, search as you type inside Chinese text (成 / 成都) / as a word: "
                + "\(countLabel(config.bigNotebook)) articles, \(config.bigNotebook / 997) listed",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.3))
        return [wordRow, substringRow]
    }

    /// Down then Up in the list: every press moves the selection (none is clamped at an end).
    private func measureMoves() throws -> Measurement {
        let files = try copies("moves")
        let big = try RunningApp(notebook: files.big)
        let small = try RunningApp(notebook: files.small)
        try big.checkFrameShowsArticles()
        try small.checkFrameShowsArticles()
        let keys: [Key] = [.down, .up]
        return try measureKeys(keys, big: big, small: small, name: "move in the list (Down/Up)")
    }

    /// A character typed into the body of the open article: a write (one coalesced barrier) and
    /// every pane refreshed, as in the editor.
    private func measureTyping() throws -> Measurement {
        let files = try copies("typing")
        let big = try RunningApp(notebook: files.big)
        let small = try RunningApp(notebook: files.small)
        // Enter opens the selected article with the cursor in its body.
        for app in [big, small] { app.press(.enter) }
        let measurement = try measureKeys(
            [.character("x")], big: big, small: small, name: "type into an article's body")
        for app in [big, small] {
            let typed = try app.database.read { db in
                try db.fetchOne(
                    Int.self, "SELECT count(*) FROM articles WHERE instr(body, 'xxxx') > 0")
            }
            guard typed == 1 else { throw BenchFailure("typing did not reach an article's body") }
        }
        return measurement
    }

    private func measureKeys(
        _ keys: [Key], big: RunningApp, small: RunningApp, name: String,
        target: Measurement.Target = .atMost(1.3)
    ) throws -> Measurement {
        var bigRound = 0
        var smallRound = 0
        let medians = try Interleaving.medianSeconds(
            [
                Contender {
                    big.press(keys[bigRound % keys.count])
                    bigRound += 1
                },
                Contender {
                    small.press(keys[smallRound % keys.count])
                    smallRound += 1
                },
            ], repetitions: config.keyRepetitions)
        return Measurement(
            measure: "keystroke handled and drawn, \(name): \(sizes)", value: medians[0],
            baseline: medians[1], unit: .seconds, target: target)
    }
}
