#!/bin/sh
# Puts a headless Chromium on the machine for the browser tests (tests/web), from the system's
# own packages: Debian's chromium-headless-shell. Playwright's download of its own browser is not
# used. Where no browser can be installed (no apt-get, not root) the browser tests are skipped,
# each saying why; nothing else depends on it.
set -u
for name in chromium-headless-shell chromium; do
    if command -v "$name" >/dev/null 2>&1; then
        echo "browser for the tests: $(command -v "$name")"
        exit 0
    fi
done
if ! command -v apt-get >/dev/null 2>&1; then
    echo "no apt-get here: the browser tests will be skipped (install Chromium to run them)"
    exit 0
fi
if [ "$(id -u)" = 0 ]; then
    sudo=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    sudo="sudo -n"
else
    echo "not root: the browser tests will be skipped (apt-get install chromium-headless-shell)"
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get install -y -q chromium-headless-shell >/tmp/skirmish-apt.log 2>&1; then
    $sudo apt-get update -q >>/tmp/skirmish-apt.log 2>&1
    $sudo apt-get install -y -q chromium-headless-shell >>/tmp/skirmish-apt.log 2>&1 \
        || echo "chromium-headless-shell did not install (see /tmp/skirmish-apt.log):" \
                "the browser tests will be skipped"
fi
command -v chromium-headless-shell || true
exit 0
