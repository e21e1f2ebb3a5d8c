import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// An XML element read with namespaces resolved: `namespace` is the URI, whatever prefix the
/// file used, so `rsm:`, `ns0:` or a default namespace all read the same.
struct XMLNode: Sendable {
    let namespace: String
    let name: String
    var attributes: [String: String] = [:]
    var text = ""
    var children: [XMLNode] = []

    /// The first child called `name` in `namespace`.
    func child(_ namespace: String, _ name: String) -> XMLNode? {
        children.first { $0.name == name && $0.namespace == namespace }
    }

    func children(_ namespace: String, _ name: String) -> [XMLNode] {
        children.filter { $0.name == name && $0.namespace == namespace }
    }

    /// Follows a path of children in one namespace: `node.path(ram, "A", "B")`.
    func path(_ namespace: String, _ names: String...) -> XMLNode? {
        var node: XMLNode? = self
        for name in names { node = node?.child(namespace, name) }
        return node
    }

    /// The text without surrounding white space; nil when empty.
    var value: String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// Reads untrusted XML into an `XMLNode` tree: bounded in size and depth, no DOCTYPE (so no
/// entities, external or internal), no network.
enum XMLTree {
    /// Real e-invoices are tens of kilobytes; a thousand lines stay well under a megabyte.
    static let maximumByteCount = 10 * 1024 * 1024
    /// CII nests about 10 deep; libxml2 itself stops at 256.
    static let maximumDepth = 64

    static func parse(_ data: Data) throws(EInvoiceError) -> XMLNode {
        guard data.count <= maximumByteCount else { throw .tooLarge(limit: maximumByteCount) }
        // Any DTD is refused before the parser sees it: billion-laughs and external entities need one.
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw .documentTypeDeclaration
        }
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        let builder = TreeBuilder(maximumDepth: maximumDepth)
        parser.delegate = builder
        let parsed = parser.parse()
        if let failure = builder.failure { throw failure }
        guard parsed, let root = builder.root else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown error"
            throw .notWellFormed(line: parser.lineNumber, reason: reason)
        }
        return root
    }
}

private final class TreeBuilder: NSObject, XMLParserDelegate {
    let maximumDepth: Int
    var stack: [XMLNode] = []
    var root: XMLNode?
    var failure: EInvoiceError?

    init(maximumDepth: Int) { self.maximumDepth = maximumDepth }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        guard stack.count < maximumDepth else {
            failure = .tooDeeplyNested(limit: maximumDepth)
            parser.abortParsing()
            return
        }
        stack.append(XMLNode(namespace: namespaceURI ?? "", name: elementName, attributes: attributes))
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
        guard let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += string
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1].text += String(decoding: CDATABlock, as: UTF8.self)
    }

    func parser(_ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?) {
        failure = .documentTypeDeclaration
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?, systemID: String?) {
        failure = .documentTypeDeclaration
        parser.abortParsing()
    }
}
