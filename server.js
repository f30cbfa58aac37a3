// Starts the built app: `npm start` (build + serve) or `npm run serve`.
import fs from "node:fs";

// The Node this needs (package.json "engines", ">=24"): an older one stops here with a sentence
// instead of failing somewhere inside a dependency. README "Run it".
const { engines } = JSON.parse(fs.readFileSync(new URL("./package.json", import.meta.url), "utf8"));
const neededMajor = Number(/\d+/.exec(engines.node)[0]);
if (Number(process.versions.node.split(".")[0]) < neededMajor) {
  console.error(`Sponsorgrid needs Node ${neededMajor} or newer; this is Node ${process.versions.node}. README.md, "Run it", says how to get it.`);
  process.exit(1);
}

// The image sets DOTENV=off: its settings come from the environment only, never from a file in the working folder.
if (process.env.DOTENV !== "off" && fs.existsSync(".env")) process.loadEnvFile(".env");

if (!fs.existsSync(new URL("./build/server/index.js", import.meta.url))) {
  console.error("No build found in ./build. Run `npm run build` first (or `npm start`, which builds).");
  process.exit(1);
}

const { start, ConfigError, DataDirLockedError, PortUnavailableError, backupCommand, restoreCommand, runReleaseAdminCommand, migrateCommand } = await import(
  "./build/server/index.js"
);

// `node server.js backup [--out FILE]` and `node server.js restore FILE [--force]`: the backup
// commands where there is no npm or tsx (the image, a release folder). README "Backups and restore".
const [command, ...args] = process.argv.slice(2);
if (command === "backup") process.exit(await backupCommand(args));
if (command === "restore") process.exit(await restoreCommand(args));
// `node server.js admin grant EMAIL|revoke EMAIL|list`: who is staff (README "Back office").
if (command === "admin") process.exit(await runReleaseAdminCommand(args));
// `node server.js migrate`: the migrations alone, before new processes start (README "Deploy").
if (command === "migrate") process.exit(await migrateCommand(args));
if (command !== undefined) {
  console.error(`Unknown command "${command}". Run \`node server.js\` to serve, or \`node server.js backup|restore|admin|migrate\`.`);
  process.exit(2);
}

try {
  await start();
} catch (error) {
  // Problems an operator fixes (a setting, a data folder, a port): one line, no stack trace.
  if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof PortUnavailableError) {
    console.error(`Cannot start: ${error.message}`);
  } else {
    console.error("Cannot start:", error);
  }
  process.exit(1);
}
