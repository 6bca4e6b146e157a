import Foundation
import IMWireCore
import IMWireIO
import Testing

/// Reading a file in chunks and writing one whole.
@Suite struct FileTests {
    private func temporary(_ name: String) -> String {
        NSTemporaryDirectory() + "imwire-io-\(UUID().uuidString)-\(name)"
    }

    @Test(arguments: [1, 7, 4096, 1 << 16])
    func chunksAddUpToTheFile(chunkSize: Int) throws {
        let path = temporary("chunks")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try TextFile.write(bytes, to: path)
        let source = try FileByteSource(path: path, chunkSize: chunkSize)
        var read: [UInt8] = []
        while let chunk = source.read() { read += chunk }
        #expect(read == bytes)
        #expect(source.bytesRead == bytes.count)
        #expect(source.read() == nil)
    }

    @Test func readAllStopsAtItsLimitAndSaysWhy() throws {
        let path = temporary("limit")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TextFile.write([UInt8](repeating: 0x41, count: 100), to: path)
        #expect(try FileByteSource.readAll(path: path, limit: 100).count == 100)
        #expect(throws: IMWireError.cannotRead(path, "larger than 99 bytes")) {
            try FileByteSource.readAll(path: path, limit: 99)
        }
    }

    @Test func aMissingFileOrADirectoryIsAnOpenErrorNamingIt() {
        let missing = temporary("missing")
        #expect {
            _ = try FileByteSource(path: missing)
        } throws: { error in
            let error = error as? IMWireError
            return error?.code == .fileRead && error?.path == missing
                && error?.description == "cannot read \(missing): No such file or directory"
        }
        #expect {
            _ = try FileByteSource(path: NSTemporaryDirectory())
        } throws: { error in
            (error as? IMWireError)?.reason == "is a directory"
        }
    }

    @Test func aWriteReplacesTheFileWhole() throws {
        let path = temporary("replace")
        defer { try? FileManager.default.removeItem(atPath: path) }
        try TextFile.write("first, and longer", to: path)
        try TextFile.write("second", to: path)
        #expect(try FileByteSource.readAll(path: path) == Array("second".utf8))
        // Nothing is left beside it: the temporary file was renamed over the path.
        let directory = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(name) } == [name])
    }
}
