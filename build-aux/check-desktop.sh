#!/usr/bin/env bash
# Checks Billfold's desktop integration end to end:
#   the GSettings schema (glib-compile-schemas --strict), every catalog (msgfmt --check), that
#   every tr/trn call can be extracted, the Flatpak manifest, an install into a temporary DESTDIR
#   checked file by file (desktop-file-validate and appstreamcli validate on what was installed),
#   an install into a temporary prefix with compiled schemas read back through gsettings, and
#   the installed binary's --version.
#
#   build-aux/check-desktop.sh [--bindir-source DIR]   (default: .build/release)
#
# Exits non-zero, naming each failure, if anything is wrong.
set -uo pipefail

app_id=io.github.billfold.Billfold
domain=billfold
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bindir_source=.build/release
while [ $# -gt 0 ]; do
    case "$1" in
        --bindir-source) bindir_source=${2:?--bindir-source needs a folder}; shift 2 ;;
        --bindir-source=*) bindir_source=${1#*=}; shift ;;
        -h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "check-desktop.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    esac
done

failures=()
passed=0
ok() { passed=$((passed + 1)); echo "  ok    $*"; }
bad() { failures+=("$*"); echo "  FAIL  $*" >&2; }
note() { echo "  note  $*"; }
section() { echo; echo "== $*"; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

section "Tools"
missing_tools=false
for pair in desktop-file-validate:desktop-file-utils appstreamcli:appstream \
            glib-compile-schemas:libglib2.0-bin gsettings:libglib2.0-bin msgfmt:gettext \
            xgettext:gettext msgunfmt:gettext gettext:gettext-base python3:python3; do
    tool=${pair%%:*}
    if command -v "$tool" >/dev/null; then ok "$tool"; else bad "$tool is missing (Debian package: ${pair#*:})"; missing_tools=true; fi
done
if $missing_tools; then
    echo "check-desktop: install the missing tools first" >&2
    exit 1
fi

version=$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' "data/$app_id.metainfo.xml.in" | head -n 1)
mapfile -t linguas < <(sed -e 's/#.*//' po/LINGUAS | tr -s ' \t' '\n' | sed '/^$/d')

section "GSettings schema"
if out=$(glib-compile-schemas --strict --dry-run data 2>&1) && [ -z "$out" ]; then
    ok "glib-compile-schemas --strict accepts data/$app_id.gschema.xml"
else
    bad "glib-compile-schemas --strict: ${out:-failed}"
fi

section "Translations"
mapfile -t catalogs < <(cd po && ls -1 *.po 2>/dev/null | sed 's/\.po$//' | LC_ALL=C sort)
if [ "$(printf '%s\n' "${catalogs[@]}" | LC_ALL=C sort)" = "$(printf '%s\n' "${linguas[@]}" | LC_ALL=C sort)" ]; then
    ok "po/LINGUAS lists exactly the catalogs: ${linguas[*]}"
else
    bad "po/LINGUAS (${linguas[*]}) does not match the po/*.po files (${catalogs[*]})"
fi
for lang in "${catalogs[@]}"; do
    if stats=$(msgfmt --check --statistics -o /dev/null "po/$lang.po" 2>&1); then
        ok "msgfmt --check po/$lang.po: $stats"
        case "$stats" in
            *untranslated* | *fuzzy*) note "po/$lang.po is incomplete; po/update-pot.sh --check lists the strings" ;;
        esac
    else
        bad "msgfmt --check po/$lang.po: $stats"
    fi
done
if out=$(po/check-extractable.sh 2>&1); then ok "$out"; else bad "untranslatable tr/trn calls:"; echo "$out" | sed 's/^/        /' >&2; fi
if out=$(po/test-check-extractable.sh 2>&1); then ok "${out##*$'\n'}"; else bad "po/test-check-extractable.sh:"; echo "$out" | sed 's/^/        /' >&2; fi

section "Flatpak manifest"
if out=$(python3 - "flatpak/$app_id.json" <<'PYTHON' 2>&1
import json, re, sys
path = sys.argv[1]
try:
    with open(path, encoding='utf-8') as f:
        m = json.load(f)
except (OSError, ValueError) as e:
    sys.exit(f'{path} is not valid JSON: {e}')
problems = []
def want(cond, message):
    if not cond:
        problems.append(message)
want(m.get('id') == 'io.github.billfold.Billfold', 'id must be io.github.billfold.Billfold')
want(m.get('command') == 'billfold', 'command must be billfold')
want(m.get('runtime') == 'org.gnome.Platform' and m.get('sdk') == 'org.gnome.Sdk', 'runtime/sdk must be org.gnome.Platform / org.gnome.Sdk')
want(re.fullmatch(r'\d+', str(m.get('runtime-version', ''))), 'runtime-version must be a GNOME release number')
want('org.freedesktop.Sdk.Extension.swift6' in m.get('sdk-extensions', []), 'sdk-extensions must include org.freedesktop.Sdk.Extension.swift6')
want('/usr/lib/sdk/swift6/bin' in m.get('build-options', {}).get('append-path', ''), 'build-options.append-path must include /usr/lib/sdk/swift6/bin')
args = m.get('finish-args', [])
for needed in ('--share=ipc', '--socket=wayland', '--socket=fallback-x11', '--device=dri'):
    want(needed in args, f'finish-args must include {needed}')
for arg in args:
    want(not arg.startswith('--filesystem'), f'finish-args must not grant file access ({arg}); use the portals')
    want(arg != '--share=network', 'finish-args must not grant network access')
    want(arg not in ('--socket=x11', '--device=all', '--socket=session-bus', '--socket=system-bus'), f'finish-args must not include {arg}')
modules = m.get('modules', [])
names = [mod.get('name') if isinstance(mod, dict) else mod for mod in modules]
want(names == ['libsodium', 'poppler', 'libqrencode', 'billfold'], f'modules must be libsodium, poppler, libqrencode, billfold in that order, not {names}')
for mod in modules:
    if not isinstance(mod, dict):
        continue
    for src in mod.get('sources', []):
        if isinstance(src, dict) and src.get('type') in ('archive', 'file'):
            want(str(src.get('url', '')).startswith('https://'), f"{mod['name']}: source url must be https")
            want(re.fullmatch(r'[0-9a-f]{64}', str(src.get('sha256', ''))), f"{mod['name']}: source needs a sha256")
        if isinstance(src, dict) and src.get('type') == 'git':
            want(src.get('tag') or src.get('commit'), f"{mod['name']}: git source needs a tag or commit")
byname = {mod.get('name'): mod for mod in modules if isinstance(mod, dict)}
opts = byname.get('poppler', {}).get('config-opts', [])
for off in ('QT5', 'QT6', 'CPP', 'UTILS', 'BOOST', 'NSS3', 'GPGME'):
    want(f'-DENABLE_{off}=OFF' in opts, f'poppler must be built with -DENABLE_{off}=OFF (GLib frontend only)')
want('-DENABLE_GLIB=OFF' not in opts, 'poppler must keep its GLib frontend')
qr = byname.get('libqrencode', {}).get('config-opts', [])
want('-DBUILD_SHARED_LIBS=ON' in qr and '-DWITH_TOOLS=OFF' in qr, 'libqrencode must be built as a shared library without its tools')
cmds = ' '.join(byname.get('billfold', {}).get('build-commands', []))
want('swift build -c release' in cmds and '--static-swift-stdlib' in cmds, 'billfold must build with swift build -c release --static-swift-stdlib')
want('build-aux/install.sh --prefix /app' in cmds, 'billfold must install with build-aux/install.sh --prefix /app')
if problems:
    sys.exit('\n'.join(problems))
print(f"runtime {m['runtime']}//{m['runtime-version']}, modules: {', '.join(names)}, finish-args: {' '.join(args)}")
PYTHON
); then
    ok "$out"
else
    bad "flatpak/$app_id.json:"; echo "$out" | sed 's/^/        /' >&2
fi

section "Install into a temporary DESTDIR"
stage=$work/stage
binary_built=false
case "$bindir_source" in /*) ;; *) bindir_source=$root/$bindir_source ;; esac
if [ -x "$bindir_source/billfold" ] && [ -x "$bindir_source/billfold-app" ]; then
    binary_built=true
    install_args=(--bindir-source "$bindir_source")
else
    note "no built binary at $bindir_source/billfold; checking the data alone (run 'swift build -c release' to check the binary too)"
    install_args=(--no-binary)
fi
if out=$(build-aux/install.sh --prefix /usr --destdir "$stage" "${install_args[@]}" 2>&1); then
    ok "$out"
else
    bad "build-aux/install.sh failed:"; echo "$out" | sed 's/^/        /' >&2
fi
share=$stage/usr/share

expected=(
    "usr/share/applications/$app_id.desktop"
    "usr/share/billfold/style.css"
    "usr/share/glib-2.0/schemas/$app_id.gschema.xml"
    "usr/share/icons/hicolor/scalable/apps/$app_id.svg"
    "usr/share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
    "usr/share/metainfo/$app_id.metainfo.xml"
)
for lang in "${linguas[@]}"; do expected+=("usr/share/locale/$lang/LC_MESSAGES/$domain.mo"); done
$binary_built && expected+=("usr/bin/billfold" "usr/bin/billfold-app")
printf '%s\n' "${expected[@]}" | LC_ALL=C sort > "$work/expected"
(cd "$stage" 2>/dev/null && find . \( -type f -o -type l \) | sed 's|^\./||' | LC_ALL=C sort) > "$work/actual"
if cmp -s "$work/expected" "$work/actual"; then
    ok "the staged tree holds exactly the ${#expected[@]} expected files and no compiled schemas"
else
    bad "the staged tree differs from what is expected (- missing, + unexpected):"
    diff "$work/expected" "$work/actual" | sed -n 's/^</        -/p; s/^>/        +/p' >&2
fi

check_mode() { # file mode
    local mode
    mode=$(stat -c %a "$1" 2>/dev/null) || return 1
    [ "$mode" = "$2" ]
}
for file in "${expected[@]}"; do
    path=$stage/$file
    [ -e "$path" ] || continue
    want_mode=644
    case "$file" in usr/bin/*) want_mode=755 ;; esac
    if [ -s "$path" ] && check_mode "$path" "$want_mode"; then ok "$file ($want_mode)"; else bad "$file is empty or not mode $want_mode"; fi
done

desktop=$share/applications/$app_id.desktop
if [ -f "$desktop" ]; then
    if out=$(desktop-file-validate "$desktop" 2>&1) && [ -z "$out" ]; then ok "desktop-file-validate"; else bad "desktop-file-validate: ${out:-failed}"; fi
    grep -qx "Icon=$app_id" "$desktop" && ok "the desktop file names the installed icon" || bad "the desktop file's Icon= is not $app_id"
    for lang in "${linguas[@]}"; do
        if grep -q "^Comment\[$lang\]=" "$desktop" && grep -q "^Keywords\[$lang\]=" "$desktop"; then
            ok "the desktop file carries the $lang translation"
        else
            bad "the desktop file has no Comment[$lang] or Keywords[$lang]: is po/$lang.po translated?"
        fi
    done
    grep -q '^# Translators' "$desktop" && bad "the installed desktop file still has translator comments"
fi

metainfo=$share/metainfo/$app_id.metainfo.xml
if [ -f "$metainfo" ]; then
    if out=$(appstreamcli validate --no-net "$metainfo" 2>&1); then
        ok "appstreamcli validate --no-net: $(tail -n 1 <<<"$out" | sed 's/^[^A-Za-z]*//')"
    else
        bad "appstreamcli validate --no-net:"; echo "$out" | sed 's/^/        /' >&2
    fi
    grep -q "<launchable type=\"desktop-id\">$app_id.desktop</launchable>" "$metainfo" &&
        ok "the metainfo launches $app_id.desktop" || bad "the metainfo's launchable is not $app_id.desktop"
    for lang in "${linguas[@]}"; do
        count=$(grep -c "xml:lang=\"$lang\"" "$metainfo")
        if [ "$count" -gt 0 ]; then ok "the metainfo carries $count $lang translations"; else bad "the metainfo has no $lang translation"; fi
    done
    while read -r url; do
        name=${url##*/}
        [ -f "data/screenshots/$name" ] || note "screenshot $name (for $url) is not in data/screenshots yet"
    done < <(sed -n 's:.*<image>\(.*\)</image>.*:\1:p' "data/$app_id.metainfo.xml.in")
fi

for pair in "glib-2.0/schemas/$app_id.gschema.xml:data/$app_id.gschema.xml" "billfold/style.css:data/style.css" \
            "icons/hicolor/scalable/apps/$app_id.svg:data/icons/hicolor/scalable/apps/$app_id.svg" \
            "icons/hicolor/symbolic/apps/$app_id-symbolic.svg:data/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"; do
    installed=$share/${pair%%:*}
    [ -f "$installed" ] || continue
    cmp -s "$installed" "${pair#*:}" && ok "${pair%%:*} is a copy of ${pair#*:}" || bad "${pair%%:*} differs from ${pair#*:}"
done

if out=$(python3 - "$share/icons/hicolor" "$app_id" <<'PYTHON' 2>&1
import sys, xml.etree.ElementTree as ET
base, app = sys.argv[1:3]
problems = []
for rel, size in ((f'scalable/apps/{app}.svg', '128'), (f'symbolic/apps/{app}-symbolic.svg', '16')):
    try:
        root = ET.parse(f'{base}/{rel}').getroot()
    except (OSError, ET.ParseError) as e:
        problems.append(f'{rel}: {e}')
        continue
    if root.tag != '{http://www.w3.org/2000/svg}svg':
        problems.append(f'{rel}: the root element is not an SVG')
    if root.get('viewBox') != f'0 0 {size} {size}':
        problems.append(f'{rel}: viewBox is {root.get("viewBox")}, expected 0 0 {size} {size}')
    if 'symbolic' in rel:
        for el in root.iter():
            fill = el.get('fill')
            if fill not in (None, 'none', '#2e3436', 'currentColor'):
                problems.append(f'{rel}: a symbolic icon is drawn in one colour, not {fill}')
if problems:
    sys.exit('\n'.join(problems))
print('both icons are well-formed SVG of the right size')
PYTHON
); then ok "$out"; else bad "icons:"; echo "$out" | sed 's/^/        /' >&2; fi

css=$share/billfold/style.css
if [ -f "$css" ]; then
    # Debian's python3 has GTK's introspection data when python3-gi and gir1.2-gtk-4.0 are installed.
    gi_python=python3
    [ -x /usr/bin/python3 ] && gi_python=/usr/bin/python3
    if "$gi_python" -c 'import gi; gi.require_version("Gtk", "4.0"); from gi.repository import Gtk' 2>/dev/null; then
        if out=$("$gi_python" - "$css" <<'PYTHON' 2>&1
import sys, gi
gi.require_version('Gtk', '4.0')
from gi.repository import Gtk
errors = []
provider = Gtk.CssProvider()
provider.connect('parsing-error', lambda _p, section, error: errors.append(f'{section.to_string()}: {error.message}'))
provider.load_from_path(sys.argv[1])
if errors:
    sys.exit('\n'.join(errors))
PYTHON
); then ok "GTK parses style.css without errors"; else bad "style.css:"; echo "$out" | sed 's/^/        /' >&2; fi
    else
        note "python3-gi with GTK 4 is not installed; style.css was not parsed"
    fi
fi

for lang in "${linguas[@]}"; do
    mo=$share/locale/$lang/LC_MESSAGES/$domain.mo
    [ -f "$mo" ] || continue
    in_mo=$(msgunfmt "$mo" 2>/dev/null | grep -c '^msgid ')
    in_po=$(msgattrib --translated --no-fuzzy --no-obsolete "po/$lang.po" 2>/dev/null | grep -c '^msgid ')
    if [ "$in_mo" = "$in_po" ]; then ok "$lang/$domain.mo holds the $((in_mo - 1)) translated strings of po/$lang.po"; else bad "$lang/$domain.mo holds $in_mo entries, po/$lang.po has $in_po"; fi
done

section "Install into a temporary prefix (schemas compiled)"
prefix=$work/prefix
if out=$(build-aux/install.sh --prefix "$prefix" --no-binary 2>&1); then
    ok "build-aux/install.sh --prefix <tmp>"
    schemas=$prefix/share/glib-2.0/schemas
    if [ -f "$schemas/gschemas.compiled" ]; then ok "gschemas.compiled was written"; else bad "no gschemas.compiled without DESTDIR"; fi
    for spec in window-width:i:1000 window-height:i:700 window-maximized:b:false last-page:s:"'invoices'" \
                disabled-plugins:as:"@as []" tipsplit-tip-percent:s:"'15'" tipsplit-currency:s:"''" \
                tipsplit-round-up:b:false; do
        key=${spec%%:*}; rest=${spec#*:}; type=${rest%%:*}; default=${rest#*:}
        got_type=$(GSETTINGS_SCHEMA_DIR=$schemas gsettings range "$app_id" "$key" 2>&1 | head -n 1)
        got_default=$(GSETTINGS_SCHEMA_DIR=$schemas GSETTINGS_BACKEND=memory gsettings get "$app_id" "$key" 2>&1)
        if [ "$got_type" = "type $type" ] && [ "$got_default" = "$default" ]; then
            ok "$key: $type = $default"
        else
            bad "$key: expected type $type = $default, got '$got_type' = '$got_default'"
        fi
    done
    if build-aux/install.sh --prefix "$prefix" --no-binary --uninstall >/dev/null 2>&1 &&
       [ -z "$(find "$prefix" -type f ! -name gschemas.compiled ! -name mimeinfo.cache ! -name icon-theme.cache)" ]; then
        ok "--uninstall removes every installed file"
    else
        bad "--uninstall left files behind: $(find "$prefix" -type f | sed "s|$prefix/||" | tr '\n' ' ')"
    fi
else
    bad "build-aux/install.sh --prefix <tmp> failed:"; echo "$out" | sed 's/^/        /' >&2
fi

section "Installed binary"
if $binary_built; then
    installed=$stage/usr/bin/billfold
    # --version must not need a display or a session bus.
    out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u DBUS_SESSION_BUS_ADDRESS timeout 30 "$installed" --version 2>&1)
    status=$?
    if [ "$status" -eq 0 ] && grep -q "$version" <<<"$out"; then
        ok "billfold --version: $out"
    else
        bad "billfold --version exited $status and printed '$out'; it must exit 0 and print the version $version from the metainfo"
    fi
    # Started through PATH from elsewhere, as the desktop file starts it, the binary must still
    # find its catalogs: --help's first line comes out in each language that translates it.
    english=$(cd / && env -u LANGUAGE LC_ALL=C.UTF-8 PATH="$stage/usr/bin:$PATH" billfold --help 2>&1 | head -n 1)
    for lang in "${linguas[@]}"; do
        wanted=$(TEXTDOMAINDIR=$share/locale LANGUAGE=$lang LC_ALL=C.UTF-8 gettext -d "$domain" "$english" 2>/dev/null)
        if [ -z "$english" ] || [ "$wanted" = "$english" ]; then
            note "po/$lang.po does not translate '$english'; the $lang run of --help was not checked"
            continue
        fi
        got=$(cd / && LANGUAGE=$lang LC_ALL=C.UTF-8 PATH="$stage/usr/bin:$PATH" billfold --help 2>&1 | head -n 1)
        if [ "$got" = "$wanted" ]; then
            ok "LANGUAGE=$lang billfold --help: $got"
        else
            bad "LANGUAGE=$lang billfold --help printed '$got', not the $lang translation '$wanted'"
        fi
    done
else
    note "skipped: no binary was built"
fi

echo
if [ ${#failures[@]} -eq 0 ]; then
    echo "check-desktop: $passed passed, 0 failed"
    exit 0
fi
echo "check-desktop: $passed passed, ${#failures[@]} failed" >&2
for f in "${failures[@]}"; do echo "  - ${f%%$'\n'*}" >&2; done
exit 1
