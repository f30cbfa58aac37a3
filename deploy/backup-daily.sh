#!/bin/sh
# compose.yaml's backup service: `node server.js backup` every day at BACKUP_AT (UTC, HH:MM; 03:15
# unless set) into BACKUP_DIR (/backups, a volume), keeping the newest BACKUP_KEEP files (14), each
# handed to BACKUP_COPY_COMMAND when that is set (README "Backups and restore", ADR 0061).
# Compose has no scheduler, so this waits in a loop; Kubernetes runs the same command from a CronJob.
# A failed backup is logged and the loop goes on: tomorrow's may work, and the service stays up for
# `docker compose exec backup node server.js backup|restore`.
set -eu

at="${BACKUP_AT:-03:15}"
dir="${BACKUP_DIR:-/backups}"
keep="${BACKUP_KEEP:-14}"
case "$at" in
  [01][0-9]:[0-5][0-9] | 2[0-3]:[0-5][0-9]) ;;
  *)
    echo "backup: BACKUP_AT must be a UTC time of day as HH:MM (got \"$at\")" >&2
    exit 2
    ;;
esac

echo "backup: every day at $at UTC into $dir, keeping the newest $keep"
while :; do
  now=$(date -u +%s)
  next=$(date -u -d "$at" +%s)
  if [ "$next" -le "$now" ]; then next=$((next + 86400)); fi
  sleep $((next - now))
  node server.js backup --dir "$dir" --keep "$keep" || echo "backup: failed (exit $?); trying again tomorrow at $at UTC" >&2
done
