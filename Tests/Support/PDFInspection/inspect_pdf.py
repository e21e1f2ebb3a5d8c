#!/usr/bin/env python3
"""inspect_pdf.py FILE.pdf: prints what a PDF/A-3 check needs to know about FILE as JSON.

Reads the file with pikepdf (qpdf underneath), independently of the code that wrote it:
qpdf's structural check, the trailer's /ID, the XMP packet's properties, the output intents
and their ICC profiles, the associated files, and every font the pages use with whether its
program is embedded.
"""
import json
import re
import sys

import pikepdf
from pikepdf import Name


def text(value):
    return str(value) if value is not None else None


def fonts_in(resources, seen, found):
    if resources is None:
        return
    for font in (resources.get("/Font") or {}).values():
        if font.objgen in seen:
            continue
        seen.add(font.objgen)
        subtype = str(font.get("/Subtype"))
        descriptor = font.get("/FontDescriptor")
        cid_to_gid = None
        if subtype == "/Type0":
            descendant = font["/DescendantFonts"][0]
            descriptor = descendant.get("/FontDescriptor")
            subtype += "+" + str(descendant.get("/Subtype"))
            cid_to_gid = text(descendant.get("/CIDToGIDMap"))
        embedded = subtype == "/Type3" or (
            descriptor is not None and any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")))
        found.append({"name": text(font.get("/BaseFont")), "subtype": subtype, "embedded": embedded,
                      "cid_to_gid_map": cid_to_gid})
        if subtype == "/Type3":
            fonts_in(font.get("/Resources"), seen, found)
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        if xobject.get("/Subtype") == Name.Form:
            fonts_in(xobject.get("/Resources"), seen, found)


def icc_summary(stream):
    data = stream.read_bytes()
    return {"N": int(stream.get("/N", 0)), "size": len(data), "declared_size": int.from_bytes(data[0:4], "big"),
            "signature": data[36:40].decode("latin1"), "class": data[12:16].decode("latin1"),
            "space": data[16:20].decode("latin1"), "version": data[8]}


def main(path):
    result = {}
    with pikepdf.open(path) as pdf:
        result["check"] = [str(problem) for problem in pdf.check_pdf_syntax()]
        result["version"] = pdf.pdf_version
        result["id"] = [bytes(part).hex() for part in pdf.trailer.get("/ID", [])]
        result["encrypted"] = pdf.is_encrypted
        root = pdf.Root
        metadata = root.get("/Metadata")
        result["metadata_filtered"] = metadata is not None and "/Filter" in metadata
        packet = metadata.read_bytes().decode("utf-8") if metadata is not None else ""
        # pikepdf names properties {namespace}name; the packet's own prefixes are easier to read.
        prefixes = {uri: prefix for prefix, uri in re.findall(r'xmlns:(\w+)="([^"]+)"', packet)}
        xmp = {}
        with pdf.open_metadata(set_pikepdf_as_editor=False, update_docinfo=False) as meta:
            for key in meta:
                value = meta[key]
                uri, _, local = key[1:].partition("}")
                key = prefixes.get(uri, uri) + ":" + local
                xmp[key] = value if isinstance(value, str) else (list(value) if value is not None else None)
        result["xmp"] = {key: (value if isinstance(value, (str, list)) else str(value)) for key, value in xmp.items()}
        result["xmp_packet"] = packet
        info = pdf.trailer.get("/Info")
        result["info"] = {str(k)[1:]: str(v) for k, v in info.items()} if info is not None else {}
        intents = []
        for intent in root.get("/OutputIntents", []):
            profile = intent.get("/DestOutputProfile")
            intents.append({"S": text(intent.get("/S")), "identifier": text(intent.get("/OutputConditionIdentifier")),
                            "profile": icc_summary(profile) if profile is not None else None})
        result["output_intents"] = intents
        files = []
        for spec in root.get("/AF", []):
            stream = spec["/EF"]["/F"]
            params = stream.get("/Params", {})
            contents = stream.read_bytes()
            files.append({
                "F": text(spec.get("/F")), "UF": text(spec.get("/UF")),
                "relationship": text(spec.get("/AFRelationship")), "subtype": text(stream.get("/Subtype")),
                "size": int(params["/Size"]) if "/Size" in params else None,
                "checksum": bytes(params["/CheckSum"]).hex() if "/CheckSum" in params else None,
                "creation_date": text(params.get("/CreationDate")), "mod_date": text(params.get("/ModDate")),
                "contents": contents.decode("utf-8", "replace"), "actual_size": len(contents),
            })
        result["associated_files"] = files
        names = root.get("/Names", {}).get("/EmbeddedFiles", {}).get("/Names", [])
        result["embedded_file_names"] = [str(names[i]) for i in range(0, len(names), 2)]
        found, seen = [], set()
        for page in pdf.pages:
            fonts_in(page.obj.get("/Resources"), seen, found)
        result["fonts"] = found
        result["interpolated_images"] = sum(
            1 for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and obj.get("/Subtype") == Name.Image
            and bool(obj.get("/Interpolate", False)))
        result["page_count"] = len(pdf.pages)
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1])
