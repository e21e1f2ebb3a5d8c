@testable import ExpensesCore
import Foundation
import Testing

/// The XML reader under the e-invoice formats: namespaces by URI, attributes, text in all its forms.
@Suite struct XMLTreeTests {
    @Test func namesAreReadByNamespaceWhateverThePrefix() throws {
        let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <r:Root xmlns:r="urn:root" xmlns="urn:default" xmlns:x="urn:other">
          <Amount currencyID="EUR" x:currencyID="USD">12.50</Amount>
          <x:Note>second</x:Note>
        </r:Root>
        """
        let root = try XMLTree.parse(Data(xml.utf8))
        #expect(root.namespace == "urn:root" && root.name == "Root")
        let amount = try #require(root.child("urn:default", "Amount"))
        #expect(amount.value == "12.50")
        // The prefixed attribute keeps its namespace: it is not the plain currencyID.
        #expect(amount.attributes["currencyID"] == "EUR")
        #expect(amount.attributes["urn:other currencyID"] == "USD")
        #expect(root.child("urn:other", "Note")?.value == "second")
        #expect(root.child("urn:default", "Note") == nil)
    }

    @Test func textJoinsCharacterReferencesCDATAAndOtherEncodings() throws {
        let xml = "<a>M&#252;ller &amp; S\u{F6}hne <![CDATA[<GmbH>]]> \u{20AC}</a>"
        #expect(try XMLTree.parse(Data(xml.utf8)).value == "Müller & Söhne <GmbH> €")
        var latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>".utf8)
        latin1.append(contentsOf: [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72])
        latin1.append(Data("</a>".utf8))
        #expect(try XMLTree.parse(latin1).value == "Müller")
    }

    @Test func aBrokenFileNamesItsLine() {
        do {
            _ = try XMLTree.parse(Data("<a>\n<b>\n</a>".utf8))
            Issue.record("mismatched tags were read")
        } catch let EInvoiceError.notWellFormed(line, reason) {
            #expect(line == 3)
            #expect(!reason.isEmpty)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: EInvoiceError.self) { try XMLTree.parse(Data()) }
    }
}
