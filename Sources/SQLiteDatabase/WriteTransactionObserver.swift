/// Told about each write transaction a `DatabaseQueue` runs on a connection: an observer can
/// write inside the transaction just before it commits, so its rows commit (or roll back)
/// together with the transaction's own changes.
///
/// Observers are held weakly; they are called on the thread running the transaction, with the
/// queue's lock held.
public protocol WriteTransactionObserver: AnyObject {
    /// A write transaction began.
    func didBeginWrite()
    /// The transaction's block returned; runs inside the transaction, before `COMMIT`. What it
    /// throws rolls the whole transaction back and is rethrown by `write`.
    func willCommit(_ db: Database) throws
    /// The transaction rolled back: its block or `willCommit` threw, or `COMMIT` failed. `db` is
    /// outside any transaction (reads on it see the state rolled back to).
    func didRollback(_ db: Database)
    /// The transaction committed. `db` is outside any transaction.
    func didCommit(_ db: Database)
}

extension WriteTransactionObserver {
    public func didCommit(_ db: Database) {}
}

extension Database {
    /// Adds an observer of this connection's write transactions (held weakly).
    public func add(writeTransactionObserver observer: any WriteTransactionObserver) {
        writeObservers.removeAll { $0.observer == nil }
        writeObservers.append(WeakWriteObserver(observer: observer))
    }

    func notifyBeginWrite() {
        for entry in writeObservers { entry.observer?.didBeginWrite() }
    }

    func notifyWillCommit() throws {
        for entry in writeObservers { try entry.observer?.willCommit(self) }
    }

    func notifyCommit() {
        for entry in writeObservers { entry.observer?.didCommit(self) }
    }

    func notifyRollback() {
        forgetSchemaMemos()
        for entry in writeObservers { entry.observer?.didRollback(self) }
    }
}

struct WeakWriteObserver {
    weak var observer: (any WriteTransactionObserver)?
}
