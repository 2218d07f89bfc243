import Glibc

/// Starting a program from the daemon (an exec sink's, the daily learning's): in a process
/// group of its own (so that it and whatever it starts can be killed together), with the
/// default signal dispositions and an empty signal mask (the daemon ignores SIGPIPE and
/// blocks others in its threads), and none of the daemon's descriptors from 3 up.
package enum ChildProcess {
    private typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    /// glibc's posix_spawn_file_actions_addclosefrom_np (2.34 and later), which Swift's
    /// Glibc module does not declare: the program gets none of the daemon's descriptors
    /// (the log, the device, a broker's socket), even those opened without O_CLOEXEC.
    private static let addCloseFrom: CloseFrom? = dlsym(dlopen(nil, RTLD_NOW), "posix_spawn_file_actions_addclosefrom_np")
        .map { unsafeBitCast($0, to: CloseFrom.self) }

    /// Spawns `program` with `arguments` (the first is its name) and `environment` (nil: the
    /// daemon's), its descriptors 0-2 set by `files`. `around` runs the spawn itself, for a
    /// caller that records the pid under a lock as it starts. Returns posix_spawn's result
    /// (0 or an errno) and the pid.
    package static func spawn(_ program: String, arguments: [String], environment: [String]? = nil,
                      files: (inout posix_spawn_file_actions_t) -> Void,
                      around: (() -> (rc: Int32, pid: pid_t)) -> (rc: Int32, pid: pid_t) = { $0() }) -> (rc: Int32, pid: pid_t) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        files(&actions)
        _ = addCloseFrom?(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for p in argv { free(p) }
            for p in envp ?? [] { free(p) }
        }
        return around {
            var pid: pid_t = 0
            let rc = envp.map { posix_spawn(&pid, program, &actions, &attributes, argv, $0) }
                ?? posix_spawn(&pid, program, &actions, &attributes, argv, environ)
            return (rc, pid)
        }
    }
}
