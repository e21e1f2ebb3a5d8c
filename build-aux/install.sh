#!/usr/bin/env bash
# Installs Billfold into a prefix: the binary, the desktop file and AppStream metainfo (with their
# translations merged in), the icons, the GSettings schema, the compiled translations and the CSS.
# A local install and the Flatpak manifest both use it.
#
#   build-aux/install.sh [options]
#
#   --prefix DIR           where the app lives (default: $PREFIX, else /usr/local)
#   --destdir DIR          stage the files under DIR instead of / (default: $DESTDIR)
#   --bindir-source DIR    where the built `billfold` is (default: .build/release)
#   --no-binary            install everything but the binary (for checking the data alone)
#   --no-compile-schemas   leave compiling the GSettings schemas to the packager
#   --uninstall            remove what an install with the same prefix put there
#   -h, --help             show this help
#
# As packagers expect, a staged install (DESTDIR set) does not compile the schemas nor refresh
# the icon and desktop caches: the package's own triggers do that on the target system.
set -euo pipefail

app_id=io.github.billfold.Billfold
domain=billfold
root=$(cd "$(dirname "$0")/.." && pwd)

prefix=${PREFIX:-/usr/local}
destdir=${DESTDIR:-}
bindir_source=.build/release
install_binary=true
compile_schemas=true
uninstall=false

fail() { echo "install.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) [ $# -ge 2 ] || fail "--prefix needs a folder"; prefix=$2; shift 2 ;;
        --prefix=*) prefix=${1#*=}; shift ;;
        --destdir) [ $# -ge 2 ] || fail "--destdir needs a folder"; destdir=$2; shift 2 ;;
        --destdir=*) destdir=${1#*=}; shift ;;
        --bindir-source) [ $# -ge 2 ] || fail "--bindir-source needs a folder"; bindir_source=$2; shift 2 ;;
        --bindir-source=*) bindir_source=${1#*=}; shift ;;
        --no-binary) install_binary=false; shift ;;
        --no-compile-schemas) compile_schemas=false; shift ;;
        --uninstall) uninstall=true; shift ;;
        -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) fail "unknown option '$1' (try --help)" ;;
    esac
done

case "$prefix" in
    /*) ;;
    *) fail "--prefix must be an absolute path, not '$prefix'" ;;
esac
prefix=${prefix%/}
[ -n "$prefix" ] || fail "--prefix must not be /"
if [ -n "$destdir" ]; then
    mkdir -p "$destdir"
    destdir=$(cd "$destdir" && pwd)
fi
case "$bindir_source" in
    /*) ;;
    *) bindir_source=$root/$bindir_source ;;
esac

target=$destdir$prefix
share=$target/share

# The catalogs are the po/*.po files; LINGUAS says which msgfmt merges into the desktop file
# and the metainfo, so the two must agree.
languages=()
for po in "$root"/po/*.po; do
    [ -e "$po" ] || continue
    lang=$(basename "$po" .po)
    grep -qxF "$lang" <(sed -e 's/#.*//' "$root/po/LINGUAS" | tr -s ' \t' '\n') ||
        fail "po/$lang.po exists but '$lang' is not in po/LINGUAS"
    languages+=("$lang")
done

files=(
    "$share/applications/$app_id.desktop"
    "$share/metainfo/$app_id.metainfo.xml"
    "$share/icons/hicolor/scalable/apps/$app_id.svg"
    "$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
    "$share/glib-2.0/schemas/$app_id.gschema.xml"
    "$share/$domain/style.css"
)
for lang in "${languages[@]}"; do
    files+=("$share/locale/$lang/LC_MESSAGES/$domain.mo")
done
$install_binary && files=("$target/bin/billfold" "$target/bin/billfold-app" "${files[@]}")

refresh_caches() {
    [ -z "$destdir" ] || return 0
    if $compile_schemas; then
        command -v glib-compile-schemas >/dev/null || fail "glib-compile-schemas is missing (Debian: libglib2.0-bin)"
        glib-compile-schemas "$share/glib-2.0/schemas"
        echo "compiled the GSettings schemas in $share/glib-2.0/schemas"
    fi
    if command -v gtk4-update-icon-cache >/dev/null && [ -f "$share/icons/hicolor/index.theme" ]; then
        gtk4-update-icon-cache -q -t -f "$share/icons/hicolor" || true
    fi
    if command -v update-desktop-database >/dev/null; then
        update-desktop-database -q "$share/applications" || true
    fi
}

if $uninstall; then
    for file in "${files[@]}"; do
        if [ -e "$file" ]; then
            rm -f "$file"
            echo "removed $file"
        fi
    done
    rmdir "$share/$domain" 2>/dev/null || true
    refresh_caches
    exit 0
fi

for tool in msgfmt install; do
    command -v "$tool" >/dev/null || fail "'$tool' is missing (Debian: gettext, coreutils)"
done
if $install_binary; then
    for binary in billfold billfold-app; do
        [ -x "$bindir_source/$binary" ] ||
            fail "no built binary at $bindir_source/$binary; run 'swift build -c release' first or pass --bindir-source"
    done
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# msgfmt merges the translations of the translatable keys into the desktop file and metainfo.
msgfmt --desktop -d "$root/po" --template "$root/data/$app_id.desktop.in" -o "$work/$app_id.desktop" ||
    fail "could not merge the translations into the desktop file"
msgfmt --xml -d "$root/po" --template "$root/data/$app_id.metainfo.xml.in" -o "$work/$app_id.metainfo.xml" ||
    fail "could not merge the translations into the metainfo"
# msgfmt --desktop keeps the template's comments, which only speak to translators.
sed -i '/^# Translators:/d' "$work/$app_id.desktop"

if $install_binary; then
    # The command line, and the window it starts (which the desktop file starts directly).
    install -D -m 0755 "$bindir_source/billfold" "$target/bin/billfold"
    install -D -m 0755 "$bindir_source/billfold-app" "$target/bin/billfold-app"
fi
install -D -m 0644 "$work/$app_id.desktop" "$share/applications/$app_id.desktop"
install -D -m 0644 "$work/$app_id.metainfo.xml" "$share/metainfo/$app_id.metainfo.xml"
install -D -m 0644 "$root/data/icons/hicolor/scalable/apps/$app_id.svg" \
    "$share/icons/hicolor/scalable/apps/$app_id.svg"
install -D -m 0644 "$root/data/icons/hicolor/symbolic/apps/$app_id-symbolic.svg" \
    "$share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
install -D -m 0644 "$root/data/$app_id.gschema.xml" "$share/glib-2.0/schemas/$app_id.gschema.xml"
install -D -m 0644 "$root/data/style.css" "$share/$domain/style.css"
for lang in "${languages[@]}"; do
    mkdir -p "$share/locale/$lang/LC_MESSAGES"
    msgfmt --check -o "$share/locale/$lang/LC_MESSAGES/$domain.mo" "$root/po/$lang.po" ||
        fail "po/$lang.po does not compile"
done

refresh_caches
echo "installed Billfold into ${destdir:+$destdir}$prefix (${#files[@]} files)"
