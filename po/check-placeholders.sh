#!/usr/bin/env bash
# Fails when a translation's format placeholders differ from its source string's.
#
#   po/check-placeholders.sh [CATALOG.po...]     (default: every catalog in po/LINGUAS)
#
# msgfmt --check only knows C's conversions, and xgettext does not mark most of our strings
# as c-format, so a lost or mistyped %@ would reach String(format:) unnoticed and shift every
# later argument. For each entry this compares the placeholders of the msgid (msgid_plural
# for msgstr[1] and up) with those of the msgstr: the same conversions, each argument used as
# often. Translations may reorder arguments with positional forms: "%@ of %@" may become
# "%2$@ … %1$@". "%%" is a literal percent sign; so is a "%" followed by a space, as in
# "0 % and 100 %", since no string of ours uses the space flag.
# It also checks mnemonics: a short label with one "_" (such as "_Open") keeps exactly one.
set -euo pipefail

cd "$(dirname "$0")/.."

if [ $# -eq 0 ]; then
    mapfile -t languages < <(sed -e 's/#.*//' po/LINGUAS | tr -s ' \t' '\n' | sed '/^$/d')
    set --
    for lang in "${languages[@]}"; do set -- "$@" "po/$lang.po"; done
fi

command -v python3 >/dev/null || { echo "check-placeholders.sh: python3 is missing" >&2; exit 1; }

exec python3 - "$@" <<'PYTHON'
import re
import sys

# printf conversions as Foundation's String(format:) reads them, %@ included; no space flag.
SPEC = re.compile(r"%(?:(%)|(?:(\d+)\$)?([-+#0']*)(\d+|\*)?(?:\.(\d+|\*))?(hh|h|ll|l|L|q|j|z|t)?([@dDiuUxXoOfFeEgGaAcCsSp]))")
MNEMONIC = re.compile(r"^[^_]*_[^_\s][^_]*$")


def unescape(text):
    out, i = [], 0
    escapes = {'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\\': '\\', 'a': '\a', 'b': '\b', 'f': '\f', 'v': '\v'}
    while i < len(text):
        c = text[i]
        if c == '\\' and i + 1 < len(text):
            out.append(escapes.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def entries(path):
    """Yields (line, msgid, msgid_plural, {index: msgstr}, flags) for every non-obsolete entry."""
    entry, key, flags, line = None, None, set(), 0

    def finish():
        if entry is not None and 'msgid' in entry:
            strs = {k: v for k, v in entry.items() if isinstance(k, int)}
            return (entry['line'], entry['msgid'], entry.get('msgid_plural'), strs, flags)
        return None

    with open(path, encoding='utf-8') as f:
        for number, raw in enumerate(f, 1):
            text = raw.rstrip('\n')
            if not text.strip():
                done = finish()
                if done:
                    yield done
                entry, key, flags = None, None, set()
                continue
            if text.startswith('#~'):
                continue  # obsolete
            if text.startswith('#,'):
                flags |= {flag.strip() for flag in text[2:].split(',')}
                continue
            if text.startswith('#'):
                continue
            m = re.match(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+"(.*)"\s*$', text)
            if m:
                if entry is None or (m.group(1) in ('msgctxt', 'msgid') and 'msgid' in entry):
                    done = finish()
                    if done:
                        yield done
                    entry, flags = {'line': number}, flags if entry is None else set()
                name = m.group(1)
                key = int(m.group(2)) if m.group(2) is not None else (0 if name == 'msgstr' else name)
                entry[key] = unescape(m.group(3))
                continue
            m = re.match(r'^\s*"(.*)"\s*$', text)
            if m and entry is not None and key is not None:
                entry[key] += unescape(m.group(1))
                continue
            raise SystemExit(f'{path}:{number}: cannot read this line: {text}')
    done = finish()
    if done:
        yield done


def placeholders(text):
    """The placeholders as a sorted list of (argument number, conversion), or an error string."""
    found, sequential, positional = [], 0, False
    for m in SPEC.finditer(text):
        if m.group(1):
            continue
        position, flags, width, precision, length, conversion = m.group(2, 3, 4, 5, 6, 7)
        if position:
            positional = True
            index = int(position)
        else:
            sequential += 1
            index = sequential
        found.append((index, (length or '') + conversion, m.group(0)))
    if positional and sequential:
        return 'mixes numbered (%1$@) and unnumbered (%@) placeholders'
    return sorted((index, conversion) for index, conversion, _ in found)


def describe(specs):
    return ', '.join(f'%{i}${c}' for i, c in specs) or 'none'


problems, checked = [], 0
for path in sys.argv[1:]:
    for line, msgid, plural, strs, flags in entries(path):
        if msgid == '' or 'fuzzy' in flags:
            continue  # the header; fuzzy entries are not used at run time
        for index, msgstr in sorted(strs.items()):
            if msgstr == '':
                continue  # untranslated: gettext falls back to the source
            checked += 1
            source = plural if (plural is not None and index > 0) else msgid
            want, got = placeholders(source), placeholders(msgstr)
            where = f'{path}:{line}: ' + (f'msgstr[{index}] ' if plural is not None else '')
            if isinstance(got, str):
                problems.append(f'{where}the translation {got}: {msgstr!r}')
            elif isinstance(want, str):
                problems.append(f'{where}the source {want}: {source!r}')
            elif want != got:
                problems.append(f'{where}placeholders {describe(got)} where the source has {describe(want)}\n'
                                f'    msgid:  {source!r}\n    msgstr: {msgstr!r}')
            if len(source) < 50 and MNEMONIC.match(source) and not MNEMONIC.match(msgstr):
                problems.append(f'{where}the label needs exactly one mnemonic "_" before a character: {msgstr!r} for {source!r}')

for problem in problems:
    print(problem)
if problems:
    print(f'{len(problems)} placeholder or mnemonic problem(s) in {len(sys.argv) - 1} catalog(s)', file=sys.stderr)
    sys.exit(1)
print(f'check-placeholders: {checked} translations in {len(sys.argv) - 1} catalog(s) keep their placeholders and mnemonics')
PYTHON
