import CALSA
import FoundationEssentials
import Glibc
import SomniqAudio
import SomniqCore

extension CaptureError {
    static func from(_ code: Int32, device: String, during what: String) -> CaptureError {
        let reason = String(cString: snd_strerror(code))
        switch -code {
        case EACCES, EPERM:
            return CaptureError(kind: .permission, device: device,
                                message: "\(what): permission denied; is the user in the `audio` group? (sudo usermod -aG audio $USER)")
        case ENOENT, ENODEV, ENXIO:
            return CaptureError(kind: .unavailable, device: device,
                                message: "\(what): \(reason); check the name with `somniq devices` and that the microphone is plugged in")
        case EBUSY:
            return CaptureError(kind: .unavailable, device: device,
                                message: "\(what): device busy; another program is capturing from it")
        case EIO, EBADFD, ESTRPIPE:
            return CaptureError(kind: .lost, device: device, message: "\(what): \(reason); the device went away")
        default:
            return CaptureError(kind: .failed, device: device, message: "\(what): \(reason)")
        }
    }
}

/// Blocking ALSA capture at 16 kHz mono S16 through the `plug` layer, which converts
/// from the device's own rate and channel count. Reads are period-sized; an overrun
/// (xrun) is recovered with `snd_pcm_recover` and reported, not thrown.
public final class AlsaCapture: PeriodReader {
    public let device: String
    public let periodFrames: Int
    private var pcm: OpaquePointer?
    private var pcmBuffer: [Int16]

    /// `device`: an ALSA PCM name (`default`, `plughw:1,0`, `fixture:FILE=…`).
    public init(device: String, periodFrames: Int = 1600) throws(CaptureError) {
        self.device = device
        self.periodFrames = periodFrames
        pcmBuffer = [Int16](repeating: 0, count: periodFrames)
        var handle: OpaquePointer?
        // Opened non-blocking, so a device held by another program answers EBUSY at once
        // instead of waiting (unkillable) for it; reads are blocking from then on.
        var rc = snd_pcm_open(&handle, device, SND_PCM_STREAM_CAPTURE, SND_PCM_NONBLOCK)
        guard rc >= 0, let handle else { throw CaptureError.from(rc, device: device, during: "cannot open for capture") }
        pcm = handle
        rc = snd_pcm_nonblock(handle, 0)
        guard rc >= 0 else {
            snd_pcm_close(handle)
            pcm = nil
            throw CaptureError.from(rc, device: device, during: "cannot switch to blocking reads")
        }
        // 16 kHz mono S16, software resampling allowed (plug), 0.5 s of buffer.
        rc = snd_pcm_set_params(handle, SND_PCM_FORMAT_S16_LE, SND_PCM_ACCESS_RW_INTERLEAVED, 1,
                                UInt32(StreamClock.sampleRate), 1, 500_000)
        guard rc >= 0 else {
            snd_pcm_close(handle)
            pcm = nil
            throw CaptureError.from(rc, device: device, during: "cannot capture 16 kHz mono S16")
        }
    }

    deinit { close() }

    public func close() {
        if let pcm { snd_pcm_close(pcm) }
        pcm = nil
    }

    /// The hardware parameters in force on the open device: what it agreed to.
    public struct Negotiated: Sendable, Equatable, CustomStringConvertible {
        public var rate: Int, channels: Int
        /// ALSA's name of the sample format (`S16_LE`).
        public var format: String
        /// ALSA's period and ring buffer, in frames.
        public var periodFrames: Int, bufferFrames: Int

        public init(rate: Int, channels: Int, format: String, periodFrames: Int, bufferFrames: Int) {
            self.rate = rate
            self.channels = channels
            self.format = format
            self.periodFrames = periodFrames
            self.bufferFrames = bufferFrames
        }

        public var description: String {
            func ms(_ frames: Int) -> String { rate > 0 ? "\(frames * 1000 / rate) ms" : "\(frames) frames" }
            return "\(rate) Hz, \(channels) channel\(channels == 1 ? "" : "s"), \(format), "
                + "period \(ms(periodFrames)), buffer \(ms(bufferFrames))"
        }
    }

