import IMWireCore
import IMWireTransport
import Testing

/// `LogicalConnection.slot`: what a consumer indexes its per-connection state by.
@Suite struct ConnectionSlotTests {
    /// Records each connection's slot when it first speaks and when it ends.
    final class SlotRecorder: ConnectionEvents {
        var open: [String: Int] = [:]
        var log: [String] = []

        func opened(_ connection: LogicalConnection, at place: InputPlace) {
            #expect(!open.values.contains(connection.slot), "slot \(connection.slot) is already open")
            open[connection.id] = connection.slot
            log.append("open \(connection.id) \(connection.slot)")
        }

        func ended(_ connection: LogicalConnection) {
            #expect(open.removeValue(forKey: connection.id) == connection.slot)
            log.append("end \(connection.id) \(connection.slot)")
        }
    }

    @Test func slotsAreUniqueAmongOpenConnectionsAndReusedAfterTheyEnd() {
        let assembler = ConnectionAssembler()
        let recorder = SlotRecorder()
        func input(_ id: String, _ number: Int, _ kind: ConnectionInput.Kind, at time: Int64) {
            assembler.consume(ConnectionInput(connection: id, time: time, kind: kind), number: number, to: recorder)
        }
        input("a", 0, .open(ConnectionInfo()), at: 0)
        input("b", 1, .open(ConnectionInfo()), at: 1)
        input("c", 2, .open(ConnectionInfo()), at: 2)
        input("b", 1, .close(CloseInfo(isLast: true)), at: 3)
        input("d", 3, .open(ConnectionInfo()), at: 4)
        input("a", 0, .close(CloseInfo(isLast: true)), at: 5)
        input("e", 4, .open(ConnectionInfo()), at: 6)
        input("f", 5, .open(ConnectionInfo()), at: 7)
        assembler.finish(to: recorder)
        #expect(
            recorder.log == [
                "open a 0", "open b 1", "open c 2", "end b 1", "open d 1", "end a 0", "open e 0", "open f 3",
                "end c 2", "end d 1", "end e 0", "end f 3",
            ])
        #expect(recorder.open.isEmpty)
    }
}
