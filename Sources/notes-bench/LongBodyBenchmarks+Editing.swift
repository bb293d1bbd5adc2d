import SQLiteDatabase
import TerminalUI

/// The editing keys of micro and nano users in a long body: a keystroke that extends a
/// selection, a find keystroke, and copying and pasting the whole body.
extension LongBodyBenchmarks {
    /// Shift-Right and Shift-Left with a selection of a line and more, in the middle of a long
    /// body, against Right and Left in a 1 KB body: handled and drawn, the selection marked.
    func measureSelectionKeystroke() throws -> Measurement {
        let big = try openArticle(bodyBytes: config.longBody, name: "select-big")
        let small = try openArticle(bodyBytes: 1_000, name: "select-small")
        big.press(.shift(.down))
        let selecting: [Key] = [.shift(.right), .shift(.left)]
        let moving: [Key] = [.right, .left]
        let medians = try alternating(big, selecting, against: small, moving)
        // The body's rows of pane 1: some of their cells are drawn selected (reversed).
        let canvas = big.backend.lastCanvas
        let selected = (5..<37).contains { y in
            (1..<50).contains { x in canvas?.cell(at: Point(x: x, y: y))?.style.reverse == true }
        }
        guard selected else { throw BenchFailure("Shift with the arrows selected nothing") }
        return Measurement(
            measure:
                "keystroke extending a selection, \(longLabel) body / a cursor move, 1 KB body",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.3))
    }

    /// A character typed into the find prompt (and erased), which moves to the next match and
    /// marks those on screen, in the middle of a long body, against Right and Left in a 1 KB body.
    func measureFindKeystroke() throws -> Measurement {
        let big = try openArticle(bodyBytes: config.longBody, name: "find-big")
        let small = try openArticle(bodyBytes: 1_000, name: "find-small")
        big.press(.control("f"))
        for character in "dolo" { big.press(.character(character)) }
        let medians = try alternating(
            big, [.character("r"), .backspace], against: small, [.right, .left])
        let status = big.backend.screenText.split(separator: "\n").suffix(3).first ?? ""
        guard status == " Find: dolo" else {
            throw BenchFailure("the find prompt did not find: \(status)")
        }
        return Measurement(
            measure: "keystroke typed into find, \(longLabel) body / a cursor move, 1 KB body",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(1.3))
    }

    /// Ctrl-C of the whole long body, then Ctrl-V at its end (one undo step, "Paste"), against a
    /// bracketed paste of the same bytes; each undone, untimed, before the next.
    func measureCopyAndPaste() throws -> Measurement {
        let copying = try openArticle(bodyBytes: config.longBody, name: "copy")
        let pasting = try openArticle(bodyBytes: config.longBody, name: "paste")
        let text = try copying.database.read { db in
            try db.fetchOne(String.self, "SELECT body FROM articles WHERE title = 'Long'") ?? ""
        }
        let undo = { (app: RunningApp) in
            if app.backend.screenText.contains("Undo Paste") { app.press(.control("z")) }
        }
        let medians = try Interleaving.medianSeconds(
            [
                Contender(prepare: {
                    undo(copying)
                    copying.press(.controlHome)
                    copying.press(.shift(.controlEnd))
                }) {
                    copying.press(.control("c"))
                    copying.press(.controlEnd)
                    copying.press(.control("v"))
                },
                Contender(prepare: {
                    undo(pasting)
                    pasting.press(.controlEnd)
                }) {
                    pasting.backend.enqueue(.paste(text))
                    pasting.app.processPendingEvents()
                },
            ], repetitions: config.undoRepetitions)
        for app in [copying, pasting] {
            let length = try app.database.read { db in
                try db.fetchOne(
                    Int.self, "SELECT length(CAST(body AS BLOB)) FROM articles WHERE title = 'Long'"
                )
            }
            guard length == 2 * text.utf8.count, app.backend.screenText.contains("Undo Paste")
            else { throw BenchFailure("the paste was not one step of the whole body") }
        }
        return Measurement(
            measure: "Ctrl-C then Ctrl-V of a \(longLabel) body / a bracketed paste of it",
            value: medians[0], baseline: medians[1], unit: .seconds, target: .atMost(2.0))
    }

    /// The median seconds of `bigKeys` pressed in turn in `big` and of `smallKeys` in `small`.
    private func alternating(
        _ big: RunningApp, _ bigKeys: [Key], against small: RunningApp, _ smallKeys: [Key]
    ) throws -> [Double] {
        var rounds = (big: 0, small: 0)
        return try Interleaving.medianSeconds(
            [
                Contender {
                    big.press(bigKeys[rounds.big % bigKeys.count])
                    rounds.big += 1
                },
                Contender {
                    small.press(smallKeys[rounds.small % smallKeys.count])
                    rounds.small += 1
                },
            ], repetitions: config.keyRepetitions)
    }
}
