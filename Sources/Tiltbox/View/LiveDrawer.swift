import Dispatch
import Foundation
import Synchronization

/// The live view's drawing thread: waits for the physics thread to publish a frame in
/// the `LiveStateBuffer`, then blends, rasterises, composes and writes the latest one
/// (frames published while it was drawing are skipped, never queued), timing its own work
/// for the HUD.
///
/// The physics thread never waits for drawing: `frameReady()` only raises a flag. A
/// terminal that cannot be written ends the thread; the physics thread sees it in `failure`.
final class LiveDrawer: Sendable {
    /// What the drawing thread needs besides the frames: the scene, the screen and the
    /// HUD's fixed parts. All values, moved into the thread.
    struct Setup: Sendable {
        var scenario: Scenario
        var screen: TerminalScreen
        var colour: Bool
        var interactive: Bool
        /// One display frame, 1/fps.
        var frameBudget: Double
    }

    private let buffer: LiveStateBuffer
    private let wake = DispatchSemaphore(value: 0)
    private let exited = DispatchSemaphore(value: 0)
    private let pending = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let writeFailure = Mutex<DescriptorWriteError?>(nil)

    /// A drawer of `buffer`'s frames; `start(_:)` starts its thread.
    init(buffer: LiveStateBuffer) {
        self.buffer = buffer
    }

    /// Starts the drawing thread.
    func start(_ setup: Setup) {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            draw(setup)
            exited.signal()
        }
        thread.name = "tiltbox live view"
        thread.start()
    }

    /// Tells the drawing thread a new frame is published (it wakes once for any number).
    func frameReady() {
        if !pending.exchange(true, ordering: .acquiringAndReleasing) { wake.signal() }
    }

    /// Draws the latest frame if it has not been drawn, then ends the thread and waits for
    /// it. Idempotent.
    func stop() {
        guard started.load(ordering: .acquiring), !stopping.exchange(true, ordering: .acquiringAndReleasing) else {
            return
        }
        wake.signal()
        exited.wait()
    }

    /// The terminal write that failed and ended the drawing thread, if one did.
    var failure: DescriptorWriteError? { writeFailure.withLock { $0 } }

    // MARK: - The drawing thread

    private func draw(_ setup: Setup) {
        var renderer = LiveFrameRenderer(scenario: setup.scenario, colour: setup.colour)
        var hud = HUD()
        hud.interactive = setup.interactive
        hud.colour = setup.colour
        hud.frameBudget = setup.frameBudget
        var drawn = 0 // the sequence of the last frame drawn
        var generation = -1
        var lastWrite = 0.0
        while true {
            wake.wait()
            pending.store(false, ordering: .releasing)
            let stop = stopping.load(ordering: .acquiring)
            let frame = buffer.latest()
            if frame.sequence != drawn {
                drawn = frame.sequence
                let start = RealTimeClock.now()
                let clear = frame.generation != generation || setup.screen.takeResize()
                generation = frame.generation
                hud.simulatedTime = frame.time
                hud.stepsInLastFrame = frame.stepsInLastFrame
                hud.physicsSecondsPerFrame = frame.physicsSecondsPerFrame
                hud.droppedTime = frame.droppedTime
                hud.gravity = frame.gravity
                hud.paused = frame.paused
                hud.finished = frame.finished
                let size = setup.screen.size
                let text = renderer.frame(
                    previous: frame.previous, current: frame.current, alpha: frame.alpha,
                    hud: hud.render(width: size.columns),
                    columns: size.columns, terminalRows: size.rows, clear: clear, outline: frame.outline,
                    colourIndices: frame.colourIndices)
                do { try setup.screen.write(text) } catch {
                    writeFailure.withLock { $0 = error }
                    return
                }
                let end = RealTimeClock.now()
                hud.drawSecondsPerFrame = HUD.runningAverage(hud.drawSecondsPerFrame, end - start)
                if lastWrite > 0, end > lastWrite {
                    hud.framesPerSecond = HUD.runningAverage(hud.framesPerSecond, 1 / (end - lastWrite))
                }
                lastWrite = end
            }
            if stop { return }
        }
    }
}
