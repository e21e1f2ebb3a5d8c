#!/usr/bin/env bash
# Fails on any tr( / trn( call that xgettext cannot extract, listing file:line and the reason.
#
#   po/check-extractable.sh [FILE_OR_DIR...]     (default: Sources)
#
# xgettext reads Swift as C (-L C --keyword=tr --keyword=trn:1,2), so each message must be one
# plain single-line "..." literal: no \( interpolation, no """ multi-line or #"raw"# literal,
# no + concatenation, no Swift-only escape such as \u{...}, and never a variable. Put values
# in with String(format: tr("Page %d of %d"), page, count) instead.
set -euo pipefail

cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- Sources

command -v python3 >/dev/null || { echo "check-extractable.sh: python3 is missing" >&2; exit 1; }

exec python3 - "$@" <<'PYTHON'
import os
import sys

# Escapes that mean the same in Swift and in C.
C_ESCAPES = set('0\\tnr"\'')


class Literal:
    def __init__(self, line, end_line, multiline, raw, interpolated, bad_escapes):
        self.line, self.end_line = line, end_line
        self.multiline, self.raw = multiline, raw
        self.interpolated, self.bad_escapes = interpolated, bad_escapes


class Lexer:
    """Just enough of Swift's lexical grammar to find calls and tell literals apart:
    comments (nested block comments too), string literals of every kind with their
    interpolations, identifiers and punctuation."""

    def __init__(self, text):
        self.s, self.i, self.line = text, 0, 1
        self.tokens = []  # (kind, value, line)
        self.nested = []  # the token lists of interpolations, each checked on its own

    def peek(self, k=0):
        j = self.i + k
        return self.s[j] if j < len(self.s) else ''

    def advance(self, n=1):
        for _ in range(n):
            if self.i < len(self.s):
                if self.s[self.i] == '\n':
                    self.line += 1
                self.i += 1

    def run(self):
        self.code(stop_at_paren=False)
        return [self.tokens] + self.nested

    def code(self, stop_at_paren):
        depth = 0
        while self.i < len(self.s):
            c = self.peek()
            if c == '/' and self.peek(1) == '/':
                while self.i < len(self.s) and self.peek() != '\n':
                    self.advance()
            elif c == '/' and self.peek(1) == '*':
                self.block_comment()
            elif c == '#' and self.raw_string_ahead():
                self.string()
            elif c == '"':
                self.string()
            elif c.isalpha() or c == '_':
                start, line = self.i, self.line
                while self.i < len(self.s) and (self.peek().isalnum() or self.peek() == '_'):
                    self.advance()
                self.tokens.append(('ident', self.s[start:self.i], line))
            elif c == '`':
                start, line = self.i, self.line
                self.advance()
                while self.i < len(self.s) and self.peek() not in '`\n':
                    self.advance()
                self.advance()
                self.tokens.append(('ident', self.s[start + 1:self.i - 1], line))
            elif c.isspace():
                self.advance()
            else:
                if stop_at_paren:
                    if c == '(':
                        depth += 1
                    elif c == ')':
                        if depth == 0:
                            self.advance()
                            return
                        depth -= 1
                self.tokens.append(('punct', c, self.line))
                self.advance()

    def block_comment(self):
        depth = 0
        while self.i < len(self.s):
            if self.peek() == '/' and self.peek(1) == '*':
                depth += 1
                self.advance(2)
            elif self.peek() == '*' and self.peek(1) == '/':
                depth -= 1
                self.advance(2)
                if depth == 0:
                    return
            else:
                self.advance()

    def raw_string_ahead(self):
        j = self.i
        while j < len(self.s) and self.s[j] == '#':
            j += 1
        return j < len(self.s) and self.s[j] == '"'

    def string(self):
        line = self.line
        hashes = 0
        while self.peek() == '#':
            hashes += 1
            self.advance()
        multiline = self.s.startswith('"""', self.i)
        self.advance(3 if multiline else 1)
        closing = ('"""' if multiline else '"') + '#' * hashes
        escape = '\\' + '#' * hashes
        interpolated, bad_escapes = False, []
        # Interpolations are lexed as code, so a call inside one is checked too; their tokens
        # go to a list of their own so they do not look like arguments of the outer call.
        outer = self.tokens
        while self.i < len(self.s):
            if self.s.startswith(closing, self.i):
                self.advance(len(closing))
                break
            if not multiline and self.peek() == '\n':
                break  # unterminated: the compiler reports it
            if self.s.startswith(escape, self.i):
                self.advance(len(escape))
                c = self.peek()
                if c == '(':
                    interpolated = True
                    self.advance()
                    self.tokens = []
                    self.code(stop_at_paren=True)
                    self.nested.append(self.tokens)
                    self.tokens = outer
                    continue
                if c not in C_ESCAPES:
                    bad_escapes.append('\\' + (self.s[self.i:self.s.find('}', self.i) + 1] if c == 'u' else c))
                self.advance()
                continue
            self.advance()
        lit = Literal(line, self.line, multiline, hashes > 0, interpolated, bad_escapes)
        self.tokens.append(('string', lit, line))


