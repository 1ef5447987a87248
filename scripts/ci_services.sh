#!/usr/bin/env bash
# System services and tools the test suite needs, installed from Debian's archive.
# Called by .ci/run before the README's test command. Additive and idempotent: each block
# installs one thing only when it is missing, so running it twice (or on a machine that
# already has it) changes nothing. Add a block per service; do not remove others' blocks.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
_apt_updated=""
apt_install() {
    if [ -z "$_apt_updated" ]; then
        $SUDO apt-get update -qq
        _apt_updated=1
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "$@"
}

# Chromium (headless) for the auditors' site tests (tests/test_site_browser.py): they load
# every page of a built site with --dump-dom and skip, saying so, when it is absent locally.
if ! command -v chromium >/dev/null 2>&1; then
    apt_install chromium fonts-dejavu-core
fi
