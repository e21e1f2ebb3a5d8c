#!/usr/bin/env bash
# Tests po/check-extractable.sh on sample sources: every good call passes and xgettext really
# extracts it; every bad call is reported at its line. Prints "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

cat > "$work/Good.swift" <<'SWIFT'
import BillfoldCore

// tr(notALiteral) in a comment is not code.
/* a block /* with a nested one */ tr(neither) */
func tr(_ msgid: String) -> String { msgid }
struct Labels {
    let title = tr("Invoices")
    let quoted = tr("Say \"hello\"\tand\\go")
    let pages = String(format: tr("Page %d of %d"), 1, 2)
    let spread = tr(
        "Spread over lines is fine"
    )
    let plural = String(format: trn("%d invoice", "%d invoices", count), count)
    let unicode = tr("Billfold follows the system’s dark style")
    let total = tr("Total")
    let shown = "Total: \(total)"
    let method = formatter.tr(someVariable)
    let text = "tr(inside a string)"
    let multi = """
        tr(inside a multi-line string) and a "quote"
        """
    let last = tr("After a multi-line string")
}
SWIFT

cat > "$work/Bad.swift" <<'SWIFT'
struct Bad {
    let a = tr("Hello \(name)")
    let b = tr(title)
    let c = tr("""
        Two lines
        """)
    let d = tr(#"Raw \d"#)
    let e = tr("Hello " + "world")
    let f = trn("%d trip", plural, n)
    let g = trn("\(n) trip", "%d trips", n)
    let h = tr("Caf\u{00E9}")
    let i = "Outer \(tr("Inner"))"
    let j = tr("Adjacent" "literals")
    let k = tr(String(localized: "x"))
}
SWIFT

# Good calls: the check passes and xgettext finds every message.
if out=$("$here/check-extractable.sh" "$work/Good.swift" 2>&1); then pass; else fail "good sample was rejected: $out"; fi
# Its warnings about the """ literal are expected: C has no such literal.
xgettext -L C -k --keyword=tr --keyword=trn:1,2 --from-code=UTF-8 -o "$work/good.pot" "$work/Good.swift" 2>/dev/null
for msgid in 'Invoices' 'Say \"hello\"\tand\\go' 'Page %d of %d' 'Spread over lines is fine' '%d invoice' \
             'Billfold follows the system’s dark style' 'Total' 'After a multi-line string'; do
    if grep -qxF "msgid \"$msgid\"" "$work/good.pot"; then pass; else fail "xgettext did not extract \"$msgid\""; fi
done
if grep -q 'inside a' "$work/good.pot"; then fail "xgettext extracted text from a string or comment"; else pass; fi

# Bad calls: the check fails and names each one.
if out=$("$here/check-extractable.sh" "$work/Bad.swift" 2>/dev/null); then fail "bad sample was accepted"; else pass; fi
expected="2 3 4 7 8 9 10 11 12 13 14"
actual=$(sed -n 's/^[^:]*Bad\.swift:\([0-9]*\):.*/\1/p' <<<"$out" | tr '\n' ' ' | sed 's/ $//')
if [ "$actual" = "$expected" ]; then pass; else fail "bad lines reported: '$actual', expected '$expected'"; fi
for reason in 'interpolation' 'not a string literal' 'multi-line' 'raw' 'built with +' '\u{00E9}' \
              'inside a string interpolation' 'adjacent literals'; do
    if grep -qF "$reason" <<<"$out"; then pass; else fail "no report mentions '$reason'"; fi
done

echo "check-extractable: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
