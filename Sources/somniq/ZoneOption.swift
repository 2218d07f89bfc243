import ArgumentParser
import SomniqConfig

/// `--config` of the commands that read a log (`report`, `serve`, `history`): its
/// `time_zone` is the zone their times are shown in, as the daemon's notifications are.
struct ZoneOption: ParsableArguments {
    @Option(help: ArgumentHelp("The configuration whose time_zone the times are shown in (default: /etc/somniq/config.json when it exists, else the machine's zone).", valueName: "path"), completion: .file())
    var config: String?

    /// Puts the configuration's time zone in force. A file named with --config must be
    /// read; the default one may not be readable by whoever reads a copied log: the
    /// machine's zone is then used, and a warning says why.
    func use() throws { try Self.use(config: config) }

    /// Puts the time zone of the configuration at `config` (the default one when nil) in
    /// force, as `use()` does.
    static func use(config: String?) throws {
        do {
            if let zone = try DaemonConfig.inForce(path: config, checkingOptional: false).config.timeZone { TimeZoneName.use(zone) }
        } catch {
            if config != nil { throw fail("\(error)", Exit.dataError) }
            skippedWarning("\(error); times are in this machine's time zone")
        }
    }
}
