import OrientdCore

extension ReadLoop {
    /// Why reading one sensor stopped.
    enum ReadEnd {
        /// The thread was asked to stop.
        case stopped
        /// udev said the sensor went away (or must be opened again), for this reason.
        case lost(String)
        /// The sensor failed under the reader (its buffer closed, ENODEV), for this
        /// reason: most likely it is being unplugged, and udev has yet to say so.
        case failed(String)
        /// Nothing consumes the events: the reading gate closed.
        case paused
        /// The buffer stays silent though its settings were applied again: given up for
        /// now, in this episode.
        case bufferSilent(BufferSilence)
        /// Polled reading, while the buffer was given up, is done: the buffer is tried
        /// again.
        case retryBuffer

        /// Whether a dead buffer's episode goes on after it.
        var continuesSilence: Bool {
            switch self {
            case .bufferSilent, .retryBuffer: true
            case .stopped, .lost, .failed, .paused: false
            }
        }
    }

    /// What one sensor is read through while it is read.
    enum Reading {
        case buffered(BufferedScans)
        case polled(PolledAxes)
    }
}
