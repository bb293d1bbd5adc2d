import Testing
import UndoableState

@Suite struct UndoableStateTests {
    // MARK: Recording, undo and redo

    @Test func setUndoAndRedoWalkTheHistory() {
        var history = UndoableState(0)
        history.set(1)
        history.set(2)
        #expect(history.timeline == Timeline(past: [0, 1], present: 2, future: []))

        #expect(history.undo() == true)
        #expect(history.timeline == Timeline(past: [0], present: 1, future: [2]))
        #expect(history.undo() == true)
        #expect(history.timeline == Timeline(past: [], present: 0, future: [1, 2]))

        #expect(history.redo() == true)
        #expect(history.timeline == Timeline(past: [0], present: 1, future: [2]))
        #expect(history.redo() == true)
        #expect(history.timeline == Timeline(past: [0, 1], present: 2, future: []))
    }

    @Test func canUndoAndCanRedoFollowTheHistory() {
        var history = UndoableState.recording(0, [1])
        #expect(history.canUndo && !history.canRedo)
        history.undo()
        #expect(!history.canUndo && history.canRedo)
    }

    @Test func undoAndRedoWithNothingThereChangeNothing() {
        var history = UndoableState("only")
        let before = history

        #expect(history.undo() == false)
        #expect(history.redo() == false)
        #expect(history == before)
        #expect(history.timeline == Timeline(past: [], present: "only", future: []))
    }

    @Test func settingAnEqualStateRecordsNothing() {
        var history = UndoableState.recording(0, [1])
        history.undo()
        let before = history

        history.set(0)

        #expect(history == before)
        #expect(history.timeline == Timeline(past: [], present: 0, future: [1]))
    }

    @Test func aNewChangeClearsTheFuture() {
        var history = UndoableState.recording(0, [1, 2])
        history.undo()
        history.undo()

        history.set(5)

        #expect(history.timeline == Timeline(past: [0], present: 5, future: []))
        #expect(history.redo() == false)
    }

    @Test func equalityComparesStatesAndLimit() {
        let history = UndoableState.recording(0, [1, 2])
        var undone = history
        undone.undo()
        var limited = history
        limited.limit = 5

        #expect(history == UndoableState.recording(0, [1, 2]))
        #expect(history != undone)
        #expect(history != limited)
    }

    @Test func historyOfSendableStatesCrossesTasks() async {
        let history = UndoableState.recording(0, [1, 2])

        let received = await Task { history }.value

        #expect(received.timeline == Timeline(past: [0, 1], present: 2, future: []))
    }

    // MARK: Jumping

    @Test func jumpBackIsSeveralUndosInOneStep() {
        var jumped = UndoableState.recording(0, [1, 2, 3])
        var undone = jumped

        #expect(jumped.jump(to: -2) == true)
        undone.undo()
        undone.undo()

        #expect(jumped.timeline == Timeline(past: [0], present: 1, future: [2, 3]))
        #expect(jumped == undone)
    }

    @Test func jumpForwardIsSeveralRedosInOneStep() {
        var jumped = UndoableState.recording(0, [1, 2, 3])
        jumped.jump(to: -3)
        var redone = jumped

        #expect(jumped.jump(to: 2) == true)
        redone.redo()
        redone.redo()

        #expect(jumped.timeline == Timeline(past: [0, 1], present: 2, future: [3]))
        #expect(jumped == redone)
    }

    @Test func jumpToEitherEndOfTheHistory() {
        var history = UndoableState.recording(0, [1, 2, 3])

        #expect(history.jump(to: -3) == true)
        #expect(history.timeline == Timeline(past: [], present: 0, future: [1, 2, 3]))
        #expect(history.jump(to: 3) == true)
        #expect(history.timeline == Timeline(past: [0, 1, 2], present: 3, future: []))
    }

    @Test func jumpOutOfRangeOrByZeroChangesNothing() {
        var history = UndoableState.recording(0, [1, 2])
        history.undo()
        let before = history

        for offset in [-3, 2, 0, Int.min, Int.max] {
            #expect(history.jump(to: offset) == false, "offset \(offset)")
        }

        #expect(history == before)
        #expect(history.timeline == Timeline(past: [0], present: 1, future: [2]))
    }

    // MARK: Clearing

    @Test func clearHistoryKeepsOnlyThePresent() {
        var history = UndoableState.recording(0, [1, 2, 3])
        history.undo()

        history.clearHistory()

        #expect(history.timeline == Timeline(past: [], present: 2, future: []))
        #expect(history.undo() == false)
        #expect(history.redo() == false)
    }

    // MARK: Limit

    @Test func limitKeepsTheMostRecentPast() {
        let history = UndoableState.recording(0, [1, 2, 3, 4, 5], limit: 3)

        #expect(history.timeline == Timeline(past: [2, 3, 4], present: 5, future: []))
    }

    @Test func undoingEverythingWithinTheLimitKeepsEveryRedo() {
        var history = UndoableState.recording(0, [1, 2, 3, 4, 5], limit: 3)

        #expect(history.jump(to: -3) == true)

        #expect(history.timeline == Timeline(past: [], present: 2, future: [3, 4, 5]))
    }

    @Test func loweringTheLimitTrimsOldestPastAndFarthestFuture() {
        var history = UndoableState.recording(0, [1, 2, 3, 4, 5, 6])
        history.jump(to: -3)
        #expect(history.timeline == Timeline(past: [0, 1, 2], present: 3, future: [4, 5, 6]))

        history.limit = 2

        #expect(history.timeline == Timeline(past: [1, 2], present: 3, future: [4, 5]))
    }

