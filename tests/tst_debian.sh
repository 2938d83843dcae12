#!/usr/bin/env bash
# tst_debian: the Debian packages as a distribution would build and a user would install them.
#
#   tests/tst_debian.sh SOURCE_DIR WORK_DIR
#
# Copies the source tree (without build directories or .git) to WORK_DIR, builds the two binary packages
# with `dpkg-buildpackage -us -uc -b` (ccache as the compiler launcher when installed), runs
# lintian --pedantic on them (no tag at all may show, overrides aside), validates the AppStream metainfo
# and the .desktop file, then installs both with apt, runs them, enables the snapshot timer as a DBA
# would, removes and purges them and checks that nothing is left: no package state, no file, no
# dangling systemd symlink. Installing needs root (or password-less sudo) and neither package already
# installed; otherwise the test stops after lintian with exit 77 (ctest: skipped).
set -euo pipefail

src=$(cd "${1:?source dir}" && pwd)
work=${2:?work dir}
mkdir -p "$work"
work=$(cd "$work" && pwd)

fail() { echo "tst_debian: FAIL: $*" >&2; exit 1; }
step() { echo "tst_debian: $*"; }
now() { date +%s; }

for tool in dpkg-buildpackage dpkg-checkbuilddeps lintian appstreamcli desktop-file-validate; do
  command -v "$tool" >/dev/null || fail "$tool is not installed (packaging/setup installs it)"
done

