import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runCopyCommand } from "./copy-command";
import { pruneBackups } from "./retention";

/** `--keep N` and BACKUP_COPY_COMMAND, the two halves of a schedule besides the backup itself. */
let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sg-retention-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const touch = (...names: string[]) => names.forEach((name) => fs.writeFileSync(path.join(dir, name), name));

it("keeps the newest N of the command's own files of the engine, by the time in their names, and touches nothing else", () => {
  touch(
    "sponsorgrid-postgres-20261101T031500Z.backup",
    "sponsorgrid-postgres-20261103T031500Z.backup",
    "sponsorgrid-postgres-20261102T031500Z.backup",
    "sponsorgrid-pglite-20261104T031500Z.backup",
    "before-the-upgrade.backup",
    "sponsorgrid-postgres-20261101T031500Z.backup.partial",
  );
  expect(pruneBackups(dir, 1, "postgres")).toEqual(["sponsorgrid-postgres-20261101T031500Z.backup", "sponsorgrid-postgres-20261102T031500Z.backup"]);
  expect(fs.readdirSync(dir).sort()).toEqual([
    "before-the-upgrade.backup",
    "sponsorgrid-pglite-20261104T031500Z.backup",
    "sponsorgrid-postgres-20261101T031500Z.backup.partial",
    "sponsorgrid-postgres-20261103T031500Z.backup",
  ]);
  expect(pruneBackups(dir, 1, "postgres")).toEqual([]);
  expect(pruneBackups(dir, 1, "pglite")).toEqual([]);
});

it("runs the copy command with the file as $1 and in BACKUP_FILE, and hands back its exit code", async () => {
  const file = path.join(dir, "it's a backup.backup");
  touch(path.basename(file));
  fs.mkdirSync(path.join(dir, "offsite"));
  expect(await runCopyCommand(`cp "$1" ${JSON.stringify(path.join(dir, "offsite"))}/ && test "$BACKUP_FILE" = "$1"`, file)).toBe(0);
  expect(fs.readdirSync(path.join(dir, "offsite"))).toEqual([path.basename(file)]);
  expect(await runCopyCommand("exit 3", file)).toBe(3);
});
