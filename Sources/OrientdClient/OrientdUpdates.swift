/// What the daemon reports as it happens: the orientation changes, or every event. An
/// `AsyncSequence` that ends with `OrientdClientError` only for what waiting cannot mend
/// (permission denied, the client closed); while the daemon is away it waits for it.
public struct OrientdUpdates<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = OrientdClientError

    let stream: AsyncThrowingStream<Element, any Error>

    public func makeAsyncIterator() -> Iterator { Iterator(base: stream.makeAsyncIterator()) }

    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = OrientdClientError
        var base: AsyncThrowingStream<Element, any Error>.Iterator

        public mutating func next() async throws(OrientdClientError) -> Element? {
            do {
                return try await base.next()
            } catch let failure as OrientdClientError {
                throw failure
            } catch {
                // The session finishes its streams with OrientdClientError alone.
                throw .failed(socket: "", message: "\(error)")
            }
        }
    }
}
