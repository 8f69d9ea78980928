import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The controlling terminal for the live view: size, raw keyboard input, the alternate
/// screen and a hidden cursor, all restored by `restore()` (idempotent).
///
/// Canonical mode and echo are turned off but signals stay on, so Ctrl-C still raises
/// SIGINT, which the run loop sees through `InterruptSignal` and exits cleanly.
@_spi(Tools) public final class Terminal {
    private var saved = termios()
    private var active = false
    private let input: Int32

    /// The output side (size, resizes, frames), which the live view's drawing thread uses.
    public let screen: TerminalScreen

    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        screen = TerminalScreen(output: output)
    }

    /// True when both standard input and output are terminals.
    public static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0 }

    /// True when standard output is a terminal and the keys can be read from it: from
    /// standard input, or, when standard input carries data (`--tilt -`), from the
    /// controlling terminal (`/dev/tty`).
    public static func isInteractive(keysFromControllingTerminal: Bool) -> Bool {
        guard keysFromControllingTerminal else { return isInteractive }
        guard isatty(STDOUT_FILENO) != 0 else { return false }
        let fd = open("/dev/tty", O_RDONLY)
        if fd < 0 { return false }
        close(fd)
        return true
    }

    /// A terminal whose keys come from the controlling terminal (`/dev/tty`) rather than
    /// standard input, which carries data; `nil` when there is none. The descriptor stays
    /// open for the life of the process.
    public static func readingKeysFromControllingTerminal() -> Terminal? {
        let fd = open("/dev/tty", O_RDONLY)
        if fd < 0 { return nil }
        return Terminal(input: fd)
    }

    /// Enters raw input mode, the alternate screen and hides the cursor.
    /// - Throws: `DescriptorWriteError` when the terminal cannot be written; `restore()`
    ///   then still puts the input mode back.
    public func start() throws(DescriptorWriteError) {
        guard !active else { return }
        if tcgetattr(input, &saved) == 0 {
            var raw = saved
            raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
            withUnsafeMutableBytes(of: &raw.c_cc) { cc in
                cc[Int(VMIN)] = 0
                cc[Int(VTIME)] = 0
            }
            tcsetattr(input, TCSANOW, &raw)
        }
        // Initialized before the handler can run (see InterruptSignal).
        _ = TerminalScreen.resized.load(ordering: .relaxed)
        installSignalHandler([SIGWINCH]) { _ in TerminalScreen.resized.store(true, ordering: .relaxed) }
        active = true
        // If a step never returns, the interrupt watchdog ends the process: put the terminal back first.
        let (screen, input, saved) = (screen, input, saved)
        InterruptWatchdog.beforeExit {
            try? screen.write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
            var mode = saved
            tcsetattr(input, TCSANOW, &mode)
        }
        try write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[2J\u{1B}[H")
    }

    /// Leaves the alternate screen, shows the cursor and restores echo and line input.
    public func restore() {
        guard active else { return }
        active = false
        InterruptWatchdog.beforeExit(nil)
        // Best effort: on the way out (a deinit, an error) a terminal that cannot be
        // written has nothing to restore on screen; the input mode is restored below.
        try? write("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(input, TCSANOW, &saved)
    }

    deinit { restore() }

    /// Columns and rows, or 80×24 when the size cannot be read.
    public var size: (columns: Int, rows: Int) { screen.size }

    /// True once after each resize.
    public func takeResize() -> Bool { screen.takeResize() }

    /// Writes all of `text` (retrying short writes).
    /// - Throws: `DescriptorWriteError` when the terminal cannot be written (it went away).
    public func write(_ text: String) throws(DescriptorWriteError) {
        try screen.write(text)
    }

    /// Keys typed since the last call, without blocking.
    public func readKeys() -> [Key] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(input, &buffer, buffer.count)
            if n <= 0 { break }
            bytes.append(contentsOf: buffer[0..<n])
            if n < buffer.count { break }
        }
        return Key.parse(bytes)
    }
}

/// The terminal's output side: its size, its resizes and whole-frame writes. A value
/// (the descriptor), so the live view's drawing thread can own it while the physics
/// thread reads keys from the `Terminal`.
@_spi(Tools) public struct TerminalScreen: Sendable {
    private let output: Int32

    /// Set by SIGWINCH; the view re-reads the size and repaints from scratch.
    static let resized = Atomic<Bool>(false)

    /// The screen written through `output`.
    public init(output: Int32 = STDOUT_FILENO) {
        self.output = output
    }

    /// Columns and rows, or 80×24 when the size cannot be read.
    public var size: (columns: Int, rows: Int) {
        var ws = winsize()
        if ioctl(output, UInt(TIOCGWINSZ), &ws) == 0, ws.ws_col > 0, ws.ws_row > 0 {
            return (Int(ws.ws_col), Int(ws.ws_row))
        }
        return (80, 24)
    }

    /// True once after each resize.
    public func takeResize() -> Bool { TerminalScreen.resized.exchange(false, ordering: .relaxed) }

    /// Writes all of `text` (retrying short writes).
    /// - Throws: `DescriptorWriteError` when the terminal cannot be written (it went away).
    public func write(_ text: String) throws(DescriptorWriteError) {
        try DescriptorOutput.writeAll(output, text)
    }
}

/// A key the live view understands.
@_spi(Tools) public enum Key: Equatable, Sendable {
    case character(Character)
    case escape
    case up, down, left, right

    /// Splits raw terminal input into keys: arrows arrive as `ESC [ A`..`D` (or `ESC O A`..`D`);
    /// a lone `ESC` is the Escape key.
    public static func parse(_ bytes: [UInt8]) -> [Key] {
        var keys: [Key] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B {
                if i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") || bytes[i + 1] == UInt8(ascii: "O") {
                    switch bytes[i + 2] {
                    case UInt8(ascii: "A"): keys.append(.up)
                    case UInt8(ascii: "B"): keys.append(.down)
                    case UInt8(ascii: "C"): keys.append(.right)
                    case UInt8(ascii: "D"): keys.append(.left)
                    default: break
                    }
                    i += 3
                    continue
                }
                keys.append(.escape)
                i += 1
                continue
            }
            if b < 0x80 {
                keys.append(.character(Character(Unicode.Scalar(b))))
            }
            i += 1
        }
        return keys
    }
}
