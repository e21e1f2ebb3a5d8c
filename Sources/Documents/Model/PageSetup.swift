import CIntl
import Graphics

public enum PaperSize: Sendable, Hashable {
    case a4
    case letter
    /// Width and height in points, portrait.
    case custom(Size)

    /// Portrait size in points.
    public var size: Size {
        switch self {
        case .a4: Size(width: 595.276, height: 841.89)
        case .letter: Size(width: 612, height: 792)
        case .custom(let size): size
        }
    }

    /// US Letter where the user's locale (`LC_PAPER`) uses it, A4 everywhere else.
    /// Needs `setlocale(LC_ALL, "")` to have run, as `Localization.setUp` does.
    public static var current: PaperSize {
        fromMillimetres(width: Int(bf_locale_paper_width_mm()), height: Int(bf_locale_paper_height_mm()))
    }

    static func fromMillimetres(width: Int, height: Int) -> PaperSize {
        // Letter is 216 × 279 mm; Legal (216 × 356) locales print on Letter too.
        abs(width - 216) <= 2 && (abs(height - 279) <= 2 || abs(height - 356) <= 2) ? .letter : .a4
    }
}

public enum PageOrientation: Sendable, Hashable {
    case portrait, landscape
}

/// Paper, orientation and margins. Everything drawn, running header and footer included,
/// stays inside the margins (`printableArea`).
public struct PageSetup: Sendable, Hashable {
    public var paper: PaperSize
    public var orientation: PageOrientation
    public var margins: EdgeInsets
    /// Room between a running header or footer and the body.
    public var runningTextGap: Double

    public init(paper: PaperSize = .current, orientation: PageOrientation = .portrait,
                margins: EdgeInsets = EdgeInsets(top: 48, left: 54, bottom: 42, right: 54),
                runningTextGap: Double = 14) {
        self.paper = paper
        self.orientation = orientation
        self.margins = margins
        self.runningTextGap = runningTextGap
    }

    public var pageSize: Size {
        let size = paper.size
        return orientation == .portrait ? size : Size(width: size.height, height: size.width)
    }

    public var printableArea: Rect {
        Rect(origin: .zero, size: pageSize).inset(by: margins)
    }
}

/// What a running header or footer shows in one of its three places.
public enum RunningItem: Sendable, Hashable {
    case text(String)
    /// "Page N of M", translated.
    case pageNumber
}

/// A line repeated at the top or bottom of every page.
public struct RunningText: Sendable, Hashable {
    public var leading: RunningItem?
    public var center: RunningItem?
    public var trailing: RunningItem?
    public var style: TextStyle
    /// A hairline between it and the body.
    public var showsRule: Bool

    public init(leading: RunningItem? = nil, center: RunningItem? = nil, trailing: RunningItem? = nil,
                style: TextStyle = TextStyle(font: FontDescription(size: 7.5), color: Palette.tertiaryText),
                showsRule: Bool = false) {
        self.leading = leading
        self.center = center
        self.trailing = trailing
        self.style = style
        self.showsRule = showsRule
    }

    var isEmpty: Bool { leading == nil && center == nil && trailing == nil }
}
