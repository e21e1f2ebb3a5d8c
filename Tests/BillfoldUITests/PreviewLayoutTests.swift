import Graphics
import Testing
@testable import BillfoldUI

@Suite struct PreviewLayoutTests {
    let a4 = Size(width: 595.28, height: 841.89)

    @Test func fitWidthFillsTheViewLessItsMargins() {
        let layout = PreviewLayout(pageSizes: [a4, a4])
        let scale = layout.scale(for: .fitWidth, viewportWidth: 800, viewportHeight: 600)
        let frames = layout.frames(scale: scale, width: 800, viewportWidth: 800)
        #expect(frames[0].x == 18)
        #expect(frames[0].width == 800 - 36)
        #expect(frames[1].y == frames[0].maxY + PreviewLayout.gap)
        // On a narrow view the margins shrink.
        let narrow = layout.frames(scale: layout.scale(for: .fitWidth, viewportWidth: 360, viewportHeight: 600),
                                   width: 360, viewportWidth: 360)
        #expect(narrow[0].width == 360 - 16)
    }

    @Test func fitPageShowsAWholePage() {
        let layout = PreviewLayout(pageSizes: [a4])
        let scale = layout.scale(for: .fitPage, viewportWidth: 1200, viewportHeight: 600)
        let frame = layout.frames(scale: scale, width: 1200, viewportWidth: 1200)[0]
        #expect(frame.height == 600 - 36)
        #expect(frame.width < 1200 - 36)
        #expect(frame.x == (1200 - frame.width) / 2)
    }

    @Test func aFixedScaleIsTheRealSizeTimesTheScale() {
        let layout = PreviewLayout(pageSizes: [a4])
        #expect(layout.frames(scale: 1, width: 2000, viewportWidth: 2000)[0].width == 794)
        #expect(layout.frames(scale: 2, width: 2000, viewportWidth: 2000)[0].width == 1587)
        #expect(layout.scale(for: .scale(50), viewportWidth: 10, viewportHeight: 10) == PreviewLayout.scaleRange.upperBound)
    }

    @Test func findsThePagesInABand() {
        let layout = PreviewLayout(pageSizes: Array(repeating: a4, count: 100))
        let frames = layout.frames(scale: 0.5, width: 600, viewportWidth: 600)
        let middle = frames[40]
        #expect(PreviewLayout.pages(in: frames, from: Double(middle.y + 1), to: Double(middle.maxY - 1)) == 40..<41)
        #expect(PreviewLayout.pages(in: frames, from: Double(middle.y - 15), to: Double(middle.maxY + 15)) == 39..<42)
        #expect(PreviewLayout.pages(in: frames, from: -100, to: 0).isEmpty)
    }

    @Test func theCurrentPageIsTheOneAcrossTheMiddle() {
        let layout = PreviewLayout(pageSizes: Array(repeating: a4, count: 5))
        let frames = layout.frames(scale: 1, width: 900, viewportWidth: 900)
        let maximum = Double(layout.contentHeight(scale: 1, viewportWidth: 900) - 600)
        #expect(PreviewLayout.currentPage(in: frames, viewTop: 0, viewHeight: 600, maximumTop: maximum) == 0)
        #expect(PreviewLayout.currentPage(in: frames, viewTop: Double(frames[2].y), viewHeight: 600, maximumTop: maximum) == 2)
        #expect(PreviewLayout.currentPage(in: frames, viewTop: maximum, viewHeight: 600, maximumTop: maximum) == 4)
    }

    @Test func anAnchorSurvivesAZoom() throws {
        let layout = PreviewLayout(pageSizes: Array(repeating: a4, count: 10))
        let before = layout.frames(scale: 1, width: 900, viewportWidth: 900)
        let spot = Double(before[6].y) + Double(before[6].height) * 0.25
        let anchor = try #require(PreviewLayout.anchor(at: spot, in: before))
        #expect(anchor.page == 6)
        #expect(abs(anchor.fraction - 0.25) < 0.01)
        let after = layout.frames(scale: 2, width: 2000, viewportWidth: 2000)
        let offset = try #require(PreviewLayout.offset(of: anchor, in: after))
        #expect(abs(offset - (Double(after[6].y) + Double(after[6].height) * 0.25)) < 1)
    }

    @Test func zoomStepsGoUpAndDown() {
        #expect(PreviewLayout.stepUp(from: 1) == 1.1)
        #expect(PreviewLayout.stepUp(from: 0.83) == 0.9)
        #expect(PreviewLayout.stepDown(from: 1) == 0.9)
        #expect(PreviewLayout.stepUp(from: 6) == nil)
        #expect(PreviewLayout.stepDown(from: 0.25) == nil)
    }
}
