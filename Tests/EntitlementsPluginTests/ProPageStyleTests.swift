import Testing
import TestSupport
@testable import EntitlementsPlugin

extension BillfoldProPageTests {
    /// The free plan's star is in the accent colour, which reads in the light and dark styles;
    /// dimmed it was grey on grey in the dark one.
    @Test func theFreePlansStarIsInTheAccentColour() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        #expect(fixture.view.statusIcon.iconName == "non-starred-symbolic")
        #expect(fixture.view.statusIcon.hasCssClass("accent"))
        #expect(!fixture.view.statusIcon.hasCssClass("dim-label"))
    }
}
