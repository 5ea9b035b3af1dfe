/// A byte buffer a writer builds UTF-8 output in. The extension below appends the model's
/// numbers to one without making a String first (String interpolation costs several times
/// more on the hot path, STYLE.md habit 8).
public protocol UTF8Output {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends bytes; by default one by one. A writer's own buffer copies them at once.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension UTF8Output {
    @inlinable
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        for b in bytes { append(b) }
    }
}

extension Array: UTF8Output where Element == UInt8 {}

// Inlinable so that a writer's own buffer gets them specialized to its appends.
extension UTF8Output {
    /// Appends `n` in decimal, spelled as `String(n)` spells it.
    @inlinable
    public mutating func appendDecimal(_ n: Int) {
        if n < 0 {
            append(UInt8(ascii: "-"))
            // The magnitude as UInt covers Int.min too.
            appendDecimal(magnitude: n.magnitude)
        } else {
            appendDecimal(magnitude: UInt(n))
        }
    }

    @inlinable
    internal mutating func appendDecimal(magnitude n: UInt) {
        var divisor: UInt = 1
        while n / divisor >= 10 { divisor *= 10 }
        var v = n
        while true {
            append(UInt8(truncatingIfNeeded: v / divisor) &+ 48)
            guard divisor > 1 else { return }
            v %= divisor
            divisor /= 10
        }
    }

    /// Appends a string's UTF-8.
    @inlinable
    public mutating func appendUTF8(_ s: String) {
        for b in s.utf8 { append(b) }
    }

    /// Appends two decimal digits of a value in 0…99 (months, days, hours, …).
    @inline(__always)
    public mutating func appendTwoDigits(_ n: Int) {
        append(UInt8(truncatingIfNeeded: 48 + n / 10))
        append(UInt8(truncatingIfNeeded: 48 + n % 10))
    }
}
