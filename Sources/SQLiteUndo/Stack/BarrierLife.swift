/// Where a barrier is in its life, changed only by the verbs below.
///
/// ```
/// running ──register──▶ registered    its block returned: its stack lists it
///    └──────discard───▶ discarded     its block threw: its filings and log rows are taken back
/// ```
///
/// Apart from the phase, a barrier is filed per engine (its writes may reach several databases):
/// the transaction that commits its first change there files it on a stack (`file`), so a crash
/// never keeps a change without its entry, and a rolled-back transaction unfiles it (`unfile`).
/// Stacks pass a running barrier's entry by (undo, redo, `state`); a discarded barrier files
/// nothing more.
struct BarrierLife: Sendable {
    enum Phase: Sendable, Equatable {
        /// Its block runs: its transactions file it, stacks pass it by.
        case running
        /// Its block returned: the stack it is filed with lists it.
        case registered
        /// Its block threw: nothing of it is kept.
        case discarded
    }

    private(set) var phase = Phase.running
    /// Where each engine's recorder filed it, by the recorder.
    private var filings: [ObjectIdentifier: Barrier.Recorded] = [:]

    /// Where `recorder`'s transactions filed it, or nil.
    func filing(by recorder: BarrierRecorder) -> Barrier.Recorded? {
        filings[ObjectIdentifier(recorder)]
    }

    /// A transaction of `recorder`'s engine filed it at `recorded` (nil: it had nothing to file).
    mutating func file(_ recorded: Barrier.Recorded?, by recorder: BarrierRecorder) {
        filings[ObjectIdentifier(recorder)] = recorded
    }

    /// The transaction that filed it rolled back.
    mutating func unfile(by recorder: BarrierRecorder) {
        filings[ObjectIdentifier(recorder)] = nil
    }

    /// Its block returned.
    mutating func register() {
        if phase == .running { phase = .registered }
    }

    /// Its block threw.
    mutating func discard() {
        phase = .discarded
    }
}
