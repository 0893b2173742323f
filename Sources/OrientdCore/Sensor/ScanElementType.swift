/// How one channel is stored in an IIO buffer scan: the kernel's `scan_elements/*_type`
/// text, `[be|le]:[s|u]BITS/STORAGE[Xrepeat]>>SHIFT`, for example `le:s12/16>>4`.
///
/// Decoding reads `storage` bits in the given byte order, shifts right by `shift`, keeps
/// the low `bits` and sign-extends them when the channel is signed.
public struct ScanElementType: Hashable, Sendable, CustomStringConvertible {
    public enum Endianness: String, Hashable, Sendable {
        case little = "le"
        case big = "be"
    }

    public var endianness: Endianness
    public var isSigned: Bool
    /// Bits of real data (`12` in `le:s12/16>>4`).
    public var bits: Int
    /// Bits of storage per value (`16`): 8, 16, 32 or 64.
    public var storageBits: Int
    /// How far the data is shifted up in its storage (`4`).
    public var shift: Int
    /// Values per element (`X2`); 1 when absent.
    public var repeatCount: Int

    public init(endianness: Endianness, isSigned: Bool, bits: Int, storageBits: Int, shift: Int, repeatCount: Int = 1) {
        self.endianness = endianness
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Why a `_type` text could not be read.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Reads the kernel's text; a trailing newline or NUL is ignored.
    public init(parsing raw: some StringProtocol) throws(ParseError) {
        let text = raw.trimmingSysfs
        func fail(_ why: String) -> ParseError {
            ParseError(message: "scan type '\(text)' \(why); expected the form le:s12/16>>4")
        }
        let bytes = Array(text.utf8)
        var i = 0
        func number() -> Int? {
            var value = 0
            let start = i
            while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39, i - start < 4 {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            return i > start ? value : nil
        }
        func expect(_ s: String) -> Bool {
            let u = Array(s.utf8)
            guard bytes.count - i >= u.count, Array(bytes[i..<(i + u.count)]) == u else { return false }
            i += u.count
            return true
        }
        let endianness: Endianness
        if expect("le:") {
            endianness = .little
        } else if expect("be:") {
            endianness = .big
        } else {
            throw fail("does not start with le: or be:")
        }
        let signed: Bool
        if expect("s") {
            signed = true
        } else if expect("u") {
            signed = false
        } else {
            throw fail("has no sign (s or u) after the byte order")
        }
        guard let bits = number() else { throw fail("has no bit count") }
        guard expect("/") else { throw fail("has no '/' before the storage size") }
        guard let storage = number() else { throw fail("has no storage size") }
        var repeatCount = 1
        if expect("X") {
            guard let r = number() else { throw fail("has no count after X") }
            repeatCount = r
        }
        guard expect(">>") else { throw fail("has no '>>' before the shift") }
        guard let shift = number(), i == bytes.count else { throw fail("has no shift or trails text") }
        guard [8, 16, 32, 64].contains(storage) else { throw fail("has storage of \(storage) bits (8, 16, 32 or 64 are possible)") }
        guard bits >= 1, bits + shift <= storage else {
            throw fail("does not fit: \(bits) bits shifted by \(shift) exceed \(storage) bits of storage")
        }
        guard repeatCount >= 1 else { throw fail("repeats 0 times") }
        self.init(endianness: endianness, isSigned: signed, bits: bits, storageBits: storage, shift: shift, repeatCount: repeatCount)
    }

    public var description: String {
        "\(endianness.rawValue):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatCount > 1 ? "X\(repeatCount)" : "")>>\(shift)"
    }

    /// Bytes of one element in a scan (all its repeats).
    public var byteCount: Int { storageBits / 8 * repeatCount }

    /// Decodes the first value of an element stored at `offset`.
    /// The caller guarantees `offset + storageBits / 8 <= bytes.count`.
    @inlinable
    public func decode(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int64 {
        let width = storageBits / 8
        var word: UInt64 = 0
        if endianness == .little {
            for k in stride(from: width - 1, through: 0, by: -1) { word = word << 8 | UInt64(bytes[offset + k]) }
        } else {
            for k in 0..<width { word = word << 8 | UInt64(bytes[offset + k]) }
        }
        word >>= UInt64(shift)
        if bits < 64 {
            word &= (1 << UInt64(bits)) - 1
            if isSigned, word & (1 << UInt64(bits - 1)) != 0 {
                word |= ~((1 << UInt64(bits)) - 1)
            }
        }
        return Int64(bitPattern: word)
    }
}
