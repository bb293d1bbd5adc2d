import Testing

@testable import TerminalUI

#if canImport(Glibc)
    import Glibc
#endif

/// `TerminalInput` over a pipe standing in for the terminal.
@MainActor
@Suite(.serialized) struct TerminalInputTests {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func send(_ bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
    }

    @Test func readsWhatArrivedInOneChunk() throws {
        let input = try #require(TerminalInput(inputDescriptor: readEnd))
        defer {
            input.close()
            close(readEnd)
            close(writeEnd)
        }
        send(Array("ab漢\u{1B}[A".utf8))
        #expect(input.read(timeout: .seconds(5)) == .scalars(Array("ab漢\u{1B}[A".unicodeScalars)))
        #expect(input.read(timeout: .milliseconds(10)) == .timedOut)
    }

    @Test func characterSplitAcrossWritesComesWhole() throws {
        let input = try #require(TerminalInput(inputDescriptor: readEnd))
        defer {
            input.close()
            close(readEnd)
            close(writeEnd)
        }
        let bytes = Array("😀".utf8)
        send(Array(bytes[..<2]))
        #expect(input.read(timeout: .seconds(5)) == .scalars([]))
        send(Array(bytes[2...]))
        #expect(input.read(timeout: .seconds(5)) == .scalars(["😀"]))
    }

    @Test func windowChangeSignalWakesTheWait() throws {
        let input = try #require(TerminalInput(inputDescriptor: readEnd))
        defer {
            input.close()
            close(readEnd)
            close(writeEnd)
        }
        kill(getpid(), SIGWINCH)
        #expect(input.read(timeout: .seconds(5)) == .resized)
        #expect(input.read(timeout: .milliseconds(10)) == .timedOut)
    }

    @Test func hangUpIsClosed() throws {
        let input = try #require(TerminalInput(inputDescriptor: readEnd))
        defer {
            input.close()
            close(readEnd)
        }
        close(writeEnd)
        #expect(input.read(timeout: .seconds(5)) == .closed)
    }
}
