/// Why capture failed, with what to do about it. Made by the capture module
/// (`SomniqCapture`, which holds ALSA); here so that a source's `lost` event and the
/// daemon's failure can say it without that module.
public struct CaptureError: Error, CustomStringConvertible {
    public enum Kind: Sendable { case unavailable, permission, lost, failed }
    public var kind: Kind
    public var device: String
    public var message: String
    public var description: String { "\(device): \(message)" }

    public init(kind: Kind, device: String, message: String) {
        self.kind = kind
        self.device = device
        self.message = message
    }
}
