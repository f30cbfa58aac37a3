// `npm run restore -- FILE [--force]`: puts a backup made by `npm run backup` back, into an empty
// database unless --force. Refuses, changing nothing, a damaged file, a backup from a newer
// release or the other engine, and (embedded database) a data folder a server holds.
import { restoreCommand } from "./commands";

process.exit(await restoreCommand(process.argv.slice(2), "npm run restore -- FILE [--force]"));
