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

# Chromium (headless) for the auditors' site tests (tests/slow/test_site_browser.py): they load
# every page of a built site with --dump-dom and skip, saying so, when it is absent locally.
# Also for the BlogNomic real-theme page test (tests/e2e/blog/test_blognomic_real_theme_hand.py, via
# tests/kits/servers/chromium.py): the dealer comments' rendered text, as a reader sees it.
if ! command -v chromium >/dev/null 2>&1; then
    apt_install chromium fonts-dejavu-core
fi
# Start it once before the tests, so the font cache and the first-run files exist: a cold first
# start under two busy test workers once took over 30 s on CI (tests/kits/servers/cdp.py also waits longer
# for a first answer and retries once). Best effort: a failure here is not the tests' failure.
if command -v chromium >/dev/null 2>&1; then
    command -v fc-cache >/dev/null 2>&1 && fc-cache >/dev/null 2>&1 || true
    _warm=$(mktemp -d)
    timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --disable-dev-shm-usage \
        --user-data-dir="$_warm" --dump-dom about:blank >/dev/null 2>&1 || true
    rm -rf "$_warm"
fi

# PostgreSQL for the `postgres` tests (pytest -m postgres: ledger, poll, audit and crash suites
# on PostgreSQL): the server binaries only. No cluster is created and no service is left
# running: the tests start their own throwaway server on 127.0.0.1 as the unprivileged
# `postgres` account (tests/kits/servers/pg.py), and skip with the reason when the binaries are absent.
have_pg() {
    command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1 && return 0
    ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1
}
if ! have_pg || ! id postgres >/dev/null 2>&1; then
    apt_install postgresql
    # Debian's package may start its own cluster; the tests do not use it, so stop it.
    if command -v pg_ctlcluster >/dev/null 2>&1; then
        for conf in /etc/postgresql/*/*; do
            [ -d "$conf" ] || continue
            $SUDO pg_ctlcluster "$(basename "$(dirname "$conf")")" "$(basename "$conf")" stop \
                >/dev/null 2>&1 || true
        done
    fi
fi

# ngIRCd for the IRC adapter's tests (tests/integration/adapters/test_forum_irc.py,
# tests/slow/test_irc_hand.py): the server binary only. The tests start their own ngircd in
# the foreground (-n) on a free loopback port with a generated config in a temp dir
# (tests/kits/servers/ircd.py), and skip with the reason when it is absent. Debian's package may start its own daemon on port 6667: stop it.
if ! command -v ngircd >/dev/null 2>&1 && [ ! -x /usr/sbin/ngircd ]; then
    apt_install ngircd
    if command -v invoke-rc.d >/dev/null 2>&1; then
        $SUDO invoke-rc.d ngircd stop >/dev/null 2>&1 || true
    fi
fi

# Dovecot (IMAP) for the e-mail adapter's tests (tests/integration/adapters/test_forum_email.py,
# tests/kits/servers/mail.py): the binaries only. No service is configured or left running: the tests start their own
# dovecot in the foreground (-F) with a generated config in a temporary directory (passwd-file
# auth, maildirs, 127.0.0.1 only) and skip, saying so, when it is absent locally. The SMTP side
# is aiosmtpd, a PyPI test dependency.
if ! command -v dovecot >/dev/null 2>&1 && [ ! -x /usr/sbin/dovecot ]; then
    apt_install dovecot-imapd openssl
    # Debian's package may start its own daemon; the tests do not use it, so stop it.
    if command -v doveadm >/dev/null 2>&1; then
        $SUDO doveadm stop >/dev/null 2>&1 || true
    fi
fi
