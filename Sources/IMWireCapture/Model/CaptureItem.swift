import IMWireCore

/// One item of a capture stream: an event, secrets the capture carries (a pcapng Decryption
/// Secrets Block), or a problem with the capture itself.
public enum CaptureItem: Sendable, Hashable {
    case event(ConnectionInput)
    /// Boxed: rare and large, as a problem is.
    indirect case secrets(DecryptionSecrets)
    /// Boxed: a finding is rare and large, and every item (one or more per packet) is copied at
    /// its size on the way through the pipeline.
    indirect case problem(Finding)
}
