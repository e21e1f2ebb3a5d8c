import Foundation

/// A schema outside the ones PDF/A predefines, described in the packet itself as PDF/A
/// requires (ISO 19005-2, 6.6.2.3): its properties, their types, and their values.
public struct XMPExtensionSchema: Sendable, Hashable {
    public struct Property: Sendable, Hashable {
        public var name: String
        public var value: String
        public var description: String
        /// An XMP value type; "Text" for a plain string.
        public var valueType: String
        /// "external" for a value that says something about the document, "internal" otherwise.
        public var category: String

        public init(name: String, value: String, description: String, valueType: String = "Text",
                    category: String = "external") {
            self.name = name
            self.value = value
            self.description = description
            self.valueType = valueType
            self.category = category
        }
    }

    /// A human-readable name of the schema.
    public var name: String
    public var namespaceURI: String
    public var prefix: String
    public var properties: [Property]

    public init(name: String, namespaceURI: String, prefix: String, properties: [Property]) {
        self.name = name
        self.namespaceURI = namespaceURI
        self.prefix = prefix
        self.properties = properties
    }
}

/// The XMP metadata packet of a PDF/A-3b file: the same facts as the document information
/// dictionary (PDF/A requires the two to agree), the PDF/A identification and any extension.
struct XMPPacket {
    let info: PDFArchiveInfo
    let extensions: [XMPExtensionSchema]

    var bytes: [UInt8] {
        Array(text.utf8)
    }

    var text: String {
        let created = PDFSyntax.xmpDate(info.creationDate, timeZone: info.timeZone)
        let modified = PDFSyntax.xmpDate(info.modificationDate, timeZone: info.timeZone)
        var lines = [
            // PDF/A forbids the bytes and encoding attributes here.
            "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>",
            "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">",
            "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">",
            "<rdf:Description rdf:about=\"\" xmlns:pdfaid=\"http://www.aiim.org/pdfa/ns/id/\">",
            "<pdfaid:part>3</pdfaid:part>",
            "<pdfaid:conformance>B</pdfaid:conformance>",
            "</rdf:Description>",
            "<rdf:Description rdf:about=\"\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">",
            "<dc:format>application/pdf</dc:format>",
        ]
        if !info.title.isEmpty { lines.append("<dc:title>" + alternative(info.title) + "</dc:title>") }
        if !info.author.isEmpty {
            lines.append("<dc:creator><rdf:Seq><rdf:li>" + escaped(info.author) + "</rdf:li></rdf:Seq></dc:creator>")
        }
        if !info.subject.isEmpty { lines.append("<dc:description>" + alternative(info.subject) + "</dc:description>") }
        lines += [
            "</rdf:Description>",
            "<rdf:Description rdf:about=\"\" xmlns:pdf=\"http://ns.adobe.com/pdf/1.3/\">",
            "<pdf:Producer>" + escaped(info.producer) + "</pdf:Producer>",
        ]
        if !info.keywords.isEmpty { lines.append("<pdf:Keywords>" + escaped(info.keywords) + "</pdf:Keywords>") }
        lines += [
            "</rdf:Description>",
            "<rdf:Description rdf:about=\"\" xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\">",
        ]
        if !info.creator.isEmpty { lines.append("<xmp:CreatorTool>" + escaped(info.creator) + "</xmp:CreatorTool>") }
        lines += [
            "<xmp:CreateDate>\(created)</xmp:CreateDate>",
            "<xmp:ModifyDate>\(modified)</xmp:ModifyDate>",
            "<xmp:MetadataDate>\(modified)</xmp:MetadataDate>",
            "</rdf:Description>",
        ]
        if !extensions.isEmpty { lines += extensionDescriptions() }
        for schema in extensions {
            lines.append("<rdf:Description rdf:about=\"\" xmlns:\(schema.prefix)=\"\(escaped(schema.namespaceURI))\">")
            for property in schema.properties {
                let tag = schema.prefix + ":" + property.name
                lines.append("<\(tag)>" + escaped(property.value) + "</\(tag)>")
            }
            lines.append("</rdf:Description>")
        }
        lines += ["</rdf:RDF>", "</x:xmpmeta>"]
        // Room for editors to grow the packet in place, as XMP recommends.
        lines += Array(repeating: String(repeating: " ", count: 99), count: 20)
        lines.append("<?xpacket end=\"w\"?>")
        return lines.joined(separator: "\n")
    }

    /// The PDF/A extension schema container that describes each extension's properties.
    private func extensionDescriptions() -> [String] {
        var lines = [
            "<rdf:Description rdf:about=\"\" xmlns:pdfaExtension=\"http://www.aiim.org/pdfa/ns/extension/\""
                + " xmlns:pdfaSchema=\"http://www.aiim.org/pdfa/ns/schema#\""
                + " xmlns:pdfaProperty=\"http://www.aiim.org/pdfa/ns/property#\">",
            "<pdfaExtension:schemas>",
            "<rdf:Bag>",
        ]
        for schema in extensions {
            lines += [
                "<rdf:li rdf:parseType=\"Resource\">",
                "<pdfaSchema:schema>" + escaped(schema.name) + "</pdfaSchema:schema>",
                "<pdfaSchema:namespaceURI>" + escaped(schema.namespaceURI) + "</pdfaSchema:namespaceURI>",
                "<pdfaSchema:prefix>" + escaped(schema.prefix) + "</pdfaSchema:prefix>",
                "<pdfaSchema:property>",
                "<rdf:Seq>",
            ]
            for property in schema.properties {
                lines += [
                    "<rdf:li rdf:parseType=\"Resource\">",
                    "<pdfaProperty:name>" + escaped(property.name) + "</pdfaProperty:name>",
                    "<pdfaProperty:valueType>" + escaped(property.valueType) + "</pdfaProperty:valueType>",
                    "<pdfaProperty:category>" + escaped(property.category) + "</pdfaProperty:category>",
                    "<pdfaProperty:description>" + escaped(property.description) + "</pdfaProperty:description>",
                    "</rdf:li>",
                ]
            }
            lines += ["</rdf:Seq>", "</pdfaSchema:property>", "</rdf:li>"]
        }
        lines += ["</rdf:Bag>", "</pdfaExtension:schemas>", "</rdf:Description>"]
        return lines
    }

    private func alternative(_ value: String) -> String {
        "<rdf:Alt><rdf:li xml:lang=\"x-default\">" + escaped(value) + "</rdf:li></rdf:Alt>"
    }

    private func escaped(_ value: String) -> String {
        var result = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            // XML 1.0 has no way to write other control characters.
            case _ where scalar.value < 0x20 && scalar != "\n" && scalar != "\t": result += " "
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
