import CGtk
import Foundation
import GObjectCore

/// A `GtkPicture` showing 8-bit RGB or RGBA pixels (not premultiplied) held in memory, such as a
/// thumbnail decoded on a background task. It keeps the picture's aspect ratio.
@MainActor
public final class PixelPicture: Widget {
    public init() {
        super.init(adopting: untyped(gtk_picture_new()))
        gtk_picture_set_can_shrink(pointer(), 1)
        gtk_picture_set_content_fit(pointer(), GTK_CONTENT_FIT_CONTAIN)
    }

    /// Shows `pixels` (`rowStride` bytes per row); nil or a size that does not fit the bytes
    /// clears the picture.
    public func setPixels(width: Int, height: Int, rowStride: Int, hasAlpha: Bool, pixels: Data?) {
        let bytesPerPixel = hasAlpha ? 4 : 3
        guard let pixels, width > 0, height > 0, rowStride >= width * bytesPerPixel,
              pixels.count >= rowStride * (height - 1) + width * bytesPerPixel else {
            gtk_picture_set_paintable(pointer(), nil)
            pixelSize = nil
            return
        }
        let bytes = pixels.withUnsafeBytes { buffer in g_bytes_new(buffer.baseAddress, gsize(buffer.count)) }
        defer { g_bytes_unref(bytes) }
        let format = hasAlpha ? GDK_MEMORY_R8G8B8A8 : GDK_MEMORY_R8G8B8
        guard let texture = gdk_memory_texture_new(gint(width), gint(height), format, bytes, gsize(rowStride)) else {
            gtk_picture_set_paintable(pointer(), nil)
            pixelSize = nil
            return
        }
        gtk_picture_set_paintable(pointer(), OpaquePointer(UnsafeMutableRawPointer(texture)))
        g_object_unref(UnsafeMutableRawPointer(texture))
        pixelSize = (width, height)
    }

    /// The size of the pixels shown, nil when empty.
    public private(set) var pixelSize: (width: Int, height: Int)?
}
