import Foundation

/// A corner of the physical panel.
enum PanelCorner: String, Sendable, CustomStringConvertible {
    case topLeft = "top-left"
    case topRight = "top-right"
    case bottomRight = "bottom-right"
    case bottomLeft = "bottom-left"

    var description: String { rawValue }

    /// Where the picture's top-left corner must land for a W3C screen angle, from first
    /// principles and not from any tool's words: angle a means the device was turned a°
    /// counter-clockwise (landscape-primary on a portrait panel: its right edge up), so
    /// the picture must turn a° *clockwise* on the panel to stay upright for its user, and
    /// its top-left corner travels clockwise round the panel's corners, one per 90°.
    init(screenAngle: Int) {
        let clockwise: [PanelCorner] = [.topLeft, .topRight, .bottomRight, .bottomLeft]
        self = clockwise[(screenAngle / 90) % 4]
    }

    /// The corner diagonally across: where the picture's bottom-right corner lands.
    var opposite: PanelCorner {
        switch self {
        case .topLeft: .bottomRight
        case .topRight: .bottomLeft
        case .bottomRight: .topLeft
        case .bottomLeft: .topRight
        }
    }
}

/// A screenshot in binary PPM (P6, 8 bits), as `grim -t ppm` and ImageMagick write it, and
/// where the marker picture (`Tests/Fixtures/screen/marker.png`: a red square in its
/// top-left corner, a blue one in its bottom-right) lands inside a rectangle of it.
struct PanelPicture {
    let width: Int
    let height: Int
    private let pixels: [UInt8]

    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        // Header: "P6", width, height, maxval, each followed by white space; then pixels.
        var fields: [String] = []
        var i = 0
        var field = ""
        while fields.count < 4, i < bytes.count {
            let c = bytes[i]
            i += 1
            if c == UInt8(ascii: " ") || c == UInt8(ascii: "\n") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r") {
                if !field.isEmpty {
                    fields.append(field)
                    field = ""
                }
            } else {
                field.append(Character(UnicodeScalar(c)))
            }
        }
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]), fields[3] == "255",
            bytes.count - i >= w * h * 3
        else {
            throw PictureError(message: "not an 8-bit binary PPM (\(bytes.count) bytes, header \(fields))")
        }
        width = w
        height = h
        pixels = Array(bytes[i..<(i + w * h * 3)])
    }

    struct PictureError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// The corner of `rect` (x, y, width, height in pixels) nearest to the centre of the
    /// pixels of a colour; nil when there are none.
    func corner(of colour: (UInt8, UInt8, UInt8) -> Bool, in rect: (x: Int, y: Int, width: Int, height: Int))
        -> PanelCorner?
    {
        var sx = 0.0
        var sy = 0.0
        var n = 0.0
        let x1 = min(rect.x + rect.width, width)
        let y1 = min(rect.y + rect.height, height)
        for y in stride(from: max(rect.y, 0), to: y1, by: 2) {
            for x in stride(from: max(rect.x, 0), to: x1, by: 2) {
                let p = (y * width + x) * 3
                if colour(pixels[p], pixels[p + 1], pixels[p + 2]) {
                    sx += Double(x - rect.x)
                    sy += Double(y - rect.y)
                    n += 1
                }
            }
        }
        guard n > 0 else { return nil }
        let left = sx / n < Double(rect.width) / 2
        let top = sy / n < Double(rect.height) / 2
        return top ? (left ? .topLeft : .topRight) : (left ? .bottomLeft : .bottomRight)
    }

    /// Where the marker's red (top-left) and blue (bottom-right) squares are.
    func marker(in rect: (x: Int, y: Int, width: Int, height: Int)) -> (red: PanelCorner?, blue: PanelCorner?) {
        (
            corner(of: { r, g, b in r > 200 && g < 60 && b < 60 }, in: rect),
            corner(of: { r, g, b in b > 200 && r < 60 && g < 60 }, in: rect)
        )
    }
}

/// An edge of the panel: where the top of the picture lands with the screen at a W3C
/// angle (the picture turns clockwise on the panel as the device turns counter-clockwise,
/// as `PanelCorner`'s top-left does).
enum PanelEdge: String, Sendable, CaseIterable, CustomStringConvertible {
    case top, right, bottom, left

    init(screenAngle: Int) {
        switch screenAngle {
        case 90: self = .right
        case 180: self = .bottom
        case 270: self = .left
        default: self = .top
        }
    }

    var description: String { rawValue }
}

extension PanelPicture {
    /// The edge along which GNOME Shell's top bar lies: the one whose band `band` pixels
    /// deep (the bar is 32) holds the most white pixels (its clock, icons and text, whether
    /// the bar is black or, in the overview, clear), at least twice as many as any other
    /// edge's; nil when none stands out. A notification under the bar lies outside it.
    func whiteEdge(band: Int = 34) -> PanelEdge? {
        var counts: [PanelEdge: Int] = [:]
        for y in stride(from: 0, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) {
                let p = (y * width + x) * 3
                guard pixels[p] > 230 && pixels[p + 1] > 230 && pixels[p + 2] > 230 else { continue }
                if y < band { counts[.top, default: 0] += 1 }
                if y >= height - band { counts[.bottom, default: 0] += 1 }
                if x < band { counts[.left, default: 0] += 1 }
                if x >= width - band { counts[.right, default: 0] += 1 }
            }
        }
        let ranked = counts.sorted { $0.value > $1.value }
        guard let first = ranked.first, first.value >= 20, first.value >= 2 * (ranked.dropFirst().first?.value ?? 0) else {
            return nil
        }
        return first.key
    }
}
