#!/bin/sh
# Add the apt entries the bench needs (deb-src for bookworm, bookworm-backports
# binaries for the 6.12 kernel, trixie deb-src for rdma-core), derived from the
# machine's own Debian entry so that no registry host is written into the repo.
. "$(dirname "$0")/../lib/common.sh"
src=/etc/apt/sources.list.d/debian.sources
out=/etc/apt/sources.list.d/wren-bench.sources
[ -f "$out" ] && exit 0
uri=$(awk '/^URIs:/ && /debian\/?$/ && !/security/ {print $2; exit}' "$src" 2>/dev/null || true)
if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
	uri=$(awk '$1=="deb" && $3 ~ /^bookworm$/ {print $2; exit}' /etc/apt/sources.list)
fi
[ -n "$uri" ] || { echo "apt-sources: no Debian mirror found in $src" >&2; exit 1; }
key=/usr/share/keyrings/debian-archive-keyring.gpg
cat >"$out" <<SRC
Types: deb-src
URIs: $uri
Suites: bookworm bookworm-updates
Components: main
Signed-By: $key

Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: $key

Types: deb-src
URIs: $uri
Suites: trixie
Components: main
Signed-By: $key
SRC
cat >/etc/apt/preferences.d/wren-bench <<PREF
Package: *
Pin: release n=trixie
Pin-Priority: 1
PREF
apt-get update -qq
