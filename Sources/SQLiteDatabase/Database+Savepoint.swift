extension Database {
    /// Runs `body` in a savepoint inside the current transaction: its changes are kept when it
    /// returns, and undone (leaving the rest of the transaction as it was, `changedRowCount`
    /// included) when it throws.
    /// - Throws: what `body` throws, after rolling its changes back.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute("SAVEPOINT sqlitedatabase_savepoint")
        let counted = changedRowCounts()
        do {
            let result = try body()
            try execute("RELEASE sqlitedatabase_savepoint")
            return result
        } catch {
            try? execute("ROLLBACK TO sqlitedatabase_savepoint")
            try? execute("RELEASE sqlitedatabase_savepoint")
            restoreChangedRowCounts(counted)
            forgetSchemaMemos()
            throw error
        }
    }
}
