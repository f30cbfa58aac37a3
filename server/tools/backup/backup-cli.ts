// `npm run backup -- [--out FILE | --dir DIR [--keep N]]`: one file holding the whole database (and the generated session
// secret), written while PostgreSQL runs, or — on the embedded database — refused while a server
// holds the data folder. README "Backups and restore".
import { backupCommand } from "./commands";

process.exit(await backupCommand(process.argv.slice(2)));
