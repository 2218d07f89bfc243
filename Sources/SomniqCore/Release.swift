/// The release of somniq, written once: `somniq --version`, every session's `session_start`,
/// the pages' footers, MQTT discovery's `sw_version`, and the Debian package's version (the
/// Makefile reads it from the line below).
public enum Release {
    public static let version = "0.1.0"
}
