import CExpat
import Foundation

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
/// entities, external or internal), no network. Expat never fetches an external entity unless
/// asked to, and refuses billion-laughs expansion on its own besides.
enum XMLTree {
    /// Real e-invoices are tens of kilobytes; a thousand lines stay well under a megabyte.
    static let maximumByteCount = 10 * 1024 * 1024
    /// CII nests about 10 deep.
    static let maximumDepth = 64

    static func parse(_ data: Data) throws(EInvoiceError) -> XMLNode {
        guard data.count <= maximumByteCount else { throw .tooLarge(limit: maximumByteCount) }
        // Any DTD is refused before the parser sees it: billion-laughs and external entities need one.
        if data.range(of: Data("<!DOCTYPE".utf8)) != nil || data.range(of: Data("<!ENTITY".utf8)) != nil {
            throw .documentTypeDeclaration
        }
        // Names arrive as "namespace-URI local-name": neither may contain a space.
        guard let parser = XML_ParserCreateNS(nil, XML_Char(UInt8(ascii: " "))) else {
            throw .notWellFormed(line: 0, reason: "out of memory")
        }
        defer { XML_ParserFree(parser) }
        let builder = TreeBuilder(parser: parser, maximumDepth: maximumDepth)
        withExtendedLifetime(builder) {
            XML_SetUserData(parser, Unmanaged.passUnretained(builder).toOpaque())
            XML_SetElementHandler(parser, { context, name, attributes in
                TreeBuilder.of(context).start(name: name, attributes: attributes)
            }, { context, _ in
                TreeBuilder.of(context).end()
            })
            XML_SetCharacterDataHandler(parser) { context, text, length in
                TreeBuilder.of(context).characters(text, count: Int(length))
            }
            XML_SetStartDoctypeDeclHandler(parser) { context, _, _, _, _ in
                TreeBuilder.of(context).stop(.documentTypeDeclaration)
            }
            XML_SetEntityDeclHandler(parser) { context, _, _, _, _, _, _, _, _ in
                TreeBuilder.of(context).stop(.documentTypeDeclaration)
            }
            let status = data.withUnsafeBytes { bytes in
                XML_Parse(parser, bytes.bindMemory(to: CChar.self).baseAddress, Int32(bytes.count), 1)
            }
            builder.finished = status == XML_STATUS_OK
        }
        if let failure = builder.failure { throw failure }
        guard builder.finished, let root = builder.root else {
            let reason = XML_ErrorString(XML_GetErrorCode(parser)).map { String(cString: $0) } ?? "unknown error"
            throw .notWellFormed(line: Int(XML_GetCurrentLineNumber(parser)), reason: reason)
        }
        return root
    }
}

/// Builds the tree from Expat's callbacks, which reach it through the parser's user data.
private final class TreeBuilder {
    let parser: XML_Parser
    let maximumDepth: Int
    var stack: [XMLNode] = []
    var root: XMLNode?
    var failure: EInvoiceError?
    var finished = false

    init(parser: XML_Parser, maximumDepth: Int) {
        self.parser = parser
        self.maximumDepth = maximumDepth
    }

    static func of(_ context: UnsafeMutableRawPointer?) -> TreeBuilder {
        Unmanaged<TreeBuilder>.fromOpaque(context!).takeUnretainedValue()
    }

    func stop(_ failure: EInvoiceError) {
        guard self.failure == nil else { return }
        self.failure = failure
        XML_StopParser(parser, XML_FALSE)
    }

    func start(name: UnsafePointer<XML_Char>?, attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {
        guard failure == nil else { return }
        guard stack.count < maximumDepth else { return stop(.tooDeeplyNested(limit: maximumDepth)) }
        let (namespace, local) = Self.split(name)
        var node = XMLNode(namespace: namespace, name: local)
        // Name, value, name, value, …, nil. An unprefixed attribute goes by its own name; one in a
        // namespace by "namespace-URI name", so `x:currencyID` is never read as `currencyID`.
        var index = 0
        while let attributeName = attributes?[index], let value = attributes?[index + 1] {
            node.attributes[String(cString: attributeName)] = String(cString: value)
            index += 2
        }
        stack.append(node)
    }

    func end() {
        guard failure == nil, let node = stack.popLast() else { return }
        if stack.isEmpty {
            root = node
        } else {
            stack[stack.count - 1].children.append(node)
        }
    }

    func characters(_ text: UnsafePointer<XML_Char>?, count: Int) {
        guard failure == nil, !stack.isEmpty, let text else { return }
        let bytes = UnsafeRawBufferPointer(start: text, count: count)
        stack[stack.count - 1].text += String(decoding: bytes, as: UTF8.self)
    }

    private static func split(_ name: UnsafePointer<XML_Char>?) -> (namespace: String, name: String) {
        guard let name else { return ("", "") }
        let expanded = String(cString: name)
        guard let space = expanded.firstIndex(of: " ") else { return ("", expanded) }
        return (String(expanded[..<space]), String(expanded[expanded.index(after: space)...]))
    }
}