def literal_problem(tok):
    kind, value, _ = tok
    if kind != 'string':
        return 'the message is not a string literal'
    if value.multiline:
        return 'the message is a multi-line """ literal'
    if value.raw:
        return 'the message is a raw #"..."# literal'
    if value.interpolated:
        return 'the message contains \\( interpolation; use String(format:) with %@ or %d'
    if value.bad_escapes:
        return 'the message uses the escape ' + value.bad_escapes[0] + ', which C does not have; write the character itself'
    return None


def check_call(stream, k):
    """stream[k] is the name, stream[k+1] is '('. Returns a reason or None."""
    name = stream[k][1]
    args = stream[k + 2:]
    expected = ['msg', ')'] if name == 'tr' else ['msg', ',', 'msg', ',']
    for n, want in enumerate(expected):
        if n >= len(args):
            return 'the call is incomplete'
        tok = args[n]
        if want == 'msg':
            problem = literal_problem(tok)
            if problem:
                return problem
        elif tok != ('punct', want, tok[2]):
            if tok[0] == 'punct' and tok[1] == '+':
                return 'the message is built with +; write one literal'
            if tok[0] == 'string':
                return 'the message is split over adjacent literals; write one literal'
            return 'the message is not a plain string literal'
    return None


def check_file(path):
    with open(path, encoding='utf-8') as f:
        streams = Lexer(f.read()).run()
    problems = []
    for index, stream in enumerate(streams):
        for k, (kind, value, line) in enumerate(stream):
            if kind != 'ident' or value not in ('tr', 'trn'):
                continue
            if k + 1 >= len(stream) or stream[k + 1][:2] != ('punct', '('):
                continue
            previous = stream[k - 1] if k > 0 else None
            if previous and (previous[:2] == ('punct', '.') or previous[:2] == ('ident', 'func')):
                continue  # a method of another type, or the definition itself
            # xgettext reads a whole "...\(...)..." as one C string, so it never sees a call inside.
            reason = check_call(stream, k) if index == 0 else \
                'the call is inside a string interpolation, where xgettext cannot see it; move it out'
            if reason:
                problems.append((line, f'{value}(...): {reason}'))
    return [(path, line, msg) for line, msg in sorted(problems)]


def swift_files(arguments):
    for arg in arguments:
        if os.path.isdir(arg):
            for folder, dirs, files in os.walk(arg):
                dirs.sort()
                for name in sorted(files):
                    if name.endswith('.swift'):
                        yield os.path.join(folder, name)
        elif os.path.isfile(arg):
            yield arg
        else:
            print(f'check-extractable.sh: no such file or folder: {arg}', file=sys.stderr)
            sys.exit(2)


checked, problems = 0, []
for path in swift_files(sys.argv[1:]):
    checked += 1
    problems.extend(check_file(path))
for path, line, msg in problems:
    print(f'{path}:{line}: {msg}')
if problems:
    print(f'{len(problems)} translatable string(s) that xgettext cannot extract, in {checked} Swift file(s)', file=sys.stderr)
    sys.exit(1)
print(f'check-extractable: every tr/trn call in {checked} Swift file(s) is extractable')
PYTHON
