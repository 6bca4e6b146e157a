import IMWireCore

extension StatusRegistry {
    /// The dialect modules' tables, vendor by vendor.
    public static let vendorTables: [[StatusTable]] = Dialects.standard.all.map(\.statusTables)

    /// The registry of every table IMWire knows.
    public static let standard = StatusRegistry(tables: vendorTables.flatMap { $0 })
}
