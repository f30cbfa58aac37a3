// `npm run admin -- grant|revoke|list`: see admin-cli.ts and README "Back office".
import { runAdminCommand } from "./admin-cli";

process.exit(await runAdminCommand(process.argv.slice(2)));
