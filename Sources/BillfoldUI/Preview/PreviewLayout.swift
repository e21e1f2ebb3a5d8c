import Graphics

/// How the preview sizes its pages.
public enum PreviewZoom: Sendable, Equatable {
    /// The widest page fills the view's width (the default).
    case fitWidth
    /// A whole page fits in the view.
    case fitPage
    /// A fixed size: 1 is the page's real size on a 96 dpi screen.
    case scale(Double)
}

/// A page's place in the preview, in logical pixels relative to the stacked pages.
struct PageFrame: Equatable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int

    var maxY: Int { y + height }
}

/// Where pages go in the preview at a zoom: arithmetic only, so it is tested without a display.
struct PreviewLayout {
    /// Logical pixels per point at 100 %: a 96 dpi screen shows the page at its real size.
    static let pixelsPerPointAtActualSize = 96.0 / 72.0
    static let scaleRange = 0.1...6.0
    /// The sizes the zoom buttons step through.
    static let zoomSteps: [Double] = [0.25, 0.33, 0.5, 0.67, 0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 4, 5, 6]
    static let gap = 12
    /// Room under the last page so the floating controls never hide its end.
    static let bottomInset = 64

    /// Page sizes in points.
    let pageSizes: [Size]
    private let widestPage: Double
    private let tallestPage: Double

    init(pageSizes: [Size]) {
        self.pageSizes = pageSizes
        widestPage = max(1, pageSizes.map(\.width).max() ?? 1)
        tallestPage = max(1, pageSizes.map(\.height).max() ?? 1)
    }

    var pageCount: Int { pageSizes.count }

    /// Space around the pages: less on a narrow view, where every pixel of page counts.
    static func margin(forWidth width: Int) -> Int { width < 500 ? 8 : 18 }

    /// The scale (1 = real size) that `zoom` means in a view of this size.
    func scale(for zoom: PreviewZoom, viewportWidth: Int, viewportHeight: Int) -> Double {
        let margin = Double(Self.margin(forWidth: viewportWidth))
        let fitWidth = (Double(viewportWidth) - 2 * margin) / (widestPage * Self.pixelsPerPointAtActualSize)
        let scale: Double
        switch zoom {
        case .fitWidth:
            scale = fitWidth
        case .fitPage:
            let fitHeight = (Double(viewportHeight) - 2 * margin) / (tallestPage * Self.pixelsPerPointAtActualSize)
            scale = min(fitWidth, fitHeight)
        case .scale(let value):
            scale = value
        }
        return min(max(scale, Self.scaleRange.lowerBound), Self.scaleRange.upperBound)
    }

    private func pixelSize(of page: Size, scale: Double) -> (width: Int, height: Int) {
        let factor = scale * Self.pixelsPerPointAtActualSize
        return (max(1, Int((page.width * factor).rounded())), max(1, Int((page.height * factor).rounded())))
    }

    /// The width the pages need at `scale`, margins included.
    func contentWidth(scale: Double, viewportWidth: Int) -> Int {
        pixelSize(of: Size(width: widestPage, height: 1), scale: scale).width + 2 * Self.margin(forWidth: viewportWidth)
    }

    /// The height of all pages stacked at `scale`, margins and gaps included.
    func contentHeight(scale: Double, viewportWidth: Int) -> Int {
        let margin = Self.margin(forWidth: viewportWidth)
        let pages = pageSizes.reduce(0) { $0 + pixelSize(of: $1, scale: scale).height }
        return margin + pages + Self.gap * max(0, pageCount - 1) + max(margin, Self.bottomInset)
    }

    /// Each page's frame when the pages are stacked in a container `width` wide, centred.
    func frames(scale: Double, width: Int, viewportWidth: Int) -> [PageFrame] {
        let margin = Self.margin(forWidth: viewportWidth)
        var y = margin
        return pageSizes.map { page in
            let size = pixelSize(of: page, scale: scale)
            let x = max(margin, (width - size.width) / 2)
            defer { y += size.height + Self.gap }
            return PageFrame(x: x, y: y, width: size.width, height: size.height)
        }
    }

    /// The pages that overlap the band `top..<bottom` (frames are in order, top to bottom).
    static func pages(in frames: [PageFrame], from top: Double, to bottom: Double) -> Range<Int> {
        var low = 0, high = frames.count
        while low < high {
            let mid = (low + high) / 2
            if Double(frames[mid].maxY) <= top { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < frames.count, Double(frames[end].y) < bottom { end += 1 }
        return low..<end
    }

    /// The page a reader is on: the first at the top of the document, the last at its end,
    /// otherwise the one across the middle of the view (or the nearest to it).
    static func currentPage(in frames: [PageFrame], viewTop: Double, viewHeight: Double, maximumTop: Double) -> Int {
        guard !frames.isEmpty else { return 0 }
        if viewTop <= 0.5 { return 0 }
        if viewTop >= maximumTop - 0.5 { return frames.count - 1 }
        let middle = viewTop + viewHeight / 2
        let band = pages(in: frames, from: middle, to: middle + 1)
        if let index = band.first { return index }
        // In a gap: the page after it, unless that is further than the page before.
        let after = min(band.lowerBound, frames.count - 1)
        let before = max(after - 1, 0)
        return middle - Double(frames[before].maxY) < Double(frames[after].y) - middle ? before : after
    }

    /// A position in the document that survives a zoom: a page and how far down it.
    struct Anchor: Equatable {
        var page: Int
        var fraction: Double
    }

    static func anchor(at y: Double, in frames: [PageFrame]) -> Anchor? {
        guard !frames.isEmpty else { return nil }
        let band = pages(in: frames, from: y, to: y + 1)
        let index = min(band.lowerBound, frames.count - 1)
        let frame = frames[index]
        let fraction = (y - Double(frame.y)) / Double(max(1, frame.height))
        return Anchor(page: index, fraction: min(max(fraction, 0), 1))
    }

    static func offset(of anchor: Anchor, in frames: [PageFrame]) -> Double? {
        guard frames.indices.contains(anchor.page) else { return nil }
        let frame = frames[anchor.page]
        return Double(frame.y) + anchor.fraction * Double(frame.height)
    }

    /// The next zoom step above `scale` (zoom in), or nil at the largest.
    static func stepUp(from scale: Double) -> Double? { zoomSteps.first { $0 > scale * 1.01 } }

    /// The next zoom step below `scale` (zoom out), or nil at the smallest.
    static func stepDown(from scale: Double) -> Double? { zoomSteps.last { $0 < scale * 0.99 } }
}
