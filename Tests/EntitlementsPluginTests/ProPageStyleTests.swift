import Testing
import TestSupport
@testable import EntitlementsCore
@testable import EntitlementsPlugin

extension BillfoldProPageTests {
    /// The free plan's star is a solid one in the accent colour, which reads in the light and
    /// dark styles; Adwaita's outline star is a third as strong, and dimmed it was grey on grey.
    @Test func theFreePlansStarIsInTheAccentColour() throws {
        let fixture = try PluginFixture()
        defer { fixture.close() }
        #expect(fixture.view.statusIcon.iconName == "starred-symbolic")
        #expect(fixture.view.statusIcon.hasCssClass("accent"))
        #expect(!fixture.view.statusIcon.hasCssClass("dim-label"))
    }
}