    /// Reads back what the device agreed to after `snd_pcm_set_params`.
    public func negotiated() throws(CaptureError) -> Negotiated {
        guard let pcm else { throw CaptureError(kind: .lost, device: device, message: "capture is closed") }
        var params: OpaquePointer?
        var rc = snd_pcm_hw_params_malloc(&params)
        guard rc >= 0 else { throw CaptureError.from(rc, device: device, during: "cannot read the parameters") }
        defer { snd_pcm_hw_params_free(params) }
        rc = snd_pcm_hw_params_current(pcm, params)
        guard rc >= 0 else { throw CaptureError.from(rc, device: device, during: "cannot read the parameters") }
        var rate: UInt32 = 0, channels: UInt32 = 0, dir: Int32 = 0
        var format = SND_PCM_FORMAT_UNKNOWN
        var period: snd_pcm_uframes_t = 0, buffer: snd_pcm_uframes_t = 0
        snd_pcm_hw_params_get_rate(params, &rate, &dir)
        snd_pcm_hw_params_get_channels(params, &channels)
        snd_pcm_hw_params_get_format(params, &format)
        snd_pcm_hw_params_get_period_size(params, &period, &dir)
        snd_pcm_hw_params_get_buffer_size(params, &buffer)
        return Negotiated(rate: Int(rate), channels: Int(channels),
                          format: snd_pcm_format_name(format).map { String(cString: $0) } ?? "unknown",
                          periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    /// Starts the stream and waits up to `timeout` until a read would not block. False if
    /// no audio came in time.
    public func waitForAudio(within timeout: Duration) throws(CaptureError) -> Bool {
        guard let pcm else { throw CaptureError(kind: .lost, device: device, message: "capture is closed") }
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
            let rc = snd_pcm_start(pcm)
            guard rc >= 0 else { throw CaptureError.from(rc, device: device, during: "cannot start capture") }
        }
        let rc = snd_pcm_wait(pcm, Int32(timeout / .milliseconds(1)))
        guard rc >= 0 else { throw CaptureError.from(rc, device: device, during: "capture failed") }
        return rc > 0
    }

    /// Opens `device` as the daemon does, reads what it negotiated, and reads one period:
    /// `somniq run --check-config`. A device that opens but gives no audio within
    /// `timeout` is unavailable too.
    public static func check(device: String, timeout: Duration = .seconds(2)) throws(CaptureError) -> (Negotiated, Read) {
        let capture = try AlsaCapture(device: device)
        defer { capture.close() }
        let negotiated = try capture.negotiated()
        guard try capture.waitForAudio(within: timeout) else {
            throw CaptureError(kind: .unavailable, device: device,
                               message: "opened, but no audio came within \(JSONValue.format(timeout.inSeconds)) s; the source is stalled or not running")
        }
        var samples = [Float](repeating: 0, count: capture.periodFrames)
        let read = try samples.withUnsafeMutableBufferPointer { (out) throws(CaptureError) in try capture.read(into: out) }
        return (negotiated, read)
    }

    /// Result of one read: samples delivered, and frames lost to an overrun before them.
    public struct Read: Sendable {
        public var frames: Int
        public var overrunFrames: Int
        public init(frames: Int, overrunFrames: Int) {
            self.frames = frames
            self.overrunFrames = overrunFrames
        }
    }

    /// A device never ends: a period, or an error.
    public func readPeriod(into out: UnsafeMutableBufferPointer<Float>) throws(CaptureError) -> Read? { try read(into: out) }

    /// Reads one period (blocking) into `out` as Float in [−1, 1).
    public func read(into out: UnsafeMutableBufferPointer<Float>) throws(CaptureError) -> Read {
        guard let pcm else { throw CaptureError(kind: .lost, device: device, message: "capture is closed") }
        let want = min(out.count, periodFrames)
        var overrun = 0
        while true {
            // Silence where nothing is read: a plugin that counts a short read as a whole
            // period (the `file` plugin on a FIFO that had less to give copies only what it
            // read, and reports the period) must not hand on the previous period's samples
            // left in the buffer, a repeat that raised smoke alarms that never sounded.
            pcmBuffer.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            let n = pcmBuffer.withUnsafeMutableBytes { snd_pcm_readi(pcm, $0.baseAddress, snd_pcm_uframes_t(want)) }
            if n >= 0 {
                let scale: Float = 1 / 32_768
                for i in 0..<Int(n) { out[i] = Float(pcmBuffer[i]) * scale }
                return Read(frames: Int(n), overrunFrames: overrun)
            }
            let code = Int32(n)
            if code == -EAGAIN || code == -EINTR { continue }
            if code == -EPIPE {
                // Overrun: the ring filled before we read it. Recover and count what was lost.
                var status: OpaquePointer?
                snd_pcm_status_malloc(&status)
                if let status {
                    snd_pcm_status(pcm, status)
                    overrun += Int(snd_pcm_status_get_avail(status))
                    snd_pcm_status_free(status)
                }
                overrun = max(overrun, 1)
            }
            let recovered = snd_pcm_recover(pcm, code, 1)
            if recovered < 0 {
                // Not an xrun or a suspend it could recover from: the device is gone.
                var error = CaptureError.from(code, device: device, during: "capture failed")
                if error.kind == .failed {
                    error = CaptureError(kind: .lost, device: device,
                                         message: "capture failed: \(String(cString: snd_strerror(code))); the device went away")
                }
                throw error
            }
        }
    }
}