version=$(sed -n '1s/^[^ ]* (\([^)]*\)).*/\1/p' "$src/debian/changelog")
cmake_version=$(sed -n 's/^project(bloomscope VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ "$version" = "$cmake_version" ] ||
  fail "debian/changelog says $version, CMakeLists.txt's project() $cmake_version: they must agree"
arch=$(dpkg --print-architecture)

# --- Build --------------------------------------------------------------------------------------
# A fixed path, so ccache (which hashes the directory of a -g build) hits on the next run.
tree="$work/bloomscope-$version"
rm -rf "$work"/bloomscope-* "$work"/*.deb "$work"/*.changes "$work"/*.buildinfo "$work"/*.ddeb
mkdir -p "$tree"
tar -C "$src" --exclude=./.git --exclude='./build*' --exclude='./obj-*' --exclude=./debian/.debhelper \
    --exclude='./debian/tmp' --exclude='./debian/bloomctl' --exclude='./debian/bloomscope' -cf - . |
  tar -C "$tree" -xf -

dpkg-checkbuilddeps "$tree/debian/control" || fail "build dependencies missing (packaging/setup installs them)"

extra=""
if command -v ccache >/dev/null; then
  extra="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
  ccache -z >/dev/null 2>&1 || true
fi
jobs=${BLOOMSCOPE_JOBS:-$(nproc 2>/dev/null || echo 2)}
step "dpkg-buildpackage -us -uc -b in $tree (parallel=$jobs${extra:+, ccache})"
t0=$(now)
if ! (cd "$tree" && DEB_BUILD_OPTIONS="nocheck parallel=$jobs" DEB_CONFIGURE_EXTRA_FLAGS="$extra" \
      dpkg-buildpackage -us -uc -b >"$work/build.log" 2>&1); then
  tail -n 60 "$work/build.log" >&2
  fail "dpkg-buildpackage failed (the whole log: $work/build.log)"
fi
t_build=$(( $(now) - t0 ))
[ -n "$extra" ] && ccache -s 2>/dev/null | grep -Ei 'hits|misses' | sed 's/^/tst_debian: ccache /' || true

changes="$work/bloomscope_${version}_${arch}.changes"
ctl_deb="$work/bloomctl_${version}_${arch}.deb"
gui_deb="$work/bloomscope_${version}_${arch}.deb"
for f in "$changes" "$ctl_deb" "$gui_deb"; do [ -f "$f" ] || fail "dpkg-buildpackage made no $f"; done
step "built in ${t_build}s: $(cd "$work" && ls -- *.deb | tr '\n' ' ')"

# The hardening flags reached the compiler, with no optimisation or flags of the project's own.
grep -q -- '-D_FORTIFY_SOURCE=2' "$work/build.log" || fail "the build did not use dpkg-buildflags' CPPFLAGS"
grep -q -- '-Wl,-z,now' "$work/build.log" || fail "the build did not link with -z now (hardening=+all)"

# --- lintian ------------------------------------------------------------------------------------
t0=$(now)
# (stderr aside: lintian says there that running as root "is not recommended")
lint=$(lintian --pedantic --display-info --fail-on error,warning,info,pedantic "$changes" 2>"$work/lintian.err") ||
  fail "lintian --pedantic is not clean:
$lint"
step "lintian --pedantic clean in $(( $(now) - t0 ))s${lint:+: $lint}"

# --- What each package holds --------------------------------------------------------------------
ctl_files=$(dpkg-deb -c "$ctl_deb" | awk '{print $6}')
gui_files=$(dpkg-deb -c "$gui_deb" | awk '{print $6}')
for want in ./usr/bin/bloomctl ./usr/share/man/man1/bloomctl.1.gz ./usr/share/bash-completion/completions/bloomctl \
            ./lib/systemd/system/bloomscope-record@.service ./lib/systemd/system/bloomscope-record@.timer \
            ./lib/systemd/system/bloomscope-metrics@.service ./lib/systemd/system/bloomscope-metrics@.timer \
            ./usr/share/doc/bloomctl/README.systemd ./usr/share/doc/bloomctl/examples/pg_service.conf \
            ./usr/share/doc/bloomctl/copyright ./usr/share/doc/bloomctl/changelog.gz \
            ./usr/share/doc/bloomctl/bloomctl.md.gz ./usr/share/doc/bloomctl/operations.md.gz; do
  grep -qxF -- "$want" <<<"$ctl_files" || fail "bloomctl lacks $want; it holds:
$ctl_files"
done
for want in ./usr/bin/bloomscope ./usr/share/man/man1/bloomscope.1.gz \
            ./usr/share/applications/org.bloomscope.Bloomscope.desktop \
            ./usr/share/metainfo/org.bloomscope.Bloomscope.metainfo.xml \
            ./usr/share/icons/hicolor/scalable/apps/org.bloomscope.Bloomscope.svg \
            ./usr/share/icons/hicolor/48x48/apps/org.bloomscope.Bloomscope.png \
            ./usr/share/doc/bloomscope/copyright ./usr/share/doc/bloomscope/window.md.gz; do
  grep -qxF -- "$want" <<<"$gui_files" || fail "bloomscope lacks $want; it holds:
$gui_files"
done
ctl_depends=$(dpkg-deb -f "$ctl_deb" Depends)
gui_depends=$(dpkg-deb -f "$gui_deb" Depends)
# A monitoring host gets no GUI library; no package pulls a server in.
grep -Eq 'libqt6(widgets|charts|gui)|qtkeychain|libqt6keychain' <<<"$ctl_depends" &&
  fail "bloomctl depends on a GUI library: $ctl_depends"
for deb in "$ctl_deb" "$gui_deb"; do
  for field in Depends Recommends Pre-Depends; do
    dpkg-deb -f "$deb" $field | grep -Eq '(^|[ ,])(postgresql|postgresql-[0-9]+|redis-server|pgbouncer)([ ,(]|$)' &&
      fail "$(basename "$deb") has a server in $field: $(dpkg-deb -f "$deb" $field)"
  done
done
step "bloomctl Depends: $ctl_depends"
step "bloomscope Depends: $gui_depends"

# Maintainer scripts for the template units (dh_installsystemd skips templates: debian/bloomctl.*).
scripts="$work/bloomctl-control"
rm -rf "$scripts"
dpkg-deb -e "$ctl_deb" "$scripts"
for s in postinst prerm postrm; do
  [ -x "$scripts/$s" ] || fail "bloomctl has no $s"
done
grep -qF 'bloomscope-*@*.timer' "$scripts/postrm" || fail "bloomctl's postrm does not disable the timer's instances"

# No RUNPATH, and reproducible metadata: no build path in the binaries' strings or the man pages.
unpacked="$work/unpacked"
rm -rf "$unpacked"
dpkg-deb -x "$ctl_deb" "$unpacked"
dpkg-deb -x "$gui_deb" "$unpacked"
for exe in bloomctl bloomscope; do
  if readelf -d "$unpacked/usr/bin/$exe" | grep -Eq 'RPATH|RUNPATH'; then
    fail "/usr/bin/$exe has an RPATH/RUNPATH: $(readelf -d "$unpacked/usr/bin/$exe" | grep -E 'RPATH|RUNPATH')"
  fi
  if grep -aqF -- "$tree" "$unpacked/usr/bin/$exe"; then fail "/usr/bin/$exe embeds the build path $tree"; fi
  if zcat "$unpacked/usr/share/man/man1/$exe.1.gz" | grep -qF -- "$tree"; then fail "$exe.1 embeds the build path"; fi
  for section in 'EXIT STATUS' ENVIRONMENT FILES 'SEE ALSO'; do
    zcat "$unpacked/usr/share/man/man1/$exe.1.gz" | grep -Eq "^\.SH \"?$section\"?$" || fail "$exe.1 has no $section section"
  done
done

# --- AppStream and the .desktop file ------------------------------------------------------------
metainfo="$unpacked/usr/share/metainfo/org.bloomscope.Bloomscope.metainfo.xml"
appstreamcli validate --no-net --explain "$metainfo" || fail "appstreamcli validate --no-net"
# With the network: the metainfo has no URL to fetch, so this must pass offline too (no fake host).
appstreamcli validate --explain "$metainfo" || fail "appstreamcli validate (network checks on)"
grep -q 'example\.\(org\|com\)' "$metainfo" && fail "the metainfo names an example.org URL"
dfv=$(desktop-file-validate "$unpacked/usr/share/applications/org.bloomscope.Bloomscope.desktop" 2>&1) ||
  fail "desktop-file-validate: $dfv"
[ -z "$dfv" ] || fail "desktop-file-validate: $dfv"

# The timer and its service as systemd reads them (the unpacked bloomctl stands in for /usr/bin's).
if command -v systemd-analyze >/dev/null; then
  units="$work/units"
  rm -rf "$units" && mkdir -p "$units"
  for unit in record metrics; do
    sed "s#/usr/bin/bloomctl#$unpacked/usr/bin/bloomctl#" "$unpacked/lib/systemd/system/bloomscope-$unit@.service" \
      >"$units/bloomscope-$unit@check.service"
    cp "$unpacked/lib/systemd/system/bloomscope-$unit@.timer" "$units/bloomscope-$unit@check.timer"
    sd=$(cd "$units" && systemd-analyze verify --man=no "bloomscope-$unit@check.service" "bloomscope-$unit@check.timer" 2>&1) ||
      fail "systemd-analyze verify: $sd"
    [ -z "$sd" ] || fail "systemd-analyze verify: $sd"
  done
fi

# --- Install, run, remove, purge ----------------------------------------------------------------
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then sudo="sudo -n"; else
    step "SKIP the install half: not root and no password-less sudo"
    exit 77
  fi
fi
for p in bloomctl bloomscope; do
  # Installed in any state but "config-files" (c, what a failed earlier run may leave) or "not-installed" (n).
  if dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^.[^nc]'; then
    step "SKIP the install half: $p is already on this machine ($(dpkg-query -W -f='${db:Status-Abbrev} ${Version}' "$p")), not ours to remove"
    exit 77
  fi
done

apt_opts=(-y -qq --no-install-recommends -o DPkg::Lock::Timeout=300)
export DEBIAN_FRONTEND=noninteractive
timer=bloomscope-record@tst-debian.timer
wants=/etc/systemd/system/timers.target.wants
cleanup() {
  $sudo rm -f "$wants/$timer"
  $sudo dpkg --purge bloomscope bloomctl >/dev/null 2>&1 || true
}
trap cleanup EXIT

t0=$(now)
$sudo apt-get install "${apt_opts[@]}" "$ctl_deb" "$gui_deb" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "apt-get install of the two packages failed"; }
step "installed in $(( $(now) - t0 ))s"

out=$(bloomctl --version 2>/dev/null) || fail "bloomctl --version exited $?"
[ "$out" = "bloomctl $version" ] || fail "bloomctl --version said '$out', want 'bloomctl $version'"
out=$(bloomctl explain ada) || fail "bloomctl explain ada exited $?"
grep -q 'chunk 71962' <<<"$out" || fail "bloomctl explain ada: $out"
out=$(QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" bloomscope --help 2>&1) || fail "bloomscope --help exited $?: $out"
grep -q -- '--demo' <<<"$out" || fail "bloomscope --help: $out"
out=$(QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR="$work" bloomscope --version 2>&1) || fail "bloomscope --version: $out"
grep -q "$version" <<<"$out" || fail "bloomscope --version said '$out'"
man -w bloomctl >/dev/null 2>&1 || [ -f /usr/share/man/man1/bloomctl.1.gz ] || fail "no bloomctl(1) after install"
# bash-completion loads a command's completion on first use (its loader returns 124 once it has).
bash -c 'source /usr/share/bash-completion/bash_completion; _completion_loader bloomctl; complete -p bloomctl' 2>&1 |
  grep -q _bloomctl || fail "the installed bash completion does not load"
step "bloomctl --version, explain, bloomscope --help/--version (offscreen) and the completion work"

# A DBA enables the snapshot timer for a service, as README.systemd says. With systemd running it is
# enabled (not started: there is no such database); without, systemctl enable still writes the symlink
# (it only edits /etc), else the symlink is made as systemctl would.
how="systemctl enable, systemd running"
if [ -d /run/systemd/system ]; then
  $sudo systemctl enable "$timer" >/dev/null 2>&1 || fail "systemctl enable $timer"
elif $sudo systemctl enable "$timer" >/dev/null 2>&1; then
  how="systemctl enable offline, no systemd running"
else
  how="no systemctl: the symlink systemctl would make"
  $sudo mkdir -p "$wants"
  $sudo ln -sf /lib/systemd/system/bloomscope-record@.timer "$wants/$timer"
fi
[ -L "$wants/$timer" ] || fail "enabling $timer made no $wants/$timer"
step "enabled $timer ($how)"

dangling() { $sudo find /etc/systemd /lib/systemd /usr/lib/systemd -xtype l 2>/dev/null | grep bloomscope || true; }

$sudo apt-get remove "${apt_opts[@]}" bloomscope bloomctl >"$work/remove.log" 2>&1 ||
  { cat "$work/remove.log" >&2; fail "apt-get remove failed"; }
[ -z "$(dangling)" ] || fail "after remove, dangling symlinks: $(dangling)"
[ ! -e /usr/bin/bloomctl ] && [ ! -e /usr/bin/bloomscope ] || fail "the programs are still there after remove"

# dpkg, not apt: a removed package apt has no source for ("rc", config files and postrm only) is
# unknown to apt; bloomscope, with no maintainer script, is already gone and dpkg only notes that.
$sudo dpkg --purge bloomscope bloomctl >"$work/purge.log" 2>&1 ||
  { cat "$work/purge.log" >&2; fail "dpkg --purge failed"; }
trap - EXIT
for p in bloomctl bloomscope; do
  if dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null | grep -q '^.[^n]'; then
    fail "$p is still known to dpkg after purge: $(dpkg-query -W -f='${db:Status-Abbrev}' "$p")"
  fi
done
[ -z "$(dangling)" ] || fail "after purge, dangling symlinks: $(dangling)"
left=$($sudo find /etc/systemd /lib/systemd /usr/lib/systemd /usr/share/doc/bloomctl /usr/share/doc/bloomscope \
        /usr/share/applications /usr/share/metainfo /usr/share/bash-completion/completions /usr/share/icons/hicolor \
        -name '*bloom*' 2>/dev/null || true)
[ -z "$left" ] || fail "left after purge: $left"
step "removed and purged: no dangling symlink, no file left"
step "PASS (package build ${t_build}s)"
