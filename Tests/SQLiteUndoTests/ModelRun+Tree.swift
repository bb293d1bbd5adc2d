import SQLiteDatabase
import SQLiteUndo

/// Operations of the model-based run on the history tree: going to a step of any branch, and
/// back and forward in time, each checked against the reference model's tree.
extension ModelRun {
    /// Goes to a random step of a random stack (`UndoStack.go(to:)`), mostly one of a branch
    /// forking near the current step, in the database and in the model; checks the replays'
    /// names and conflicts. A step is matched with the model's by its list and place (kept
    /// steps in the order they were done).
    mutating func goToAStep() throws -> String {
        var choices: [(UndoStack, ReferenceModel.Place)] = []
        for id in Self.stackIDs {
            let history = try engine.stack(id: id).history
            let near = history.branches.filter { branch in
                switch branch.fork {
                case .start: history.undo.count < Self.nearSteps
                case .undo(let index), .redo(let index): index < Self.nearSteps
                }
            }
            if !near.isEmpty, random.next(below: 4) != 0 {
                // One of the steps nearest the fork: the last ones of the branch.
                let branch = near[random.next(below: near.count)]
                let step = branch.steps[
                    branch.steps.count - 1 - random.next(below: min(8, branch.steps.count))]
                guard let index = history.kept.firstIndex(where: { $0.id == step.id }) else {
                    continue
                }
                choices.append((try engine.stack(id: id), .init(list: .kept, index: index)))
            } else {
                let undoing = random.next(below: 2) == 0
                let count = min(undoing ? history.undo.count : history.redo.count, 8)
                guard count > 0 else { continue }
                let place = ReferenceModel.Place(
                    list: undoing ? .undo : .redo, index: random.next(below: count))
                choices.append((try engine.stack(id: id), place))
            }
        }
        guard !choices.isEmpty else { return "go to a step: no stack has one" }
        let (stack, place) = choices[random.next(below: choices.count)]
        let history = stack.history
        let step =
            switch place.list {
            case .undo: history.undo[place.index]
            case .redo: history.redo[place.index]
            case .kept: history.kept[place.index]
            }
        let described = "go to \(step.name) (\(place)) on \(stack.id)"
        guard let action = model.step(at: place, on: stack.id), action.name == step.name else {
            note("\(described): the model's step there is another")
            return described
        }
        let expected = modelGo(to: action.actionID, on: stack.id)
        check(described, expected) { try stack.go(to: step) }
        return described
    }

    /// How far from the current step a branch the run goes to forks, at most: a step far away
    /// costs hundreds of replays, which the run's other operations already draw.
    static let nearSteps = 16

    /// Goes back or forward in time on a random stack by one state, or a few.
    mutating func travelInTime() throws -> String {
        let stack = try engine.stack(id: Self.stackIDs[random.next(below: Self.stackIDs.count)])
        let forward = random.next(below: 2) == 0
        let count = random.next(below: 4) == 0 ? 1 + random.next(below: 5) : 1
        let described = "\(forward ? "forward" : "back") \(count) in time on \(stack.id)"
        let expected: (names: [(String, ReferenceModel, Int)], outcome: ReferenceModel.Replay)
        switch model.destination(count, forward: forward, on: stack.id) {
        case .stay: expected = ([], .replayed)
        case .start: expected = modelGo(to: nil, on: stack.id)
        case .step(let action): expected = modelGo(to: action, on: stack.id)
        }
        check(described, expected) {
            try forward ? stack.forward(inTime: count) : stack.back(inTime: count)
        }
        return described
    }

    /// Compares what `go` did with what the model expects.
    private mutating func check(
        _ described: String,
        _ expected: (names: [(String, ReferenceModel, Int)], outcome: ReferenceModel.Replay),
        _ go: () throws -> [UndoEvent]
    ) {
        do {
            let events = try go().compactMap { try byModelIDs($0) }
            if expected.outcome == .failed {
                note("\(described) did \(events.map(\.name)) where the model's stops: UNIQUE")
            } else if events.map(\.name) != expected.names.map(\.0) {
                note("\(described) did \(events.map(\.name)), model: \(expected.names.map(\.0))")
            } else if features.contains(.attribution) {
                for (event, (_, before, action)) in zip(events, expected.names) {
                    note(Self.conflictMismatch(event, in: before, replaying: action))
                }
            }
        } catch {
            if expected.outcome != .failed { note("\(described) threw \(error)") }
        }
    }

    /// Goes to the action `target` (nil: the start) in the model, one replay at a time, as the
    /// engine does; returns each replay's name, the model before it and its action.
    private mutating func modelGo(to target: Int?, on stack: String)
        -> (names: [(String, ReferenceModel, Int)], outcome: ReferenceModel.Replay)
    {
        guard let route = model.route(to: target, on: stack) else { return ([], .replayed) }
        var done: [(String, ReferenceModel, Int)] = []
        var outcome = ReferenceModel.Replay.replayed
        /// One replay; false when it stops the way.
        func replay(undoing: Bool) -> Bool {
            nextRecordID += 1
            let before = model
            let record = before.top(of: stack, undoing: undoing)
            outcome = model.replay(stack: stack, undoing: undoing, inverseID: nextRecordID)
            guard outcome == .replayed, let record else { return false }
            done.append((record.name, before, record.actionID))
            return true
        }
        func redo(to target: Int?) {
            while let next = model.top(of: stack, undoing: false), replay(undoing: false) {
                if next.actionID == target { break }
            }
        }
        switch route {
        case .undo:
            while let top = model.top(of: stack, undoing: true), top.actionID != target,
                replay(undoing: true)
            {}
        case .redo:
            redo(to: target)
        case .branch(let fork, let path):
            let toFork = modelGo(to: fork, on: stack)
            done += toFork.names
            outcome = toFork.outcome
            guard outcome == .replayed else { break }
            model.makeRedo(path, on: stack)
            redo(to: target)
        }
        return (done, outcome)
    }
}
