#!/usr/bin/env bash
# Install the real mail servers the transport tests run against (Postfix for SMTP,
# Dovecot for IMAP and SASL) plus openssl for the throwaway certificate.
# Idempotent: does nothing when everything is already there.  The packages' own
# system services are not configured or left running: the test fixtures write
# throwaway configs and start private instances on loopback ports.
set -euo pipefail

need=()
command -v postfix >/dev/null 2>&1 || need+=(postfix)
[ -x /usr/sbin/dovecot ] || need+=(dovecot-core)
[ -e /usr/lib/dovecot/imap ] || need+=(dovecot-imapd)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ "${#need[@]}" -eq 0 ]; then
    echo "install-mail: postfix, dovecot and openssl already installed"
    exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
echo "postfix postfix/main_mailer_type select No configuration" | $SUDO debconf-set-selections
echo "postfix postfix/mailname string localhost" | $SUDO debconf-set-selections
$SUDO apt-get -o DPkg::Lock::Timeout=600 update -qq
# policy-rc.d 101: do not start the packages' system services while installing.
cleanup_policy=0
if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    cleanup_policy=1
fi
$SUDO apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "${need[@]}" postfix dovecot-core dovecot-imapd openssl >/dev/null
if [ "$cleanup_policy" = 1 ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi
echo "install-mail: installed ${need[*]}"
