import IMWireCore
import IMWireJMessage
import IMWireLeanCloud
import IMWireNIM
import IMWireYun2win

extension StatusRegistry {
    /// The dialect modules' tables, vendor by vendor.
    public static let vendorTables: [[StatusTable]] = [
        LeanCloudStatusCodes.tables,
        NIMStatusCodes.tables,
        JMessageStatusCodes.tables,
        Yun2winStatusCodes.tables,
    ]

    /// The registry of every table IMWire knows.
    public static let standard = StatusRegistry(tables: vendorTables.flatMap { $0 })
}