    @Test func theLimitAlsoBoundsTheFutureAfterUndo() {
        var history = UndoableState.recording(0, [1, 2, 3, 4, 5, 6])
        history.jump(to: -2)
        history.limit = 2
        #expect(history.timeline == Timeline(past: [2, 3], present: 4, future: [5, 6]))

        history.undo()

        #expect(history.timeline == Timeline(past: [2], present: 3, future: [4, 5]))
    }

    @Test func raisingOrRemovingTheLimitKeepsWhatIsThere() {
        var history = UndoableState.recording(0, [1, 2, 3], limit: 2)

        history.limit = nil
        history.set(4)
        history.set(5)

        #expect(history.timeline == Timeline(past: [1, 2, 3, 4], present: 5, future: []))
    }

    @Test func aLimitOfZeroOrBelowKeepsNoHistory() {
        for limit in [0, -1] {
            var history = UndoableState.recording(0, [1, 2], limit: limit)
            #expect(history.timeline == Timeline(past: [], present: 2, future: []))
            #expect(history.undo() == false)
        }
    }

    // MARK: Filter

    /// Records only increases; a decrease is kept out of the history.
    private static func recordingIncreases(_ initial: Int) -> UndoableState<Int> {
        UndoableState(initial) { previous, new in new > previous }
    }

    @Test func theFilterGetsThePreviousStateThenTheNewOne() {
        var history = Self.recordingIncreases(0)

        history.set(5)
        history.set(3)

        #expect(history.timeline == Timeline(past: [0], present: 3, future: []))
    }

    @Test func aFilteredChangeUpdatesPresentButNotTheHistory() {
        var history = Self.recordingIncreases(0)
        history.set(5)
        history.set(8)
        history.undo()
        #expect(history.timeline == Timeline(past: [0], present: 5, future: [8]))

        history.set(2)

        #expect(history.timeline == Timeline(past: [0], present: 2, future: [8]))
    }

    @Test func undoAfterAFilteredChangeReturnsToTheLastRecordedState() {
        var history = Self.recordingIncreases(0)
        history.set(5)
        history.set(2)

        #expect(history.undo() == true)

        #expect(history.timeline == Timeline(past: [], present: 0, future: [2]))
        #expect(history.redo() == true)
        #expect(history.timeline == Timeline(past: [0], present: 2, future: []))
    }

    @Test func theNextRecordedChangeKeepsTheFilteredStateInThePast() {
        var history = Self.recordingIncreases(0)
        history.set(5)
        history.set(2)

        history.set(7)

        #expect(history.timeline == Timeline(past: [0, 2], present: 7, future: []))
    }

    // MARK: Grouping

    @Test func changesWithTheSameGroupAreOneUndoStep() {
        var history = UndoableState("")
        for text in ["h", "hi", "hi!"] {
            history.set(text, group: "typing")
        }
        #expect(history.timeline == Timeline(past: [""], present: "hi!", future: []))

        #expect(history.undo() == true)

        #expect(history.timeline == Timeline(past: [], present: "", future: ["hi!"]))
    }

    @Test func aDifferentGroupStartsANewUndoStep() {
        var history = UndoableState("")
        history.set("h", group: "word 1")
        history.set("hi", group: "word 1")
        history.set("hi ", group: "word 2")
        history.set("hi y", group: "word 2")

        #expect(history.timeline == Timeline(past: ["", "hi"], present: "hi y", future: []))
    }

    @Test func aChangeWithoutGroupEndsTheGroup() {
        var history = UndoableState("")
        history.set("a", group: "typing")
        history.set("ab")
        history.set("abc", group: "typing")

        #expect(history.timeline == Timeline(past: ["", "a", "ab"], present: "abc", future: []))
    }

    @Test func undoEndsTheGroup() {
        var history = UndoableState("")
        history.set("a", group: "typing")
        history.set("ab", group: "typing")
        history.undo()

        history.set("x", group: "typing")
        history.set("xy", group: "typing")

        #expect(history.timeline == Timeline(past: [""], present: "xy", future: []))
        #expect(history.undo() == true)
        #expect(history.timeline == Timeline(past: [], present: "", future: ["xy"]))
    }

    @Test func clearHistoryEndsTheGroup() {
        var history = UndoableState("")
        history.set("a", group: "typing")
        history.clearHistory()

        history.set("ab", group: "typing")

        #expect(history.timeline == Timeline(past: ["a"], present: "ab", future: []))
    }

    @Test func anEqualStateKeepsTheGroupOpen() {
        var history = UndoableState("")
        history.set("a", group: "typing")
        history.set("a")
        history.set("ab", group: "typing")

        #expect(history.timeline == Timeline(past: [""], present: "ab", future: []))
    }

    @Test func aFilteredChangeWithTheSameGroupKeepsTheGroupOpen() {
        var history = UndoableState(0) { previous, new in new > previous }
        history.set(1, group: "drag")
        history.set(0, group: "drag")
        history.set(4, group: "drag")

        #expect(history.timeline == Timeline(past: [0], present: 4, future: []))
    }

    // MARK: Restoring

    @Test func aRestoredHistoryUndoesAndRedoesAsTheSavedOne() {
        var saved = UndoableState(0, limit: 2)
        for value in 1...4 { saved.set(value) }
        saved.undo()
        var restored = UndoableState(
            past: saved.past, present: saved.present, future: saved.future, limit: 2)
        #expect(restored == saved)
        #expect(restored.timeline == Timeline(past: [2], present: 3, future: [4]))
        restored.undo()
        #expect(restored.timeline == Timeline(past: [], present: 2, future: [3, 4]))
    }

    @Test func aRestoredHistoryIsTrimmedToItsLimit() {
        let restored = UndoableState(past: [0, 1, 2], present: 3, future: [4, 5, 6], limit: 2)
        #expect(restored.timeline == Timeline(past: [1, 2], present: 3, future: [4, 5]))
    }
}
