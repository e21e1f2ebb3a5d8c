import Foundation

/// At most two receipt pictures are decoded at once in the whole process, whoever asks (the
/// trip's thumbnails, the viewer, the report): a PNG decodes at full size before it is scaled,
/// up to 400 MB for the largest receipt accepted, so the peak must not grow with the cores.
enum ReceiptDecoding {
    static let width = 2
    private static let slots = DispatchSemaphore(value: width)

    static func limited<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        slots.wait()
        defer { slots.signal() }
        return try body()
    }
}
