/// `precondition`, but with its message in optimized builds too (where `precondition`
/// stops without one): a crash report should say which promise was broken, and how.
public func require(
    _ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line
) {
    if !condition { fatalError(message(), file: file, line: line) }
}

/// Calls `body` with a copy of `bytes` in an allocation of exactly their size, so that
/// AddressSanitizer reports any read past their end; in libFuzzer's buffer such a read
/// would land, unnoticed, on the bytes that follow.
public func withExactCopy<Result>(
    of bytes: UnsafeRawBufferPointer, _ body: (UnsafeBufferPointer<UInt8>) -> Result
) -> Result {
    let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
    defer { copy.deallocate() }
    _ = copy.initialize(from: bytes)
    return body(UnsafeBufferPointer(copy))
}
