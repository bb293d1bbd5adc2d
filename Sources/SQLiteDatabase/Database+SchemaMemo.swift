extension Database {
    /// The value `compute` works out from the main schema (the columns of a table), kept for
    /// this connection under `key` and worked out again only once the schema changed
    /// (`PRAGMA schema_version`) or a rollback may have taken back the change it was read
    /// after. Reading a table's columns through `pragma_table_info` parses a statement at each
    /// use; reading the schema's version runs one already prepared.
    ///
    /// - Parameters:
    ///   - key: names the value among this connection's memos.
    ///   - includingTemp: whether the value is read from the connection's `temp` schema too (its
    ///     triggers, say), whose changes leave the main schema's version as it is.
    ///   - compute: reads the value from the schema.
    public func memoized<T>(
        _ key: String, includingTemp: Bool = false, untilTheSchemaChanges compute: () throws -> T
    ) throws -> T {
        var versions = [try fetchOne(Int64.self, "PRAGMA main.schema_version") ?? 0]
        if includingTemp {
            versions.append(try fetchOne(Int64.self, "PRAGMA temp.schema_version") ?? 0)
        }
        if let kept = schemaMemos[key], kept.versions == versions, let value = kept.value as? T {
            return value
        }
        let value = try compute()
        schemaMemos[key] = (versions, value)
        return value
    }

    /// Forgets the memos of `memoized`: a rollback puts the schema's version back, and a later
    /// change could give a different schema the version a memo was read at.
    func forgetSchemaMemos() {
        schemaMemos = [:]
    }
}
