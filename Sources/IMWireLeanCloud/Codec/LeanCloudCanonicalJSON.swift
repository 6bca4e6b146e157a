import IMWireCore
import SwiftProtobuf

/// The canonical decoded form of a command, used by `imwire decode`, the fixtures and the Python
/// cross-check: the protobuf JSON mapping with proto field names, i.e. what Google's
/// `json_format.MessageToDict(preserving_proto_field_name=True)` gives for the same bytes.
/// Set fields only (proto2 presence), int64 as strings, enums by name, bytes as base64.
public enum LeanCloudCanonicalJSON {
    public static func encode(_ command: LCGenericCommand) -> JSONValue {
        var options = JSONEncodingOptions()
        options.preserveProtoFieldNames = true
        // Encoding a message built by the decoder cannot fail; the fallback keeps the API total.
        guard let text = try? command.jsonString(options: options), let value = try? JSONParser.parse(text) else {
            return .object(JSONObject())
        }
        return value
    }

    public static func decode(_ json: JSONValue) throws(IMWireError) -> LCGenericCommand {
        var options = JSONDecodingOptions()
        options.ignoreUnknownFields = false
        do {
            return try LCGenericCommand(jsonString: JSONWriter.string(json), options: options)
        } catch {
            throw IMWireError(.canonicalJSON, "not a GenericCommand in canonical JSON: \(error)")
        }
    }
}
