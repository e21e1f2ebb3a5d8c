#!/usr/bin/env bash
# Tests po/check-placeholders.sh on sample catalogs: a catalog whose translations keep their
# placeholders passes, and each kind of mismatch fails and is reported at its entry.
# Prints "N passed, N failed".
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }

header='msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
'

cat > "$work/good.po" <<PO
$header
msgid "Page %d of %d"
msgstr "Seite %d von %d"

msgid "%@ or %@"
msgstr "%2\$@ oder %1\$@"

msgid "Between 0 % and 100 %."
msgstr "Zwischen 0 % und 100 %."

msgid "%d%%"
msgstr "%d %%"

msgid "Saved %@ (%d page)"
msgid_plural "Saved %@ (%d pages)"
msgstr[0] "%@ gespeichert (%d Seite)"
msgstr[1] "%@ gespeichert "
"(%d Seiten)"

msgid "C_hoose File…"
msgstr "Datei _wählen …"

msgid "Not translated yet: %@"
msgstr ""

#, fuzzy
msgid "Fuzzy entries are not used: %@"
msgstr "Unscharf"

#~ msgid "Obsolete %@"
#~ msgstr "Veraltet"
PO

if output=$("$here/check-placeholders.sh" "$work/good.po" 2>&1); then pass; else fail "good.po was refused: $output"; fi

# Each bad catalog: its translation, and the words the report must contain.
check_bad() {
    local name=$1 msgid=$2 msgstr=$3 expected=$4
    printf '%s\nmsgid "%s"\nmsgstr "%s"\n' "$header" "$msgid" "$msgstr" > "$work/$name.po"
    local output
    if output=$("$here/check-placeholders.sh" "$work/$name.po" 2>&1); then
        fail "$name: passed although it should fail"
    elif ! grep -qF -- "$expected" <<<"$output"; then
        fail "$name: the report lacks '$expected': $output"
    elif ! grep -qF "$name.po:" <<<"$output"; then
        fail "$name: the report names no entry: $output"
    else
        pass
    fi
}

check_bad lost '%@ or %@' '%@ oder' 'placeholders %1$@ where the source has %1$@, %2$@'
check_bad added 'Page %d' 'Seite %d von %d' 'placeholders %1$d, %2$d where the source has %1$d'
check_bad changed 'Page %d of %d' 'Seite %d von %@' 'placeholders %1$d, %2$@ where the source has %1$d, %2$d'
check_bad typo 'Saved %@' 'Gespeichert: %' 'placeholders none where the source has %1$@'
check_bad renumbered '%@ or %@' '%1$@ oder %1$@' 'placeholders %1$@, %1$@ where the source has %1$@, %2$@'
check_bad mixed '%@ or %@' '%2$@ oder %@' 'mixes numbered'
check_bad mnemonic '_Open' 'Öffnen' 'exactly one mnemonic'
check_bad two-mnemonics '_Open' '_Öff_nen' 'exactly one mnemonic'

# A plural form is checked against msgid_plural, each form on its own.
printf '%s\nmsgid "%%d page"\nmsgid_plural "%%d pages"\nmsgstr[0] "%%d Seite"\nmsgstr[1] "Seiten"\n' "$header" > "$work/plural.po"
if output=$("$here/check-placeholders.sh" "$work/plural.po" 2>&1); then
    fail "plural.po: passed although msgstr[1] lost its %d"
elif grep -qF 'msgstr[1] placeholders none' <<<"$output"; then pass; else fail "plural.po: $output"; fi

echo "test-check-placeholders: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
